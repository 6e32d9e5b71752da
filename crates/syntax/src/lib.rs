//! MLIR's textual form: the lexer and recursive-descent parser for generic
//! and custom op forms, the printer with MLIR's exact naming, the three
//! syntax generations ([`edition`]) and diagnostics.
//!
//! The syntax layer decides no semantics: dialects plug their custom forms
//! in through [`DialectHooks`].

pub mod diag;
pub mod edition;
pub mod parser;
pub mod printer;

pub use diag::{Diagnostic, Severity};
pub use edition::Edition;
pub use parser::{PResult, ParseError, Parser, RegionArg, UnresolvedOperand};
pub use printer::{print_type, PrintOptions, Printer};

use mlir_async_ir::{Context, Op, OperationState};

/// What dialects provide to the syntax layer.
pub trait DialectHooks: Sync {
    /// Is `name` a dialect whose ops and types are registered?
    fn is_known_dialect(&self, name: &str) -> bool;
    /// Parses the rest of a custom op after its name into `st`. Returns
    /// `Ok(false)` when `name` has no custom form. `num_results` is the
    /// number of results the text binds; `name_pos` where the name began.
    fn parse_custom(
        &self,
        name: &str,
        p: &mut Parser,
        st: &mut OperationState,
        num_results: usize,
        name_pos: usize,
    ) -> PResult<bool>;
    /// The printer of the custom form of op `name` (canonical spelling),
    /// if it has one. A function rather than a call per op: the printer
    /// asks once per op name, and a lookup by name at every printed op
    /// showed up in profiles.
    fn custom_printer(&self, name: &str) -> Option<CustomPrintFn>;
    /// The result name hints (`%c0`, `%cst`, `%token`) of op `name`,
    /// asked once per op name as `custom_printer`.
    fn result_namer(&self, name: &str) -> Option<ResultNamesFn>;
}

/// Prints the rest of a custom op after its name.
pub type CustomPrintFn = fn(&mut Printer, Op);
/// Reports result name hints as `set(result_index, name)`.
pub type ResultNamesFn = fn(&Context, Op, Edition, &mut dyn FnMut(usize, &str));

/// The result of parsing one buffer.
pub struct Parsed {
    pub module: Op,
    /// The syntax generation the spelling of the input betrays.
    pub edition: Edition,
    /// What `edition` was concluded from; buffers parsed apart (a module
    /// parsed in shards) conclude together with [`EditionEvidence::merge`].
    pub evidence: EditionEvidence,
}

/// The spellings a parse met that only some generations use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditionEvidence {
    /// The newest generation a spelling belongs to.
    pub seen: Option<Edition>,
    /// `func` spelled without its dialect (the `std` era and LLVM 14).
    pub legacy_func: bool,
}

impl EditionEvidence {
    pub fn edition(self) -> Edition {
        match (self.seen, self.legacy_func) {
            (Some(Edition::V15), true) | (None, true) => Edition::V14,
            (Some(e), _) => e,
            (None, false) => Edition::V15,
        }
    }
    pub fn merge(self, other: Self) -> Self {
        EditionEvidence {
            seen: self.seen.max(other.seen),
            legacy_func: self.legacy_func || other.legacy_func,
        }
    }
}

/// Parses a whole buffer (one split of a file) into a module.
pub fn parse_source(
    ctx: &mut Context,
    hooks: &dyn DialectHooks,
    file: &str,
    text: &str,
    line_offset: u32,
    allow_unregistered: bool,
) -> Result<Parsed, Diagnostic> {
    // MLIR text spends some 45 bytes per op: room for the ops up front.
    ctx.reserve_ops(text.len() / 40);
    let mut p = Parser::new(ctx, file, text, line_offset, hooks);
    p.allow_unregistered = allow_unregistered;
    match p.parse_module() {
        Ok(module) => {
            let evidence = EditionEvidence {
                seen: p.seen,
                legacy_func: p.saw_legacy_func,
            };
            Ok(Parsed {
                module,
                edition: evidence.edition(),
                evidence,
            })
        }
        Err(e) => {
            let (line, col) = p.line_col(e.pos);
            let mut d = Diagnostic::error(file, line, col, e.message);
            for (pos, msg) in e.notes {
                let (line, col) = p.line_col(pos);
                let mut n = Diagnostic::error(file, line, col, msg);
                n.severity = Severity::Note;
                d.notes.push(n);
            }
            Err(d)
        }
    }
}

/// Prints an op (normally a module) followed by a newline, with affine
/// maps and sets replaced by `#map`/`#set` aliases defined on top, as
/// mlir-opt prints them.
pub fn print_op(ctx: &Context, hooks: &dyn DialectHooks, op: Op, opts: PrintOptions) -> String {
    print_op_pieces(ctx, hooks, op, opts).concat()
}

