//! ODS's declarative assembly format, interpreted.
//!
//! An op declared with [`op!`](crate::op) writes its custom form the way
//! ODS does (`$lhs `,` $rhs attr-dict `:` type($result)`); the format is
//! compiled once into [`Elem`]s, and one parser and one printer serve
//! every such op. The printer follows the spacing rules of MLIR's
//! generated printers (`OpFormatGen.cpp`: a space before each element
//! except after `(`, `[`, `{`, `<`, and none before `,`, `)`, `]`, ...;
//! decided from the elements before, so once per format, optional groups
//! included), so the output is byte-identical to theirs; the parser
//! reports what the generated parsers report (`expected ','`, the enum
//! keyword message, `N operands present, but expected M`, `invalid kind
//! of type specified`).
//!
//! What a format may hold, as ODS spells it: literals (`` `,` ``, `` `to` ``,
//! `` ` ` ``, ``` `` ```, `` `\n` ``), `$operand`, `$attribute`,
//! `$successor`, `$region`, `operands`, `attr-dict`,
//! `attr-dict-with-keyword`, `type($x)` (a list for a variadic `$x`;
//! `type(operands)`, `type(results)`), `qualified(type($x))`,
//! `functional-type(a, b)`, `custom<Name>(args)` (a Rust hook, see
//! [`Custom`]), and optional groups `(... $anchor^ ...)?`, printed when
//! the anchor is present and parsed when their first element is.
//!
//! Types not spelled in the format come, as ODS infers them, from the
//! operand's or result's declared type ([`Ty::Fixed`] for a buildable
//! type such as `Index`, [`Ty::Like`] for `TypesMatchWith`) or from the
//! op's traits ([`Infer`]: `SameOperandsAndResultType`, or operands of
//! one type and a result computed from it). Ops with more than one
//! optional or variadic operand group get `operand_segment_sizes`
//! (`AttrSizedOperandSegments`).

use crate::util::{attr_dict, attr_dict_kw};
use mlir_async_ir::{
    AttrKind, Attribute, Block, Context, DenseElem, Op, OperationState, Type, Value,
};
use mlir_async_syntax::{printer, Edition, PResult, Parser, Printer};

/// How many values an operand or result (or blocks a successor) stands
/// for. Of a region: `One` for a region of one block (`SingleBlock`,
/// `SizedRegion<1>`), which is given its block where `{}` has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    One,
    /// Zero or one (`Optional<...>`).
    Optional,
    /// Any number (`Variadic<...>`), written as a comma-separated list.
    Variadic,
}

/// What ODS knows of an operand's or result's type beyond the format.
#[derive(Clone, Copy)]
pub enum Ty {
    /// Any type: spelled by a `type(...)` directive or inferred ([`Infer`]).
    Any,
    /// A type of one C++ class (`AnyMemRef`, `Async_ValueType`): checked
    /// where a `type(...)` directive reads it.
    Class(&'static TypeClass),
    /// A buildable type (`Index`, `I1`, `Async_GroupType`): never spelled.
    Fixed(fn(&mut Context) -> Type),
    /// `TypesMatchWith`: computed from the type of the operand or result
    /// named (`None`: not of the kind the computation needs).
    Like(&'static str, fn(&mut Context, Type) -> Option<Type>),
    /// `TypesMatchWith` of a variadic group: one type per value, all
    /// computed from the type named (a callee's inputs or results).
    LikeList(&'static str, fn(&Context, Type) -> Option<Vec<Type>>),
    /// The type of the attribute named (`AllTypesMatch` with an
    /// attribute, as `arith.constant`'s result), as the function reads it.
    FromAttr(&'static str, fn(&mut Context, Attribute) -> Type),
}

/// A type constraint the parser checks. With a C++ class (`cpp`), 14's
/// and 15's parsers read the type as that class and report any other
/// kind where it is; a class defined in ODS (an `AttrOrTypeDef` with its
/// own printer) prints and reads its short form (`<f32>` for
/// `!async.value<f32>`) where `short` says so. A type another one is
/// computed from (`TypesMatchWith`) is checked against the constraint
/// where it is read, in the verifier's words, at the op's name (13 only
/// so).
pub struct TypeClass {
    pub is: fn(&Context, Type) -> bool,
    pub short: Option<ShortForm>,
    /// The constraint's words (`memref of any type values`).
    pub summary: &'static str,
    /// The first generation whose ODS names a C++ class for it
    /// (`AnyMemRef`: `MemRefType` from 14; `AnyRankedOrUnrankedMemRef`:
    /// none; `LLVM_AnyPointer`: from 15).
    pub cpp: Option<mlir_async_syntax::Edition>,
}

/// The short form of a type: `print` writes it and says whether it did
/// (a generation may print the full type); `parse` reads it where the
/// type does not start with `!`.
#[derive(Clone, Copy)]
pub struct ShortForm {
    pub print: fn(&mut Printer, Type) -> bool,
    pub parse: fn(&mut Parser) -> PResult<Type>,
}

/// Where the types the format does not spell come from (ODS infers them
/// from the op's traits), for operands and results declared [`Ty::Any`].
#[derive(Clone, Copy)]
pub enum Infer {
    /// Every such type is spelled by a `type(...)` directive.
    Spelled,
    /// `SameOperandsAndResultType`: the one spelled type is every
    /// operand's and result's type.
    AllSame,
    /// Operands share the spelled type; each result's type is computed
    /// from it (a comparison's `i1`, or a vector of them).
    SameOperands(fn(&mut Context, Type) -> Type),
}

/// An operand, result, successor or region as ODS declares it.
#[derive(Clone, Copy)]
pub struct Arg {
    pub name: &'static str,
    pub count: Count,
    pub ty: Ty,
}

/// What kind of attribute `$name` stands for: how it is read and printed.
#[derive(Clone, Copy)]
pub enum AttrC {
    /// `I64EnumAttr`: stored as `i64`, spelled as the keyword of its value.
    Enum(&'static [&'static str]),
    /// An `I64EnumAttr` that gained cases: a generation has the first
    /// `n(edition)` (read as the parser's evidence says).
    EnumUpTo(
        &'static [&'static str],
        fn(mlir_async_syntax::Edition) -> usize,
    ),
    /// `UnitAttr`, the anchor of an optional group: present when the
    /// group is.
    Unit,
    /// `ElementsAttr` (`dense<...>`).
    Elements,
    /// `ArrayAttr` and its constrained kinds (`IndexListArrayAttr`): read
    /// as that class, its elements left to the verifier.
    Array,
    /// `StrAttr`: a string literal.
    Str,
    /// `SymbolNameAttr`: `@name`, stored as a string.
    SymbolName,
    /// `FlatSymbolRefAttr`: `@name`.
    FlatSymbolRef,
    /// An attribute of a buildable type (`I64Attr`, `IndexAttr`): printed
    /// without it, read with it.
    Typed(fn(&mut Context) -> Type),
    /// Any attribute, printed with its type.
    Any,
    /// `TypeAttr`: spelled as the type it holds, read as an attribute
    /// (of type `none`) that must be one.
    TypeAttr,
    /// Not present unless written: the group it anchors is left out.
    Optional(&'static AttrC),
}

/// An attribute the format spells (or derives: `attr-dict` leaves it out).
#[derive(Clone, Copy)]
pub struct AttrDecl {
    pub name: &'static str,
    pub kind: AttrC,
}

/// What ODS knows of an op's custom form: its operands, results,
/// attributes, successors and regions in order, and the format that
/// arranges them.
pub struct Decl {
    pub name: &'static str,
    pub operands: &'static [Arg],
    pub results: &'static [Arg],
    pub attrs: &'static [AttrDecl],
    pub successors: &'static [Arg],
    pub regions: &'static [Arg],
    /// The custom form in each generation (13, 14, 15): see [`Syntax`].
    pub syntax: [Syntax; 3],
    pub infer: Infer,
    /// `custom<Name>(...)` directives: the name, and the Rust parser and
    /// printer that stand for ODS's `parseName` / `printName`.
    pub customs: &'static [Custom],
    /// Brings what a generation's syntax reads to the form the op is
    /// stored in, after the custom form of any generation (and, as the
    /// op definition's [`canonicalize_generic`](crate::OpDef::canonicalize_generic),
    /// after the generic form): a generation whose op lacks an attribute
    /// the stored form has (13's `llvm.getelementptr` has no
    /// `structIndices`) or keeps it in another shape.
    pub canonicalize: Option<crate::CanonicalizeFn>,
    /// Whether a generation's syntax can spell what the op holds (one
    /// read in a later generation's syntax and printed in an earlier
    /// one's: 13's `llvm.getelementptr` has no constant index). Where
    /// it cannot, the next generation's syntax that can is printed:
    /// nothing the op holds is lost.
    pub expressible: Option<fn(&Context, Op, Edition) -> bool>,
}

/// An op's custom form in one generation, as that generation's ODS has
/// it: an `assemblyFormat`, or a parser and printer written in C++
/// (`hasCustomAssemblyFormat`, `parser = [{...}]`), which are Rust hooks
/// here. A format may differ between generations (LLVM's `switch` spells
/// the flag's type from 14 on), and a generation may write in C++ what
/// another declares (`memref.expand_shape` before 15).
#[derive(Clone, Copy)]
pub enum Syntax {
    Format(&'static str),
    Hand(crate::ParseFn, crate::PrintFn),
}

/// The index of a generation in [`Decl::syntax`].
pub const fn edition_index(e: Edition) -> usize {
    match e {
        Edition::V13 => 0,
        Edition::V14 => 1,
        Edition::V15 => 2,
    }
}

const EDITIONS: [Edition; 3] = [Edition::V13, Edition::V14, Edition::V15];

impl Syntax {
    /// The same syntax: one format text, or the same hooks.
    fn same(self, o: Syntax) -> bool {
        match (self, o) {
            (Syntax::Format(a), Syntax::Format(b)) => a == b,
            (Syntax::Hand(a, b), Syntax::Hand(c, d)) => {
                std::ptr::fn_addr_eq(a, c) && std::ptr::fn_addr_eq(b, d)
            }
            _ => false,
        }
    }
}

impl Decl {
    /// The custom form of generation `e`.
    pub fn syntax_in(&self, e: Edition) -> Syntax {
        self.syntax[edition_index(e)]
    }
    /// Every generation has the one declared format.
    pub fn uniform(&self) -> bool {
        matches!(self.syntax[0], Syntax::Format(_))
            && self.syntax.iter().all(|s| s.same(self.syntax[0]))
    }
    /// `AttrSizedOperandSegments`: more than one operand group that is
    /// not a single value.
    pub fn segmented(&self) -> bool {
        self.operands
            .iter()
            .filter(|a| a.count != Count::One)
            .count()
            > 1
    }
}

/// A `custom<Name>(args)` directive: `parse` reads what it stands for
/// into the [`Frame`] (operands, types, attributes), `print` writes it
/// from the op ([`View`]); both get the directive's arguments.
#[derive(Clone, Copy)]
pub struct Custom {
    pub name: &'static str,
    pub parse: fn(&mut Parser, &mut Frame, &[CArg]) -> PResult<()>,
    pub print: fn(&mut Printer, &View, &[CArg]),
}

/// A variable of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Operand(usize),
    Result(usize),
    Attr(usize),
    Successor(usize),
    Region(usize),
}

/// An argument of a custom directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CArg {
    Var(Var),
    /// `type($x)`
    Type(Var),
    /// `ref(type($x))`, `ref($x)`: read before, not read again.
    Ref(Var),
    /// `ref(type($x))`
    RefType(Var),
    AttrDict,
}

/// One element of a compiled format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// `` `,` ``, `` `to` ``: punctuation or a keyword.
    Literal(Lit),
    /// `` ` ` `` (a space) or ``` `` ``` (none).
    Space(bool),
    /// `` `\n` ``
    Newline,
    /// `attr-dict`, `attr-dict-with-keyword`: the attributes the format
    /// does not spell.
    AttrDict {
        keyword: bool,
    },
    /// `$x` for an operand group (by index in [`Decl::operands`]).
    Operand(usize),
    /// `operands`: every operand, one list.
    Operands,
    /// `$x` for an attribute (by index in [`Decl::attrs`]).
    Attr(usize),
    Successor(usize),
    Region(usize),
    /// `type(...)` of an operand or result.
    Type(TypeOf),
    /// `functional-type(a, b)`.
    FunctionalType(TypeOf, TypeOf),
    /// `custom<Name>(...)` (by index in [`Decl::customs`]; its arguments
    /// are `Format::args[from..to]`).
    Custom(usize, u16, u16),
    /// `(...)?`: the next `len` elements, printed when element `anchor`
    /// (an index into the elements) is present, parsed when the first of
    /// them is.
    Optional {
        len: u16,
        anchor: u16,
    },
}

/// A literal with what the printer and parser need of it decided once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lit {
    pub text: &'static str,
    /// A keyword (`to`), not punctuation (`,`, `->`).
    pub keyword: bool,
    /// MLIR's `shouldEmitSpaceBefore`, after punctuation and otherwise.
    space_after_punct: bool,
    space_otherwise: bool,
    /// Whether the next element gets a space (not after `(`, `[`, ...).
    space_next: bool,
}

impl Lit {
    fn new(text: &'static str) -> Lit {
        Lit {
            text,
            keyword: text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'),
            space_after_punct: space_before(text, true),
            space_otherwise: space_before(text, false),
            space_next: text.len() != 1 || !"<({[".contains(text),
        }
    }
}

/// The argument of a `type(...)` directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeOf {
    Operand(usize),
    Result(usize),
    /// `operands`
    Operands,
    /// `results`
    Results,
}

/// Operand groups, and result groups, a format may have.
const MAX_GROUPS: usize = 12;

/// A format compiled against its [`Decl`].
#[derive(Debug)]
pub struct Format {
    pub elems: Vec<Elem>,
    /// The arguments of the custom directives.
    pub args: Vec<CArg>,
    /// Attributes `attr-dict` leaves out: those the format spells, and
    /// the segment sizes.
    elided: Vec<&'static str>,
    /// Every operand is one value of the one spelled type, read in the
    /// declared order: they resolve in one sweep of the parser's stack.
    one_sweep: bool,
    /// A `one_sweep` format of nothing but single operands, punctuation,
    /// `attr-dict` and the one `type(...)` (of an operand, or of a result
    /// of any type), whose results are single values of the spelled
    /// type, of a type computed from it, or of a fixed type: read by
    /// [`parse_simple`], which keeps no [`Frame`] (setting up one cost a
    /// quarter of reading an `arith.mulf` line).
    simple: Option<Simple>,
    /// The op's [`Decl::uniform`], decided once (it compares the
    /// generations' format texts).
    uniform: bool,
    /// The printer's program: the elements with the text between them
    /// merged (what is printed before each element, a space or nothing,
    /// and for a literal the literal too: `OpFormatGen`'s spacing depends
    /// only on the elements before, so it is decided here once), and the operands and types at fixed places read by index
    /// (`operand_group` per element per op cost more than the rest of an
    /// `arith.mulf` line).
    plan: Vec<Step>,
    /// The text the plan's [`Step::Text`] steps print, back to back, then
    /// [`printer::PAD`] spaces (for `printer::Output::push_padded`).
    plan_text: String,
}

/// The parser of a [`Format::simple`] format: its elements that read
/// something, and what the one spelled type is the type of.
#[derive(Debug)]
struct Simple {
    steps: Vec<SimpleStep>,
    spelled: TypeOf,
}

#[derive(Clone, Copy, Debug)]
enum SimpleStep {
    Punct(&'static str),
    /// The next operand group (of one value: they come in order).
    Operand,
    AttrDict,
    /// The spelled type.
    Type,
}

/// One step of a format's printer (see [`Format::plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `plan_text[from..to]`: the literals and spaces of a run of
    /// elements, with the prefix of the element after them.
    Text(u32, u32),
    /// The operand at this index: the operand group of that number, one
    /// value, with only such groups before it (and no segment sizes).
    Operand(u16),
    /// The type of the operand at this index (a group as above), of a
    /// type without a short form.
    OperandType(u16),
    /// The type of the result at this index (likewise).
    ResultType(u16),
    /// `attr-dict` (`attr-dict-with-keyword`): most ops have no
    /// attributes, seen without a call.
    AttrDict { keyword: bool },
    /// Element `i` of [`Format::elems`], its prefix printed before.
    Elem(u16),
    /// An optional group: the next `len` steps, printed when element
    /// `anchor` is present.
    Optional { len: u16, anchor: u16 },
}

