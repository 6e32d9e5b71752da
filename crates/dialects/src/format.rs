//! ODS's declarative assembly format, interpreted.
//!
//! An op declared with [`op!`](crate::op) writes its custom form the way
//! ODS does (`$lhs `,` $rhs attr-dict `:` type($result)`); the format is
//! compiled once into [`Elem`]s, and one parser and one printer serve
//! every such op. The printer follows the spacing rules of MLIR's
//! generated printers (`OpFormatGen.cpp`: a space before each element
//! except after `(`, `[`, `{`, `<`, and none before `,`, `)`, `]`, ...),
//! so the output is byte-identical to theirs; the parser reports what the
//! generated parsers report (`expected ','`, the enum keyword message).
//!
//! Types not spelled in the format are inferred as ODS infers them from
//! the op's traits ([`Infer`]): `SameOperandsAndResultType`, or operands
//! of one type and a result computed from it.

use crate::util::attr_dict;
use mlir_async_ir::{AttrKind, Context, Op, OperationState, Type, Value};
use mlir_async_syntax::{PResult, Parser, Printer};

/// How many values an operand or result stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    One,
    /// Any number (`Variadic<...>`), written as a comma-separated list.
    Variadic,
}

/// Where the types the format does not spell come from (ODS infers them
/// from the op's traits).
#[derive(Clone, Copy)]
pub enum Infer {
    /// Every type is spelled by a `type(...)` directive.
    Spelled,
    /// `SameOperandsAndResultType`: the one spelled type is every
    /// operand's and result's type.
    AllSame,
    /// Operands share the spelled type; each result's type is computed
    /// from it (a comparison's `i1`, or a vector of them).
    SameOperands(fn(&mut Context, Type) -> Type),
}

/// What ODS knows of an op's custom form: its operands and results in
/// order, its enum attributes (stored as `i64`, spelled as keywords) and
/// the format that arranges them.
pub struct Decl {
    pub name: &'static str,
    pub operands: &'static [(&'static str, Count)],
    pub results: &'static [&'static str],
    /// Enum attributes: the name and the keyword of each stored value.
    pub enums: &'static [(&'static str, &'static [&'static str])],
    pub format: &'static str,
    pub infer: Infer,
    /// `custom<Name>(attr-dict)` directives: the name, and the Rust
    /// parser and printer that stand for ODS's `parseName` / `printName`.
    pub customs: &'static [Custom],
}

