//! Check patterns: parsing of `{{regex}}`, `[[VAR:regex]]`, `[[VAR]]`,
//! `[[#numeric expressions]]`, and matching them against input text.
//!
//! Error messages and locations follow LLVM 14's FileCheck, because tests
//! (LLVM's own among them) compare them literally.

use crate::llvm_regex::{escape_literal, llvm_escape, translate};
use crate::sm::{DiagKind, Loc, SourceMgr};
use std::collections::{BTreeMap, HashMap, HashSet};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    None,
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    Comment,
    Eof,
    BadNot,
    BadCount,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CheckTy {
    pub kind: Kind,
    pub count: usize,
    pub literal: bool,
}

impl CheckTy {
    pub fn new(kind: Kind) -> Self {
        CheckTy {
            kind,
            count: 1,
            literal: false,
        }
    }

    pub fn description(&self, prefix: &str) -> String {
        let m = if self.literal { "{LITERAL}" } else { "" };
        match self.kind {
            Kind::None => "invalid".into(),
            Kind::Plain if self.count > 1 => format!("{prefix}-COUNT{m}"),
            Kind::Plain => format!("{prefix}{m}"),
            Kind::Next => format!("{prefix}-NEXT{m}"),
            Kind::Same => format!("{prefix}-SAME{m}"),
            Kind::Not => format!("{prefix}-NOT{m}"),
            Kind::Dag => format!("{prefix}-DAG{m}"),
            Kind::Label => format!("{prefix}-LABEL{m}"),
            Kind::Empty => format!("{prefix}-EMPTY{m}"),
            Kind::Comment => prefix.to_string(),
            Kind::Eof => "implicit EOF".into(),
            Kind::BadNot => "bad NOT".into(),
            Kind::BadCount => "bad COUNT".into(),
        }
    }

    pub fn abbreviation(&self) -> &'static str {
        match self.kind {
            Kind::Plain if self.count > 1 => "count",
            Kind::Plain => "check",
            Kind::Next => "next",
            Kind::Same => "same",
            Kind::Not => "not",
            Kind::Dag => "dag",
            Kind::Label => "label",
            Kind::Empty => "empty",
            Kind::Comment => "com",
            Kind::Eof => "eof",
            Kind::BadNot => "bad-not",
            Kind::BadCount => "bad-count",
            Kind::None => "none",
        }
    }
}

/// Everything that changes how patterns are parsed and matched.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub check_prefixes: Vec<String>,
    pub comment_prefixes: Vec<String>,
    pub implicit_check_not: Vec<String>,
    pub global_defines: Vec<String>,
    pub allow_empty_input: bool,
    pub allow_unused_prefixes: bool,
    pub enable_var_scope: bool,
    pub allow_deprecated_dag_overlap: bool,
    pub verbose: bool,
    pub verbose_verbose: bool,
    pub strict_whitespace: bool,
    pub match_full_lines: bool,
    pub ignore_case: bool,
    pub is_default_check_prefix: bool,
}

// ---------------------------------------------------------------------------
// Numeric values.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FmtKind {
    NoFormat,
    Unsigned,
    Signed,
    HexUpper,
    HexLower,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Format {
    pub kind: FmtKind,
    pub precision: usize,
    pub alt: bool,
}

impl Format {
    pub fn new(kind: FmtKind) -> Self {
        Format {
            kind,
            precision: 0,
            alt: false,
        }
    }

    fn name(&self) -> &'static str {
        match self.kind {
            FmtKind::NoFormat => "<none>",
            FmtKind::Unsigned => "%u",
            FmtKind::Signed => "%d",
            FmtKind::HexUpper => "%X",
            FmtKind::HexLower => "%x",
        }
    }

    fn wildcard(&self) -> String {
        let pre = if self.alt { "0x" } else { "" };
        let p = self.precision;
        match (self.kind, p) {
            (FmtKind::Signed, 0) => "-?[0-9]+".into(),
            (FmtKind::Signed, _) => format!("-?([1-9][0-9]*)?[0-9]{{{p}}}"),
            (FmtKind::HexUpper, 0) => format!("{pre}[0-9A-F]+"),
            (FmtKind::HexUpper, _) => format!("{pre}([1-9A-F][0-9A-F]*)?[0-9A-F]{{{p}}}"),
            (FmtKind::HexLower, 0) => format!("{pre}[0-9a-f]+"),
            (FmtKind::HexLower, _) => format!("{pre}([1-9a-f][0-9a-f]*)?[0-9a-f]{{{p}}}"),
            (_, 0) => "[0-9]+".into(),
            (_, _) => format!("([1-9][0-9]*)?[0-9]{{{p}}}"),
        }
    }

    /// Text of `v` in this format, or `None` when it cannot be represented
    /// (LLVM 14: values live in int64/uint64; unsigned formats reject
    /// negatives, `%d` rejects values above `INT64_MAX`).
    fn render(&self, v: i128) -> Option<String> {
        let (digits, neg) = match self.kind {
            FmtKind::Signed => {
                if v > i64::MAX as i128 || v < i64::MIN as i128 {
                    return None;
                }
                (v.unsigned_abs().to_string(), v < 0)
            }
            FmtKind::HexUpper | FmtKind::HexLower => {
                if v < 0 || v > u64::MAX as i128 {
                    return None;
                }
                let s = format!("{:x}", v);
                let s = if self.kind == FmtKind::HexUpper {
                    s.to_ascii_uppercase()
                } else {
                    s
                };
                (s, false)
            }
            _ => {
                if v < 0 || v > u64::MAX as i128 {
                    return None;
                }
                (v.to_string(), false)
            }
        };
        let pad = self.precision.saturating_sub(digits.len());
        Some(format!(
            "{}{}{}{}",
            if neg { "-" } else { "" },
            if self.alt { "0x" } else { "" },
            "0".repeat(pad),
            digits
        ))
    }

    fn parse_value(&self, s: &[u8]) -> Option<i128> {
        let (neg, rest) = match s.split_first() {
            Some((b'-', r)) => (true, r),
            _ => (false, s),
        };
        let rest = if self.alt {
            rest.strip_prefix(b"0x").unwrap_or(rest)
        } else {
            rest
        };
        let radix = if matches!(self.kind, FmtKind::HexLower | FmtKind::HexUpper) {
            16
        } else {
            10
        };
        let txt = std::str::from_utf8(rest).ok()?;
        let v = u128::from_str_radix(txt, radix).ok()?;
        if neg {
            if v > (i64::MAX as u128) + 1 {
                return None;
            }
            Some(-(v as i128))
        } else {
            if v > u64::MAX as u128 {
                return None;
            }
            Some(v as i128)
        }
    }
}