/// A mistake in a declared format (a test compiles every format, so none
/// reaches a user).
#[derive(Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

/// The format's text, one token at a time.
struct Lexer<'d> {
    d: &'d Decl,
    rest: &'static str,
}

impl Lexer<'_> {
    fn err<T>(&self, m: impl std::fmt::Display) -> Result<T, FormatError> {
        Err(FormatError(format!("{}: {m}", self.d.name)))
    }
    fn skip(&mut self) {
        self.rest = self.rest.trim_start();
    }
    fn eat(&mut self, s: &str) -> bool {
        self.skip();
        match self.rest.strip_prefix(s) {
            Some(r) => {
                self.rest = r;
                true
            }
            None => false,
        }
    }
    fn expect(&mut self, s: &str) -> Result<(), FormatError> {
        if self.eat(s) {
            Ok(())
        } else {
            self.err(format!("expected '{s}' at '{}'", self.rest))
        }
    }
    /// `$name`, as a variable of the declaration.
    fn var(&mut self) -> Result<Var, FormatError> {
        self.skip();
        let Some(r) = self.rest.strip_prefix('$') else {
            return self.err(format!("expected a $variable at '{}'", self.rest));
        };
        let end = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        let name = &r[..end];
        self.rest = &r[end..];
        let d = self.d;
        let find = |args: &[Arg]| args.iter().position(|a| a.name == name);
        if let Some(i) = find(d.operands) {
            Ok(Var::Operand(i))
        } else if let Some(i) = find(d.results) {
            Ok(Var::Result(i))
        } else if let Some(i) = d.attrs.iter().position(|a| a.name == name) {
            Ok(Var::Attr(i))
        } else if let Some(i) = find(d.successors) {
            Ok(Var::Successor(i))
        } else if let Some(i) = find(d.regions) {
            Ok(Var::Region(i))
        } else {
            self.err(format!("${name}: no such operand, result or attribute"))
        }
    }
    /// The argument of `type(...)`: `$x`, `operands` or `results`.
    fn type_of(&mut self) -> Result<TypeOf, FormatError> {
        if self.eat("operands") {
            return Ok(TypeOf::Operands);
        }
        if self.eat("results") {
            return Ok(TypeOf::Results);
        }
        match self.var()? {
            Var::Operand(i) => Ok(TypeOf::Operand(i)),
            Var::Result(i) => Ok(TypeOf::Result(i)),
            v => self.err(format!("type({v:?}): not an operand or result")),
        }
    }
    /// `type(x)` or `qualified(type(x))`.
    fn type_directive(&mut self) -> Result<TypeOf, FormatError> {
        if self.eat("qualified(") {
            let t = self.type_directive()?;
            self.expect(")")?;
            return Ok(t);
        }
        self.expect("type(")?;
        let t = self.type_of()?;
        self.expect(")")?;
        Ok(t)
    }
}

/// Compiles the format generation `ed` declares (`None` where its syntax
/// is hand-written): each `$name` must be declared, each operand appear
/// once, `attr-dict` once, and every type be spelled or known.
pub fn compile(d: &Decl, ed: Edition) -> Result<Option<Format>, FormatError> {
    match d.syntax_in(ed) {
        Syntax::Format(text) => compile_text(d, text, ed).map(Some),
        Syntax::Hand(..) => Ok(None),
    }
}

fn compile_text(d: &Decl, text: &'static str, ed: Edition) -> Result<Format, FormatError> {
    let mut lx = Lexer { d, rest: text };
    let mut elems = vec![];
    let mut args = vec![];
    // Where the optional group being read starts, and its anchor.
    let mut group: Option<(usize, Option<usize>)> = None;
    loop {
        lx.skip();
        if lx.rest.is_empty() {
            break;
        }
        if lx.eat("(") {
            if group.is_some() {
                return lx.err("optional groups do not nest");
            }
            group = Some((elems.len(), None));
            elems.push(Elem::Optional { len: 0, anchor: 0 });
            continue;
        }
        if lx.eat(")") {
            let Some((start, anchor)) = group.take() else {
                return lx.err("')' outside an optional group");
            };
            lx.expect("?")?;
            let Some(anchor) = anchor else {
                return lx.err("an optional group needs an anchor (^)");
            };
            if elems.len() == start + 1 {
                return lx.err("empty optional group");
            }
            elems[start] = Elem::Optional {
                len: (elems.len() - start - 1) as u16,
                anchor: anchor as u16,
            };
            continue;
        }
        let elem = if let Some(r) = lx.rest.strip_prefix('`') {
            let Some(end) = r.find('`') else {
                return lx.err("unterminated literal");
            };
            let text = &r[..end];
            lx.rest = &r[end + 1..];
            match text {
                "" => Elem::Space(false),
                " " => Elem::Space(true),
                "\\n" => Elem::Newline,
                _ => Elem::Literal(Lit::new(text)),
            }
        } else if lx.eat("custom<") {
            let Some((name, r)) = lx.rest.split_once(">(") else {
                return lx.err("custom<Name> takes (arguments)");
            };
            lx.rest = r;
            let Some(i) = d.customs.iter().position(|c| c.name == name) else {
                return lx.err(format!("custom<{name}>: no such directive"));
            };
            let from = args.len();
            loop {
                let a = if lx.eat("attr-dict") {
                    CArg::AttrDict
                } else if lx.eat("ref(") {
                    let a = if lx.eat("type(") {
                        let v = lx.var()?;
                        lx.expect(")")?;
                        CArg::RefType(v)
                    } else {
                        CArg::Ref(lx.var()?)
                    };
                    lx.expect(")")?;
                    a
                } else if lx.eat("type(") {
                    let v = lx.var()?;
                    lx.expect(")")?;
                    CArg::Type(v)
                } else {
                    CArg::Var(lx.var()?)
                };
                args.push(a);
                if !lx.eat(",") {
                    break;
                }
            }
            lx.expect(")")?;
            Elem::Custom(i, from as u16, args.len() as u16)
        } else if lx.eat("attr-dict-with-keyword") {
            Elem::AttrDict { keyword: true }
        } else if lx.eat("attr-dict") {
            Elem::AttrDict { keyword: false }
        } else if lx.eat("functional-type(") {
            let a = lx.type_of()?;
            lx.expect(",")?;
            let b = lx.type_of()?;
            lx.expect(")")?;
            Elem::FunctionalType(a, b)
        } else if lx.rest.starts_with("type(") || lx.rest.starts_with("qualified(") {
            Elem::Type(lx.type_directive()?)
        } else if lx.eat("operands") {
            Elem::Operands
        } else {
            match lx.var()? {
                Var::Operand(i) => Elem::Operand(i),
                Var::Attr(i) => Elem::Attr(i),
                Var::Successor(i) => Elem::Successor(i),
                Var::Region(i) => Elem::Region(i),
                Var::Result(_) => return lx.err("a result is spelled only by type(...)"),
            }
        };
        elems.push(elem);
        if lx.eat("^") {
            match &mut group {
                Some((_, a @ None)) => *a = Some(elems.len() - 1),
                Some(_) => return lx.err("two anchors in one group"),
                None => return lx.err("an anchor outside an optional group"),
            }
        }
    }
    if group.is_some() {
        return lx.err("unclosed optional group");
    }
    check(d, &lx, &elems, &args)?;
    let elided = elided_attrs(d);
    let prefixes = prefixes(d, &elems, ed);
    let spelled_types = elems
        .iter()
        .filter(|e| matches!(e, Elem::Type(_) | Elem::FunctionalType(..)))
        .count();
    let mut order = elems.iter().filter_map(|e| match e {
        Elem::Operand(i) => Some(*i),
        _ => None,
    });
    let in_order = order.by_ref().enumerate().all(|(k, i)| k == i);
    let one_sweep = in_order
        && !matches!(d.infer, Infer::Spelled)
        && spelled_types == 1
        && !elems.iter().any(|e| matches!(e, Elem::Custom(..)))
        && d.operands
            .iter()
            .all(|a| a.count == Count::One && matches!(a.ty, Ty::Any));
    let is_simple = one_sweep
        && elems.iter().all(|e| match *e {
            Elem::Literal(l) => !l.keyword,
            Elem::Space(_) | Elem::Newline | Elem::AttrDict { keyword: false } => true,
            Elem::Operand(_) | Elem::Type(TypeOf::Operand(_)) => true,
            Elem::Type(TypeOf::Result(r)) => matches!(d.results[r].ty, Ty::Any),
            _ => false,
        })
        && d.results
            .iter()
            .all(|a| a.count == Count::One && matches!(a.ty, Ty::Any | Ty::Fixed(_)));
    let simple = is_simple.then(|| {
        let mut spelled = TypeOf::Operands;
        let steps = elems
            .iter()
            .filter_map(|e| match *e {
                Elem::Literal(l) => Some(SimpleStep::Punct(l.text)),
                Elem::AttrDict { .. } => Some(SimpleStep::AttrDict),
                Elem::Operand(_) => Some(SimpleStep::Operand),
                Elem::Type(t) => {
                    spelled = t;
                    Some(SimpleStep::Type)
                }
                _ => None,
            })
            .collect();
        Simple { steps, spelled }
    });
    let (plan, plan_text) = plan(d, &elems, &prefixes);
    Ok(Format {
        elems,
        args,
        elided,
        one_sweep,
        simple,
        uniform: d.uniform(),
        plan,
        plan_text,
    })
}

/// Compiles the printer's [`Step`]s: each element's prefix (and a
/// literal, which is all prefix) joins the text before it, up to an
/// element that prints something of the op; an optional group's text
/// stays inside its group.
fn plan(d: &Decl, elems: &[Elem], prefixes: &[String]) -> (Vec<Step>, String) {
    // Groups of one value, before any other kind (none with segment
    // sizes): group `g` is operand or result `g`.
    let leading_ones = |groups: &[Arg]| groups.iter().take_while(|a| a.count == Count::One).count();
    let fixed_operands = if d.segmented() {
        0
    } else {
        leading_ones(d.operands)
    };
    let fixed_results = leading_ones(d.results);
    let no_short = |a: &Arg| !matches!(a.ty, Ty::Class(c) if c.short.is_some());
    let mut steps = vec![];
    let mut text = String::new();
    let mut pending = text.len();
    let flush = |steps: &mut Vec<Step>, text: &String, pending: &mut usize| {
        if text.len() > *pending {
            steps.push(Step::Text(*pending as u32, text.len() as u32));
        }
        *pending = text.len();
    };
    // Where the open optional group's step is, and where it ends in
    // elements.
    let mut group: Option<(usize, usize)> = None;
    for (i, e) in elems.iter().enumerate() {
        if let Some((at, end)) = group {
            if i == end {
                flush(&mut steps, &text, &mut pending);
                let Step::Optional { anchor, .. } = steps[at] else {
                    unreachable!("the group's step")
                };
                let len = (steps.len() - at - 1) as u16;
                steps[at] = Step::Optional { len, anchor };
                group = None;
            }
        }
        text.push_str(&prefixes[i]);
        let step = match *e {
            Elem::Literal(_) | Elem::Space(_) => continue,
            Elem::Optional { len, anchor } => {
                flush(&mut steps, &text, &mut pending);
                group = Some((steps.len(), i + 1 + len as usize));
                steps.push(Step::Optional { len: 0, anchor });
                continue;
            }
            Elem::Operand(g) if g < fixed_operands => Step::Operand(g as u16),
            Elem::Type(TypeOf::Operand(g)) if g < fixed_operands && no_short(&d.operands[g]) => {
                Step::OperandType(g as u16)
            }
            Elem::Type(TypeOf::Result(r)) if r < fixed_results && no_short(&d.results[r]) => {
                Step::ResultType(r as u16)
            }
            Elem::AttrDict { keyword } => Step::AttrDict { keyword },
            _ => Step::Elem(i as u16),
        };
        flush(&mut steps, &text, &mut pending);
        steps.push(step);
    }
    flush(&mut steps, &text, &mut pending);
    if let Some((at, _)) = group {
        let Step::Optional { anchor, .. } = steps[at] else {
            unreachable!("the group's step")
        };
        let len = (steps.len() - at - 1) as u16;
        steps[at] = Step::Optional { len, anchor };
    }
    text.push_str(&" ".repeat(printer::PAD));
    (steps, text)
}

/// What a well-formed declared format satisfies.
fn check(d: &Decl, lx: &Lexer, elems: &[Elem], args: &[CArg]) -> Result<(), FormatError> {
    let attr_dicts = elems
        .iter()
        .filter(|e| matches!(e, Elem::AttrDict { .. }))
        .count()
        + args.iter().filter(|a| **a == CArg::AttrDict).count();
    if attr_dicts != 1 {
        return lx.err("needs one attr-dict");
    }
    if d.operands.len() > MAX_GROUPS || d.results.len() > MAX_GROUPS {
        return lx.err(format!("more than {MAX_GROUPS} operands or results"));
    }
    // Each operand read once: by `$x`, by `operands`, or by a custom
    // directive.
    let all = elems.contains(&Elem::Operands);
    let mut seen = vec![false; d.operands.len()];
    let custom_vars = args.iter().filter_map(|a| match a {
        CArg::Var(Var::Operand(i)) => Some(*i),
        _ => None,
    });
    let format_vars = elems.iter().filter_map(|e| match e {
        Elem::Operand(i) => Some(*i),
        _ => None,
    });
    for i in format_vars.chain(custom_vars) {
        if all || std::mem::replace(&mut seen[i], true) {
            return lx.err(format!("${} appears twice", d.operands[i].name));
        }
    }
    if all {
        if d.operands.iter().filter(|a| a.count != Count::One).count() > 1 {
            return lx.err("`operands` with more than one variable group");
        }
    } else if let Some(i) = seen.iter().position(|s| !s) {
        return lx.err(format!(
            "operand ${} is not in the format",
            d.operands[i].name
        ));
    }
    // Successors and regions in their declared order.
    let succs: Vec<usize> = elems
        .iter()
        .filter_map(|e| match e {
            Elem::Successor(i) => Some(*i),
            _ => None,
        })
        .collect();
    let custom_successors = args
        .iter()
        .any(|a| matches!(a, CArg::Var(Var::Successor(_))));
    if !custom_successors
        && (succs != (0..d.successors.len()).collect::<Vec<_>>()
            || d.successors.iter().any(|s| s.count != Count::One))
    {
        return lx.err("each successor once, in order, one block each");
    }
    let regions: Vec<usize> = elems
        .iter()
        .filter_map(|e| match e {
            Elem::Region(i) => Some(*i),
            _ => None,
        })
        .collect();
    let custom_regions = args.iter().any(|a| matches!(a, CArg::Var(Var::Region(_))));
    if !custom_regions && regions != (0..d.regions.len()).collect::<Vec<_>>() {
        return lx.err("each region once, in order");
    }
    // Optional groups: an anchor that can be absent, a first element
    // that says whether the group is there.
    let mut i = 0;
    while i < elems.len() {
        if let Elem::Optional { len, anchor } = elems[i] {
            let absent_ok = match elems[anchor as usize] {
                Elem::Operand(k) => d.operands[k].count != Count::One,
                Elem::Attr(k) => matches!(d.attrs[k].kind, AttrC::Unit | AttrC::Optional(_)),
                Elem::Type(TypeOf::Result(k)) => d.results[k].count != Count::One,
                Elem::Type(TypeOf::Operand(k)) => d.operands[k].count != Count::One,
                Elem::Region(_) | Elem::Successor(_) => true,
                _ => false,
            };
            if !absent_ok {
                return lx.err("an anchor must be optional or variadic");
            }
            let first = (i + 1..i + 1 + len as usize)
                .find(|&k| !matches!(elems[k], Elem::Space(_) | Elem::Newline))
                .unwrap_or(i + 1);
            let first_ok = match elems[first] {
                Elem::Literal(_) | Elem::Operand(_) | Elem::Region(_) | Elem::Successor(_) => true,
                Elem::Type(TypeOf::Result(k)) => d.results[k].count == Count::Optional,
                Elem::Attr(k) => matches!(
                    d.attrs[k].kind,
                    AttrC::Optional(AttrC::Str | AttrC::SymbolName)
                ),
                _ => false,
            };
            if !first_ok {
                return lx.err("an optional group starts with a literal or a variable");
            }
            i += 1 + len as usize;
            continue;
        }
        i += 1;
    }
    // Unit attributes stand only for the group they anchor.
    for (k, e) in elems.iter().enumerate() {
        if let Elem::Attr(a) = e {
            if matches!(d.attrs[*a].kind, AttrC::Unit)
                && !elems
                    .iter()
                    .any(|g| matches!(g, Elem::Optional { anchor, .. } if *anchor as usize == k))
            {
                return lx.err("a unit attribute must anchor an optional group");
            }
        }
    }
    // Every type spelled or known.
    for (i, a) in d.operands.iter().enumerate() {
        if !type_known(d, elems, args, Var::Operand(i), 0) {
            return lx.err(format!("the type of ${} is not known", a.name));
        }
    }
    for (i, a) in d.results.iter().enumerate() {
        if !type_known(d, elems, args, Var::Result(i), 0) {
            return lx.err(format!("the type of result ${} is not known", a.name));
        }
    }
    Ok(())
}

