//! The dialects mlir-async knows: builtin, func (with the legacy `std`
//! spellings), arith, cf, scf, memref, linalg, vector and async. Each op is
//! an [`OpDef`]: traits for the IR core, custom syntax for the syntax layer,
//! a verifier with MLIR's messages, its folder, and result name hints.

pub mod arith;
pub mod asyncd;
pub mod build;
pub mod builtin;
pub mod canonicalize;
pub mod cf;
pub mod fold;
pub mod format;
pub mod interfaces;
pub mod llvm;
pub mod llvm_build;
pub mod memref;
pub mod ods;
pub mod scf;
pub mod std;
pub mod type_conversion;
pub mod util;
pub mod verify;

use mlir_async_ir::fxhash::FxHashMap;
use mlir_async_ir::{
    AttrKind, Context, DenseElem, Op, OpTraits, OperationState, Signedness, Type, TypeKind,
};
use mlir_async_syntax::{DialectHooks, PResult, Parser, Printer};

pub type ParseFn = mlir_async_syntax::CustomParseFn;
pub type PrintFn = fn(&mut Printer, Op);
/// An op verifier: its message gets MLIR's `'name' op ` prefix (as
/// `emitOpError`), unless it starts with [`PLAIN_ERROR`] (as `emitError`).
pub type VerifyFn = fn(&Context, Op) -> Result<(), String>;
/// A verifier whose rule or wording changed between generations (13's
/// hand-written message became an ODS constraint in 14, say).
pub type EditionVerifyFn = fn(&Context, Op, mlir_async_syntax::Edition) -> Result<(), String>;

/// An op's own verifier, run after the checks ODS derives from its
/// declaration.
#[derive(Clone, Copy)]
pub enum VerifyHook {
    Plain(VerifyFn),
    InEdition(EditionVerifyFn),
}

impl VerifyHook {
    pub fn run(
        self,
        ctx: &Context,
        op: Op,
        edition: mlir_async_syntax::Edition,
    ) -> Result<(), String> {
        match self {
            VerifyHook::Plain(f) => f(ctx, op),
            VerifyHook::InEdition(f) => f(ctx, op, edition),
        }
    }
}

/// Marks a verifier message that mlir-opt prints without the op prefix.
pub const PLAIN_ERROR: &str = "\u{1}";

/// Separates a verifier message from a note attached at another op (see
/// [`with_note_at`]).
const NOTE_AT: char = '\u{2}';

/// A verifier message with a note at `at`'s location ("when returning
/// from function").
pub fn with_note_at(message: &str, at: Op, note: &str) -> String {
    format!("{message}{NOTE_AT}{}{NOTE_AT}{note}", at.index())
}

/// Splits what [`with_note_at`] joined: the message, and the note's op
/// and text if any.
pub(crate) fn split_note(message: &str) -> (&str, Option<(Op, &str)>) {
    let mut parts = message.splitn(3, NOTE_AT);
    let head = parts.next().unwrap_or("");
    match (
        parts.next().and_then(|i| i.parse::<usize>().ok()),
        parts.next(),
    ) {
        (Some(i), Some(note)) => (head, Some((Op::from_index(i), note))),
        _ => (message, None),
    }
}
pub type NamesFn = fn(&Context, Op, mlir_async_syntax::Edition, &mut dyn FnMut(usize, &str));

/// An op's folder (MLIR's `Op::fold`): what replaces the op, or a change
/// made in place, in the generation given (a folder's rules changed from
/// release to release). It reads the constants of the operands from the
/// IR itself.
pub type FoldFn =
    fn(&mut Context, Op, mlir_async_syntax::Edition) -> mlir_async_rewrite::fold::Folded;

/// An op's folder with what the drivers need to know of it: the driver
/// asks the op's definition, by the index of its name's symbol, instead
/// of asking every dialect whether it knows the name.
#[derive(Clone, Copy)]
pub struct FoldHook {
    pub fold: FoldFn,
    /// The first generation whose op has the folder (`scf.if` got one in
    /// LLVM 14): an older one has no folder to ask, as upstream's.
    pub since: mlir_async_syntax::Edition,
    /// Whether the folder reads nothing but the op and the ops defining
    /// its operands (`OpInterfaces::fold_is_local`), so that a fold that
    /// failed need not be tried again until one of them changes.
    pub local: bool,
}