fn in_range(v: i128) -> bool {
    v >= i64::MIN as i128 && v <= u64::MAX as i128
}

#[derive(Clone, Copy, Debug)]
enum Func {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
}

impl Func {
    fn apply(self, a: i128, b: i128) -> Option<i128> {
        let r = match self {
            Func::Add => a.checked_add(b)?,
            Func::Sub => a.checked_sub(b)?,
            Func::Mul => a.checked_mul(b)?,
            Func::Div => {
                if b == 0 {
                    return None;
                }
                a.checked_div(b)?
            }
            Func::Max => a.max(b),
            Func::Min => a.min(b),
        };
        in_range(r).then_some(r)
    }
}

#[derive(Clone, Debug)]
enum Ast {
    Lit(i128),
    Var {
        name: String,
        id: usize,
        loc: Loc,
    },
    Bin {
        f: Func,
        l: Box<Ast>,
        r: Box<Ast>,
        text: String,
    },
}

#[derive(Clone, Debug)]
pub struct NumVar {
    pub name: String,
    pub fmt: Format,
    pub value: Option<i128>,
    pub str_range: Option<(usize, usize)>,
    pub def_line: Option<usize>,
}

/// A diagnostic with a location (LLVM's `ErrorDiagnostic`). `range` is the
/// highlighted input range used by the input dump.
#[derive(Clone, Debug)]
pub struct ErrDiag {
    pub loc: Loc,
    pub range: (usize, usize),
    pub msg: String,
}

impl ErrDiag {
    pub fn at(loc: Loc, msg: impl Into<String>) -> Self {
        ErrDiag {
            loc,
            range: (loc.off, loc.off),
            msg: msg.into(),
        }
    }
}

enum EvalErr {
    Undef(Vec<ErrDiag>),
    Overflow,
}

/// A string variable's value and its input range when captured.
pub type StringVar = (Vec<u8>, Option<(usize, usize)>);

/// Shared variable state (LLVM's `FileCheckPatternContext`).
#[derive(Default)]
pub struct Context {
    /// String variables: value and, when captured from the input, where.
    pub vars: HashMap<String, StringVar>,
    pub defined_string_vars: HashSet<String>,
    pub num_vars: Vec<NumVar>,
    pub num_table: HashMap<String, usize>,
    pub line_var: usize,
    /// The check file failed to parse where LLVM calls `exit(1)` itself
    /// (`FindRegexVarEnd`) instead of returning an error (status 2).
    pub exit_status_one: bool,
}

impl Context {
    fn eval(&self, a: &Ast) -> Result<i128, EvalErr> {
        match a {
            Ast::Lit(v) => Ok(*v),
            Ast::Var { name, id, loc } => self.num_vars[*id].value.ok_or_else(|| {
                EvalErr::Undef(vec![ErrDiag::at(
                    *loc,
                    format!("undefined variable: {name}"),
                )])
            }),
            Ast::Bin { f, l, r, .. } => {
                let (lv, rv) = (self.eval(l), self.eval(r));
                match (lv, rv) {
                    (Ok(x), Ok(y)) => f.apply(x, y).ok_or(EvalErr::Overflow),
                    (Err(EvalErr::Undef(mut a)), Err(EvalErr::Undef(b))) => {
                        a.extend(b);
                        Err(EvalErr::Undef(a))
                    }
                    (Err(e), _) | (_, Err(e)) => Err(e),
                }
            }
        }
    }

    fn implicit_format(&self, a: &Ast, sm_loc: Loc) -> Result<Format, ErrDiag> {
        match a {
            Ast::Lit(_) => Ok(Format::new(FmtKind::NoFormat)),
            Ast::Var { id, .. } => Ok(self.num_vars[*id].fmt),
            Ast::Bin { l, r, text, .. } => {
                let lf = self.implicit_format(l, sm_loc)?;
                let rf = self.implicit_format(r, sm_loc)?;
                if lf.kind != FmtKind::NoFormat && rf.kind != FmtKind::NoFormat && lf != rf {
                    return Err(ErrDiag::at(
                        sm_loc,
                        format!(
                            "implicit format conflict between '{}' ({}) and '{}' ({}), need an explicit format specifier",
                            ast_text(l),
                            lf.name(),
                            ast_text(r),
                            rf.name()
                        )
                        .replace("{TEXT}", text),
                    ));
                }
                Ok(if lf.kind != FmtKind::NoFormat { lf } else { rf })
            }
        }
    }

    pub fn clear_local_vars(&mut self) {
        self.vars.retain(|k, _| k.starts_with('$'));
        let locals: Vec<String> = self
            .num_table
            .keys()
            .filter(|k| !k.starts_with('$'))
            .cloned()
            .collect();
        for k in locals {
            if let Some(id) = self.num_table.remove(&k) {
                self.num_vars[id].value = None;
                self.num_vars[id].str_range = None;
            }
        }
    }

    fn make_num_var(&mut self, name: &str, fmt: Format, def_line: Option<usize>) -> usize {
        self.num_vars.push(NumVar {
            name: name.to_string(),
            fmt,
            value: None,
            str_range: None,
            def_line,
        });
        self.num_vars.len() - 1
    }

    pub fn create_line_var(&mut self) {
        let id = self.make_num_var("@LINE", Format::new(FmtKind::Unsigned), None);
        self.line_var = id;
        self.num_table.insert("@LINE".into(), id);
    }
}

fn ast_text(a: &Ast) -> String {
    match a {
        Ast::Lit(v) => v.to_string(),
        Ast::Var { name, .. } => name.clone(),
        Ast::Bin { text, .. } => text.clone(),
    }
}

// ---------------------------------------------------------------------------
// Expression parsing. `s` is the buffer, positions are byte offsets into it.

struct ExprParser<'a> {
    s: &'a [u8],
    buf: usize,
    line: Option<usize>,
    /// Operands read so far and parentheses/calls open now: bounded so
    /// that parsing, evaluating and dropping the (recursive) tree cannot
    /// overflow the stack, where LLVM 14 crashes (`[[#((((...1))))]]`,
    /// `[[#1+1+...+1]]` with tens of thousands of terms).
    operands: std::cell::Cell<usize>,
    nesting: std::cell::Cell<usize>,
}

const MAX_OPERANDS: usize = 1000;
const MAX_NESTING: usize = 100;

impl<'a> ExprParser<'a> {
    fn new(s: &'a [u8], buf: usize, line: Option<usize>) -> Self {
        ExprParser {
            s,
            buf,
            line,
            operands: std::cell::Cell::new(0),
            nesting: std::cell::Cell::new(0),
        }
    }
}