/// Whether the format gives the type of an operand or result: spelled,
/// set by a custom directive, fixed, matched with a known type, or
/// inferred from the one spelled type.
fn type_known(d: &Decl, elems: &[Elem], args: &[CArg], v: Var, depth: usize) -> bool {
    let (arg, t, all) = match v {
        Var::Operand(i) => (&d.operands[i], TypeOf::Operand(i), TypeOf::Operands),
        Var::Result(i) => (&d.results[i], TypeOf::Result(i), TypeOf::Results),
        _ => return false,
    };
    let spelled = elems.iter().any(|e| match *e {
        Elem::Type(u) => u == t || u == all,
        Elem::FunctionalType(a, b) => a == t || b == t || a == all || b == all,
        _ => false,
    }) || args.contains(&CArg::Type(v));
    if spelled {
        return true;
    }
    match arg.ty {
        Ty::Fixed(_) => true,
        Ty::FromAttr(name, _) => elems
            .iter()
            .any(|e| matches!(*e, Elem::Attr(a) if d.attrs[a].name == name)),
        Ty::Like(src, _) | Ty::LikeList(src, _) => {
            let src = var_named(d, src);
            depth < 4 && src.is_some_and(|s| type_known(d, elems, args, s, depth + 1))
        }
        Ty::Any | Ty::Class(_) => {
            !matches!(d.infer, Infer::Spelled)
                && elems
                    .iter()
                    .any(|e| matches!(e, Elem::Type(_) | Elem::FunctionalType(..)))
        }
    }
}

/// The attributes `attr-dict` leaves out: every declared one (those the
/// format spells, and those it derives, as a `VariadicOfVariadic`'s
/// segments), and the operand segment sizes.
fn elided_attrs(d: &Decl) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = d.attrs.iter().map(|a| a.name).collect();
    if d.segmented() {
        out.push("operand_segment_sizes");
    }
    out
}

/// `OpFormatGen`'s spacing, element by element: what is written before
/// each (for a literal, with the literal).
fn prefixes(d: &Decl, elems: &[Elem], ed: Edition) -> Vec<String> {
    let mut prefixes = vec![];
    let (mut space, mut after_punct) = (true, false);
    for e in elems {
        prefixes.push(match e {
            // A unit attribute anchoring its group prints nothing.
            Elem::Attr(a) if matches!(d.attrs[*a].kind, AttrC::Unit) => String::new(),
            Elem::Literal(l) => {
                let before = if after_punct {
                    l.space_after_punct
                } else {
                    l.space_otherwise
                };
                let lead = if space && before { " " } else { "" };
                space = l.space_next;
                after_punct = !l.keyword;
                format!("{lead}{}", l.text)
            }
            Elem::Space(s) => {
                (space, after_punct) = (false, !s);
                if *s { " " } else { "" }.to_string()
            }
            Elem::Newline | Elem::Optional { .. } => String::new(),
            Elem::AttrDict { .. } => {
                after_punct = false;
                String::new()
            }
            // 13's `printRegion` began with a space of its own.
            Elem::Region(_) if ed == Edition::V13 => {
                let lead = if space || !after_punct { "  " } else { " " };
                (space, after_punct) = (true, false);
                lead.to_string()
            }
            _ => {
                let lead = if space || !after_punct { " " } else { "" };
                (space, after_punct) = (true, false);
                lead.to_string()
            }
        });
    }
    prefixes
}

/// An op whose custom form is declared: implemented by [`op!`](crate::op).
pub trait Declared {
    fn decl() -> &'static Decl;
    /// The compiled format of generation `ed` (none where its syntax is
    /// hand-written), built on first use.
    fn format(ed: Edition) -> Option<&'static Format>;
}

/// The parser of a declared op, as the registry calls custom parsers.
///
/// The input's generation may not be known yet when the op is read (a
/// module of LLVM-dialect ops spells none until it does). The syntax of
/// the generation the input has shown so far is tried first; where it
/// fails and another generation the input may still be has another
/// syntax, that one is tried from the same place, and what it reads
/// betrays the generation; not one that ends before where another failed
/// (it read a beginning of the op written in that one). Where none reads
/// it, the error of the one that read furthest is reported (the syntax
/// it was written in, whose generation it then betrays), the first one's
/// on a tie.
pub fn parse<T: Declared>(p: &mut Parser, st: &mut OperationState, n: usize) -> PResult<()> {
    let d = T::decl();
    let first = evidence(p);
    if let Some(f) = T::format(first).filter(|f| f.uniform) {
        parse_with(d, f, p, st, &mut 0)?;
        return canonicalize(d, p, st);
    }
    let mark = Mark::take(p, st);
    // How far the syntax that failed furthest fit the input, and which
    // it was (`None`: the expected one).
    let mut furthest = 0;
    let mut err = match parse_in::<T>(first, p, st, n, &mut furthest) {
        Ok(()) => return canonicalize(d, p, st),
        Err(e) => e,
    };
    let mut culprit = None;
    let mut tried = vec![d.syntax_in(first)];
    for ed in candidates(p, &mark, first) {
        let syn = d.syntax_in(ed);
        if tried.iter().any(|t| t.same(syn)) || !mark.undoable(p) {
            continue;
        }
        tried.push(syn);
        mark.restore(p, st);
        let mut read_to = 0;
        match parse_in::<T>(ed, p, st, n, &mut read_to) {
            // What another syntax failed on lies beyond: this one read a
            // beginning of it (14's `llvm.getelementptr` of 15's with a
            // broken element type).
            Ok(()) if p.pos < furthest => {}
            Ok(()) => {
                note_syntax(p, d, syn);
                return canonicalize(d, p, st);
            }
            Err(e) if read_to > furthest => (err, furthest, culprit) = (e, read_to, Some(syn)),
            Err(_) => {}
        }
    }
    if let Some(syn) = culprit {
        mark.restore(p, st);
        note_syntax(p, d, syn);
    }
    Err(err)
}

/// The op's [`Decl::canonicalize`], once a syntax has read it (and noted
/// the generation it betrays).
fn canonicalize(d: &Decl, p: &mut Parser, st: &mut OperationState) -> PResult<()> {
    if let Some(f) = d.canonicalize {
        let n = st.operands.len();
        f(p, &mut st.attrs, n);
    }
    Ok(())
}

/// Reads the op in generation `ed`'s syntax; `read_to` as
/// [`parse_with`] says (a hand-written parser's: where it failed).
fn parse_in<T: Declared>(
    ed: Edition,
    p: &mut Parser,
    st: &mut OperationState,
    n: usize,
    read_to: &mut usize,
) -> PResult<()> {
    match (T::decl().syntax_in(ed), T::format(ed)) {
        (Syntax::Hand(parse, _), _) => parse(p, st, n).inspect_err(|e| *read_to = e.pos),
        (Syntax::Format(_), Some(f)) => parse_with(T::decl(), f, p, st, read_to),
        (Syntax::Format(_), None) => unreachable!("a declared format compiles"),
    }
}

/// Where the parser stood before an op's custom form, to read it again
/// in another generation's syntax.
struct Mark {
    pos: usize,
    seen: Option<Edition>,
    legacy_func: bool,
    operands: usize,
    results: usize,
    attrs: usize,
    successors: usize,
    regions: usize,
    ops: usize,
    blocks: usize,
}

impl Mark {
    fn take(p: &Parser, st: &OperationState) -> Mark {
        Mark {
            pos: p.pos,
            seen: p.seen,
            legacy_func: p.saw_legacy_func,
            operands: st.operands.len(),
            results: st.result_types.len(),
            attrs: st.attrs.len(),
            successors: st.successors.len(),
            regions: st.regions.len(),
            ops: p.ctx.num_ops(),
            blocks: p.ctx.num_blocks(),
        }
    }
    /// Nothing read since is kept elsewhere: no op or block was made (a
    /// region read, a forward reference), so reading again is sound.
    fn undoable(&self, p: &Parser) -> bool {
        p.ctx.num_ops() == self.ops && p.ctx.num_blocks() == self.blocks
    }
    fn restore(&self, p: &mut Parser, st: &mut OperationState) {
        p.pos = self.pos;
        p.seen = self.seen;
        p.saw_legacy_func = self.legacy_func;
        st.operands.truncate(self.operands);
        st.result_types.truncate(self.results);
        st.attrs.truncate(self.attrs);
        st.successors.truncate(self.successors);
        st.regions.truncate(self.regions);
    }
}

/// The generations the input may be, besides `first`, as the parser's
/// evidence stood at `mark` (a generation it spelled is certain; `arith`
/// ops say 14 or later; a legacy `func`, 13 or 14).
fn candidates(p: &Parser, mark: &Mark, first: Edition) -> Vec<Edition> {
    let _ = p;
    let possible: &[Edition] = match (mark.seen, mark.legacy_func) {
        (Some(Edition::V13), _) | (Some(Edition::V15), _) => &[],
        (Some(Edition::V14), true) => &[],
        (Some(Edition::V14), false) => &[Edition::V14, Edition::V15],
        (None, true) => &[Edition::V14, Edition::V13],
        (None, false) => &[Edition::V15, Edition::V14, Edition::V13],
    };
    possible.iter().copied().filter(|&e| e != first).collect()
}

/// Records what a syntax read in place of the expected one betrays: the
/// generations that have it.
fn note_syntax(p: &mut Parser, d: &Decl, syn: Syntax) {
    let has = EDITIONS.map(|e| d.syntax_in(e).same(syn));
    match has {
        [true, false, false] => p.note_edition(Edition::V13),
        [false, false, true] => p.note_edition(Edition::V15),
        [_, true, false] => p.note_before_15(),
        // 14 and 15 (or all): no mark for that.
        _ => {}
    }
}

/// Which ops a format spells, where its one type stands for several
/// (`SameOperandsAndResultType` lets operands differ from the result in
/// compatible shapes, `tensor<?xi32>` for `tensor<2xi32>`; upstream then
/// prints a custom form that does not read back).
pub fn custom_fits(infer: Infer) -> Option<mlir_async_syntax::CustomFitsFn> {
    fn all_same(ctx: &Context, op: Op) -> bool {
        let t = |v: &Value| ctx.value_type(*v);
        let mut types = ctx.operands(op).iter().chain(ctx.results(op)).map(t);
        types.next().is_none_or(|first| types.all(|u| u == first))
    }
    fn same_operands(ctx: &Context, op: Op) -> bool {
        let mut types = ctx.operands(op).iter().map(|v| ctx.value_type(*v));
        types.next().is_none_or(|first| types.all(|u| u == first))
    }
    match infer {
        Infer::Spelled => None,
        Infer::AllSame => Some(all_same),
        Infer::SameOperands(_) => Some(same_operands),
    }
}

/// The printer of a declared op: the syntax of the generation printed,
/// or of the next that can spell the op (see [`Decl::expressible`]).
pub fn print<T: Declared>(p: &mut Printer, op: Op) {
    let mut ed = p.edition();
    if let Some(can) = T::decl().expressible {
        while !can(p.ctx, op, ed) {
            ed = match ed {
                Edition::V13 => Edition::V14,
                Edition::V14 => Edition::V15,
                Edition::V15 => break,
            };
        }
    }
    match (T::decl().syntax_in(ed), T::format(ed)) {
        (Syntax::Hand(_, print), _) => print(p, op),
        (Syntax::Format(_), Some(f)) => print_with(T::decl(), f, p, op),
        (Syntax::Format(_), None) => unreachable!("a declared format compiles"),
    }
}

/// Where one operand group's references sit on the parser's pending
/// stack, and where it was read (for errors about it).
#[derive(Clone, Copy, Default)]
struct Slot {
    start: u32,
    end: u32,
    pos: u32,
    set: bool,
}

impl Slot {
    fn len(self) -> usize {
        (self.end - self.start) as usize
    }
}

/// The types given to a group, on the parser's stack of pending types.
#[derive(Clone, Copy, Default)]
struct Span {
    start: u32,
    end: u32,
    set: bool,
}

/// What the parser has read of an op so far: where each operand group's
/// references sit on the parser's pending stack, the types given to each
/// operand and result group (on its stack of pending types), and the
/// state being built (attributes, successors, regions). Custom
/// directives read into it.
pub struct Frame<'s> {
    pub st: &'s mut OperationState,
    decl: &'static Decl,
    slots: [Slot; MAX_GROUPS],
    /// The `operands` directive's list.
    all: Slot,
    operand_types: [Span; MAX_GROUPS],
    result_types: [Span; MAX_GROUPS],
    /// `type(operands)`, `type(results)`, `functional-type(...)`'s lists.
    all_operand_types: Span,
    all_result_types: Span,
    /// The first type spelled: what [`Infer`] reads.
    first: Option<Type>,
    /// Where the op's name starts (`parser.getNameLoc()`).
    pub name_pos: usize,
}

impl Frame<'_> {
    /// Gives operand or result group `v` the types `tys`.
    pub fn set_types(&mut self, p: &mut Parser, v: Var, tys: &[Type]) {
        let start = p.pending_types(0).len();
        for &t in tys {
            p.push_pending_type(t);
        }
        self.first = self.first.or(tys.first().copied());
        let span = Span {
            start: start as u32,
            end: (start + tys.len()) as u32,
            set: true,
        };
        match v {
            Var::Operand(i) => self.operand_types[i] = span,
            Var::Result(i) => self.result_types[i] = span,
            _ => {}
        }
    }
    /// The types given to group `v` so far (`ref(type($x))`).
    pub fn types<'p>(&self, p: &'p Parser, v: Var) -> &'p [Type] {
        let span = match v {
            Var::Operand(i) => self.operand_types[i],
            Var::Result(i) => self.result_types[i],
            _ => Span::default(),
        };
        if !span.set {
            return &[];
        }
        &p.pending_types(0)[span.start as usize..span.end as usize]
    }
    /// Starts group `g` here, reported at `pos` (a custom directive's
    /// groups: its operands are read after each other).
    pub fn begin_group(&mut self, p: &mut Parser, g: usize, pos: usize) {
        let at = p.pending(0).len() as u32;
        self.slots[g] = Slot {
            start: at,
            end: at,
            pos: pos as u32,
            set: true,
        };
    }
    /// Reads one operand reference into group `g` (its references must
    /// be read one after the other).
    pub fn parse_operand(&mut self, p: &mut Parser, g: usize) -> PResult<()> {
        p.skip_ws();
        let pos = p.pos;
        let mark = p.parse_operand_pending()?;
        let s = &mut self.slots[g];
        if !s.set {
            *s = Slot {
                start: mark as u32,
                end: mark as u32,
                pos: pos as u32,
                set: true,
            };
        }
        s.end = (mark + 1) as u32;
        Ok(())
    }
    /// Marks group `g` read (with no operands, if none were read).
    pub fn close_group(&mut self, p: &mut Parser, g: usize) {
        if !self.slots[g].set {
            let at = p.pending(0).len() as u32;
            self.slots[g] = Slot {
                start: at,
                end: at,
                pos: p.pos as u32,
                set: true,
            };
        }
    }
    /// The name of attribute `a` of the op.
    pub fn attr_name(&self, a: usize) -> &'static str {
        self.decl.attrs[a].name
    }
    /// The number of operands read into group `g`.
    pub fn operand_count(&self, g: usize) -> usize {
        self.slots[g].len()
    }
    /// `(%a, %b : T, U)` after a successor, if there (MLIR's
    /// `parseOptionalLParen`, `parseOperandList`, `parseColonTypeList`):
    /// the operands into group `g`, their types onto `types`.
    pub fn parse_successor_operands(
        &mut self,
        p: &mut Parser,
        g: usize,
        types: &mut Vec<Type>,
    ) -> PResult<()> {
        if !p.eat("(") {
            return Ok(());
        }
        // `parseOperandList`: none at all is a list too.
        if p.peek() == b'%' {
            loop {
                self.parse_operand(p, g)?;
                if !p.eat(",") {
                    break;
                }
            }
        }
        p.expect(":")?;
        types.extend(p.parse_type_list_no_parens()?);
        p.expect(")")
    }
    /// An `int32_t` or `int64_t` (`bits`), if one is next: MLIR's
    /// `OpAsmParser::parseOptionalInteger` (a `-` commits to an integer;
    /// a float literal is none), with its range check (see
    /// [`mlir_int_fits`]).
    pub fn parse_optional_integer(&self, p: &mut Parser, bits: u32) -> PResult<Option<i128>> {
        p.skip_ws();
        let at = p.pos;
        // `-` is a token of its own: the integer may follow after a space.
        let neg = p.eat_byte(b'-');
        if !p.peek().is_ascii_digit() {
            return match neg {
                true => p.err_here("expected integer value"),
                false => Ok(None),
            };
        }
        let hex = p.peek() == b'0' && p.peek_at(1) == b'x' && p.peek_at(2).is_ascii_hexdigit();
        if p.peek() == b'0' && p.peek_at(1) == b'x' && !hex {
            // `0x` with no digit is the integer `0` and then `x`.
            p.pos += 1;
            return Ok(Some(0));
        }
        let digits = (0..).take_while(|&i| p.peek_at(i).is_ascii_digit()).count();
        if p.peek_at(digits) == b'.' {
            // A float literal.
            return match neg {
                true => p.err_here("expected integer value"),
                false => Ok(None),
            };
        }
        let Some(m) = p.int_lit() else {
            return p.err_here("integer value too large");
        };
        // The significant digits, as written (leading zeros do not count).
        let radix: u128 = if hex { 16 } else { 10 };
        let digits = std::iter::successors(Some(m.unsigned_abs()), |m| Some(m / radix))
            .take_while(|&m| m > 0)
            .count();
        match mlir_int_fits(neg, m.unsigned_abs(), digits, bits) {
            Some(v) => Ok(Some(v)),
            None => op_err(p, self.decl, at, "integer value too large"),
        }
    }
}