/// [`print_op`]'s text as pieces to write in order: large modules are
/// printed on several threads, and joining their texts would copy
/// hundreds of MB for nothing.
pub fn print_op_pieces(
    ctx: &Context,
    hooks: &dyn DialectHooks,
    op: Op,
    opts: PrintOptions,
) -> Vec<String> {
    let mut pieces = vec![];
    let parallel = Printer::print_parallel_with(ctx, hooks, op, opts, &mut |piece| {
        pieces.push(piece);
        Ok::<_, std::convert::Infallible>(None)
    });
    if parallel.is_none() {
        pieces = vec![print_sequential(ctx, hooks, op, opts)];
    }
    // One scan of the (large) output in the common case of no maps.
    if pieces.iter().any(|p| p.contains("affine_")) {
        vec![alias::apply(pieces.concat())]
    } else {
        pieces
    }
}

fn print_sequential(ctx: &Context, hooks: &dyn DialectHooks, op: Op, opts: PrintOptions) -> String {
    let mut p = Printer::new(ctx, hooks, op, opts);
    p.op(op);
    p.out.push('\n');
    p.finish_locations();
    p.out
}

/// [`print_op`] written to `out` while it is printed: the first parts of
/// a large module are written while the threads print the rest, and the
/// whole text is never held. Text that may need attribute aliases (see
/// [`alias`]), which are only known at the end, is printed first.
pub fn write_op(
    ctx: &Context,
    hooks: &dyn DialectHooks,
    op: Op,
    opts: PrintOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if ctx.may_print_affine() {
        for p in print_op_pieces(ctx, hooks, op, opts) {
            out.write_all(p.as_bytes())?;
        }
        return Ok(());
    }
    let parallel = Printer::print_parallel_with(ctx, hooks, op, opts, &mut |piece| {
        out.write_all(piece.as_bytes()).map(|()| Some(piece))
    });
    match parallel {
        Some(r) => r,
        None => out.write_all(print_sequential(ctx, hooks, op, opts).as_bytes()),
    }
}

/// Writes one module whose body ops live in several contexts, as
/// [`write_op`] writes a module (see [`Printer::print_sources_with`]).
/// `None`, with nothing written, when they cannot be printed apart: text
/// that may need attribute aliases, or a body that defines values.
pub fn write_sources(
    sources: &[printer::BodySource],
    opts: PrintOptions,
    out: &mut dyn std::io::Write,
) -> Option<std::io::Result<()>> {
    if sources.iter().any(|s| s.ctx.may_print_affine()) {
        return None;
    }
    Printer::print_sources_with(sources, opts, &mut |piece| {
        out.write_all(piece.as_bytes()).map(|()| Some(piece))
    })
}

/// Attribute aliases. mlir-opt (14 and 15) names every affine map `map`
/// and every affine set `set`, numbers the names in the order a dry run of
/// the printer meets them (a name used once stays unnumbered: `#map`), and
/// prints the definitions sorted by name before the op. The printed text
/// meets them in that same order, so the aliases are found in the output
/// instead of threading a table through every attribute printer.
mod alias {
    /// Finds the end (exclusive) of `affine_map<...>` starting at `start`
    /// (the index of its `<`): `->` and `>=` are not closing brackets.
    fn close(b: &[u8], start: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = start;
        while i < b.len() {
            match b[i] {
                b'<' => depth += 1,
                b'>' if i > 0 && b[i - 1] == b'-' => {}
                b'>' if b.get(i + 1) == Some(&b'=') => {}
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                b'\n' | b'"' => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }

    pub fn apply(text: String) -> String {
        if !text.contains("affine_map<") && !text.contains("affine_set<") {
            return text;
        }
        let b = text.as_bytes();
        // (start, end, kind index) of every occurrence outside strings.
        let mut spans = vec![];
        let mut in_str = false;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == b'"' {
                in_str = !in_str;
            } else if c == b'\\' && in_str {
                i += 1;
            } else if !in_str && c == b'a' {
                for (k, kw) in ["affine_map<", "affine_set<"].iter().enumerate() {
                    if b[i..].starts_with(kw.as_bytes()) {
                        if let Some(e) = close(b, i + kw.len() - 1) {
                            spans.push((i, e, k));
                            i = e - 1;
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        if spans.is_empty() {
            return text;
        }
        // Distinct attributes per kind, in order of first appearance.
        let mut seen: [Vec<&str>; 2] = [vec![], vec![]];
        for &(s, e, k) in &spans {
            let t = &text[s..e];
            if !seen[k].contains(&t) {
                seen[k].push(t);
            }
        }
        let name = |k: usize, t: &str| -> String {
            let base = ["map", "set"][k];
            let list = &seen[k];
            if list.len() == 1 {
                format!("#{base}")
            } else {
                let n = list.iter().position(|x| *x == t).unwrap_or(0);
                format!("#{base}{n}")
            }
        };
        let mut out = String::with_capacity(text.len());
        // Aliases are defined sorted by name: location aliases (`#loc`)
        // come first.
        let mut head = 0;
        while text[head..].starts_with("#loc") {
            head += text[head..].find('\n').map_or(text.len() - head, |n| n + 1);
        }
        out.push_str(&text[..head]);
        for (k, list) in seen.iter().enumerate() {
            for t in list {
                out.push_str(&name(k, t));
                out.push_str(" = ");
                out.push_str(t);
                out.push('\n');
            }
        }
        let mut last = head;
        for &(s, e, k) in &spans {
            out.push_str(&text[last..s]);
            out.push_str(&name(k, &text[s..e]));
            last = e;
        }
        out.push_str(&text[last..]);
        out
    }
}