#[derive(PartialEq, Clone, Copy)]
enum Allowed {
    LineVar,
    Literal,
    Any,
}

fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

impl ExprParser<'_> {
    fn loc(&self, off: usize) -> Loc {
        Loc { buf: self.buf, off }
    }

    fn ltrim(&self, mut i: usize, end: usize) -> usize {
        while i < end && is_space(self.s[i]) {
            i += 1;
        }
        i
    }

    /// Returns (name, is_pseudo, next index).
    fn parse_variable(&self, i: usize, end: usize) -> Result<(String, bool, usize), ErrDiag> {
        if i >= end {
            return Err(ErrDiag::at(self.loc(i), "empty variable name"));
        }
        let mut j = i;
        let pseudo = self.s[i] == b'@';
        if self.s[i] == b'$' || pseudo {
            j += 1;
        }
        if j == end {
            return Err(ErrDiag::at(
                self.loc(j),
                format!(
                    "empty {}variable name",
                    if pseudo { "pseudo " } else { "global " }
                ),
            ));
        }
        let c = self.s[j];
        if !(c == b'_' || c.is_ascii_alphabetic()) {
            return Err(ErrDiag::at(self.loc(i), "invalid variable name"));
        }
        j += 1;
        while j < end && (self.s[j] == b'_' || self.s[j].is_ascii_alphanumeric()) {
            j += 1;
        }
        Ok((
            String::from_utf8_lossy(&self.s[i..j]).into_owned(),
            pseudo,
            j,
        ))
    }

    fn var_use(
        &self,
        ctx: &mut Context,
        name: &str,
        pseudo: bool,
        at: usize,
    ) -> Result<Ast, ErrDiag> {
        if pseudo && name != "@LINE" {
            return Err(ErrDiag::at(
                self.loc(at),
                format!("invalid pseudo numeric variable '{name}'"),
            ));
        }
        let id = match ctx.num_table.get(name) {
            Some(&id) => id,
            None => {
                let id = ctx.make_num_var(name, Format::new(FmtKind::Unsigned), None);
                ctx.num_table.insert(name.to_string(), id);
                id
            }
        };
        if let (Some(d), Some(l)) = (ctx.num_vars[id].def_line, self.line) {
            if d == l {
                return Err(ErrDiag::at(
                    self.loc(at),
                    format!(
                        "numeric variable '{name}' defined earlier in the same CHECK directive"
                    ),
                ));
            }
        }
        Ok(Ast::Var {
            name: name.to_string(),
            id,
            loc: self.loc(at),
        })
    }

    fn operand(
        &self,
        ctx: &mut Context,
        i: &mut usize,
        end: usize,
        ao: Allowed,
        maybe_invalid_constraint: bool,
    ) -> Result<Ast, ErrDiag> {
        self.operands.set(self.operands.get() + 1);
        if self.operands.get() > MAX_OPERANDS {
            return Err(ErrDiag::at(
                self.loc(*i),
                format!("numeric expression too long (more than {MAX_OPERANDS} operands)"),
            ));
        }
        if *i < end && self.s[*i] == b'(' {
            if ao != Allowed::Any {
                return Err(ErrDiag::at(
                    self.loc(*i),
                    "parenthesized expression not permitted here",
                ));
            }
            return self.paren(ctx, i, end);
        }
        if ao == Allowed::LineVar || ao == Allowed::Any {
            match self.parse_variable(*i, end) {
                Ok((name, pseudo, j)) => {
                    let k = self.ltrim(j, end);
                    if k < end && self.s[k] == b'(' {
                        if ao != Allowed::Any {
                            return Err(ErrDiag::at(self.loc(*i), "unexpected function call"));
                        }
                        let start = *i;
                        *i = k;
                        return self.call(ctx, i, end, &name, start);
                    }
                    let start = *i;
                    *i = j;
                    return self.var_use(ctx, &name, pseudo, start);
                }
                Err(e) => {
                    if ao == Allowed::LineVar {
                        return Err(e);
                    }
                }
            }
        }
        // Literal.
        let save = *i;
        let mut j = *i;
        // LLVM reads a legacy `[[@LINE+N]]` offset as unsigned only.
        let neg = ao != Allowed::Literal && j < end && self.s[j] == b'-';
        if neg {
            j += 1;
        }
        // `StringRef::consumeInteger` with radix 0 (LLVM's
        // `GetAutoSenseRadix`): 0x hex, 0b binary, 0o and a leading 0 octal;
        // a prefix with no digit of its radix after it is no number.
        let mut radix = 10;
        if ao != Allowed::Literal {
            let rest = &self.s[j..end];
            let two = |p: &[u8]| rest.starts_with(p);
            if two(b"0x") || two(b"0X") {
                radix = 16;
                j += 2;
            } else if two(b"0b") || two(b"0B") {
                radix = 2;
                j += 2;
            } else if two(b"0o") {
                radix = 8;
                j += 2;
            } else if rest.len() > 1 && rest[0] == b'0' && rest[1].is_ascii_digit() {
                radix = 8;
                j += 1;
            }
        }
        let ds = j;
        // Where LLVM reports a bad literal: its second, signed attempt is
        // left past the radix prefix (`GetAutoSenseRadix` consumed it),
        // unless a `-` made it work on a copy.
        let err_at = if ao == Allowed::Any && !neg { ds } else { save };
        while j < end && (self.s[j] as char).is_digit(radix) {
            j += 1;
        }
        if j > ds {
            let txt = std::str::from_utf8(&self.s[ds..j]).unwrap_or("0");
            if let Ok(v) = u128::from_str_radix(txt, radix) {
                let v = if neg { -(v as i128) } else { v as i128 };
                if in_range(v) {
                    *i = j;
                    return Ok(Ast::Lit(v));
                }
            }
        }
        Err(ErrDiag::at(
            self.loc(err_at),
            format!(
                "invalid {}operand format",
                if maybe_invalid_constraint {
                    "matching constraint or "
                } else {
                    ""
                }
            ),
        ))
    }

    /// Runs `f` one nesting level deeper (a parenthesis, a call).
    fn nested<T>(&self, at: usize, f: impl FnOnce() -> Result<T, ErrDiag>) -> Result<T, ErrDiag> {
        if self.nesting.get() >= MAX_NESTING {
            return Err(ErrDiag::at(
                self.loc(at),
                format!("numeric expression nested too deeply (more than {MAX_NESTING} levels)"),
            ));
        }
        self.nesting.set(self.nesting.get() + 1);
        let r = f();
        self.nesting.set(self.nesting.get() - 1);
        r
    }

    fn paren(&self, ctx: &mut Context, i: &mut usize, end: usize) -> Result<Ast, ErrDiag> {
        let at = *i;
        self.nested(at, || self.paren_body(ctx, i, end))
    }

    fn paren_body(&self, ctx: &mut Context, i: &mut usize, end: usize) -> Result<Ast, ErrDiag> {
        *i += 1;
        *i = self.ltrim(*i, end);
        if *i >= end {
            return Err(ErrDiag::at(self.loc(*i), "missing operand in expression"));
        }
        let outer = *i;
        let mut sub = self.operand(ctx, i, end, Allowed::Any, false)?;
        *i = self.ltrim(*i, end);
        while *i < end && self.s[*i] != b')' {
            sub = self.binop(ctx, outer, i, end, sub, false)?;
            *i = self.ltrim(*i, end);
        }
        if *i >= end || self.s[*i] != b')' {
            return Err(ErrDiag::at(
                self.loc(*i),
                "missing ')' at end of nested expression",
            ));
        }
        *i += 1;
        Ok(sub)
    }

    fn binop(
        &self,
        ctx: &mut Context,
        expr_start: usize,
        i: &mut usize,
        end: usize,
        left: Ast,
        legacy: bool,
    ) -> Result<Ast, ErrDiag> {
        *i = self.ltrim(*i, end);
        if *i >= end {
            return Ok(left);
        }
        let op_at = *i;
        let op = self.s[*i];
        *i += 1;
        let f = match op {
            b'+' => Func::Add,
            b'-' => Func::Sub,
            _ => {
                return Err(ErrDiag::at(
                    self.loc(op_at),
                    format!("unsupported operation '{}'", op as char),
                ))
            }
        };
        *i = self.ltrim(*i, end);
        if *i >= end {
            return Err(ErrDiag::at(self.loc(*i), "missing operand in expression"));
        }
        let ao = if legacy {
            Allowed::Literal
        } else {
            Allowed::Any
        };
        let right = self.operand(ctx, i, end, ao, false)?;
        Ok(Ast::Bin {
            f,
            l: Box::new(left),
            r: Box::new(right),
            text: String::from_utf8_lossy(&self.s[expr_start..*i]).into_owned(),
        })
    }

    fn call(
        &self,
        ctx: &mut Context,
        i: &mut usize,
        end: usize,
        name: &str,
        name_at: usize,
    ) -> Result<Ast, ErrDiag> {
        self.nested(name_at, || self.call_body(ctx, i, end, name, name_at))
    }

    fn call_body(
        &self,
        ctx: &mut Context,
        i: &mut usize,
        end: usize,
        name: &str,
        name_at: usize,
    ) -> Result<Ast, ErrDiag> {
        let f = match name {
            "add" => Func::Add,
            "div" => Func::Div,
            "max" => Func::Max,
            "min" => Func::Min,
            "mul" => Func::Mul,
            "sub" => Func::Sub,
            _ => {
                return Err(ErrDiag::at(
                    self.loc(name_at),
                    format!("call to undefined function '{name}'"),
                ))
            }
        };
        *i += 1;
        *i = self.ltrim(*i, end);
        let mut args = Vec::new();
        while *i < end && self.s[*i] != b')' {
            if self.s[*i] == b',' {
                return Err(ErrDiag::at(self.loc(*i), "missing argument"));
            }
            let outer = *i;
            let mut arg = self.operand(ctx, i, end, Allowed::Any, false)?;
            while *i < end {
                *i = self.ltrim(*i, end);
                if *i < end && (self.s[*i] == b',' || self.s[*i] == b')') {
                    break;
                }
                arg = self.binop(ctx, outer, i, end, arg, false)?;
            }
            args.push(arg);
            *i = self.ltrim(*i, end);
            if *i < end && self.s[*i] == b',' {
                *i += 1;
            } else {
                break;
            }
            *i = self.ltrim(*i, end);
            if *i < end && self.s[*i] == b')' {
                return Err(ErrDiag::at(self.loc(*i), "missing argument"));
            }
        }
        if *i >= end || self.s[*i] != b')' {
            return Err(ErrDiag::at(
                self.loc(*i),
                "missing ')' at end of call expression",
            ));
        }
        *i += 1;
        if args.len() == 2 {
            let r = args.pop().unwrap_or(Ast::Lit(0));
            let l = args.pop().unwrap_or(Ast::Lit(0));
            return Ok(Ast::Bin {
                f,
                l: Box::new(l),
                r: Box::new(r),
                text: String::from_utf8_lossy(&self.s[name_at..*i]).into_owned(),
            });
        }
        Err(ErrDiag::at(
            self.loc(name_at),
            format!(
                "function '{name}' takes 2 arguments but {} given",
                args.len()
            ),
        ))
    }
}