/// Whether MLIR's `parseOptionalInteger<intN_t>` takes a literal of
/// `digits` significant digits and magnitude `mag`, and the `intN_t` it
/// reads. It reads the literal into an `APInt` of 4 bits a digit (one
/// more when the top one is set; 64 for zero), negates it there, and
/// takes it if the `intN_t` it truncates to, widened to `uint64_t`,
/// comes back the same at that width: the signed range, all of
/// `uint64_t` for 64 bits, but no negative of 17 digits or more.
pub fn mlir_int_fits(neg: bool, mag: u128, digits: usize, bits: u32) -> Option<i128> {
    let mut w = if digits == 0 { 64 } else { 4 * digits as u32 };
    if w > 128 {
        // Wider than any `int64_t` spans: only a non-negative that fits
        // 64 bits zero-extended comes back the same.
        return match neg && mag != 0 {
            true => None,
            false => u64::try_from(mag)
                .ok()
                .and_then(|m| mlir_int_fits(false, m.into(), 16, bits)),
        };
    }
    let mask = |w: u32| {
        if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        }
    };
    if w < 128 && mag >> (w - 1) & 1 == 1 {
        w += 1;
    }
    let r = if neg {
        mag.wrapping_neg() & mask(w)
    } else {
        mag & mask(w)
    };
    // `sextOrTrunc(bits)`, as a signed `intN_t`.
    let shift = 128 - w.min(bits);
    let low = ((r << shift) as i128) >> shift;
    // `APInt(w, (uint64_t)result)`.
    let back = (low as i64 as u64 as u128) & mask(w);
    (back == r).then_some(low)
}

/// Reads the op's custom form with format `f`. `read_to`: where the
/// element that failed began (the end, when resolving failed): how far
/// the syntax fit the input.
fn parse_with(
    d: &'static Decl,
    f: &Format,
    p: &mut Parser,
    st: &mut OperationState,
    read_to: &mut usize,
) -> PResult<()> {
    if let Some(simple) = &f.simple {
        return parse_simple(d, simple, p, st, read_to);
    }
    let obase = p.pending(0).len();
    let tbase = p.pending_types(0).len();
    let mut fr = Frame {
        st,
        decl: d,
        slots: [Slot::default(); MAX_GROUPS],
        all: Slot::default(),
        operand_types: [Span::default(); MAX_GROUPS],
        result_types: [Span::default(); MAX_GROUPS],
        all_operand_types: Span::default(),
        all_result_types: Span::default(),
        first: None,
        name_pos: p.op_name_pos,
    };
    let r = parse_elems(d, f, p, &mut fr, read_to).and_then(|()| {
        *read_to = p.pos;
        resolve(d, f, p, &mut fr, obase)
    });
    p.drop_pending(obase);
    p.drop_pending_types(tbase);
    r
}

/// [`parse_with`] of a [`Format::simple`] format: the elements read as
/// `parse_elems` reads them, and resolved as `resolve` resolves a
/// `one_sweep` format, the spelled type kept in a local.
fn parse_simple(
    d: &Decl,
    f: &Simple,
    p: &mut Parser,
    st: &mut OperationState,
    read_to: &mut usize,
) -> PResult<()> {
    let obase = p.pending(0).len();
    let r = read_simple(f, p, st, read_to).and_then(|ty| {
        *read_to = p.pos;
        p.resolve_pending_same(obase, ty, &mut st.operands)?;
        for (r, a) in d.results.iter().enumerate() {
            let t = match (d.infer, a.ty) {
                _ if f.spelled == TypeOf::Result(r) => ty,
                (Infer::SameOperands(result_of), Ty::Any) => result_of(p.ctx, ty),
                (_, Ty::Fixed(make)) => make(p.ctx),
                // `group_type`: the spelled type (`AllSame`).
                _ => ty,
            };
            st.result_types.push(t);
        }
        Ok(())
    });
    p.drop_pending(obase);
    r
}

/// The elements of a [`Format::simple`] format; the spelled type. On an
/// error, `read_to` is where the element that failed began.
#[inline(always)]
fn read_simple(
    f: &Simple,
    p: &mut Parser,
    st: &mut OperationState,
    read_to: &mut usize,
) -> PResult<Type> {
    let mut ty = None;
    for &step in &f.steps {
        let at = p.pos;
        let r = match step {
            SimpleStep::Punct(text) => p.expect(text),
            // Nearly every op has no attributes: no call for them.
            SimpleStep::AttrDict if p.peek() != b'{' => Ok(()),
            SimpleStep::AttrDict => attr_dict(p, st),
            SimpleStep::Operand => p.parse_operand_pending().map(|_| ()),
            SimpleStep::Type => match p.parse_scalar_type() {
                Some(t) => {
                    ty = Some(t);
                    Ok(())
                }
                None => p.parse_type().map(|t| ty = Some(t)),
            },
        };
        if let Err(e) = r {
            *read_to = at;
            return Err(e);
        }
    }
    Ok(ty.expect("a simple format spells one type"))
}

/// The generation the input has shown so far (a legacy `func`: 14 at
/// least; nothing: 15).
fn evidence(p: &Parser) -> Edition {
    p.seen.unwrap_or(if p.saw_legacy_func {
        Edition::V14
    } else {
        Edition::V15
    })
}

/// An error of the op's parser, as MLIR's `OpAsmParser::emitError`
/// words it: `custom op 'name' ...`, the name as the generation spells it.
pub fn op_err<T>(p: &Parser, d: &Decl, pos: usize, msg: impl std::fmt::Display) -> PResult<T> {
    let name = mlir_async_syntax::edition::generic_name(d.name, evidence(p));
    p.err(pos, format!("custom op '{name}' {msg}"))
}

fn parse_elems(
    d: &Decl,
    f: &Format,
    p: &mut Parser,
    fr: &mut Frame,
    read_to: &mut usize,
) -> PResult<()> {
    let mut i = 0;
    while i < f.elems.len() {
        *read_to = p.pos;
        if let Elem::Optional { len, .. } = f.elems[i] {
            let end = i + 1 + len as usize;
            // Whitespace first decides nothing (`(`` `[` $x^ `]`)?`).
            let first = (i + 1..end)
                .find(|&k| !matches!(f.elems[k], Elem::Space(_) | Elem::Newline))
                .unwrap_or(i + 1);
            if parse_first(d, f, p, fr, f.elems[first])? {
                for &e in &f.elems[first + 1..end] {
                    *read_to = p.pos;
                    parse_elem(d, f, p, fr, e)?;
                }
            }
            i = end;
            continue;
        }
        parse_elem(d, f, p, fr, f.elems[i])?;
        i += 1;
    }
    Ok(())
}

/// Reads the first element of an optional group if it is there; says
/// whether the group is (ODS's `parseOptional...`).
fn parse_first(d: &Decl, f: &Format, p: &mut Parser, fr: &mut Frame, e: Elem) -> PResult<bool> {
    let present = match e {
        Elem::Literal(l) => {
            return Ok(if l.keyword {
                p.eat_keyword(l.text)
            } else {
                p.eat(l.text)
            })
        }
        Elem::Operand(g) if d.operands[g].count == Count::Variadic => {
            parse_elem(d, f, p, fr, e)?;
            return Ok(fr.slots[g].len() > 0);
        }
        Elem::Operand(_) => p.peek() == b'%',
        Elem::Region(_) => p.peek() == b'{',
        Elem::Successor(_) => p.peek() == b'^',
        Elem::Attr(a) => match d.attrs[a].kind {
            AttrC::Optional(AttrC::Str) => p.peek() == b'"',
            AttrC::Optional(AttrC::SymbolName) => p.peek() == b'@',
            _ => false,
        },
        _ => false,
    };
    if present {
        parse_elem(d, f, p, fr, e)?;
    } else if let Elem::Operand(g) = e {
        fr.close_group(p, g);
    }
    Ok(present)
}

/// Reads one element: the few kinds every op has (punctuation, a single
/// operand, `attr-dict`) here, inlined into the loops over the elements,
/// the rest out of line ([`parse_other_elem`]). Always inlined: a call
/// per element cost as much as reading most of them.
#[inline(always)]
fn parse_elem(d: &Decl, f: &Format, p: &mut Parser, fr: &mut Frame, e: Elem) -> PResult<()> {
    match e {
        Elem::Literal(l) if !l.keyword => p.expect(l.text),
        Elem::Space(_) | Elem::Newline | Elem::Optional { .. } => Ok(()),
        // Nearly every op has no attributes: no call for them.
        Elem::AttrDict { keyword: false } if p.peek() != b'{' => Ok(()),
        Elem::Operand(g) if d.operands[g].count == Count::One => {
            p.skip_ws();
            let pos = p.pos;
            let start = p.parse_operand_pending()?;
            fr.slots[g] = Slot {
                start: start as u32,
                end: start as u32 + 1,
                pos: pos as u32,
                set: true,
            };
            Ok(())
        }
        _ => parse_other_elem(d, f, p, fr, e),
    }
}

#[inline(never)]
fn parse_other_elem(d: &Decl, f: &Format, p: &mut Parser, fr: &mut Frame, e: Elem) -> PResult<()> {
    match e {
        Elem::Literal(l) => {
            if !l.keyword {
                return p.expect(l.text);
            }
            // `parseKeyword` reports through the op's parser, where the
            // next token is.
            if !p.eat_keyword(l.text) {
                p.skip_ws();
                return op_err(p, d, p.pos, format!("expected '{}'", l.text));
            }
            Ok(())
        }
        Elem::Space(_) | Elem::Newline | Elem::Optional { .. } => Ok(()),
        Elem::AttrDict { keyword: false } => attr_dict(p, fr.st),
        Elem::AttrDict { keyword: true } => attr_dict_kw(p, fr.st),
        Elem::Operand(g) => {
            p.skip_ws();
            let pos = p.pos;
            let start = match d.operands[g].count {
                Count::One => p.parse_operand_pending()?,
                Count::Optional if p.peek() == b'%' => p.parse_operand_pending()?,
                Count::Optional => p.pending(0).len(),
                Count::Variadic => p.parse_operand_list_pending()?,
            };
            fr.slots[g] = Slot {
                start: start as u32,
                end: p.pending(0).len() as u32,
                pos: pos as u32,
                set: true,
            };
            Ok(())
        }
        Elem::Operands => {
            p.skip_ws();
            let pos = p.pos;
            let start = p.parse_operand_list_pending()?;
            fr.all = Slot {
                start: start as u32,
                end: p.pending(0).len() as u32,
                pos: pos as u32,
                set: true,
            };
            Ok(())
        }
        Elem::Attr(a) => parse_attr(d, p, fr, a),
        Elem::Successor(_) => {
            let b: Block = p.parse_successor()?;
            fr.st.successors.push(b);
            Ok(())
        }
        Elem::Region(i) => {
            // 13's two spaces before a region (see `prefixes`): the only
            // mark of its generation a module of LLVM-dialect ops may carry.
            if p.two_spaces_before_next() && p.peek() == b'{' {
                p.note_edition(Edition::V13);
            }
            let r = p.parse_region(&[], false)?;
            if d.regions[i].count == Count::One && p.ctx.region_is_empty(r) {
                let b = p.ctx.create_block(&[]);
                p.ctx.append_block(r, b);
            }
            fr.st.regions.push(r);
            Ok(())
        }
        Elem::Type(t) => {
            let (v, arg) = match t {
                TypeOf::Operand(i) => (Var::Operand(i), d.operands[i]),
                TypeOf::Result(i) => (Var::Result(i), d.results[i]),
                TypeOf::Operands | TypeOf::Results => {
                    let start = p.pending_types(0).len();
                    const ANY: Arg = Arg {
                        name: "",
                        count: Count::Variadic,
                        ty: Ty::Any,
                    };
                    parse_type_list(d, p, &ANY, fr.name_pos)?;
                    let span = Span {
                        start: start as u32,
                        end: p.pending_types(0).len() as u32,
                        set: true,
                    };
                    fr.first = fr.first.or(p.pending_types(start).first().copied());
                    if t == TypeOf::Operands {
                        fr.all_operand_types = span;
                    } else {
                        fr.all_result_types = span;
                    }
                    return Ok(());
                }
            };
            let start = p.pending_types(0).len();
            match arg.count {
                Count::One | Count::Optional => {
                    let t = parse_one_type(d, p, &arg, fr.name_pos)?;
                    p.push_pending_type(t);
                }
                Count::Variadic => parse_type_list(d, p, &arg, fr.name_pos)?,
            }
            let span = Span {
                start: start as u32,
                end: p.pending_types(0).len() as u32,
                set: true,
            };
            fr.first = fr.first.or(p.pending_types(start).first().copied());
            match v {
                Var::Operand(i) => fr.operand_types[i] = span,
                _ => {
                    if let Var::Result(i) = v {
                        fr.result_types[i] = span
                    }
                }
            }
            Ok(())
        }
        Elem::FunctionalType(a, b) => {
            p.skip_ws();
            let pos = p.pos;
            let t = p.parse_type()?;
            let (ins, outs) = match p.ctx.kind(t) {
                mlir_async_ir::TypeKind::Function(ins, outs) => (ins.clone(), outs.clone()),
                _ => return op_err(p, d, pos, "invalid kind of type specified"),
            };
            for (side, tys) in [(a, ins), (b, outs)] {
                let start = p.pending_types(0).len();
                for &t in &tys {
                    p.push_pending_type(t);
                }
                let span = Span {
                    start: start as u32,
                    end: p.pending_types(0).len() as u32,
                    set: true,
                };
                match side {
                    TypeOf::Operands => fr.all_operand_types = span,
                    TypeOf::Results => fr.all_result_types = span,
                    TypeOf::Operand(i) => fr.operand_types[i] = span,
                    TypeOf::Result(i) => fr.result_types[i] = span,
                }
            }
            Ok(())
        }
        Elem::Custom(i, from, to) => {
            (d.customs[i].parse)(p, fr, &f.args[from as usize..to as usize])
        }
    }
}

/// One type of a `type(...)` directive: of its class, if it has one
/// (its short form where the type does not start with `!`).
fn parse_one_type(d: &Decl, p: &mut Parser, arg: &Arg, name_pos: usize) -> PResult<Type> {
    let Ty::Class(c) = arg.ty else {
        return p.parse_type();
    };
    p.skip_ws();
    let pos = p.pos;
    if let Some(s) = c.short {
        if p.peek() != b'!' {
            return (s.parse)(p);
        }
    }
    let t = p.parse_type()?;
    if (c.is)(p.ctx, t) {
        return Ok(t);
    }
    // 14 and 15 read a class's type as that class (`Type` where they
    // read the short form too).
    if c.cpp.is_some_and(|e| evidence(p) >= e) {
        let what = if c.short.is_some() { "Type" } else { "type" };
        return op_err(p, d, pos, format!("invalid kind of {what} specified"));
    }
    // A type others are computed from is checked before they are.
    let source = d
        .operands
        .iter()
        .chain(d.results)
        .any(|a| matches!(a.ty, Ty::Like(src, _) | Ty::LikeList(src, _) if src == arg.name));
    if source {
        let t = mlir_async_syntax::print_type(p.ctx, t);
        let msg = format!("'{}' must be {}, but got '{t}'", arg.name, c.summary);
        return op_err(p, d, name_pos, msg);
    }
    Ok(t)
}