impl FoldHook {
    /// A folder in every generation that reads only the op and its
    /// operands' defining ops.
    pub const fn new(fold: FoldFn) -> Self {
        FoldHook {
            fold,
            since: mlir_async_syntax::Edition::V13,
            local: true,
        }
    }
    /// The folder came with the release of `edition`.
    pub const fn since(mut self, edition: mlir_async_syntax::Edition) -> Self {
        self.since = edition;
        self
    }
    /// The folder reads more than the op and its operands' defining ops
    /// (a chain of ops, its regions).
    pub const fn not_local(mut self) -> Self {
        self.local = false;
        self
    }
}

/// What a driver folding an op asks of its definition, in a table by the
/// index of the op name's symbol ([`Registry::folding`]).
#[derive(Clone, Copy, Default)]
pub struct Folding {
    pub folder: Option<FoldHook>,
    /// The first generation whose op has MLIR's `Commutative` trait (13's
    /// `std` dialect gave it to fewer ops, 15 to `arith`'s integer max
    /// and min).
    pub commutative_since: Option<mlir_async_syntax::Edition>,
}

impl Folding {
    /// The op's folder in `edition`, if it has one there.
    #[inline]
    pub fn folder_in(&self, edition: mlir_async_syntax::Edition) -> Option<FoldHook> {
        self.folder.filter(|f| edition >= f.since)
    }
    /// Whether the op is `Commutative` in `edition`.
    #[inline]
    pub fn commutative_in(&self, edition: mlir_async_syntax::Edition) -> bool {
        self.commutative_since.is_some_and(|e| edition >= e)
    }
}

/// Everything mlir-async knows about one op.
#[derive(Clone, Copy)]
pub struct OpDef {
    pub name: &'static str,
    pub traits: OpTraits,
    pub parse: Option<ParseFn>,
    pub print: Option<PrintFn>,
    pub verify: Option<VerifyHook>,
    pub names: Option<NamesFn>,
    /// What ODS checks before the verifier runs, declared with the op.
    pub invariants: Option<Invariants>,
    /// The attribute dictionary of the generic form, where generations
    /// spell the attributes differently from how they are stored.
    pub generic_attrs: Option<PrintFn>,
    /// Which ops of the name the custom form spells, where not all
    /// (see `DialectHooks::custom_form_fits`).
    pub custom_fits: Option<mlir_async_syntax::CustomFitsFn>,
    /// Brings attributes read in the generic form (of any generation) to
    /// the form they are stored in. An op declared with [`op!`] that
    /// declares `canonicalize:` has it here too: it then runs after the
    /// custom form of every generation as well.
    pub canonicalize_generic: Option<CanonicalizeFn>,
    /// What ODS declares of its structure (see [`ods`]).
    pub structure: ods::Structure,
    /// The declaration of an op defined with [`op!`] (its operands,
    /// results and assembly format).
    pub declared: Option<fn() -> &'static format::Decl>,
    /// Its folder and its commutativity by generation (see [`Folding`]).
    pub folding: Folding,
}

/// See [`OpDef::canonicalize_generic`].
pub type CanonicalizeFn =
    fn(&mut Parser, &mut Vec<(mlir_async_ir::Symbol, mlir_async_ir::Attribute)>, usize);

/// How many regions, results, successors or operands an op has, as ODS
/// declares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    Exactly(usize),
    AtLeast(usize),
    Any,
}

impl Arity {
    #[inline]
    fn ok(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
            Arity::Any => true,
        }
    }
}

/// ODS's structural checks of an op, run (in this order, in ODS's words)
/// before its verifier: regions, results, successors, operands, the
/// operand segment sizes, the attributes it requires. The custom printer
/// of an op relies on them, for ops read in the generic form.
#[derive(Clone, Copy, Debug)]
pub struct Invariants {
    pub regions: Arity,
    pub results: Arity,
    pub successors: Arity,
    pub operands: Arity,
    /// `AttrSizedOperandSegments`: the number of operand groups.
    pub operand_segments: Option<usize>,
    pub required_attrs: &'static [&'static str],
}