/// LLVM's `Pattern::parseVariable` on `s[start..end]`: (name, is_pseudo,
/// end of the name).
pub fn parse_variable(
    s: &[u8],
    buf: usize,
    start: usize,
    end: usize,
) -> Result<(String, bool, usize), ErrDiag> {
    ExprParser::new(s, buf, None).parse_variable(start, end)
}

/// Parsed `[[#...]]` block: expression (if any), its format and the defined
/// variable (if any).
pub struct NumBlock {
    ast: Option<Ast>,
    pub fmt: Format,
    pub def: Option<usize>,
}

/// Parses the inside of a numeric substitution block `s[start..end]`.
pub fn parse_numeric_block(
    ctx: &mut Context,
    s: &[u8],
    buf: usize,
    start: usize,
    end: usize,
    legacy: bool,
    line: Option<usize>,
) -> Result<NumBlock, ErrDiag> {
    let p = ExprParser::new(s, buf, line);
    let mut i = start;
    let mut explicit: Option<Format> = None;
    let mut precision = 0usize;
    let find = |c: u8| {
        s[start..end]
            .iter()
            .position(|&x| x == c)
            .map(|p| p + start)
    };
    let comma = find(b',');
    let paren = find(b'(');
    if let Some(fe) = comma.filter(|&c| paren.is_none_or(|p| c < p)) {
        let mut fs = p.ltrim(start, fe);
        let mut fend = fe;
        while fend > fs && is_space(s[fend - 1]) {
            fend -= 1;
        }
        i = fe + 1;
        if fs >= fend || s[fs] != b'%' {
            return Err(ErrDiag::at(
                p.loc(fs),
                "invalid matching format specification in expression",
            ));
        }
        fs += 1;
        let alt_at = fs;
        let alt = fs < fend && s[fs] == b'#';
        if alt {
            fs += 1;
        }
        if fs < fend && s[fs] == b'.' {
            fs += 1;
            let ds = fs;
            while fs < fend && s[fs].is_ascii_digit() {
                fs += 1;
            }
            if fs == ds {
                return Err(ErrDiag::at(
                    p.loc(ds),
                    "invalid precision in format specifier",
                ));
            }
            // Bounded so that a typo like `%.99999999999d` cannot make us
            // allocate gigabytes of zero padding.
            precision = match std::str::from_utf8(&s[ds..fs])
                .ok()
                .and_then(|t| t.parse::<usize>().ok())
                .filter(|&p| p <= 1024)
            {
                Some(p) => p,
                None => {
                    return Err(ErrDiag::at(
                        p.loc(ds),
                        "invalid precision in format specifier",
                    ))
                }
            };
        }
        if fs < fend {
            let kind = match s[fs] {
                b'u' => FmtKind::Unsigned,
                b'd' => FmtKind::Signed,
                b'x' => FmtKind::HexLower,
                b'X' => FmtKind::HexUpper,
                _ => {
                    return Err(ErrDiag::at(
                        p.loc(fs),
                        "invalid format specifier in expression",
                    ))
                }
            };
            explicit = Some(Format {
                kind,
                precision,
                alt: alt && matches!(kind, FmtKind::HexLower | FmtKind::HexUpper),
            });
            fs += 1;
        }
        if alt && !explicit.is_some_and(|f| matches!(f.kind, FmtKind::HexLower | FmtKind::HexUpper))
        {
            return Err(ErrDiag::at(
                p.loc(alt_at),
                "alternate form only supported for hex values",
            ));
        }
        fs = p.ltrim(fs, fend);
        if fs < fend {
            return Err(ErrDiag::at(
                p.loc(fs),
                "invalid matching format specification in expression",
            ));
        }
    }
    // Definition.
    let colon = s[i..end].iter().position(|&c| c == b':').map(|c| c + i);
    let mut def_range = None;
    if let Some(c) = colon {
        def_range = Some((i, c));
        i = c + 1;
    }
    i = p.ltrim(i, end);
    let constraint = end - i >= 2 && &s[i..i + 2] == b"==";
    if constraint {
        i += 2;
    }
    i = p.ltrim(i, end);
    let mut ast = None;
    if i >= end {
        if constraint {
            return Err(ErrDiag::at(
                p.loc(i),
                "empty numeric expression should not have a constraint",
            ));
        }
    } else {
        let mut e = end;
        while e > i && is_space(s[e - 1]) {
            e -= 1;
        }
        let outer = i;
        let ao = if legacy {
            Allowed::LineVar
        } else {
            Allowed::Any
        };
        let mut a = p.operand(ctx, &mut i, e, ao, !constraint)?;
        while i < e {
            a = p.binop(ctx, outer, &mut i, e, a, legacy)?;
            if legacy && i < e {
                return Err(ErrDiag::at(
                    p.loc(i),
                    format!(
                        "unexpected characters at end of expression '{}'",
                        String::from_utf8_lossy(&s[i..e])
                    ),
                ));
            }
        }
        ast = Some(a);
    }
    let mut fmt = match explicit {
        Some(f) => f,
        None => match &ast {
            Some(a) => ctx.implicit_format(a, p.loc(start))?,
            None => Format::new(FmtKind::NoFormat),
        },
    };
    if fmt.kind == FmtKind::NoFormat {
        fmt = Format {
            kind: FmtKind::Unsigned,
            precision,
            alt: false,
        };
    }
    let mut def = None;
    if let Some((ds, de)) = def_range {
        let ds = p.ltrim(ds, de);
        let (name, pseudo, j) = p.parse_variable(ds, de)?;
        if pseudo {
            return Err(ErrDiag::at(
                p.loc(ds),
                "definition of pseudo numeric variable unsupported",
            ));
        }
        if ctx.defined_string_vars.contains(&name) {
            return Err(ErrDiag::at(
                p.loc(ds),
                format!("string variable with name '{name}' already exists"),
            ));
        }
        let j2 = p.ltrim(j, de);
        if j2 < de {
            return Err(ErrDiag::at(
                p.loc(j2),
                "unexpected characters after numeric variable name",
            ));
        }
        let id = match ctx.num_table.get(&name) {
            Some(&id) => {
                if ctx.num_vars[id].fmt != fmt {
                    return Err(ErrDiag::at(
                        p.loc(j2),
                        "format different from previous variable definition",
                    ));
                }
                id
            }
            None => ctx.make_num_var(&name, fmt, line),
        };
        def = Some(id);
    }
    Ok(NumBlock { ast, fmt, def })
}