/// `T, U, ...` onto the pending types.
fn parse_type_list(d: &Decl, p: &mut Parser, arg: &Arg, name_pos: usize) -> PResult<()> {
    loop {
        let t = parse_one_type(d, p, arg, name_pos)?;
        p.push_pending_type(t);
        if !p.eat_byte(b',') {
            return Ok(());
        }
    }
}

fn parse_attr(d: &Decl, p: &mut Parser, fr: &mut Frame, a: usize) -> PResult<()> {
    let AttrDecl { name, kind } = d.attrs[a];
    let kind = match kind {
        AttrC::Optional(k) => *k,
        k => k,
    };
    let attr = match kind {
        AttrC::Enum(keywords) => parse_enum(d, p, name, keywords)?,
        AttrC::EnumUpTo(keywords, n) => {
            let n = n(evidence(p)).min(keywords.len());
            parse_enum(d, p, name, &keywords[..n])?
        }
        AttrC::Unit => p.ctx.unit_attr(),
        AttrC::Str => {
            p.skip_ws();
            let pos = p.pos;
            // `StrAttr`'s type is `none`: read with it, no `: type` follows.
            let none = p.ctx.none_type();
            let a = p.parse_attribute(Some(none))?;
            if !matches!(p.ctx.attr_kind(a), AttrKind::String(_, None)) {
                return op_err(p, d, pos, "invalid kind of attribute specified");
            }
            a
        }
        AttrC::SymbolName => {
            let s = p.symbol_name()?;
            p.ctx.string_attr(&s)
        }
        AttrC::FlatSymbolRef => {
            p.skip_ws();
            let pos = p.pos;
            let a = p.parse_attribute(None)?;
            if !matches!(p.ctx.attr_kind(a), AttrKind::SymbolRef(_, nested) if nested.is_empty()) {
                return op_err(p, d, pos, "invalid kind of attribute specified");
            }
            a
        }
        AttrC::Typed(ty) => {
            let t = ty(p.ctx);
            p.skip_ws();
            let pos = p.pos;
            let a = p.parse_attribute(Some(t))?;
            // Of the storage class its type says (`IntegerAttr`, `FloatAttr`).
            let ok = match p.ctx.attr_kind(a) {
                AttrKind::Integer(..) | AttrKind::WideInteger(..) => {
                    p.ctx.kind(t).is_int_or_index()
                }
                AttrKind::Float(..) | AttrKind::WideFloat(..) => p.ctx.kind(t).is_float(),
                _ => false,
            };
            if !ok {
                return op_err(p, d, pos, "invalid kind of attribute specified");
            }
            a
        }
        AttrC::Any => p.parse_attribute(None)?,
        AttrC::TypeAttr => {
            p.skip_ws();
            let pos = p.pos;
            // Read as any attribute of type `none` (a type is one).
            let none = p.ctx.none_type();
            let a = p.parse_attribute(Some(none))?;
            if !matches!(p.ctx.attr_kind(a), AttrKind::Type(_)) {
                return op_err(p, d, pos, "invalid kind of attribute specified");
            }
            a
        }
        AttrC::Array => {
            p.skip_ws();
            let pos = p.pos;
            let a = p.parse_attribute(None)?;
            if !matches!(p.ctx.attr_kind(a), AttrKind::Array(_)) {
                return op_err(p, d, pos, "invalid kind of attribute specified");
            }
            a
        }
        AttrC::Elements => {
            p.skip_ws();
            let pos = p.pos;
            let a = p.parse_attribute(None)?;
            // 13 leaves the kind to the verifier.
            let late = evidence(p) == mlir_async_syntax::Edition::V13;
            if !late && !matches!(p.ctx.attr_kind(a), AttrKind::Dense(..)) {
                return op_err(p, d, pos, "invalid kind of attribute specified");
            }
            a
        }
        AttrC::Optional(_) => unreachable!("unwrapped above"),
    };
    let s = p.static_sym(name);
    fr.st.attrs.push((s, attr));
    Ok(())
}

/// An enum attribute's keyword (or the keyword quoted), as the value of
/// its case.
fn parse_enum(
    d: &Decl,
    p: &mut Parser,
    name: &'static str,
    keywords: &[&str],
) -> PResult<Attribute> {
    p.skip_ws();
    let pos = p.pos;
    // A string that does not lex (unterminated, a bad escape) is the
    // lexer's error, as upstream reports it, before any word is looked at.
    let quoted = p.peek() == b'"';
    let word = if quoted {
        Some(p.string_lit_bytes()?)
    } else {
        p.ident().map(|w| w.as_bytes().to_vec())
    };
    let found = word
        .as_deref()
        .and_then(|w| keywords.iter().position(|&k| k.as_bytes() == w));
    let Some(k) = found else {
        // A string is read as a string attribute first, then looked up:
        // upstream names the attribute it read. (`op_err` names the op as
        // the generation spells it: 13's `std.cmpi`.)
        if let (true, Some(w)) = (quoted, &word) {
            let mut text = String::new();
            mlir_async_syntax::printer::print_string_bytes(w, &mut text);
            let msg = format!("invalid {name} attribute specification: {text}");
            return op_err(p, d, pos, msg);
        }
        let msg = format!(
            "expected string or keyword containing one of the following enum values for attribute '{name}' [{}]",
            keywords.join(", ")
        );
        return op_err(p, d, pos, msg);
    };
    Ok(p.memo_attr(name, k as u64, |ctx| {
        let i64t = ctx.int_type(64);
        ctx.int_attr(k as i128, i64t)
    }))
}

/// Tags the memo of declared segment sizes (its own literal: tags are
/// told apart by address).
const SEGMENTS_MEMO: &str = "operand_segment_sizes (declared)";

/// After the format is read: operands resolved against their types in
/// the declared order, segment sizes, result types.
fn resolve(d: &Decl, f: &Format, p: &mut Parser, fr: &mut Frame, obase: usize) -> PResult<()> {
    if f.one_sweep {
        let Some(ty) = fr.first else {
            return op_err(p, d, fr.name_pos, "has no type");
        };
        let first = if d.operands.is_empty() {
            p.pending(0).len()
        } else {
            fr.slots[0].start as usize
        };
        p.resolve_pending_same(first, ty, &mut fr.st.operands)?;
    } else if fr.all.set || fr.all_operand_types.set {
        resolve_all_operands(d, p, fr, obase)?;
    } else {
        for g in 0..d.operands.len() {
            let slot = fr.slots[g];
            let n = slot.len();
            let span = fr.operand_types[g];
            if span.set {
                let m = (span.end - span.start) as usize;
                if m != n {
                    let msg = format!("{n} operands present, but expected {m}");
                    return op_err(p, d, slot.pos as usize, msg);
                }
                for k in 0..n {
                    let u = p.pending(0)[slot.start as usize + k];
                    let t = p.pending_types(0)[span.start as usize + k];
                    let v = p.resolve_operand(&u, t)?;
                    fr.st.operands.push(v);
                }
                continue;
            }
            if let Some(tys) = list_types(d, p, fr, &d.operands[g]) {
                let Some(tys) = tys else {
                    return op_err(p, d, slot.pos as usize, "invalid kind of type specified");
                };
                if tys.len() != n {
                    let msg = format!("{n} operands present, but expected {}", tys.len());
                    return op_err(p, d, slot.pos as usize, msg);
                }
                for (k, t) in tys.into_iter().enumerate() {
                    let u = p.pending(0)[slot.start as usize + k];
                    let v = p.resolve_operand(&u, t)?;
                    fr.st.operands.push(v);
                }
                continue;
            }
            if n == 0 {
                continue;
            }
            let Some(t) = group_type(d, p, fr, Var::Operand(g), 0) else {
                return op_err(p, d, slot.pos as usize, "invalid kind of type specified");
            };
            for k in 0..n {
                let u = p.pending(0)[slot.start as usize + k];
                let v = p.resolve_operand(&u, t)?;
                fr.st.operands.push(v);
            }
        }
    }
    if d.segmented() {
        let sizes: Vec<usize> = (0..d.operands.len()).map(|g| fr.slots[g].len()).collect();
        let seg = if sizes.len() <= 8 && sizes.iter().all(|&s| s < 256) {
            let key = sizes.iter().rev().fold(0u64, |k, &s| k << 8 | s as u64);
            p.memo_attr(SEGMENTS_MEMO, key | (sizes.len() as u64) << 60, |ctx| {
                crate::util::segment_sizes(ctx, &sizes)
            })
        } else {
            crate::util::segment_sizes(p.ctx, &sizes)
        };
        let s = p.static_sym("operand_segment_sizes");
        fr.st.attrs.push((s, seg));
    }
    if fr.all_result_types.set {
        // `type(results)`, `functional-type(.., results)`: every type
        // read is a result (`addTypes(allResultTypes)`); how many the op
        // may have is for the verifier and the results bound to say.
        let s = fr.all_result_types;
        for k in s.start..s.end {
            let t = p.pending_types(0)[k as usize];
            fr.st.result_types.push(t);
        }
        return Ok(());
    }
    for r in 0..d.results.len() {
        let span = fr.result_types[r];
        if span.set {
            for k in span.start..span.end {
                let t = p.pending_types(0)[k as usize];
                fr.st.result_types.push(t);
            }
            continue;
        }
        if let Some(tys) = list_types(d, p, fr, &d.results[r]) {
            fr.st.result_types.extend(tys.unwrap_or_default());
            continue;
        }
        if let (Infer::SameOperands(result_of), Ty::Any, Some(t)) =
            (d.infer, d.results[r].ty, fr.first)
        {
            let t = result_of(p.ctx, t);
            fr.st.result_types.push(t);
            continue;
        }
        match group_type(d, p, fr, Var::Result(r), 0) {
            Some(t) => fr.st.result_types.push(t),
            // An optional result no directive gave a type has none.
            None if d.results[r].count == Count::Optional => {}
            None => {
                let msg = format!("cannot infer the type of result '{}'", d.results[r].name);
                return op_err(p, d, fr.name_pos, msg);
            }
        }
    }
    Ok(())
}

/// `operands` or `type(operands)`: the references in the declared order
/// against the types of every group in order.
fn resolve_all_operands(d: &Decl, p: &mut Parser, fr: &mut Frame, obase: usize) -> PResult<()> {
    // The references, in order: the `operands` list, or each group's.
    let refs: Vec<mlir_async_syntax::UnresolvedOperand> = if fr.all.set {
        p.pending(fr.all.start as usize)[..fr.all.len()].to_vec()
    } else {
        (0..d.operands.len())
            .flat_map(|g| {
                // A group in an optional group left out was never read.
                let s = fr.slots[g];
                match s.set {
                    true => {
                        p.pending(obase)[s.start as usize - obase..s.end as usize - obase].to_vec()
                    }
                    false => vec![],
                }
            })
            .collect()
    };
    // Operands read group by group are reported at the op's name.
    let pos = if fr.all.set {
        fr.all.pos as usize
    } else {
        fr.name_pos
    };
    // The types, in order: `type(operands)`'s list, or each group's.
    let tys: Vec<Type> = if fr.all_operand_types.set {
        let s = fr.all_operand_types;
        p.pending_types(0)[s.start as usize..s.end as usize].to_vec()
    } else {
        let mut tys = vec![];
        let n = refs.len();
        let fixed = d.operands.iter().filter(|a| a.count == Count::One).count();
        for g in 0..d.operands.len() {
            let span = fr.operand_types[g];
            if span.set {
                tys.extend_from_slice(&p.pending_types(0)[span.start as usize..span.end as usize]);
                continue;
            }
            let Some(t) = group_type(d, p, fr, Var::Operand(g), 0) else {
                return op_err(p, d, pos, "invalid kind of type specified");
            };
            let k = match d.operands[g].count {
                Count::One => 1,
                _ => n.saturating_sub(fixed),
            };
            tys.extend(std::iter::repeat_n(t, k));
        }
        tys
    };
    if refs.len() != tys.len() {
        let msg = format!(
            "{} operands present, but expected {}",
            refs.len(),
            tys.len()
        );
        return op_err(p, d, pos, msg);
    }
    // Each group's share, for the segment sizes and the printer.
    if fr.all.set {
        let fixed = d.operands.iter().filter(|a| a.count == Count::One).count();
        let mut at = fr.all.start;
        for g in 0..d.operands.len() {
            let n = match d.operands[g].count {
                Count::One => 1,
                _ => refs.len().saturating_sub(fixed) as u32,
            };
            fr.slots[g] = Slot {
                start: at,
                end: at + n,
                pos: fr.all.pos,
                set: true,
            };
            at += n;
        }
    }
    for (u, t) in refs.iter().zip(tys) {
        let v = p.resolve_operand(u, t)?;
        fr.st.operands.push(v);
    }
    Ok(())
}

/// The operand or result group named `name`.
fn var_named(d: &Decl, name: &str) -> Option<Var> {
    d.operands
        .iter()
        .position(|a| a.name == name)
        .map(Var::Operand)
        .or_else(|| {
            d.results
                .iter()
                .position(|a| a.name == name)
                .map(Var::Result)
        })
}

/// The types of a group matched with another's as a list
/// ([`Ty::LikeList`]), if it is one.
fn list_types(d: &Decl, p: &mut Parser, fr: &Frame, arg: &Arg) -> Option<Option<Vec<Type>>> {
    let Ty::LikeList(src, f) = arg.ty else {
        return None;
    };
    let t = var_named(d, src).and_then(|s| group_type(d, p, fr, s, 0));
    Some(t.and_then(|t| f(p.ctx, t)))
}

/// The type of each value of a group the format does not type: fixed,
/// matched with another group's, or inferred from the spelled type.
fn group_type(d: &Decl, p: &mut Parser, fr: &Frame, v: Var, depth: usize) -> Option<Type> {
    let (arg, span) = match v {
        Var::Operand(i) => (d.operands[i], fr.operand_types[i]),
        Var::Result(i) => (d.results[i], fr.result_types[i]),
        _ => return None,
    };
    if span.set {
        return p.pending_types(0)[span.start as usize..span.end as usize]
            .first()
            .copied();
    }
    match arg.ty {
        Ty::Fixed(make) => Some(make(p.ctx)),
        Ty::FromAttr(name, f) => {
            let key = p.static_sym(name);
            let a = fr.st.attrs.iter().rev().find(|(k, _)| *k == key)?.1;
            Some(f(p.ctx, a))
        }
        Ty::LikeList(..) => None,
        Ty::Like(src, f) => {
            let src = var_named(d, src)?;
            if depth > 4 {
                return None;
            }
            let t = group_type(d, p, fr, src, depth + 1)?;
            f(p.ctx, t)
        }
        Ty::Any | Ty::Class(_) => match d.infer {
            Infer::Spelled => None,
            _ => fr.first,
        },
    }
}

/// What a custom directive's printer sees of the op.
pub struct View<'a> {
    pub op: Op,
    pub decl: &'a Decl,
    /// The attributes `attr-dict` leaves out.
    pub elided: &'a [&'static str],
}

impl View<'_> {
    /// The operands of group `g`.
    pub fn operands<'c>(&self, ctx: &'c Context, g: usize) -> &'c [Value] {
        operand_group(self.decl, ctx, self.op, g)
    }
    /// The attribute `$x` stands for, if the op has it.
    pub fn attr(&self, ctx: &Context, a: usize) -> Option<Attribute> {
        ctx.get_attr(self.op, self.decl.attrs[a].name)
    }
}