impl Invariants {
    /// No regions, no successors; `operands` in, `results` out.
    pub const fn new(operands: Arity, results: Arity) -> Self {
        Invariants {
            regions: Arity::Exactly(0),
            results,
            successors: Arity::Exactly(0),
            operands,
            operand_segments: None,
            required_attrs: &[],
        }
    }
    pub const fn regions(mut self, n: Arity) -> Self {
        self.regions = n;
        self
    }
    pub const fn successors(mut self, n: Arity) -> Self {
        self.successors = n;
        self
    }
    pub const fn segments(mut self, groups: usize) -> Self {
        self.operand_segments = Some(groups);
        self
    }
    pub const fn attrs(mut self, names: &'static [&'static str]) -> Self {
        self.required_attrs = names;
        self
    }

    /// The first invariant `op` breaks, in ODS's words.
    #[inline]
    pub fn check(&self, ctx: &Context, op: Op) -> Result<(), String> {
        // Inlined into the verifier: counts that fit, nothing else asked
        // (nearly every op), cost no call.
        if self.operand_segments.is_none()
            && self.required_attrs.is_empty()
            && self.regions.ok(ctx.regions_of(op).len())
            && self.results.ok(ctx.results(op).len())
            && self.successors.ok(ctx.successors(op).len())
            && self.operands.ok(ctx.operands(op).len())
        {
            return Ok(());
        }
        self.first_broken(ctx, op)
    }

    #[inline(never)]
    fn first_broken(&self, ctx: &Context, op: Op) -> Result<(), String> {
        let n = ctx.regions_of(op).len();
        if !self.regions.ok(n) {
            return Err(match self.regions {
                Arity::Exactly(0) => "requires zero regions".into(),
                Arity::Exactly(1) => "requires one region".into(),
                Arity::Exactly(k) => format!("expected {k} regions"),
                Arity::AtLeast(k) => format!("expected {k} or more regions"),
                Arity::Any => unreachable!("any count is fine"),
            });
        }
        let n = ctx.results(op).len();
        if !self.results.ok(n) {
            return Err(match self.results {
                Arity::Exactly(0) => "requires zero results".into(),
                Arity::Exactly(1) => "requires one result".into(),
                Arity::Exactly(k) => format!("expected {k} results"),
                Arity::AtLeast(k) => format!("expected {k} or more results"),
                Arity::Any => unreachable!("any count is fine"),
            });
        }
        let n = ctx.successors(op).len();
        if !self.successors.ok(n) {
            return Err(match self.successors {
                Arity::Exactly(1) => format!("requires 1 successor but found {n}"),
                Arity::Exactly(k) => format!("requires {k} successors but found {n}"),
                Arity::AtLeast(k) => format!("requires at least {k} successors but found {n}"),
                Arity::Any => unreachable!("any count is fine"),
            });
        }
        let n = ctx.operands(op).len();
        if !self.operands.ok(n) {
            return Err(match self.operands {
                Arity::Exactly(0) => "requires zero operands".into(),
                Arity::Exactly(1) => "requires a single operand".into(),
                Arity::Exactly(k) => format!("expected {k} operands, but found {n}"),
                Arity::AtLeast(k) => format!("expected {k} or more operands, but found {n}"),
                Arity::Any => unreachable!("any count is fine"),
            });
        }
        if let Some(groups) = self.operand_segments {
            const KEY: &str = "operand_segment_sizes";
            let sizes = ctx.get_attr(op, KEY).and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Dense(elems, t, splat) => match ctx.kind(*t) {
                    TypeKind::Vector { elem, .. } | TypeKind::Tensor { elem, .. }
                        if ctx.kind(*elem) == &TypeKind::Integer(32, Signedness::Signless)
                            && shape_len(ctx, *t) == Some(1) =>
                    {
                        let len = dense_len(ctx, *t)?;
                        Some(
                            (0..len)
                                .map(|i| match elems.get(if *splat { 0 } else { i }) {
                                    Some(DenseElem::Int(v)) => *v,
                                    _ => 0,
                                })
                                .collect::<Vec<i128>>(),
                        )
                    }
                    _ => None,
                },
                _ => None,
            });
            let Some(sizes) = sizes else {
                return Err(format!("requires 1D i32 elements attribute '{KEY}'"));
            };
            if sizes.iter().any(|&s| s < 0) {
                return Err(format!("'{KEY}' attribute cannot have negative elements"));
            }
            let total: i128 = sizes.iter().sum();
            if total != n as i128 {
                return Err(format!(
                    "operand count ({n}) does not match with the total size ({total}) specified in attribute '{KEY}'"
                ));
            }
            if sizes.len() != groups {
                return Err(format!(
                    "'{KEY}' attribute for specifying operand segments must have {groups} elements, but got {}",
                    sizes.len()
                ));
            }
        }
        for name in self.required_attrs {
            if ctx.get_attr(op, name).is_none() {
                return Err(format!("requires attribute '{name}'"));
            }
        }
        Ok(())
    }
}