/// A custom directive over the attribute dictionary: reads the
/// attributes into the state; prints the op's attributes but the elided.
#[derive(Clone, Copy)]
pub struct Custom {
    pub name: &'static str,
    pub parse: fn(&mut Parser, &mut OperationState) -> PResult<()>,
    pub print: fn(&mut Printer, Op, &[&'static str]),
}

/// One element of a compiled format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// `` `,` ``, `` `to` ``: punctuation or a keyword.
    Literal(Lit),
    /// `attr-dict`: the attributes the format does not spell.
    AttrDict,
    /// `$x` for an operand (by index in [`Decl::operands`]).
    Operand(usize),
    /// `$x` for an enum attribute (by index in [`Decl::enums`]).
    Enum(usize),
    /// `type($x)` of an operand or result.
    Type(TypeOf),
    /// `custom<Name>(attr-dict)` (by index in [`Decl::customs`]).
    Custom(usize),
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
}

/// Operands and results a format may type one by one.
const MAX_TYPED: usize = 8;

/// A format compiled against its [`Decl`].
#[derive(Debug)]
pub struct Format {
    pub elems: Vec<Elem>,
    /// What is printed before each element (a space or nothing), and for
    /// a literal the literal too: `OpFormatGen`'s spacing depends only on
    /// the elements before, so it is decided here once.
    prefixes: Vec<String>,
    /// Attributes `attr-dict` leaves out: those the format spells.
    elided: Vec<&'static str>,
    /// The operands are read in their declared order and share the one
    /// spelled type: they resolve in one sweep of the parser's stack.
    one_sweep: bool,
}

/// A mistake in a declared format (a test compiles every format, so none
/// reaches a user).
#[derive(Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

/// Compiles `d.format`: each `$name` must be a declared operand or enum
/// attribute, each operand appear once, and `attr-dict` once.
pub fn compile(d: &Decl) -> Result<Format, FormatError> {
    let err = |m: String| Err(FormatError(format!("{}: {m}", d.name)));
    let mut elems = vec![];
    let mut rest = d.format.trim_start();
    let mut seen_operands = vec![false; d.operands.len()];
    let mut attr_dicts = 0;
    while !rest.is_empty() {
        let (elem, after) = if let Some(r) = rest.strip_prefix('`') {
            let Some(end) = r.find('`') else {
                return err("unterminated literal".into());
            };
            if end == 0 {
                return err("empty literal".into());
            }
            (Elem::Literal(Lit::new(&r[..end])), &r[end + 1..])
        } else if let Some(r) = rest.strip_prefix("custom<") {
            let Some((name, r)) = r.split_once(">(attr-dict)") else {
                return err("custom<Name> takes (attr-dict)".into());
            };
            let Some(i) = d.customs.iter().position(|c| c.name == name) else {
                return err(format!("custom<{name}>: no such directive"));
            };
            attr_dicts += 1;
            (Elem::Custom(i), r)
        } else if let Some(r) = rest.strip_prefix("attr-dict") {
            attr_dicts += 1;
            (Elem::AttrDict, r)
        } else if let Some(r) = rest.strip_prefix("type(") {
            let Some(end) = r.find(')') else {
                return err("unclosed type(".into());
            };
            let Some(name) = r[..end].trim().strip_prefix('$') else {
                return err("type(...) takes a $variable".into());
            };
            let t = if let Some(i) = d.operands.iter().position(|(n, _)| *n == name) {
                TypeOf::Operand(i)
            } else if let Some(i) = d.results.iter().position(|n| *n == name) {
                TypeOf::Result(i)
            } else {
                return err(format!("type(${name}): no such operand or result"));
            };
            (Elem::Type(t), &r[end + 1..])
        } else if let Some(r) = rest.strip_prefix('$') {
            let end = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            let name = &r[..end];
            if let Some(i) = d.operands.iter().position(|(n, _)| *n == name) {
                if std::mem::replace(&mut seen_operands[i], true) {
                    return err(format!("${name} appears twice"));
                }
                (Elem::Operand(i), &r[end..])
            } else if let Some(i) = d.enums.iter().position(|(n, _)| *n == name) {
                (Elem::Enum(i), &r[end..])
            } else {
                return err(format!("${name}: no such operand or attribute"));
            }
        } else {
            return err(format!("unexpected '{rest}'"));
        };
        elems.push(elem);
        rest = after.trim_start();
    }
    if attr_dicts != 1 {
        return err("needs one attr-dict".into());
    }
    if d.operands.len() + d.results.len() > MAX_TYPED {
        return err(format!("more than {MAX_TYPED} operands and results"));
    }
    if matches!(d.infer, Infer::Spelled) && d.operands.iter().any(|(_, c)| *c == Count::Variadic) {
        return err("a variadic operand's types must be inferred".into());
    }
    if d.operands
        .iter()
        .filter(|(_, c)| *c == Count::Variadic)
        .count()
        > 1
    {
        return err("more than one variadic operand (segment sizes are not supported)".into());
    }
    if let Some(i) = seen_operands.iter().position(|s| !s) {
        return err(format!("operand ${} is not in the format", d.operands[i].0));
    }
    let spelled = |t: TypeOf| elems.contains(&Elem::Type(t));
    let complete = match d.infer {
        Infer::Spelled => {
            (0..d.operands.len()).all(|i| spelled(TypeOf::Operand(i)))
                && (0..d.results.len()).all(|i| spelled(TypeOf::Result(i)))
        }
        Infer::AllSame | Infer::SameOperands(_) => {
            elems.iter().filter(|e| matches!(e, Elem::Type(_))).count() == 1
        }
    };
    if !complete {
        return err("the format does not give every type".into());
    }
    let elided = elems
        .iter()
        .filter_map(|e| match e {
            Elem::Enum(i) => Some(d.enums[*i].0),
            _ => None,
        })
        .collect();
    let mut prefixes = vec![];
    let (mut space, mut after_punct) = (true, false);
    for e in &elems {
        prefixes.push(match e {
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
            Elem::AttrDict => {
                after_punct = false;
                String::new()
            }
            _ => {
                let lead = if space || !after_punct { " " } else { "" };
                (space, after_punct) = (true, false);
                lead.to_string()
            }
        });
    }
    // A literal takes the space of the element after it: one write
    // (`, ` before `$rhs`) instead of two.
    for i in 1..elems.len() {
        if matches!(elems[i - 1], Elem::Literal(_)) && !matches!(elems[i], Elem::Literal(_)) {
            let next = std::mem::take(&mut prefixes[i]);
            prefixes[i - 1].push_str(&next);
        }
    }
    let mut order = elems.iter().filter_map(|e| match e {
        Elem::Operand(i) => Some(*i),
        _ => None,
    });
    let in_order = order.by_ref().enumerate().all(|(k, i)| k == i);
    let one_sweep = in_order && !matches!(d.infer, Infer::Spelled);
    Ok(Format {
        elems,
        prefixes,
        elided,
        one_sweep,
    })
}

/// An op whose custom form is declared: implemented by [`op!`](crate::op).
pub trait Declared {
    fn decl() -> &'static Decl;
    /// The compiled format, built on first use.
    fn format() -> &'static Format;
}

/// The parser of a declared op, as the registry calls custom parsers.
pub fn parse<T: Declared>(p: &mut Parser, st: &mut OperationState, _: usize) -> PResult<()> {
    parse_with(T::decl(), T::format(), p, st)
}

/// The printer of a declared op.
pub fn print<T: Declared>(p: &mut Printer, op: Op) {
    print_with(T::decl(), T::format(), p, op)
}

/// Where one operand's references sit on the parser's pending stack.
#[derive(Clone, Copy, Default)]
struct Slot {
    start: usize,
    end: usize,
}

fn parse_with(d: &Decl, f: &Format, p: &mut Parser, st: &mut OperationState) -> PResult<()> {
    let base = p.pending(0).len();
    let r = parse_elems(d, f, p, st, base);
    p.drop_pending(base);
    r
}

fn parse_elems(
    d: &Decl,
    f: &Format,
    p: &mut Parser,
    st: &mut OperationState,
    base: usize,
) -> PResult<()> {
    // Nearly every op has at most three operands and one spelled type.
    let mut slots = [Slot::default(); 4];
    let mut more_slots = vec![];
    let mut types: [Option<Type>; MAX_TYPED] = [None; MAX_TYPED];
    let mut spelled: Option<Type> = None;
    for e in &f.elems {
        match *e {
            Elem::Literal(l) => {
                if l.keyword {
                    p.expect_keyword(l.text)?;
                } else {
                    p.expect(l.text)?;
                }
            }
            Elem::AttrDict => attr_dict(p, st)?,
            Elem::Custom(i) => (d.customs[i].parse)(p, st)?,
            Elem::Operand(i) => {
                let start = match d.operands[i].1 {
                    Count::One => p.parse_operand_pending()?,
                    Count::Variadic => p.parse_operand_list_pending()?,
                };
                let slot = Slot {
                    start,
                    end: start + p.pending(start).len(),
                };
                if i < slots.len() {
                    slots[i] = slot;
                } else {
                    more_slots.resize(i - slots.len() + 1, Slot::default());
                    more_slots[i - slots.len()] = slot;
                }
            }
            Elem::Enum(i) => {
                let (name, keywords) = d.enums[i];
                p.skip_ws();
                let pos = p.pos;
                // A string that does not lex (unterminated, a bad escape)
                // is the lexer's error, as upstream reports it, before any
                // word is looked at.
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
                    // Named as the generation spells it (13's `std.cmpi`).
                    let op_name = mlir_async_syntax::edition::generic_name(
                        d.name,
                        p.seen.unwrap_or(mlir_async_syntax::Edition::V15),
                    );
                    // A string is read as a string attribute first, then
                    // looked up: upstream names the attribute it read.
                    if let (true, Some(w)) = (quoted, &word) {
                        let mut text = String::new();
                        mlir_async_syntax::printer::print_string_bytes(w, &mut text);
                        return p.err(
                            pos,
                            format!(
                                "custom op '{op_name}' invalid {name} attribute specification: {text}"
                            ),
                        );
                    }
                    return p.err(
                        pos,
                        format!(
                            "custom op '{op_name}' expected string or keyword containing one of the following enum values for attribute '{name}' [{}]",
                            keywords.join(", ")
                        ),
                    );
                };
                let a = p.memo_attr(name, k as u64, |ctx| {
                    let i64t = ctx.int_type(64);
                    ctx.int_attr(k as i128, i64t)
                });
                let s = p.static_sym(name);
                st.attrs.push((s, a));
            }
            Elem::Type(t) => {
                let ty = p.parse_type()?;
                spelled = Some(ty);
                let k = match t {
                    TypeOf::Operand(i) => i,
                    TypeOf::Result(i) => d.operands.len() + i,
                };
                if k < types.len() {
                    types[k] = Some(ty);
                }
            }
        }
    }
    let slot = |i: usize| {
        if i < slots.len() {
            slots[i]
        } else {
            more_slots[i - slots.len()]
        }
    };
    let type_of = |k: usize| -> Option<Type> {
        match d.infer {
            Infer::Spelled => types.get(k).copied().flatten(),
            Infer::AllSame | Infer::SameOperands(_) => spelled,
        }
    };
    if f.one_sweep {
        let Some(ty) = spelled else {
            return p.err_here(format!("custom op '{}' has no type", d.name));
        };
        let first = if d.operands.is_empty() {
            p.pending(0).len()
        } else {
            slot(0).start
        };
        p.resolve_pending_same(first, ty, &mut st.operands)?;
    }
    for i in 0..d.operands.len() {
        if f.one_sweep {
            break;
        }
        let Slot { start, end } = slot(i);
        let Some(ty) = type_of(i) else {
            return p.err_here(format!(
                "custom op '{}' has too many typed operands",
                d.name
            ));
        };
        for j in start..end {
            let u = p.pending(base)[j - base];
            let v = p.resolve_operand(&u, ty)?;
            st.operands.push(v);
        }
    }
    for i in 0..d.results.len() {
        let ty = match (d.infer, spelled) {
            (Infer::SameOperands(result_of), Some(t)) => result_of(p.ctx, t),
            _ => match type_of(d.operands.len() + i) {
                Some(t) => t,
                None => return p.err_here(format!("custom op '{}' has too many results", d.name)),
            },
        };
        st.result_types.push(ty);
    }
    Ok(())
}