fn print_with(d: &Decl, f: &Format, p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    let operands = ctx.operands(op);
    let mut i = 0;
    while i < f.plan.len() {
        match f.plan[i] {
            Step::Text(from, to) => {
                p.out
                    .push_padded(&f.plan_text, from as usize, (to - from) as usize)
            }
            Step::Operand(k) => {
                if let Some(&v) = operands.get(k as usize) {
                    p.operand(v);
                }
            }
            Step::OperandType(k) => {
                if let Some(&v) = operands.get(k as usize) {
                    p.ty(ctx.value_type(v));
                }
            }
            Step::ResultType(k) => {
                if let Some(&v) = ctx.results(op).get(k as usize) {
                    p.ty(ctx.value_type(v));
                }
            }
            Step::AttrDict { keyword } => {
                if !ctx.attrs(op).is_empty() {
                    match keyword {
                        false => p.attr_dict(op, &f.elided),
                        true => p.attr_dict_kw(op, &f.elided),
                    }
                }
            }
            Step::Elem(e) => print_elem(d, f, p, op, f.elems[e as usize]),
            Step::Optional { len, anchor } => {
                if !present(d, ctx, op, f.elems[anchor as usize]) {
                    i += len as usize;
                }
            }
        }
        i += 1;
    }
}

/// Prints one element, its prefix already printed. Not inlined into
/// `print_with`: what the rarer elements read was loaded at every op.
#[inline(never)]
fn print_elem(d: &Decl, f: &Format, p: &mut Printer, op: Op, e: Elem) {
    let ctx = p.ctx;
    match e {
        Elem::Literal(_) | Elem::Space(_) | Elem::Optional { .. } => {}
        Elem::Newline => p.newline_indented(0),
        Elem::AttrDict { keyword } => {
            // Most ops have no attributes at all.
            if !ctx.attrs(op).is_empty() {
                match keyword {
                    false => p.attr_dict(op, &f.elided),
                    true => p.attr_dict_kw(op, &f.elided),
                }
            }
        }
        Elem::Operand(g) => p.operands(operand_group(d, ctx, op, g)),
        Elem::Operands => p.operands(ctx.operands(op)),
        Elem::Attr(a) => print_attr(d, p, op, a),
        Elem::Successor(s) => {
            if let Some(&b) = ctx.successors(op).get(s) {
                p.block_name(b);
            }
        }
        Elem::Region(r) => {
            if let Some(&r) = ctx.regions_of(op).get(r) {
                p.region(r, true, true);
            }
        }
        Elem::Type(t) => print_types(d, p, op, t),
        Elem::FunctionalType(a, b) => {
            let ins = types_of(d, ctx, op, a);
            let outs = types_of(d, ctx, op, b);
            p.functional_type(&ins, &outs);
        }
        Elem::Custom(c, from, to) => {
            let view = View {
                op,
                decl: d,
                elided: &f.elided,
            };
            (d.customs[c].print)(p, &view, &f.args[from as usize..to as usize])
        }
    }
}

/// Whether an optional group's anchor is there.
#[inline(never)]
fn present(d: &Decl, ctx: &Context, op: Op, anchor: Elem) -> bool {
    match anchor {
        Elem::Operand(g) | Elem::Type(TypeOf::Operand(g)) => {
            !operand_group(d, ctx, op, g).is_empty()
        }
        Elem::Type(TypeOf::Result(r)) => !result_group(d, ctx, op, r).is_empty(),
        Elem::Attr(a) => ctx.get_attr(op, d.attrs[a].name).is_some(),
        Elem::Region(r) => ctx
            .regions_of(op)
            .get(r)
            .is_some_and(|&r| ctx.entry_block(r).is_some()),
        Elem::Successor(s) => ctx.successors(op).len() > s,
        _ => true,
    }
}

fn print_attr(d: &Decl, p: &mut Printer, op: Op, a: usize) {
    let ctx = p.ctx;
    let AttrDecl { name, kind } = d.attrs[a];
    let Some(attr) = ctx.get_attr(op, name) else {
        return;
    };
    let kind = match kind {
        AttrC::Optional(k) => *k,
        k => k,
    };
    match kind {
        AttrC::Enum(keywords) | AttrC::EnumUpTo(keywords, _) => {
            let word = match ctx.attr_kind(attr) {
                AttrKind::Integer(v, _) => usize::try_from(*v).ok(),
                _ => None,
            }
            .and_then(|v| keywords.get(v).copied())
            .unwrap_or("?");
            p.w(word);
        }
        AttrC::Unit => {}
        AttrC::SymbolName => match ctx.attr_kind(attr) {
            AttrKind::String(s, _) => {
                let mut out = String::new();
                mlir_async_syntax::printer::print_symbol(&String::from_utf8_lossy(s), &mut out);
                p.w(&out);
            }
            _ => p.attr(attr),
        },
        AttrC::Typed(_) => p.attr_no_type(attr),
        AttrC::TypeAttr => match ctx.attr_kind(attr) {
            AttrKind::Type(t) => p.ty(*t),
            _ => p.attr(attr),
        },
        AttrC::Str | AttrC::FlatSymbolRef | AttrC::Any | AttrC::Elements | AttrC::Array => {
            p.attr(attr)
        }
        AttrC::Optional(_) => unreachable!("unwrapped above"),
    }
}

fn print_types(d: &Decl, p: &mut Printer, op: Op, t: TypeOf) {
    let ctx = p.ctx;
    let ty = match t {
        TypeOf::Operand(g) => d.operands[g].ty,
        TypeOf::Result(r) => d.results[r].ty,
        _ => Ty::Any,
    };
    let short = match ty {
        Ty::Class(c) => c.short,
        _ => None,
    };
    let vs: &[Value] = match t {
        TypeOf::Operand(g) => operand_group(d, ctx, op, g),
        TypeOf::Result(r) => result_group(d, ctx, op, r),
        TypeOf::Operands => ctx.operands(op),
        TypeOf::Results => ctx.results(op),
    };
    for (k, &v) in vs.iter().enumerate() {
        if k > 0 {
            p.w(", ");
        }
        let t = ctx.value_type(v);
        if !short.is_some_and(|s| (s.print)(p, t)) {
            p.ty(t);
        }
    }
}

fn types_of(d: &Decl, ctx: &Context, op: Op, t: TypeOf) -> Vec<Type> {
    let vs: &[Value] = match t {
        TypeOf::Operand(g) => operand_group(d, ctx, op, g),
        TypeOf::Result(r) => result_group(d, ctx, op, r),
        TypeOf::Operands => ctx.operands(op),
        TypeOf::Results => ctx.results(op),
    };
    vs.iter().map(|&v| ctx.value_type(v)).collect()
}

/// MLIR's `shouldEmitSpaceBefore`: no space before closing punctuation
/// and commas, nor before opening punctuation unless it follows other
/// punctuation.
fn space_before(l: &str, after_punct: bool) -> bool {
    if l.len() != 1 && l != "->" {
        return true;
    }
    if after_punct {
        !">)}],".contains(&l[..1])
    } else {
        !"<>(){}[],".contains(&l[..1])
    }
}

/// The operands of group `g`: by `operand_segment_sizes` where there are
/// several optional or variadic groups, else one value per group and the
/// rest to the one that is not.
pub fn operand_group<'c>(d: &Decl, ctx: &'c Context, op: Op, g: usize) -> &'c [Value] {
    let all = ctx.operands(op);
    if d.segmented() {
        let Some(a) = ctx.get_attr(op, "operand_segment_sizes") else {
            return &[];
        };
        let AttrKind::Dense(elems, _, splat) = ctx.attr_kind(a) else {
            return &[];
        };
        let size = |i: usize| match elems.get(if *splat { 0 } else { i }) {
            Some(DenseElem::Int(v)) => usize::try_from(*v).unwrap_or(0),
            _ => 0,
        };
        let start: usize = (0..g).map(size).sum();
        return all.get(start..start + size(g)).unwrap_or(&[]);
    }
    split(all, d.operands, g)
}

/// The results of group `r`.
pub fn result_group<'c>(d: &Decl, ctx: &'c Context, op: Op, r: usize) -> &'c [Value] {
    split(ctx.results(op), d.results, r)
}

/// Group `g` of `all`: one value per group but the one optional or
/// variadic group, which has the rest.
fn split<'c>(all: &'c [Value], groups: &[Arg], g: usize) -> &'c [Value] {
    let Some(v) = groups.iter().position(|a| a.count != Count::One) else {
        return all.get(g..g + 1).unwrap_or(&[]);
    };
    let after = groups.len() - v - 1;
    let var_end = all.len().saturating_sub(after).max(v);
    let (start, end) = match g.cmp(&v) {
        std::cmp::Ordering::Less => (g, g + 1),
        std::cmp::Ordering::Equal => (v, var_end),
        std::cmp::Ordering::Greater => (var_end + (g - v - 1), var_end + (g - v)),
    };
    all.get(start..end).unwrap_or(&[])
}