/// Evaluates a command-line `-D#` definition's expression.
pub fn eval_block(ctx: &Context, b: &NumBlock) -> Result<i128, Vec<ErrDiag>> {
    match &b.ast {
        None => Ok(0),
        Some(a) => ctx.eval(a).map_err(|e| match e {
            EvalErr::Undef(v) => v,
            EvalErr::Overflow => vec![],
        }),
    }
}

// ---------------------------------------------------------------------------
// Patterns.

#[derive(Clone)]
enum SubstKind {
    Str(String),
    Num(Ast, Format),
}

#[derive(Clone)]
struct Subst {
    from: String,
    from_loc: Loc,
    insert_idx: usize,
    kind: SubstKind,
}

#[derive(Clone)]
pub struct Pattern {
    pub ty: CheckTy,
    pub loc: Loc,
    pub line: Option<usize>,
    fixed: Vec<u8>,
    regex: String,
    /// The regex in LLVM's own syntax; only the fuzzy-match distance uses it,
    /// so that "possible intended match" points where LLVM's does.
    llvm_rx: Vec<u8>,
    substs: Vec<Subst>,
    var_defs: BTreeMap<String, usize>,
    num_var_defs: BTreeMap<String, (usize, usize)>,
    /// (defining group, using group) pairs that must capture equal text.
    backrefs: Vec<(usize, usize)>,
    ignore_case: bool,
    cached: std::cell::OnceCell<Option<regex::bytes::Regex>>,
    /// The searcher of `fixed`, built once: a CHECK-DAG that skips n
    /// overlapping matches searches n times, and building a searcher costs
    /// more than a short search.
    finder: std::cell::OnceCell<memchr::memmem::Finder<'static>>,
    /// A `{{...}}` back-reference: LLVM 14 finds no match (see
    /// `llvm_regex::Translated::backref`).
    never_matches: bool,
}

pub enum MatchOutcome {
    Found {
        pos: usize,
        len: usize,
        errs: Vec<ErrDiag>,
    },
    NotFound,
    Error(Vec<ErrDiag>),
}