fn print_with(d: &Decl, f: &Format, p: &mut Printer, op: Op) {
    let ctx = p.ctx;
    for (e, prefix) in f.elems.iter().zip(&f.prefixes) {
        if !prefix.is_empty() {
            p.w(prefix);
        }
        match *e {
            Elem::Literal(_) => {}
            Elem::AttrDict => p.attr_dict(op, &f.elided),
            Elem::Operand(i) => p.operands(operand_group(d, ctx, op, i)),
            Elem::Enum(i) => {
                let (name, keywords) = d.enums[i];
                let word = ctx
                    .get_attr(op, name)
                    .and_then(|a| match ctx.attr_kind(a) {
                        AttrKind::Integer(v, _) => usize::try_from(*v).ok(),
                        _ => None,
                    })
                    .and_then(|v| keywords.get(v).copied())
                    .unwrap_or("?");
                p.w(word);
            }
            Elem::Type(TypeOf::Operand(i)) => {
                let vs = operand_group(d, ctx, op, i);
                let ts: Vec<Type> = vs.iter().map(|&v| ctx.value_type(v)).collect();
                p.types(&ts);
            }
            Elem::Type(TypeOf::Result(i)) => {
                if let Some(&r) = ctx.results(op).get(i) {
                    p.ty(ctx.value_type(r));
                }
            }
            // A custom directive prints what it likes after the space
            // (MLIR's `custom<LLVMOpAttrs>` prints nothing when there are
            // no attributes: two spaces before the `:`).
            Elem::Custom(i) => (d.customs[i].print)(p, op, &f.elided),
        }
    }
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

/// The operands of group `i`: one, or every operand of a variadic group
/// (at most one group is variadic, as without segment sizes in ODS).
pub fn operand_group<'c>(d: &Decl, ctx: &'c Context, op: Op, i: usize) -> &'c [Value] {
    let all = ctx.operands(op);
    let fixed_before = i;
    let fixed_after = d.operands.len() - i - 1;
    match d.operands[i].1 {
        Count::One => all.get(i..i + 1).unwrap_or(&[]),
        Count::Variadic => {
            let end = all.len().saturating_sub(fixed_after);
            all.get(fixed_before..end).unwrap_or(&[])
        }
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

/// The result types [`Infer`] gives for `operands` (`None` for
/// [`Infer::Spelled`]: the caller names them).
pub fn infer_results(ctx: &mut Context, d: &Decl, operands: &[Value]) -> Option<Vec<Type>> {
    let first = ctx.value_type(*operands.first()?);
    let t = match d.infer {
        Infer::Spelled => return None,
        Infer::AllSame => first,
        Infer::SameOperands(result_of) => result_of(ctx, first),
    };
    Some(vec![t; d.results.len()])
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
#[macro_export]
macro_rules! op {
    (
        $(#[$doc:meta])*
        $vis:vis struct $ty:ident = $name:literal {
            operands: [$($operand:ident : $count:ident),* $(,)?],
            results: [$($result:ident),* $(,)?],
            $(enums: [$($enum_name:ident = $table:expr),* $(,)?],)?
            $(customs: [$($custom:expr),* $(,)?],)?
            format: $format:literal,
            infer: $infer:expr $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $ty(pub mlir_async_ir::Op);

        #[allow(dead_code)]
        impl $ty {
            pub const NAME: &'static str = $name;
            const OPERAND_NAMES: &'static [&'static str] = &[$(stringify!($operand)),*];
            const RESULT_NAMES: &'static [&'static str] = &[$(stringify!($result)),*];
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
                pub fn $result(self, ctx: &mlir_async_ir::Context) -> mlir_async_ir::Value {
                    const I: usize = $crate::format::index_of($ty::RESULT_NAMES, stringify!($result));
                    ctx.result(self.0, I)
                }
            )*
        }

        impl $crate::format::Declared for $ty {
            fn decl() -> &'static $crate::format::Decl {
                static DECL: $crate::format::Decl = $crate::format::Decl {
                    name: $name,
                    operands: &[$((stringify!($operand), $crate::format::Count::$count)),*],
                    results: $ty::RESULT_NAMES,
                    enums: &[$($((stringify!($enum_name), $table)),*)?],
                    format: $format,
                    customs: &[$($($custom),*)?],
                    infer: {
                        #[allow(unused_imports)]
                        use $crate::format::Infer::*;
                        $infer
                    },
                };
                &DECL
            }
            fn format() -> &'static $crate::format::Format {
                static FORMAT: std::sync::OnceLock<$crate::format::Format> =
                    std::sync::OnceLock::new();
                FORMAT.get_or_init(|| {
                    // Every declared format is compiled by a test
                    // (`declared_formats_compile`): none fails here.
                    $crate::format::compile(Self::decl()).expect("declared format compiles")
                })
            }
        }
    };
    (@operand $ty:ident $operand:ident One) => {
        pub fn $operand(self, ctx: &mlir_async_ir::Context) -> mlir_async_ir::Value {
            const I: usize = $crate::format::index_of($ty::OPERAND_NAMES, stringify!($operand));
            ctx.operand(self.0, I)
        }
    };
    (@operand $ty:ident $operand:ident Variadic) => {
        pub fn $operand(self, ctx: &mlir_async_ir::Context) -> &[mlir_async_ir::Value] {
            const I: usize = $crate::format::index_of($ty::OPERAND_NAMES, stringify!($operand));
            let d = <Self as $crate::format::Declared>::decl();
            $crate::format::operand_group(d, ctx, self.0, I)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_formats_compile() {
        let mut ctx = Context::new();
        let reg = crate::Registry::new(&mut ctx);
        let mut n = 0;
        for d in reg.defs() {
            if let Some(decl) = d.declared {
                let decl = decl();
                assert_eq!(decl.name, d.name);
                compile(decl).unwrap_or_else(|e| panic!("{e:?}"));
                n += 1;
            }
        }
        // arith: 27 binary ops, 11 casts, negf, cmpi, cmpf.
        assert!(n >= 41, "{n} declared ops");
    }

    fn decl(format: &'static str, infer: Infer) -> Decl {
        Decl {
            name: "t.op",
            operands: &[("a", Count::One), ("rest", Count::Variadic)],
            results: &["r"],
            enums: &[("kind", &["x", "y"])],
            format,
            infer,
            customs: &[],
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
            (
                "$a $rest $b attr-dict `:` type($r)",
                "$b: no such operand or attribute",
            ),
            (
                "$a $rest attr-dict `:` type($q)",
                "type($q): no such operand or result",
            ),
            ("$a $rest attr-dict `:", "unterminated literal"),
            ("$a $rest attr-dict", "does not give every type"),
        ];
        for (f, msg) in bad {
            let e = compile(&decl(f, Infer::AllSame)).unwrap_err();
            assert!(e.0.contains(msg), "{f}: {e:?}");
        }
        let e = compile(&decl(
            "$a $rest attr-dict `:` type($a) type($r)",
            Infer::Spelled,
        ));
        assert!(e.unwrap_err().0.contains("must be inferred"));
    }

    #[test]
    fn format_elements_in_order() {
        let f = compile(&decl(
            "$kind `,` $a `,` $rest attr-dict `:` type($r)",
            Infer::AllSame,
        ))
        .unwrap();
        assert_eq!(
            f.elems,
            [
                Elem::Enum(0),
                Elem::Literal(Lit::new(",")),
                Elem::Operand(0),
                Elem::Literal(Lit::new(",")),
                Elem::Operand(1),
                Elem::AttrDict,
                Elem::Literal(Lit::new(":")),
                Elem::Type(TypeOf::Result(0)),
            ]
        );
        assert_eq!(f.elided, ["kind"]);
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