/// An ODS name written as a Rust identifier: `r#final` is `final`.
pub const fn ods_name(s: &'static str) -> &'static str {
    match s.as_bytes() {
        [b'r', b'#', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(r) => r,
            Err(_) => s,
        },
        _ => s,
    }
}

/// The index of `name` in `names`, at compile time (the accessors
/// [`op!`](crate::op) generates index operands and results by it).
pub const fn index_of(names: &[&str], name: &str) -> usize {
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such name")
}

/// Whether every group before group `i` is a single value (then value
/// `i` is group `i`'s), at compile time.
pub const fn singles_before(counts: &[Count], i: usize) -> bool {
    let mut k = 0;
    while k < i && k < counts.len() {
        if !matches!(counts[k], Count::One) {
            return false;
        }
        k += 1;
    }
    true
}

/// The result types for `operands`, as the format's parser would infer
/// them (`None` where a result's type is spelled: the caller names it).
pub fn infer_results(ctx: &mut Context, d: &Decl, operands: &[Value]) -> Option<Vec<Type>> {
    let first = operands.first().map(|&v| ctx.value_type(v));
    let mut out = Vec::with_capacity(d.results.len());
    for r in d.results {
        let t = match (r.ty, d.infer) {
            (Ty::Fixed(make), _) => make(ctx),
            (Ty::FromAttr(..), _) => return None,
            (Ty::Like(src, f), _) => {
                let i = d.operands.iter().position(|a| a.name == src)?;
                // One value per group before the variadic one.
                let t = ctx.value_type(*operands.get(i)?);
                f(ctx, t)?
            }
            (Ty::LikeList(src, f), _) => {
                let i = d.operands.iter().position(|a| a.name == src)?;
                let t = ctx.value_type(*operands.get(i)?);
                out.extend(f(ctx, t)?);
                continue;
            }
            (Ty::Any | Ty::Class(_), Infer::AllSame) => first?,
            (Ty::Any | Ty::Class(_), Infer::SameOperands(result_of)) => result_of(ctx, first?),
            (Ty::Any | Ty::Class(_), Infer::Spelled) => return None,
        };
        out.push(t);
    }
    Some(out)
}

/// Declares an op as ODS does: a typed handle (`AddIOp(Op)`) with an
/// accessor per operand and result, a builder, and the parser and
/// printer of its declarative format.
///
/// ```ignore
/// op! {
///     /// Integer addition.
///     pub struct AddIOp = "arith.addi" {
///         operands: [lhs: One, rhs: One],
///         results: [result],
///         format: "$lhs `,` $rhs attr-dict `:` type($result)",
///         infer: AllSame,
///     }
/// }
/// ```
///
/// An operand is `name: One | Optional | Variadic`, a result `name` (one
/// value) or `name: Optional | Variadic`; either may add `= Ty` (see
/// [`format::Ty`](crate::format::Ty): `Fixed(make)`, `Like("other", f)`,
/// `Class(&CLASS)`). `attrs: [name: AttrC]` are the attributes the
/// format spells, `successors: [..]` and `regions: [..]` name the op's
/// successors and regions, `customs: [..]` its `custom<...>` directives.
#[macro_export]
macro_rules! op {
    (
        $(#[$doc:meta])*
        $vis:vis struct $ty:ident = $name:literal {
            operands: [$($operand:ident : $count:ident $(= $oty:expr)?),* $(,)?],
            results: [$($result:ident $(: $rcount:ident)? $(= $rty:expr)?),* $(,)?],
            $(attrs: [$($attr:ident : $akind:expr),* $(,)?],)?
            $(successors: [$($succ:ident $(: $scount:ident)?),* $(,)?],)?
            $(regions: [$($region:ident),* $(,)?],)?
            $(customs: [$($custom:expr),* $(,)?],)?
            $(format: $format:literal,)?
            $(syntax: { V13: $s13:expr, V14: $s14:expr, V15: $s15:expr $(,)? },)?
            $(canonicalize: $canon:expr,)?
            $(expressible: $expressible:expr,)?
            infer: $infer:expr $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $ty(pub mlir_async_ir::Op);

        #[allow(dead_code)]
        impl $ty {
            pub const NAME: &'static str = $name;
            const OPERAND_NAMES: &'static [&'static str] = &[$($crate::format::ods_name(stringify!($operand))),*];
            const OPERAND_COUNTS: &'static [$crate::format::Count] = &[$($crate::format::Count::$count),*];
            const RESULT_COUNTS: &'static [$crate::format::Count] = &[$($crate::op!(@count $($rcount)?)),*];
            const RESULT_NAMES: &'static [&'static str] = &[$($crate::format::ods_name(stringify!($result))),*];
            /// The op as this type, if it is one.
            pub fn cast(ctx: &mlir_async_ir::Context, op: mlir_async_ir::Op) -> Option<Self> {
                (ctx.name(op) == $name).then_some($ty(op))
            }
            /// The definition the registry keeps: the name and the
            /// declared syntax; traits and the verifier chain on.
            pub fn def() -> $crate::OpDef {
                let mut d = $crate::OpDef::new($name).syntax(
                    $crate::format::parse::<$ty>,
                    $crate::format::print::<$ty>,
                );
                d.declared = Some(<$ty as $crate::format::Declared>::decl);
                d.canonicalize_generic = <$ty as $crate::format::Declared>::decl().canonicalize;
                d.custom_fits = $crate::format::custom_fits(<$ty as $crate::format::Declared>::decl().infer);
                d
            }
            /// Builds the op with its result types inferred (an op whose
            /// format spells every type takes them: [`Self::build_typed`]).
            pub fn build(
                b: &mut dyn mlir_async_rewrite::Builder,
                loc: mlir_async_ir::Location,
                operands: &[mlir_async_ir::Value],
                attrs: &[(mlir_async_ir::Symbol, mlir_async_ir::Attribute)],
            ) -> Result<Self, mlir_async_rewrite::RewriteError> {
                let d = <$ty as $crate::format::Declared>::decl();
                let Some(types) = $crate::format::infer_results(b.context(), d, operands) else {
                    return Err(mlir_async_rewrite::RewriteError::at(
                        loc,
                        format!("'{}' needs its result types", $name),
                    ));
                };
                Self::build_typed(b, loc, operands, &types, attrs)
            }
            pub fn build_typed(
                b: &mut dyn mlir_async_rewrite::Builder,
                loc: mlir_async_ir::Location,
                operands: &[mlir_async_ir::Value],
                result_types: &[mlir_async_ir::Type],
                attrs: &[(mlir_async_ir::Symbol, mlir_async_ir::Attribute)],
            ) -> Result<Self, mlir_async_rewrite::RewriteError> {
                let name = b.context().sym($name);
                b.build_op(name, loc, operands, result_types, attrs).map($ty)
            }
            $(
                $crate::op!(@operand $ty $operand $count);
            )*
            $(
                $crate::op!(@result $ty $result $($rcount)?);
            )*
        }

        impl $crate::format::Declared for $ty {
            fn decl() -> &'static $crate::format::Decl {
                static DECL: $crate::format::Decl = $crate::format::Decl {
                    name: $name,
                    operands: &[$($crate::format::Arg {
                        name: $crate::format::ods_name(stringify!($operand)),
                        count: $crate::format::Count::$count,
                        ty: $crate::op!(@ty $($oty)?),
                    }),*],
                    results: &[$($crate::format::Arg {
                        name: $crate::format::ods_name(stringify!($result)),
                        count: $crate::op!(@count $($rcount)?),
                        ty: $crate::op!(@ty $($rty)?),
                    }),*],
                    attrs: &[$($($crate::format::AttrDecl {
                        name: $crate::format::ods_name(stringify!($attr)),
                        kind: {
                            #[allow(unused_imports)]
                            use $crate::format::AttrC::*;
                            $akind
                        },
                    }),*)?],
                    successors: &[$($($crate::format::Arg {
                        name: $crate::format::ods_name(stringify!($succ)),
                        count: $crate::op!(@count $($scount)?),
                        ty: $crate::format::Ty::Any,
                    }),*)?],
                    regions: &[$($($crate::format::Arg {
                        name: $crate::format::ods_name(stringify!($region)),
                        count: $crate::format::Count::One,
                        ty: $crate::format::Ty::Any,
                    }),*)?],
                    syntax: $crate::op!(@syntax $($format)? $(; $s13, $s14, $s15)?),
                    customs: &[$($($custom),*)?],
                    canonicalize: $crate::op!(@some $($canon)?),
                    expressible: $crate::op!(@some $($expressible)?),
                    infer: {
                        #[allow(unused_imports)]
                        use $crate::format::Infer::*;
                        $infer
                    },
                };
                &DECL
            }
            fn format(ed: mlir_async_syntax::Edition) -> Option<&'static $crate::format::Format> {
                static FORMATS: [std::sync::OnceLock<Option<$crate::format::Format>>; 3] =
                    [const { std::sync::OnceLock::new() }; 3];
                FORMATS[$crate::format::edition_index(ed)]
                    .get_or_init(|| {
                        // Every declared format is compiled by a test
                        // (`declared_formats_compile`): none fails here.
                        $crate::format::compile(Self::decl(), ed).expect("declared format compiles")
                    })
                    .as_ref()
            }
        }
    };
    (@syntax $format:literal) => { [$crate::format::Syntax::Format($format); 3] };
    (@syntax ; $s13:expr, $s14:expr, $s15:expr) => {{
        #[allow(unused_imports)]
        use $crate::format::Syntax::*;
        [$s13, $s14, $s15]
    }};
    (@some) => { None };
    (@some $f:expr) => { Some($f) };
    (@ty) => { $crate::format::Ty::Any };
    (@ty $t:expr) => {{
        #[allow(unused_imports)]
        use $crate::format::Ty::*;
        $t
    }};
    (@count) => { $crate::format::Count::One };
    (@count $c:ident) => { $crate::format::Count::$c };
    (@operand $ty:ident $operand:ident One) => {
        #[allow(non_snake_case)]
        pub fn $operand(self, ctx: &mlir_async_ir::Context) -> mlir_async_ir::Value {
            const I: usize = $crate::format::index_of($ty::OPERAND_NAMES, $crate::format::ods_name(stringify!($operand)));
            // Single values before it: its index is its group's.
            if const { $crate::format::singles_before($ty::OPERAND_COUNTS, I) } {
                return ctx.operand(self.0, I);
            }
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::operand_group(d, ctx, self.0, I)[0]
        }
    };
    (@operand $ty:ident $operand:ident Optional) => {
        #[allow(non_snake_case)]
        pub fn $operand(self, ctx: &mlir_async_ir::Context) -> Option<mlir_async_ir::Value> {
            const I: usize = $crate::format::index_of($ty::OPERAND_NAMES, $crate::format::ods_name(stringify!($operand)));
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::operand_group(d, ctx, self.0, I).first().copied()
        }
    };
    (@operand $ty:ident $operand:ident Variadic) => {
        #[allow(non_snake_case)]
        pub fn $operand(self, ctx: &mlir_async_ir::Context) -> &[mlir_async_ir::Value] {
            const I: usize = $crate::format::index_of($ty::OPERAND_NAMES, $crate::format::ods_name(stringify!($operand)));
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::operand_group(d, ctx, self.0, I)
        }
    };
    (@result $ty:ident $result:ident) => {
        $crate::op!(@result $ty $result One);
    };
    (@result $ty:ident $result:ident One) => {
        #[allow(non_snake_case)]
        pub fn $result(self, ctx: &mlir_async_ir::Context) -> mlir_async_ir::Value {
            const I: usize = $crate::format::index_of($ty::RESULT_NAMES, $crate::format::ods_name(stringify!($result)));
            if const { $crate::format::singles_before($ty::RESULT_COUNTS, I) } {
                return ctx.result(self.0, I);
            }
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::result_group(d, ctx, self.0, I)[0]
        }
    };
    (@result $ty:ident $result:ident Optional) => {
        #[allow(non_snake_case)]
        pub fn $result(self, ctx: &mlir_async_ir::Context) -> Option<mlir_async_ir::Value> {
            const I: usize = $crate::format::index_of($ty::RESULT_NAMES, $crate::format::ods_name(stringify!($result)));
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::result_group(d, ctx, self.0, I).first().copied()
        }
    };
    (@result $ty:ident $result:ident Variadic) => {
        #[allow(non_snake_case)]
        pub fn $result(self, ctx: &mlir_async_ir::Context) -> &[mlir_async_ir::Value] {
            const I: usize = $crate::format::index_of($ty::RESULT_NAMES, $crate::format::ods_name(stringify!($result)));
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::result_group(d, ctx, self.0, I)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlir_async_syntax::{parse_source, print_op, DialectHooks, PrintOptions};

    #[test]
    fn declared_formats_compile() {
        let mut ctx = Context::new();
        let reg = crate::Registry::new(&mut ctx);
        let (mut n, mut per_generation) = (0, 0);
        for d in reg.defs() {
            if let Some(decl) = d.declared {
                let decl = decl();
                assert_eq!(decl.name, d.name);
                for ed in EDITIONS {
                    compile(decl, ed).unwrap_or_else(|e| panic!("{e:?}"));
                }
                n += 1;
                per_generation += usize::from(!decl.uniform());
            }
        }
        // arith 42 (27 binary ops, 11 casts, negf, cmpi, cmpf, constant),
        // std 7 (13's float ops, rank, splat), llvm 55 (32 arithmetic and
        // casts, 12 other ops, 11 intrinsics), memref 28 (with vector.print
        // and linalg.fill), async 25, cf 4, scf 3, builtin and func 6.
        // 9 of them have a syntax per generation.
        assert_eq!(n, 170, "declared ops");
        assert_eq!(per_generation, 9, "ops with a syntax per generation");
    }

    fn index(ctx: &mut Context) -> Type {
        ctx.index_type()
    }
    fn i64t(ctx: &mut Context) -> Type {
        ctx.int_type(64)
    }
    /// `TypesMatchWith`-like: an `index` operand gives an `i64` result.
    fn widened(ctx: &mut Context, t: Type) -> Option<Type> {
        (t == ctx.index_type()).then(|| ctx.int_type(64))
    }
    static INTEGER: TypeClass = TypeClass {
        is: |ctx, t| matches!(ctx.kind(t), mlir_async_ir::TypeKind::Integer(..)),
        short: None,
        summary: "integer",
        cpp: Some(mlir_async_syntax::Edition::V14),
    };

    crate::op! {
        /// A variadic operand in an optional group.
        pub struct TYieldOp = "t.yield" {
            operands: [operands: Variadic],
            results: [],
            format: "($operands^ `:` type($operands))? attr-dict",
            infer: Spelled,
        }
    }
    crate::op! {
        /// Two variadic groups: segment sizes; `` and no space after `(`.
        pub struct TAllocOp = "t.alloc" {
            operands: [dynamicSizes: Variadic = Fixed(index), symbolOperands: Variadic = Fixed(index)],
            results: [memref],
            format: "`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
            infer: Spelled,
        }
    }
    crate::op! {
        /// Optional string and unit attributes, a symbol name, a typed one.
        pub struct TGlobalOp = "t.global" {
            operands: [],
            results: [],
            attrs: [
                sym_visibility: Optional(&Str),
                constant: Unit,
                sym_name: SymbolName,
                value: Typed(i64t),
            ],
            format: "($sym_visibility^)? (`constant` $constant^)? $sym_name `=` $value attr-dict",
            infer: Spelled,
        }
    }
    crate::op! {
        /// A successor with optional operands.
        pub struct TBrOp = "t.br" {
            operands: [destOperands: Variadic],
            results: [],
            successors: [dest],
            format: "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
            infer: Spelled,
        }
    }
    crate::op! {
        /// A callee and `functional-type`.
        pub struct TCallOp = "t.call" {
            operands: [operands: Variadic],
            results: [results: Variadic],
            attrs: [callee: FlatSymbolRef],
            format: "$callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)",
            infer: Spelled,
        }
    }
    crate::op! {
        /// A fixed operand type, a result matched with it, a class.
        pub struct TWidenOp = "t.widen" {
            operands: [x: One = Fixed(index), n: One = Class(&INTEGER)],
            results: [y = Like("x", widened)],
            format: "$x `,` $n attr-dict-with-keyword `:` type($n)",
            infer: Spelled,
        }
    }
    /// `custom<Pair>(type($a), ref(type($a)), type($r))`: one type read
    /// gives the operand and the result.
    const PAIR: Custom = Custom {
        name: "Pair",
        parse: |p, fr, args| {
            let (CArg::Type(a), CArg::RefType(same), CArg::Type(r)) = (args[0], args[1], args[2])
            else {
                unreachable!("declared so")
            };
            let t = p.parse_type()?;
            fr.set_types(p, a, &[t]);
            assert_eq!(fr.types(p, same), [t]);
            fr.set_types(p, r, &[t]);
            Ok(())
        },
        print: |p, v, _| {
            let t = p.ctx.value_type(v.operands(p.ctx, 0)[0]);
            p.ty(t);
        },
    };
    crate::op! {
        /// A custom directive over types.
        pub struct TPairOp = "t.pair" {
            operands: [a: One],
            results: [r],
            customs: [PAIR],
            format: "$a `:` custom<Pair>(type($a), ref(type($a)), type($r)) attr-dict",
            infer: Spelled,
        }
    }
    crate::op! {
        /// `operands` with a spelled type per group; `` and ` `.
        pub struct TSelectOp = "t.select" {
            operands: [c: One, a: One, b: One = Like("a", |_, t| Some(t))],
            results: [res = Like("a", |_, t| Some(t))],
            format: "operands attr-dict `:` type($c) ` ` `->` `` `[` type($a) `]`",
            infer: Spelled,
        }
    }

    /// 15's syntax of `t.edition`, written by hand: `[n]`.
    fn parse_bracketed(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
        p.expect("[")?;
        p.skip_ws();
        let at = p.pos;
        let Some(v) = p.int_lit() else {
            return p.err(at, "expected integer value");
        };
        p.expect("]")?;
        let t = p.ctx.int_type(64);
        let a = p.ctx.int_attr(v, t);
        let s = p.static_sym("n");
        st.attrs.push((s, a));
        attr_dict(p, st)
    }
    fn print_bracketed(p: &mut Printer, op: Op) {
        let a = p.ctx.get_attr(op, "n").expect("verified");
        p.w(" [");
        p.attr_no_type(a);
        p.w("]");
        p.attr_dict(op, &["n"]);
    }
    crate::op! {
        /// A format per generation, and a hand-written one in 15.
        pub struct TEditionOp = "t.edition" {
            operands: [],
            results: [],
            attrs: [n: Typed(i64t)],
            syntax: {
                V13: Format("`size` $n attr-dict"),
                V14: Format("$n attr-dict"),
                V15: Hand(parse_bracketed, print_bracketed),
            },
            infer: Spelled,
        }
    }
    /// `t.gen`'s 13 has no `m`: filled in after any generation's syntax.
    fn fill_m(p: &mut Parser, attrs: &mut Vec<(mlir_async_ir::Symbol, Attribute)>, _: usize) {
        let m = p.static_sym("m");
        if attrs.iter().any(|(k, _)| *k == m) {
            return;
        }
        let t = p.ctx.int_type(64);
        let a = p.ctx.int_attr(0, t);
        attrs.push((m, a));
    }
    crate::op! {
        /// A generation (13) without an attribute the stored form has,
        /// and a type attribute in an optional group (15).
        pub struct TGenOp = "t.gen" {
            operands: [],
            results: [],
            attrs: [n: Typed(i64t), m: Typed(i64t), elem: Optional(&TypeAttr)],
            syntax: {
                V13: Format("$n attr-dict"),
                V14: Format("$n `,` $m attr-dict"),
                V15: Format("$n `,` $m attr-dict (`:` $elem^)?"),
            },
            canonicalize: fill_m,
            expressible: m_is_zero_before_14,
            infer: Spelled,
        }
    }
    /// 13 spells no `m`: only the one it fills in.
    fn m_is_zero_before_14(ctx: &Context, op: Op, ed: Edition) -> bool {
        let zero = ctx
            .get_attr(op, "m")
            .is_none_or(|a| matches!(ctx.attr_kind(a), AttrKind::Integer(0, _)));
        ed != Edition::V13 || zero
    }
    crate::op! {
        /// A region after a keyword dictionary (as `builtin.module`).
        pub struct TScopeOp = "t.scope" {
            operands: [],
            results: [],
            regions: [body],
            format: "attr-dict-with-keyword $body",
            infer: Spelled,
        }
    }

    /// The registry, and the test ops above under `t.`.
    struct Hooks(crate::Registry);
    const TEST_OPS: &[(&str, crate::ParseFn, crate::PrintFn)] = &[
        ("t.yield", parse::<TYieldOp>, print::<TYieldOp>),
        ("t.alloc", parse::<TAllocOp>, print::<TAllocOp>),
        ("t.global", parse::<TGlobalOp>, print::<TGlobalOp>),
        ("t.br", parse::<TBrOp>, print::<TBrOp>),
        ("t.call", parse::<TCallOp>, print::<TCallOp>),
        ("t.widen", parse::<TWidenOp>, print::<TWidenOp>),
        ("t.pair", parse::<TPairOp>, print::<TPairOp>),
        ("t.select", parse::<TSelectOp>, print::<TSelectOp>),
        ("t.edition", parse::<TEditionOp>, print::<TEditionOp>),
        ("t.scope", parse::<TScopeOp>, print::<TScopeOp>),
        ("t.gen", parse::<TGenOp>, print::<TGenOp>),
    ];
    impl DialectHooks for Hooks {
        fn is_known_dialect(&self, name: &str) -> bool {
            name == "t" || self.0.is_known_dialect(name)
        }
        fn parse_custom(
            &self,
            name: &str,
            p: &mut Parser,
            st: &mut OperationState,
            n: usize,
            pos: usize,
        ) -> PResult<bool> {
            match TEST_OPS.iter().find(|t| t.0 == name) {
                Some(t) => (t.1)(p, st, n).map(|()| true),
                None => self.0.parse_custom(name, p, st, n, pos),
            }
        }
        fn custom_printer(&self, name: &str) -> Option<crate::PrintFn> {
            match TEST_OPS.iter().find(|t| t.0 == name) {
                Some(t) => Some(t.2),
                None => self.0.custom_printer(name),
            }
        }
        fn result_namer(&self, name: &str) -> Option<crate::NamesFn> {
            self.0.result_namer(name)
        }
    }

    /// The body of `func.func @f(args)` holding `body`, parsed and
    /// printed back (the function's body lines, unindented), or the
    /// first error.
    fn round_trip(args: &str, body: &str) -> Result<String, String> {
        let mut ctx = Context::new();
        let hooks = Hooks(crate::Registry::new(&mut ctx));
        let text = format!("func.func @f({args}) {{\n{body}\n  func.return\n}}\n");
        let parsed = parse_source(&mut ctx, &hooks, "t.mlir", &text, 0, true)
            .map_err(|d| format!("{}:{}: {}", d.line, d.col, d.message))?;
        let opts = PrintOptions {
            edition: parsed.edition,
            generic: false,
            debug_info: false,
        };
        let out = print_op(&ctx, &hooks, parsed.module, opts);
        let lines: Vec<&str> = out
            .lines()
            .skip(2)
            .take_while(|l| !l.contains("return"))
            .map(|l| l.trim_start())
            .collect();
        Ok(lines.join("\n"))
    }

    /// As written in the declared format's canonical spelling: printed
    /// back the same.
    /// (Arguments named `%arg0`, ... as the printer names them.)
    fn same(args: &str, body: &str) {
        let want: Vec<&str> = body.lines().map(|l| l.trim()).collect();
        assert_eq!(round_trip(args, body).unwrap(), want.join("\n"));
    }

    /// `text` (top-level ops) parsed, the generation it betrays, and its
    /// ops printed in generation `ed` (the module's body, unindented).
    fn in_edition(text: &str, ed: Edition) -> Result<(Edition, String), String> {
        let mut ctx = Context::new();
        let hooks = Hooks(crate::Registry::new(&mut ctx));
        let parsed = parse_source(&mut ctx, &hooks, "t.mlir", text, 0, true)
            .map_err(|d| format!("{}:{}: {}", d.line, d.col, d.message))?;
        let opts = PrintOptions {
            edition: ed,
            generic: false,
            debug_info: false,
        };
        let out = print_op(&ctx, &hooks, parsed.module, opts);
        let body: Vec<&str> = out
            .lines()
            .skip(1)
            .map(|l| l.trim_start())
            .filter(|l| *l != "}" && !l.is_empty())
            .collect();
        Ok((parsed.edition, body.join("\n")))
    }

    #[test]
    fn each_generation_prints_its_syntax() {
        for (ed, want) in [
            (Edition::V13, "t.edition size 3"),
            (Edition::V14, "t.edition 3"),
            (Edition::V15, "t.edition [3]"),
        ] {
            assert_eq!(in_edition("t.edition [3]", ed).unwrap().1, want);
        }
        // The attributes the format spells stay out of the dictionary in
        // every generation, the hand-written printer's included.
        let (_, out) = in_edition("t.edition 3 {a}", Edition::V13).unwrap();
        assert_eq!(out, "t.edition size 3 {a}");
        let (_, out) = in_edition("t.edition size 3 {a}", Edition::V15).unwrap();
        assert_eq!(out, "t.edition [3] {a}");
    }

    #[test]
    fn a_syntax_of_another_generation_is_read_and_betrays_it() {
        // Nothing spelled before: 15's (hand-written) syntax first, then
        // 14's and 13's formats; what is read says which generation.
        assert_eq!(
            in_edition("t.edition [3]", Edition::V15).unwrap().0,
            Edition::V15
        );
        assert_eq!(
            in_edition("t.edition 3", Edition::V15).unwrap().0,
            Edition::V14
        );
        assert_eq!(
            in_edition("t.edition size 3", Edition::V15).unwrap().0,
            Edition::V13
        );
        // A generation already spelled (15's `func.func`) is certain: its
        // syntax alone is read, and its error reported.
        let e = in_edition(
            "func.func @f() {\n  t.edition size 3\n  func.return\n}",
            Edition::V15,
        )
        .unwrap_err();
        assert!(e.starts_with("2:") && e.ends_with(": expected '['"), "{e}");
        // 13 or 14 (a legacy `func`): 14's first, then 13's.
        let text = "func @f() {\n  t.edition size 3\n  return\n}";
        assert_eq!(in_edition(text, Edition::V13).unwrap().0, Edition::V13);
        let text = "func @f() {\n  t.edition [3]\n  return\n}";
        let e = in_edition(text, Edition::V14).unwrap_err();
        // 14's error, where its format read the attribute.
        assert!(
            e.starts_with("2:13: ") && e.contains("invalid kind of attribute"),
            "{e}"
        );
    }

    #[test]
    fn no_syntax_fits_the_expected_generation_error_is_reported() {
        // Nothing spelled: 15's error, where 15's parser stopped (each
        // syntax fails at the first token).
        let e = in_edition("t.edition (3)", Edition::V15).unwrap_err();
        assert!(e.starts_with("1:") && e.ends_with(": expected '['"), "{e}");
        // 13's syntax reads past its keyword: its error, at the value.
        let e = in_edition("t.edition size size", Edition::V15).unwrap_err();
        assert!(e.starts_with("1:16: "), "{e}");
        // 13's syntax of `llvm.switch` reads the whole op and fails on
        // the flag's type: its error, not 15's (`expected ':'` before).
        let text =
            "llvm.func @f(%x: i64) {\n  llvm.switch %x, ^bb1 [1: ^bb1]\n^bb1:\n  llvm.return\n}";
        let e = in_edition(text, Edition::V15).unwrap_err();
        assert!(
            e.starts_with("2:15: ") && e.contains("'i32' vs 'i64'"),
            "{e}"
        );
    }

    #[test]
    fn a_generation_without_an_attribute_has_it_filled_in() {
        // 13's syntax read (nothing spelled before), `m` filled in by the
        // op's `canonicalize`, printed by each generation's format: 13
        // leaves it out as every declared attribute.
        let (ed, out) = in_edition("t.gen 1", Edition::V15).unwrap();
        assert_eq!((ed, out.as_str()), (Edition::V13, "t.gen 1, 0"));
        assert_eq!(in_edition("t.gen 1", Edition::V13).unwrap().1, "t.gen 1");
        assert_eq!(
            in_edition("t.gen 1, 0 {a}", Edition::V13).unwrap().1,
            "t.gen 1 {a}"
        );
        // What 13's syntax cannot spell is printed in 14's.
        assert_eq!(
            in_edition("t.gen 1, 2 {a}", Edition::V13).unwrap().1,
            "t.gen 1, 2 {a}"
        );
    }

    #[test]
    fn type_attribute_in_an_optional_group() {
        let (ed, out) = in_edition("t.gen 1, 2 : !llvm.ptr<i8>", Edition::V15).unwrap();
        assert_eq!(
            (ed, out.as_str()),
            (Edition::V15, "t.gen 1, 2 : !llvm.ptr<i8>")
        );
        assert_eq!(
            in_edition("t.gen 1, 2", Edition::V15).unwrap().1,
            "t.gen 1, 2"
        );
        // Read as an attribute of type `none`, which a type is.
        let e = in_edition("t.gen 1, 2 : 3", Edition::V15).unwrap_err();
        assert!(
            e.contains("integer literal not valid for specified type"),
            "{e}"
        );
        let e = in_edition("t.gen 1, 2 : \"s\"", Edition::V15).unwrap_err();
        assert!(
            e.ends_with("custom op 't.gen' invalid kind of attribute specified"),
            "{e}"
        );
    }

    #[test]
    fn integers_in_the_range_mlir_reads() {
        // (negative, magnitude, significant digits, bits) -> value read.
        let cases: &[(bool, u128, usize, u32, Option<i128>)] = &[
            (false, 2147483647, 10, 32, Some(2147483647)),
            (false, 2147483648, 10, 32, None),
            (true, 2147483648, 10, 32, Some(-2147483648)),
            (true, 2147483649, 10, 32, None),
            (false, 4294967295, 10, 32, None),
            (false, 0x7fff_ffff, 8, 32, Some(0x7fff_ffff)),
            (false, 0x8000_0000, 8, 32, None),
            (true, 0x8000_0000, 8, 32, Some(-0x8000_0000)),
            (false, 0, 0, 32, Some(0)),
            (true, 1, 1, 32, Some(-1)),
            // 64 bits: all of `uint64_t`, read back as signed...
            (false, u64::MAX.into(), 20, 64, Some(-1)),
            (false, 1 << 63, 19, 64, Some(i64::MIN.into())),
            (false, 1 << 64, 20, 64, None),
            (false, u64::MAX.into(), 16, 64, Some(-1)),
            // ...but no negative of 17 digits or more, nor hexadecimal
            // `-0x8000000000000000`.
            (
                true,
                9_223_372_036_854_775,
                16,
                64,
                Some(-9_223_372_036_854_775),
            ),
            (true, 10_000_000_000_000_000, 17, 64, None),
            (true, 1 << 63, 16, 64, None),
            (
                true,
                0x7fff_ffff_ffff_ffff,
                16,
                64,
                Some(-0x7fff_ffff_ffff_ffff),
            ),
        ];
        for &(neg, mag, digits, bits, want) in cases {
            assert_eq!(
                mlir_int_fits(neg, mag, digits, bits),
                want,
                "{neg} {mag} {digits} {bits}"
            );
        }
    }

    #[test]
    fn thirteen_prints_two_spaces_before_a_region() {
        let (ed, out) = in_edition("t.scope {\n}", Edition::V13).unwrap();
        assert_eq!((ed, out.as_str()), (Edition::V15, "t.scope  {"));
        let (_, out) = in_edition("t.scope attributes {a} {\n}", Edition::V14).unwrap();
        assert_eq!(out, "t.scope attributes {a} {");
        let (_, out) = in_edition("t.scope attributes {a} {\n}", Edition::V13).unwrap();
        assert_eq!(out, "t.scope attributes {a}  {");
        // Read back, the two spaces say 13.
        assert_eq!(
            in_edition("t.scope  {\n}", Edition::V15).unwrap().0,
            Edition::V13
        );
    }

    #[test]
    fn optional_group_with_variadic_anchor() {
        same(
            "%arg0: i32, %arg1: f32",
            "t.yield\nt.yield %arg0, %arg1 : i32, f32\nt.yield {x}",
        );
        assert_eq!(
            round_trip("%a: i32, %b: f32", "t.yield %a, %b : i32"),
            Err("2:9: custom op 't.yield' 2 operands present, but expected 1".into())
        );
    }

    #[test]
    fn segment_sizes_and_no_space_literals() {
        same(
            "%arg0: index",
            "%0 = t.alloc() : i8\n%1 = t.alloc(%arg0)[%arg0, %arg0] : i8\n%2 = t.alloc()[%arg0] {a} : i8",
        );
        let mut ctx = Context::new();
        let hooks = Hooks(crate::Registry::new(&mut ctx));
        let text = "func.func @f(%n: index) {\n  %1 = t.alloc(%n)[%n, %n] : i8\n  func.return\n}\n";
        let parsed = parse_source(&mut ctx, &hooks, "t.mlir", text, 0, true).unwrap();
        let opts = PrintOptions {
            edition: parsed.edition,
            generic: true,
            debug_info: false,
        };
        let out = print_op(&ctx, &hooks, parsed.module, opts);
        assert!(
            out.contains("{operand_segment_sizes = dense<[1, 2]> : vector<2xi32>}"),
            "{out}"
        );
    }

    #[test]
    fn attributes_of_each_kind() {
        same(
            "",
            "t.global @a = 1\nt.global \"private\" @b = 2\nt.global constant @c = 3\nt.global \"public\" constant @d = 4 {x}",
        );
        assert_eq!(
            round_trip("", "t.global c = 1"),
            Err("2:10: expected valid '@'-identifier for symbol name".into())
        );
        assert_eq!(
            round_trip("", "t.call \"f\"() : () -> ()"),
            Err("2:8: custom op 't.call' invalid kind of attribute specified".into())
        );
    }

    #[test]
    fn successors_and_functional_type() {
        same(
            "%arg0: i32",
            "t.br ^bb1(%arg0 : i32)\n^bb1(%0: i32):  // pred: ^bb0\nt.br ^bb2\n^bb2:  // pred: ^bb1\n%1:2 = t.call @g(%arg0, %0) : (i32, i32) -> (f32, i1)",
        );
        assert_eq!(
            round_trip("%a: i32", "t.call @g(%a) : i32"),
            Err("2:17: custom op 't.call' invalid kind of type specified".into())
        );
    }

    #[test]
    fn fixed_matched_and_class_types() {
        same(
            "%arg0: index, %arg1: i8",
            "%0 = t.widen %arg0, %arg1 attributes {x} : i8",
        );
        assert_eq!(
            round_trip("%i: index, %n: i8", "%0 = t.widen %i, %n : f32"),
            Err("2:23: custom op 't.widen' invalid kind of type specified".into())
        );
        let mut ctx = Context::new();
        let hooks = Hooks(crate::Registry::new(&mut ctx));
        let text =
            "func.func @f(%i: index, %n: i8) {\n  %0 = t.widen %i, %n : i8\n  func.return\n}\n";
        let parsed = parse_source(&mut ctx, &hooks, "t.mlir", text, 0, true).unwrap();
        let body = ctx
            .region_blocks(ctx.regions_of(parsed.module)[0])
            .next()
            .unwrap();
        let f = ctx.first_op(body).unwrap();
        let b = ctx.entry_block(ctx.regions_of(f)[0]).unwrap();
        let w = TWidenOp(ctx.first_op(b).unwrap());
        assert_eq!(ctx.value_type(w.y(&ctx)), ctx.int_type(64));
        assert_eq!(w.n(&ctx), ctx.block_args(b)[1]);
    }

    #[test]
    fn custom_directive_over_types() {
        same("%arg0: f32", "%0 = t.pair %arg0 : f32 {x}");
    }

    #[test]
    fn operands_directive_and_spaces() {
        same(
            "%arg0: i1, %arg1: i32",
            "%0 = t.select %arg0, %arg1, %arg1 : i1 ->[i32]",
        );
        assert_eq!(
            round_trip("%c: i1, %a: i32", "%0 = t.select %c, %a : i1 ->[i32]"),
            Err("2:15: custom op 't.select' 2 operands present, but expected 3".into())
        );
    }

    fn decl(format: &'static str, infer: Infer) -> Decl {
        const ONE: Arg = Arg {
            name: "a",
            count: Count::One,
            ty: Ty::Any,
        };
        const REST: Arg = Arg {
            name: "rest",
            count: Count::Variadic,
            ty: Ty::Any,
        };
        const R: Arg = Arg {
            name: "r",
            count: Count::One,
            ty: Ty::Any,
        };
        Decl {
            name: "t.op",
            operands: &[ONE, REST],
            results: &[R],
            attrs: &[
                AttrDecl {
                    name: "kind",
                    kind: AttrC::Enum(&["x", "y"]),
                },
                AttrDecl {
                    name: "u",
                    kind: AttrC::Unit,
                },
            ],
            successors: &[],
            regions: &[],
            syntax: [Syntax::Format(format); 3],
            infer,
            customs: &[],
            canonicalize: None,
            expressible: None,
        }
    }

    #[test]
    fn format_mistakes_are_reported() {
        let bad = [
            ("$a $rest `:` type($r)", "needs one attr-dict"),
            (
                "$a attr-dict `:` type($r)",
                "operand $rest is not in the format",
            ),
            ("$a $rest $a attr-dict `:` type($r)", "$a appears twice"),
            ("$a $rest $b attr-dict `:` type($r)", "$b: no such operand"),
            ("$a $rest attr-dict `:` type($q)", "$q: no such operand"),
            ("$a $rest attr-dict `:", "unterminated literal"),
            ("$a $rest attr-dict", "is not known"),
            ("$a ($rest `,`)? attr-dict `:` type($r)", "needs an anchor"),
            ("$a ($rest^ ($u^)?)? attr-dict `:` type($r)", "do not nest"),
            ("($a^)? $rest attr-dict `:` type($r)", "must be optional"),
            ("$a $rest $u attr-dict `:` type($r)", "must anchor"),
            ("$a $rest attr-dict `:` type($r) (`x`", "unclosed"),
        ];
        for (f, msg) in bad {
            let e = compile(&decl(f, Infer::AllSame), Edition::V15).unwrap_err();
            assert!(e.0.contains(msg), "{f}: {e:?}");
        }
        let e = compile(
            &decl("$a $rest attr-dict `:` type($a)", Infer::Spelled),
            Edition::V15,
        );
        assert!(e.unwrap_err().0.contains("is not known"));
    }

    #[test]
    fn format_elements_in_order() {
        let f = compile(
            &decl(
                "$kind `,` $a `,` ($rest^ `x`)? (`u` $u^)? attr-dict `:` type($r)",
                Infer::AllSame,
            ),
            Edition::V15,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            f.elems,
            [
                Elem::Attr(0),
                Elem::Literal(Lit::new(",")),
                Elem::Operand(0),
                Elem::Literal(Lit::new(",")),
                Elem::Optional { len: 2, anchor: 5 },
                Elem::Operand(1),
                Elem::Literal(Lit::new("x")),
                Elem::Optional { len: 2, anchor: 9 },
                Elem::Literal(Lit::new("u")),
                Elem::Attr(1),
                Elem::AttrDict { keyword: false },
                Elem::Literal(Lit::new(":")),
                Elem::Type(TypeOf::Result(0)),
            ]
        );
        assert_eq!(f.elided, ["kind", "u"]);
        // The printer's steps: the text between elements merged, each
        // optional group's inside it; the unit attribute prints nothing
        // and leaves the spacing alone; `$a` and the result's type are
        // read by index, the variadic `$rest` as a group.
        let steps: Vec<String> = f
            .plan
            .iter()
            .map(|s| match *s {
                Step::Text(a, b) => format!("{:?}", &f.plan_text[a as usize..b as usize]),
                s => format!("{s:?}"),
            })
            .collect();
        assert_eq!(
            steps,
            [
                r#"" ""#,
                "Elem(0)",
                r#"", ""#,
                "Operand(0)",
                r#"",""#,
                "Optional { len: 3, anchor: 5 }",
                r#"" ""#,
                "Elem(5)",
                r#"" x""#,
                "Optional { len: 2, anchor: 9 }",
                r#"" u""#,
                "Elem(9)",
                "AttrDict { keyword: false }",
                r#"" : ""#,
                "ResultType(0)",
            ]
        );
    }

    #[test]
    fn spacing_follows_mlir() {
        // No space before `,` `)` `]`, none after `(` `[`; keywords and
        // `->` always spaced.
        assert!(!space_before(",", false));
        assert!(!space_before(")", true));
        assert!(!space_before("(", false));
        assert!(space_before("(", true));
        assert!(space_before(":", false));
        assert!(space_before("->", false));
        assert!(space_before("to", true));
    }
}
