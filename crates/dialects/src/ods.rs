//! What ODS declares about an op's structure, written with the op's
//! [`OpDef`](crate::OpDef): counts, required attributes, the regions that
//! hold one block, the ops it may sit in, its implicit terminator, which
//! operands a branch forwards. The verifier reads these from the
//! definition (looked up once per op name), so an op is described in one
//! place and verification does no string matching per op.

use mlir_async_ir::{Context, Op};

/// How many of something an op takes.
#[derive(Clone, Copy, Debug)]
pub enum N {
    Exactly(usize),
    AtLeast(usize),
    /// An optional operand or result: no ODS trait, a segment check.
    AtMost(usize),
}

impl N {
    pub fn ok(self, n: usize) -> bool {
        match self {
            N::Exactly(k) => n == k,
            N::AtLeast(k) => n >= k,
            N::AtMost(k) => n <= k,
        }
    }
    pub fn describe(self, what: &str) -> String {
        let s = |k: usize| if k == 1 { "" } else { "s" };
        match self {
            N::Exactly(k) => format!("requires {k} {what}{}", s(k)),
            N::AtLeast(k) => format!("requires at least {k} {what}{}", s(k)),
            N::AtMost(k) => format!("requires at most {k} {what}{}", s(k)),
        }
    }
}

/// What kind of attribute a required attribute must be.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum AttrClass {
    Str,
    Int,
    FuncType,
    SymRef,
    /// A symbol reference with no nested part (`@f`, not `@m::@f`).
    FlatSymRef,
    /// ODS's `I64EnumAttr`: an `i64` integer naming one of the cases
    /// (its keywords, by value). Printers index the keyword table with it,
    /// so a value past the table is invalid IR, not a `?` to print.
    I64Enum(&'static [&'static str]),
}

/// ODS's message for an `I64EnumAttr` whose value is not one of the
/// `n` cases (every generation words it alike).
pub fn enum_constraint_message(name: &str, n: usize) -> String {
    let cases: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!(
        "attribute '{name}' failed to satisfy constraint: allowed 64-bit signless integer cases: {}",
        cases.join(", ")
    )
}

/// A type an operand must have.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum OperandKind {
    AsyncValue,
    MemRef,
    Function,
}

/// The structure an op's custom form (and its verifier) relies on: what
/// ODS would check before any hand-written verifier runs. Ops spelled in
/// the generic form can have any structure; without these checks their
/// printers index past the end of operand or region lists.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub operands: N,
    pub results: N,
    pub regions: usize,
    pub successors: usize,
    pub attrs: &'static [(&'static str, AttrClass)],
    /// Regions that must hold a block, each with at least this many
    /// entry arguments.
    pub entry: &'static [(usize, usize)],
    /// Operands whose type must be `!async.value<T>` or a memref/function.
    pub operand_kinds: &'static [(usize, OperandKind)],
}

impl Shape {
    pub const fn new(operands: N, results: N) -> Shape {
        Shape {
            operands,
            results,
            regions: 0,
            successors: 0,
            attrs: &[],
            entry: &[],
            operand_kinds: &[],
        }
    }
    pub const fn regions(mut self, n: usize, entry: &'static [(usize, usize)]) -> Shape {
        self.regions = n;
        self.entry = entry;
        self
    }
    pub const fn attrs(mut self, attrs: &'static [(&'static str, AttrClass)]) -> Shape {
        self.attrs = attrs;
        self
    }
    pub const fn successors(mut self, n: usize) -> Shape {
        self.successors = n;
        self
    }
    pub const fn kinds(mut self, k: &'static [(usize, OperandKind)]) -> Shape {
        self.operand_kinds = k;
        self
    }
}

pub const BINARY: Shape = Shape::new(N::Exactly(2), N::Exactly(1));
pub const UNARY: Shape = Shape::new(N::Exactly(1), N::Exactly(1));
pub const SINK: Shape = Shape::new(N::Exactly(1), N::Exactly(0));
pub const NULLARY: Shape = Shape::new(N::Exactly(0), N::Exactly(1));

/// ODS's constraints on the blocks of one region.
#[derive(Clone, Copy, Debug)]
pub struct RegionSpec {
    pub index: usize,
    /// The `SingleBlock` trait: at most one block, not empty unless the op
    /// needs no terminator.
    pub single_block: bool,
    /// `SizedRegion<1>`, with the region's ODS name: exactly one block.
    pub sized: Option<&'static str>,
}

impl RegionSpec {
    /// `SingleBlock` and `SizedRegion<1>` named `name`.
    pub const fn single(index: usize, name: &'static str) -> Self {
        RegionSpec {
            index,
            single_block: true,
            sized: Some(name),
        }
    }
    /// `SingleBlock` with any number of blocks allowed by ODS otherwise.
    pub const fn single_unsized(index: usize) -> Self {
        RegionSpec {
            index,
            single_block: true,
            sized: None,
        }
    }
    /// `SizedRegion<1>` alone.
    pub const fn sized(index: usize, name: &'static str) -> Self {
        RegionSpec {
            index,
            single_block: false,
            sized: Some(name),
        }
    }
}

/// The operands an op forwards to its successor `i`, as an index range
/// into its operand list (MLIR's `BranchOpInterface`).
pub type SuccessorOperandsFn = fn(&Context, Op, usize) -> std::ops::Range<usize>;

/// Everything of ODS an [`OpDef`](crate::OpDef) declares beyond its
/// hooks; `None` / empty where the op declares nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Structure {
    pub shape: Option<Shape>,
    /// `HasParent` / `ParentOneOf`: the ops it may sit directly in.
    pub parents: &'static [&'static str],
    /// 13 and 14 checked `ParentOneOf` after `IsTerminator` (its place in
    /// the op's trait list), 15 before.
    pub parent_checked_last_before_15: bool,
    /// `SingleBlockImplicitTerminator<T>`.
    pub implicit_terminator: Option<&'static str>,
    pub regions: &'static [RegionSpec],
    pub successor_operands: Option<SuccessorOperandsFn>,
    /// `NoRegionArguments`: no region's entry block takes arguments.
    pub no_region_arguments: bool,
}