/// The rank of a shaped type.
fn shape_len(ctx: &Context, t: mlir_async_ir::Type) -> Option<usize> {
    match ctx.kind(t) {
        TypeKind::Vector { shape, .. } => Some(shape.len()),
        TypeKind::Tensor { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

/// The element count of a static 1-D shaped type.
fn dense_len(ctx: &Context, t: mlir_async_ir::Type) -> Option<usize> {
    match ctx.kind(t) {
        TypeKind::Vector { shape, .. } => shape.first().map(|&n| n as usize),
        TypeKind::Tensor { shape, .. } => shape.first().copied().flatten().map(|n| n as usize),
        _ => None,
    }
}

impl OpDef {
    pub const fn new(name: &'static str) -> Self {
        OpDef {
            name,
            traits: OpTraits::NONE,
            parse: None,
            print: None,
            verify: None,
            names: None,
            invariants: None,
            generic_attrs: None,
            custom_fits: None,
            canonicalize_generic: None,
            structure: ods::Structure {
                shape: None,
                parents: &[],
                parent_checked_last_before_15: false,
                implicit_terminator: None,
                regions: &[],
                successor_operands: None,
                no_region_arguments: false,
            },
            declared: None,
            folding: Folding {
                folder: None,
                commutative_since: None,
            },
        }
    }
    /// ODS's counts, attributes and operand types (see [`ods::Shape`]).
    pub const fn shape(mut self, s: ods::Shape) -> Self {
        self.structure.shape = Some(s);
        self
    }
    /// `HasParent` / `ParentOneOf`.
    pub const fn parents(mut self, p: &'static [&'static str]) -> Self {
        self.structure.parents = p;
        self
    }
    /// The parent is checked after the terminator's place in 13 and 14.
    pub const fn parent_checked_last_before_15(mut self) -> Self {
        self.structure.parent_checked_last_before_15 = true;
        self
    }
    /// `NoRegionArguments` (`builtin.module`, `memref.alloca_scope`).
    pub const fn no_region_arguments(mut self) -> Self {
        self.structure.no_region_arguments = true;
        self
    }
    /// `SingleBlockImplicitTerminator<T>`.
    pub const fn implicit_terminator(mut self, t: &'static str) -> Self {
        self.structure.implicit_terminator = Some(t);
        self
    }
    /// `SingleBlock` / `SizedRegion<1>` regions.
    pub const fn region_specs(mut self, r: &'static [ods::RegionSpec]) -> Self {
        self.structure.regions = r;
        self
    }
    /// `BranchOpInterface`'s successor operands.
    pub const fn successor_operands(mut self, f: ods::SuccessorOperandsFn) -> Self {
        self.structure.successor_operands = Some(f);
        self
    }
    pub const fn invariants(mut self, i: Invariants) -> Self {
        self.invariants = Some(i);
        self
    }
    pub const fn generic_attrs(mut self, print: PrintFn, canonicalize: CanonicalizeFn) -> Self {
        self.generic_attrs = Some(print);
        self.canonicalize_generic = Some(canonicalize);
        self
    }
    /// The generic form's attribute printer alone, for an op declared
    /// with [`op!`] whose `canonicalize:` reads every generation's
    /// spelling back.
    pub const fn generic_attrs_printer(mut self, print: PrintFn) -> Self {
        self.generic_attrs = Some(print);
        self
    }
    pub const fn syntax(mut self, parse: ParseFn, print: PrintFn) -> Self {
        self.parse = Some(parse);
        self.print = Some(print);
        self
    }
    pub const fn verify(mut self, f: VerifyFn) -> Self {
        self.verify = Some(VerifyHook::Plain(f));
        self
    }
    pub const fn verify_in_edition(mut self, f: EditionVerifyFn) -> Self {
        self.verify = Some(VerifyHook::InEdition(f));
        self
    }
    pub const fn names(mut self, f: NamesFn) -> Self {
        self.names = Some(f);
        self
    }
    pub const fn terminator(mut self) -> Self {
        self.traits.is_terminator = true;
        self
    }
    pub const fn pure(mut self) -> Self {
        self.traits.pure = true;
        self
    }
    pub const fn recursive_effects(mut self) -> Self {
        self.traits.recursive_effects = true;
        self
    }
    pub const fn dead_if_unused(mut self) -> Self {
        self.traits.dead_if_unused = true;
        self
    }
    pub const fn read_only(mut self) -> Self {
        self.traits.read_only = true;
        self.traits.dead_if_unused = true;
        self
    }
    pub const fn commutative(self) -> Self {
        self.commutative_since(mlir_async_syntax::Edition::V13)
    }
    /// MLIR's `Commutative` trait from the release of `edition` on. The
    /// trait kept in the context says whether any release has it; the
    /// drivers ask [`interfaces::Interfaces`], which knows the release.
    pub const fn commutative_since(mut self, edition: mlir_async_syntax::Edition) -> Self {
        self.traits.commutative = true;
        self.folding.commutative_since = Some(edition);
        self
    }
    /// MLIR's `hasFolder`: `f` folds the op, in every generation, reading
    /// only the op and its operands' defining ops (e.g. `arith.addi` in
    /// `crates/dialects/src/arith.rs`); [`OpDef::fold_hook`] for the
    /// others.
    pub const fn folder(self, f: FoldFn) -> Self {
        self.fold_hook(FoldHook::new(f))
    }
    /// A folder that came with a later release or reads more than its
    /// operands' defining ops (`scf.if`).
    pub const fn fold_hook(mut self, hook: FoldHook) -> Self {
        self.folding.folder = Some(hook);
        self
    }
    /// A terminator handing its operands back (implies `terminator`).
    pub const fn return_like(mut self) -> Self {
        self.traits.return_like = true;
        self.traits.is_terminator = true;
        self
    }
    pub const fn constant_like(mut self) -> Self {
        self.traits.constant_like = true;
        self
    }
    /// Regions of one block that needs no terminator.
    pub const fn no_terminator(mut self) -> Self {
        self.traits.no_terminator = true;
        self
    }
    pub const fn isolated(mut self) -> Self {
        self.traits.isolated_from_above = true;
        self
    }
    pub const fn symbol(mut self) -> Self {
        self.traits.is_symbol = true;
        self
    }
}

/// Every canonicalization pattern of the registered ops, in MLIR's order
/// (dialect patterns, then each op's, by op name).
pub fn canonicalization_patterns(
    edition: mlir_async_syntax::Edition,
) -> mlir_async_rewrite::PatternSet {
    canonicalize::patterns(edition)
}

/// The registry of every known op; implements the syntax layer's hooks.
pub struct Registry {
    ops: Vec<OpDef>,
    by_name: FxHashMap<&'static str, usize>,
    /// Index + 1 into `ops` by the index of the op name's symbol (0: not
    /// registered): the verifier asks per op.
    by_sym: Vec<u32>,
    /// What the verifier may accept an op of this name on, by the index
    /// of the name's symbol (see [`verify::QuickCheck`]).
    quick: Vec<Option<verify::QuickCheck>>,
    /// Custom parsers by the index of the op name's symbol: the parser
    /// hands over the symbol with every op, and a look-up by name per op
    /// (hash and compare) showed up in profiles.
    parsers: Vec<Option<ParseFn>>,
    /// Folders and commutativity by the index of the op name's symbol: the
    /// drivers ask for every op they visit (see [`Registry::folding`]).
    folding: ::std::sync::Arc<[Folding]>,
    /// `arith.constant` and `func.constant`, which the folders build
    /// (interned once, not per constant).
    constant_ops: [mlir_async_ir::Symbol; 2],
}

/// The dialects whose every op of 13, 14 and 15 is registered (`llvm`:
/// those the lowerings produce; it allows unknown ops, as upstream's),
/// checked against upstream's op lists by
/// `crates/dialects/tests/op_lists.rs`. An op of these the registry does
/// not know is an unregistered op, as in mlir-opt; `linalg` and `vector`
/// are only partly here.
pub(crate) const COMPLETE_DIALECTS: &[&str] = &[
    "builtin", "func", "std", "arith", "cf", "scf", "memref", "async", "llvm",
];

const DIALECTS: &[&str] = &[
    "builtin", "func", "std", "arith", "cf", "scf", "memref", "linalg", "vector", "async", "llvm",
];

impl Registry {
    /// Registers all dialects into `ctx` (op traits) and returns the hooks.
    pub fn new(ctx: &mut Context) -> Self {
        let mut ops = vec![];
        let mut by_name = FxHashMap::default();
        let mut by_sym = vec![];
        let mut parsers = vec![];
        let mut folding = vec![];
        // The 13/14 generic spelling of `func.func`'s signature key, so the
        // printer (which cannot intern) finds it.
        ctx.sym("type");
        llvm::register(ctx);
        asyncd::types::register(ctx);
        for list in [
            builtin::ops(),
            arith::ops(),
            cf::ops(),
            scf::ops(),
            memref::ops(),
            std::ops(),
            asyncd::ops(),
            llvm::ops::ops(),
        ] {
            for d in list {
                let s = ctx.register_op(d.name, d.traits);
                if parsers.len() <= s.index() {
                    parsers.resize(s.index() + 1, None);
                }
                parsers[s.index()] = d.parse;
                if folding.len() <= s.index() {
                    folding.resize(s.index() + 1, Folding::default());
                }
                folding[s.index()] = d.folding;
                if by_sym.len() <= s.index() {
                    by_sym.resize(s.index() + 1, 0);
                }
                // A later definition of a name replaces the earlier one.
                let i = *by_name.entry(d.name).or_insert(ops.len());
                if i == ops.len() {
                    ops.push(d);
                } else {
                    ops[i] = d;
                }
                by_sym[s.index()] = i as u32 + 1;
            }
        }
        let quick = by_sym
            .iter()
            .map(|&i| match i {
                0 => None,
                i => verify::QuickCheck::of(&ops[i as usize - 1]),
            })
            .collect();
        Registry {
            ops,
            by_name,
            by_sym,
            quick,
            parsers,
            folding: folding.into(),
            constant_ops: [ctx.sym("arith.constant"), ctx.sym("func.constant")],
        }
    }
    pub fn get(&self, name: &str) -> Option<&OpDef> {
        self.by_name.get(name).map(|&i| &self.ops[i])
    }
    /// Every registered definition.
    pub fn defs(&self) -> &[OpDef] {
        &self.ops
    }
    /// What the drivers ask of an op's definition when they fold it, by the
    /// index of its name's symbol (the symbols of the context the registry
    /// was made with); shared, so that a pattern that folds (as
    /// `createOrFold`) can keep it.
    pub fn folding(&self) -> ::std::sync::Arc<[Folding]> {
        self.folding.clone()
    }
    /// The symbols of `arith.constant` and `func.constant`.
    pub fn constant_ops(&self) -> [mlir_async_ir::Symbol; 2] {
        self.constant_ops
    }
    /// How the verifier may accept an op named by symbol `name` without
    /// going through every rule (see [`verify::QuickCheck`]).
    #[inline]
    pub(crate) fn quick_check(&self, name: mlir_async_ir::Symbol) -> Option<&verify::QuickCheck> {
        self.quick.get(name.index()).and_then(|q| q.as_ref())
    }
    /// The definition of the op named by symbol `name` (an op's `name`).
    pub fn get_by_symbol(&self, name: mlir_async_ir::Symbol) -> Option<&OpDef> {
        match self.by_sym.get(name.index()) {
            Some(&i) if i > 0 => Some(&self.ops[i as usize - 1]),
            _ => None,
        }
    }
}

/// Whether a symbol reference follows, after an attribute dictionary if
/// one is next (`constant {a} @g`: `std.constant` of a symbol).
fn symbol_after_attr_dict(p: &mut Parser) -> bool {
    p.skip_ws();
    let mut i = 0;
    if p.peek() == b'{' {
        let (mut depth, mut quoted) = (0usize, false);
        loop {
            match p.peek_at(i) {
                0 => return false,
                b'\\' if quoted => i += 1,
                b'"' => quoted = !quoted,
                b'{' if !quoted => depth += 1,
                b'}' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        while p.peek_at(i).is_ascii_whitespace() {
            i += 1;
        }
    }
    p.peek_at(i) == b'@'
}

impl DialectHooks for Registry {
    fn is_known_dialect(&self, name: &str) -> bool {
        DIALECTS.contains(&name)
    }
    fn knows_every_op_of(&self, dialect: &str) -> bool {
        COMPLETE_DIALECTS.contains(&dialect)
    }
    fn custom_parser(&self, name: mlir_async_ir::Symbol) -> Option<ParseFn> {
        // What `parse_custom` calls first, for a name that has one.
        self.parsers.get(name.index()).copied().flatten()
    }

    fn parse_custom(
        &self,
        name: &str,
        p: &mut Parser,
        st: &mut OperationState,
        num_results: usize,
        name_pos: usize,
    ) -> PResult<bool> {
        // The parser has set `st.name` to the symbol of `name`: a
        // registered op with a custom form needs no look-up by name.
        debug_assert_eq!(p.ctx.str(st.name), name);
        if let Some(&Some(parse)) = self.parsers.get(st.name.index()) {
            parse(p, st, num_results)?;
            return Ok(true);
        }
        // `constant` is `arith.constant` in 13 and `func.constant` (a
        // symbol) in 13 and 14.
        let renamed = name == "constant";
        let name = if renamed {
            if symbol_after_attr_dict(p) {
                "func.constant"
            } else {
                p.note_edition(mlir_async_syntax::Edition::V13);
                "arith.constant"
            }
        } else {
            name
        };
        let Some(def) = self.get(name) else {
            let dialect = name.split('.').next().unwrap_or("");
            if name.contains('.') && !DIALECTS.contains(&dialect) {
                if p.allow_unregistered {
                    return p.err(name_pos, format!("custom op '{name}' is unknown"));
                }
                return p.err(
                    name_pos,
                    "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
                );
            }
            return Ok(false);
        };
        let Some(parse) = def.parse else {
            return Ok(false);
        };
        // The parser has set `st.name` to the symbol of `name` already.
        if renamed {
            st.name = p.ctx.sym(name);
        }
        parse(p, st, num_results)?;
        Ok(true)
    }
    fn custom_printer(&self, name: &str) -> Option<PrintFn> {
        self.get(name).and_then(|d| d.print)
    }
    fn result_namer(&self, name: &str) -> Option<NamesFn> {
        self.get(name).and_then(|d| d.names)
    }
    fn generic_attrs_printer(&self, name: &str) -> Option<PrintFn> {
        self.get(name).and_then(|d| d.generic_attrs)
    }
    fn custom_form_fits(&self, name: &str) -> Option<mlir_async_syntax::CustomFitsFn> {
        self.get(name).and_then(|d| d.custom_fits)
    }
    fn canonicalize_generic_attrs(
        &self,
        name: &str,
        p: &mut Parser,
        attrs: &mut Vec<(mlir_async_ir::Symbol, mlir_async_ir::Attribute)>,
        num_operands: usize,
    ) {
        if let Some(f) = self.get(name).and_then(|d| d.canonicalize_generic) {
            f(p, attrs, num_operands)
        }
    }
    fn parse_type(&self, dialect: &str, p: &mut Parser, start: usize) -> PResult<Option<Type>> {
        match dialect {
            llvm::DIALECT => llvm::types::parse_type(p, start),
            asyncd::types::DIALECT => asyncd::types::parse_type(p, start),
            _ => Ok(None),
        }
    }
}