fn find_regex_var_end(s: &[u8], start: usize, end: usize) -> Result<Option<usize>, usize> {
    let mut i = start;
    let mut depth = 0usize;
    while i < end {
        if depth == 0 && i + 1 < end && s[i] == b']' && s[i + 1] == b']' {
            return Ok(Some(i));
        }
        if s[i] == b'\\' {
            i += 2;
            continue;
        }
        match s[i] {
            b'[' => depth += 1,
            b']' => {
                if depth == 0 {
                    return Err(i);
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

fn contains(h: &[u8], n: &[u8]) -> bool {
    memchr::memmem::find(h, n).is_some()
}

fn find_from(h: &[u8], n: &[u8], from: usize) -> Option<usize> {
    if from > h.len() {
        return None;
    }
    memchr::memmem::find(&h[from..], n).map(|p| p + from)
}

/// A fatal parse error that LLVM prints itself (with `logAllUnhandledErrors`
/// or `SM.PrintMessage`); the caller exits with status 2.
pub struct ParseFailed;

impl Pattern {
    pub fn new(ty: CheckTy, loc: Loc, line: Option<usize>) -> Self {
        Pattern {
            ty,
            loc,
            line,
            fixed: Vec::new(),
            regex: String::new(),
            llvm_rx: Vec::new(),
            substs: Vec::new(),
            var_defs: BTreeMap::new(),
            num_var_defs: BTreeMap::new(),
            backrefs: Vec::new(),
            ignore_case: false,
            cached: std::cell::OnceCell::new(),
            finder: std::cell::OnceCell::new(),
            never_matches: false,
        }
    }

    pub fn has_variable(&self) -> bool {
        !(self.substs.is_empty() && self.var_defs.is_empty())
    }

    /// Parses `sm.bufs[buf][start..end]`. Errors are printed to `out`.
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        &mut self,
        sm: &SourceMgr,
        out: &mut Vec<u8>,
        ctx: &mut Context,
        buf: usize,
        start: usize,
        mut end: usize,
        prefix: &str,
        req: &Request,
    ) -> Result<(), ParseFailed> {
        let s = &sm.bufs[buf].text;
        let full_lines = req.match_full_lines && self.ty.kind != Kind::Not;
        self.ignore_case = req.ignore_case;
        self.loc = Loc { buf, off: start };
        let err = |out: &mut Vec<u8>, off: usize, msg: &str| {
            sm.print(out, Loc { buf, off }, DiagKind::Error, msg, &[]);
        };
        let log = |out: &mut Vec<u8>, e: ErrDiag| {
            sm.print(out, e.loc, DiagKind::Error, &e.msg, &[]);
            out.push(b'\n');
        };
        if !(req.strict_whitespace && req.match_full_lines) {
            while end > start && is_space(s[end - 1]) {
                end -= 1;
            }
        }
        let pat = &s[start..end];
        if pat.is_empty() && self.ty.kind != Kind::Empty {
            err(
                out,
                start,
                &format!("found empty check string with prefix '{prefix}:'"),
            );
            return Err(ParseFailed);
        }
        if !pat.is_empty() && self.ty.kind == Kind::Empty {
            err(
                out,
                start,
                &format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            );
            return Err(ParseFailed);
        }
        if self.ty.kind == Kind::Empty {
            self.regex = "(\\n$)".into();
            self.llvm_rx = b"(\n$)".to_vec();
            return Ok(());
        }
        if self.ty.literal {
            self.fixed = pat.to_vec();
            return Ok(());
        }
        if !full_lines && (pat.len() < 2 || (!contains(pat, b"{{") && !contains(pat, b"[["))) {
            self.fixed = pat.to_vec();
            return Ok(());
        }
        if full_lines {
            self.regex.push('^');
            self.llvm_rx.push(b'^');
            if !req.strict_whitespace {
                self.regex.push_str(" *");
                self.llvm_rx.extend_from_slice(b" *");
            }
        }
        let mut cur_paren = 1usize;
        let mut def_regexes: HashMap<String, (String, usize)> = HashMap::new();
        let mut i = start;
        while i < end {
            let rest = &s[i..end];
            if rest.starts_with(b"{{") {
                let Some(close) = find_from(&s[..end], b"}}", i).filter(|&c| c + 2 <= end) else {
                    err(out, i, "found start of regex string with no end '}}'");
                    return Err(ParseFailed);
                };
                let has_alt = contains(rest, b"|");
                if has_alt {
                    self.regex.push('(');
                    self.llvm_rx.push(b'(');
                    cur_paren += 1;
                }
                self.llvm_rx.extend_from_slice(&s[i + 2..close]);
                let frag = &s[i + 2..close];
                match translate(frag) {
                    Ok(t) => {
                        self.never_matches |= t.backref;
                        self.regex.push_str(&t.rust);
                        cur_paren += t.groups;
                    }
                    Err(e) => {
                        err(out, i + 2, &format!("invalid regex: {e}"));
                        return Err(ParseFailed);
                    }
                }
                if has_alt {
                    self.regex.push(')');
                    self.llvm_rx.push(b')');
                }
                i = close + 2;
                continue;
            }
            if rest.starts_with(b"[[") && !rest.starts_with(b"[[[") {
                let un = i + 2;
                let close = match find_regex_var_end(s, un, end) {
                    Ok(c) => c,
                    Err(at) => {
                        err(out, at, "missing closing \"]\" for regex variable");
                        ctx.exit_status_one = true;
                        return Err(ParseFailed);
                    }
                };
                let Some(close) = close else {
                    err(out, i, "Invalid substitution block, no ]] found");
                    return Err(ParseFailed);
                };
                let mut ms = un;
                let me = close;
                let mut is_num = s.get(ms) == Some(&b'#') && ms < me;
                if is_num {
                    ms += 1;
                }
                i = close + 2;
                let mut is_def = false;
                let mut subst_needed = false;
                let mut legacy = false;
                let mut def_name = String::new();
                let mut subst_str: (usize, usize) = (0, 0);
                let mut match_regex: Option<(String, usize)> = None;
                let mut subst_insert = self.regex.len();
                let mut str_subst_name = String::new();
                if !is_num {
                    let var_end = s[ms..me].iter().position(|&c| c == b':').map(|p| p + ms);
                    let name_end = var_end.unwrap_or(me);
                    if let Some(sp) = s[ms..name_end].iter().position(|&c| is_space(c)) {
                        err(out, ms + sp, "unexpected whitespace");
                        return Err(ParseFailed);
                    }
                    let p = ExprParser::new(s, buf, self.line);
                    let (name, pseudo, after) = match p.parse_variable(ms, me) {
                        Ok(v) => v,
                        Err(e) => {
                            log(out, e);
                            return Err(ParseFailed);
                        }
                    };
                    is_def = var_end.is_some();
                    subst_needed = !is_def;
                    if is_def {
                        if pseudo || after >= me || s[after] != b':' {
                            err(out, ms, "invalid name in string variable definition");
                            return Err(ParseFailed);
                        }
                        if ctx.num_table.contains_key(&name) {
                            err(
                                out,
                                ms,
                                &format!("numeric variable with name '{name}' already exists"),
                            );
                            return Err(ParseFailed);
                        }
                        def_name = name;
                        let rx = &s[after + 1..me];
                        if !rx.is_empty() {
                            match translate(rx) {
                                Ok(t) => {
                                    self.never_matches |= t.backref;
                                    match_regex = Some((t.rust, t.groups));
                                }
                                Err(e) => {
                                    err(out, after + 1, &format!("invalid regex: {e}"));
                                    return Err(ParseFailed);
                                }
                            }
                        }
                    } else if pseudo {
                        legacy = true;
                        is_num = true;
                    } else {
                        if after != me {
                            err(out, ms, "invalid name in string variable use");
                            return Err(ParseFailed);
                        }
                        str_subst_name = name;
                        subst_str = (ms, me);
                    }
                }
                let mut num_ast = None;
                let mut num_fmt = Format::new(FmtKind::Unsigned);
                let mut num_def = None;
                if is_num {
                    let block = match parse_numeric_block(ctx, s, buf, ms, me, legacy, self.line) {
                        Ok(b) => b,
                        Err(e) => {
                            log(out, e);
                            return Err(ParseFailed);
                        }
                    };
                    subst_needed = block.ast.is_some();
                    if let Some(d) = block.def {
                        is_def = true;
                        def_name = ctx.num_vars[d].name.clone();
                        num_def = Some(d);
                    }
                    num_fmt = block.fmt;
                    if subst_needed {
                        subst_str = (ms, me);
                        num_ast = block.ast;
                    } else {
                        match translate(block.fmt.wildcard().as_bytes()) {
                            Ok(t) => match_regex = Some((t.rust, t.groups)),
                            Err(_) => return Err(ParseFailed),
                        }
                    }
                }
                if is_def {
                    self.regex.push('(');
                    self.llvm_rx.push(b'(');
                    subst_insert += 1;
                    if let Some(d) = num_def {
                        self.num_var_defs.insert(def_name.clone(), (d, cur_paren));
                        ctx.num_table.insert(def_name.clone(), d);
                    } else {
                        self.var_defs.insert(def_name.clone(), cur_paren);
                        ctx.defined_string_vars.insert(def_name.clone());
                        def_regexes
                            .insert(def_name.clone(), match_regex.clone().unwrap_or_default());
                    }
                    cur_paren += 1;
                }
                if let Some((rx, groups)) = &match_regex {
                    self.regex.push_str(rx);
                    cur_paren += groups;
                    if is_num {
                        self.llvm_rx
                            .extend_from_slice(num_fmt.wildcard().as_bytes());
                    } else if let Some(c) = s[ms..me].iter().position(|&c| c == b':') {
                        self.llvm_rx.extend_from_slice(&s[ms + c + 1..me]);
                    }
                }
                if is_def {
                    self.regex.push(')');
                    self.llvm_rx.push(b')');
                }
                if subst_needed {
                    if !is_num && self.var_defs.contains_key(&str_subst_name) {
                        // Same-line use: a copy of the definition's regex whose
                        // capture must equal the definition's.
                        let def_group = self.var_defs[&str_subst_name];
                        let (rx, groups) = def_regexes
                            .get(&str_subst_name)
                            .cloned()
                            .unwrap_or_default();
                        self.regex.push('(');
                        self.regex.push_str(&rx);
                        self.regex.push(')');
                        self.backrefs.push((def_group, cur_paren));
                        self.llvm_rx
                            .extend_from_slice(format!("\\{def_group}").as_bytes());
                        cur_paren += 1 + groups;
                    } else {
                        let from =
                            String::from_utf8_lossy(&s[subst_str.0..subst_str.1]).into_owned();
                        let kind = if is_num {
                            match num_ast {
                                Some(a) => SubstKind::Num(a, num_fmt),
                                None => return Err(ParseFailed),
                            }
                        } else {
                            SubstKind::Str(str_subst_name)
                        };
                        self.substs.push(Subst {
                            from,
                            from_loc: Loc {
                                buf,
                                off: subst_str.0,
                            },
                            insert_idx: subst_insert,
                            kind,
                        });
                    }
                }
                continue;
            }
            // Fixed text up to the next "{{" or "[[".
            let a = find_from(&s[..end], b"{{", i + 1).unwrap_or(end);
            let b = find_from(&s[..end], b"[[", i + 1).unwrap_or(end);
            let stop = a.min(b);
            self.regex.push_str(&escape_literal(&s[i..stop]));
            self.llvm_rx.extend_from_slice(&llvm_escape(&s[i..stop]));
            i = stop;
        }
        if full_lines {
            if !req.strict_whitespace {
                self.regex.push_str(" *");
                self.llvm_rx.extend_from_slice(b" *");
            }
            self.regex.push('$');
            self.llvm_rx.push(b'$');
        }
        Ok(())
    }

    fn compile(&self, rx: &str) -> Option<regex::bytes::Regex> {
        let flags = if self.ignore_case {
            "(?mi-u)"
        } else {
            "(?m-u)"
        };
        regex::bytes::RegexBuilder::new(&format!("{flags}{rx}"))
            .size_limit(64 << 20)
            // Room for `llvm_regex::MAX_DEPTH` groups plus FileCheck's own
            // (one per `{{...}}` with `|`, per variable definition).
            .nest_limit(4 * crate::llvm_regex::MAX_DEPTH as u32)
            .build()
            .ok()
    }

    /// Matches against `input[start..end]`; returned positions are relative
    /// to `start`. Variable definitions are recorded in `ctx`.
    pub fn match_at(
        &self,
        ctx: &mut Context,
        input: &[u8],
        start: usize,
        end: usize,
        input_buf: usize,
    ) -> MatchOutcome {
        let hay = &input[start..end];
        if self.ty.kind == Kind::Eof {
            return MatchOutcome::Found {
                pos: hay.len(),
                len: 0,
                errs: vec![],
            };
        }
        if self.never_matches {
            return MatchOutcome::NotFound;
        }
        if !self.fixed.is_empty() {
            let pos = if self.ignore_case {
                let n = self.fixed.to_ascii_lowercase();
                hay.windows(n.len())
                    .position(|w| w.eq_ignore_ascii_case(&n))
            } else {
                self.finder
                    .get_or_init(|| memchr::memmem::Finder::new(&self.fixed).into_owned())
                    .find(hay)
            };
            return match pos {
                Some(p) => MatchOutcome::Found {
                    pos: p,
                    len: self.fixed.len(),
                    errs: vec![],
                },
                None => MatchOutcome::NotFound,
            };
        }
        let owned;
        let re: &regex::bytes::Regex = if self.substs.is_empty() {
            match self.cached.get_or_init(|| self.compile(&self.regex)) {
                Some(r) => r,
                None => return MatchOutcome::NotFound,
            }
        } else {
            if let Some(l) = self.line {
                let lv = ctx.line_var;
                ctx.num_vars[lv].value = Some(l as i128);
            }
            let mut rx = self.regex.clone();
            let mut offset = 0;
            let mut errs = Vec::new();
            for sub in &self.substs {
                let val = match &sub.kind {
                    SubstKind::Str(name) => match ctx.vars.get(name) {
                        Some((v, _)) => Ok(escape_literal(v)),
                        None => Err(vec![ErrDiag::at(
                            sub.from_loc,
                            format!("undefined variable: {name}"),
                        )]),
                    },
                    SubstKind::Num(a, f) => match ctx.eval(a) {
                        Ok(v) => match f.render(v) {
                            Some(t) => Ok(escape_literal(t.as_bytes())),
                            None => Err(vec![overflow(sub)]),
                        },
                        Err(EvalErr::Overflow) => Err(vec![overflow(sub)]),
                        Err(EvalErr::Undef(v)) => Err(v),
                    },
                };
                match val {
                    Ok(v) => {
                        rx.insert_str(sub.insert_idx + offset, &v);
                        offset += v.len();
                    }
                    Err(e) => errs.extend(e),
                }
            }
            if !errs.is_empty() {
                return MatchOutcome::Error(errs);
            }
            owned = match self.compile(&rx) {
                Some(r) => r,
                None => return MatchOutcome::NotFound,
            };
            &owned
        };
        let mut from = 0;
        let caps = loop {
            if from > hay.len() {
                return MatchOutcome::NotFound;
            }
            let Some(c) = re.captures_at(hay, from) else {
                return MatchOutcome::NotFound;
            };
            let ok = self
                .backrefs
                .iter()
                .all(|&(a, b)| c.get(a).map(|m| m.as_bytes()) == c.get(b).map(|m| m.as_bytes()));
            if ok {
                break c;
            }
            from = c.get(0).map_or(hay.len(), |m| m.start()) + 1;
        };
        let full = caps.get(0).map_or((0, 0), |m| (m.start(), m.end()));
        for (name, &g) in &self.var_defs {
            let (s0, e0) = caps.get(g).map_or((0, 0), |m| (m.start(), m.end()));
            ctx.vars.insert(
                name.clone(),
                (hay[s0..e0].to_vec(), Some((start + s0, start + e0))),
            );
        }
        let skip = usize::from(self.ty.kind == Kind::Empty);
        let mut errs = Vec::new();
        for (name, &(id, g)) in &self.num_var_defs {
            let (s0, e0) = caps.get(g).map_or((0, 0), |m| (m.start(), m.end()));
            let fmt = ctx.num_vars[id].fmt;
            ctx.num_table.insert(name.clone(), id);
            match fmt.parse_value(&hay[s0..e0]) {
                Some(v) => {
                    ctx.num_vars[id].value = Some(v);
                    ctx.num_vars[id].str_range = Some((start + s0, start + e0));
                }
                None => errs.push(ErrDiag {
                    loc: Loc {
                        buf: input_buf,
                        off: start + s0,
                    },
                    range: (start + s0, start + e0),
                    msg: "unable to represent numeric value".into(),
                }),
            }
        }
        MatchOutcome::Found {
            pos: full.0 + skip,
            len: full.1 - full.0 - skip.min(full.1 - full.0),
            errs,
        }
    }

    /// Notes describing each substitution's current value.
    pub fn substitution_notes(&self, ctx: &Context) -> Vec<String> {
        let mut v = Vec::new();
        for sub in &self.substs {
            let val = match &sub.kind {
                SubstKind::Str(name) => match ctx.vars.get(name) {
                    Some((val, _)) => write_escaped(&llvm_escape(val)),
                    None => continue,
                },
                SubstKind::Num(a, f) => match ctx.eval(a).ok().and_then(|x| f.render(x)) {
                    Some(t) => t,
                    None => continue,
                },
            };
            v.push(format!(
                "with \"{}\" equal to \"{}\"",
                write_escaped(sub.from.as_bytes()),
                val
            ));
        }
        v
    }

    /// Captured variables of the last match, sorted by input position.
    pub fn captures(&self, ctx: &Context) -> Vec<(String, (usize, usize))> {
        let mut v = Vec::new();
        for name in self.var_defs.keys() {
            if let Some((_, Some(r))) = ctx.vars.get(name) {
                v.push((name.clone(), *r));
            }
        }
        for (name, &(id, _)) in &self.num_var_defs {
            if let Some(r) = ctx.num_vars[id].str_range {
                v.push((name.clone(), r));
            }
        }
        v.sort_by_key(|x| x.1 .0);
        v
    }

    /// Edit distance from the start of `buf` to this pattern, for fuzzy
    /// "possible intended match" notes.
    pub fn match_distance(&self, buf: &[u8]) -> usize {
        let example: &[u8] = if self.fixed.is_empty() {
            &self.llvm_rx
        } else {
            &self.fixed
        };
        let n = example.len().min(buf.len());
        let mut prefix = &buf[..n];
        if let Some(p) = prefix.iter().position(|&c| c == b'\n') {
            prefix = &prefix[..p];
        }
        edit_distance(prefix, example)
    }

    pub fn pattern_len(&self) -> usize {
        self.fixed.len().max(self.llvm_rx.len())
    }
}

fn overflow(sub: &Subst) -> ErrDiag {
    ErrDiag::at(
        sub.from_loc,
        "unable to substitute variable or numeric expression: overflow error",
    )
}

fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// `raw_ostream::write_escaped`: C escapes, octal for unprintable bytes.
pub fn write_escaped(s: &[u8]) -> String {
    let mut o = String::new();
    for &c in s {
        match c {
            b'\\' => o.push_str("\\\\"),
            b'\t' => o.push_str("\\t"),
            b'\n' => o.push_str("\\n"),
            b'"' => o.push_str("\\\""),
            0x20..=0x7e => o.push(c as char),
            _ => o.push_str(&format!("\\{:03o}", c)),
        }
    }
    o
}
