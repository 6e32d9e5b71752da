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
pub mod widefloat;

pub use diag::{Diagnostic, Severity, ShowOp};
pub use edition::Edition;
pub use parser::{PResult, ParseError, Parser, RegionArg, UnresolvedOperand};
pub use printer::{print_type, PrintOptions, Printer};

use mlir_async_ir::{Attribute, Context, Op, OperationState, Symbol, Type};

/// What dialects provide to the syntax layer.
pub trait DialectHooks: Sync {
    /// Is `name` a dialect whose ops and types are registered?
    fn is_known_dialect(&self, name: &str) -> bool;
    /// Does the generic form of an op of `dialect` that no dialect
    /// registered get past the parser, leaving the verdict to the
    /// verifier? So mlir-opt treats every dialect it loads: the verifier
    /// rejects such an op ("unregistered operation ... found in dialect"),
    /// unless the dialect allows unknown ops (`llvm`). A dialect whose ops
    /// are only partly implemented says no: its valid ops would be called
    /// unknown.
    fn knows_every_op_of(&self, _dialect: &str) -> bool {
        false
    }
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
    /// The parser of the custom form of the op named by symbol `name`
    /// (canonical spelling), where calling it is all `parse_custom`
    /// would do for that name: the parser asks once per spelling and
    /// calls it directly, without a look-up per op.
    fn custom_parser(&self, _name: Symbol) -> Option<CustomParseFn> {
        None
    }
    /// The printer of the custom form of op `name` (canonical spelling),
    /// if it has one. A function rather than a call per op: the printer
    /// asks once per op name, and a lookup by name at every printed op
    /// showed up in profiles.
    fn custom_printer(&self, name: &str) -> Option<CustomPrintFn>;
    /// Whether op `name`'s custom form can spell a given op of it, where
    /// it cannot always: a format that spells one type for operands and
    /// result (`SameOperandsAndResultType`) reads back other types when
    /// the operands' shapes are merely compatible. `None` (the default):
    /// it always can. Asked once per op name.
    fn custom_form_fits(&self, _name: &str) -> Option<CustomFitsFn> {
        None
    }
    /// The result name hints (`%c0`, `%cst`, `%token`) of op `name`,
    /// asked once per op name as `custom_printer`.
    fn result_namer(&self, name: &str) -> Option<ResultNamesFn>;
    /// Parses a type of `dialect` that owns its types: the parser stands
    /// right after `!dialect` (at the `.` or `<`), `start` is the `!`.
    /// `Ok(None)` (the default) when the dialect has no type syntax of its
    /// own: the type is then kept opaque, spelled as read. The dialect
    /// registers the matching printer with the context
    /// ([`mlir_async_ir::Context::register_type_printer`]).
    fn parse_type(&self, _dialect: &str, _p: &mut Parser, _start: usize) -> PResult<Option<Type>> {
        Ok(None)
    }
    /// The printer of the attribute dictionary of op `name` in the
    /// generic form (with its leading space), for ops whose attributes
    /// the generations spell differently from how they are stored;
    /// `None` prints them as stored. Asked once per op name.
    fn generic_attrs_printer(&self, _name: &str) -> Option<CustomPrintFn> {
        None
    }
    /// Brings the attributes of op `name` read in the generic form (in
    /// any generation's spelling) to the form they are stored in, which
    /// is the form the custom parser builds, noting on `p` the
    /// generation a spelling betrays. `num_operands`: the op's.
    fn canonicalize_generic_attrs(
        &self,
        _name: &str,
        _p: &mut Parser,
        _attrs: &mut Vec<(Symbol, Attribute)>,
        _num_operands: usize,
    ) {
    }
}

/// Prints the rest of a custom op after its name.
pub type CustomPrintFn = fn(&mut Printer, Op);
/// Whether the custom form spells this op (else it prints generic).
pub type CustomFitsFn = fn(&Context, Op) -> bool;
/// A custom op's parser: reads the op after its name into the state;
/// the `usize` is the number of results the text binds.
pub type CustomParseFn = fn(&mut Parser, &mut OperationState, usize) -> PResult<()>;
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
    parse_source_bytes(
        ctx,
        hooks,
        file,
        text,
        text.as_bytes(),
        line_offset,
        allow_unregistered,
    )
}

/// [`parse_source`] of a source that may hold bytes outside UTF-8:
/// `text` is [`decode_source`] of `raw`.
pub fn parse_source_bytes(
    ctx: &mut Context,
    hooks: &dyn DialectHooks,
    file: &str,
    text: &str,
    raw: &[u8],
    line_offset: u32,
    allow_unregistered: bool,
) -> Result<Parsed, Diagnostic> {
    // The parse recurses once per level of nesting: on a thread whose
    // stack holds as deep as the parser accepts.
    mlir_async_ir::parallel::with_deep_stack(|| {
        // MLIR text spends some 45 bytes per op: room for the ops up front.
        ctx.reserve_ops(text.len() / 40);
        let mut p = Parser::new(ctx, file, text, line_offset, hooks);
        p.set_raw_bytes(raw);
        p.allow_unregistered = allow_unregistered;
        match p.parse_module() {
            Ok(module) => {
                let evidence = EditionEvidence {
                    seen: p.seen,
                    legacy_func: p.saw_legacy_func,
                };
                if evidence.edition() == Edition::V13 {
                    for (a, at_name) in std::mem::take(&mut p.arg_locs_before_13) {
                        p.ctx.set_value_loc(a, at_name);
                    }
                }
                // A bare builtin op name outside a module body read as
                // 13's, in an input that turned out not to be 13.
                if let Some((pos, name, default)) = p.bare_builtin {
                    let ed = evidence.edition();
                    if ed != Edition::V13 {
                        let (line, col) = p.line_col(pos);
                        let m = Parser::bare_builtin_error(name, default, ed);
                        return Err(Diagnostic::error(file, line, col, m));
                    }
                }
                Ok(Parsed {
                    module,
                    edition: evidence.edition(),
                    evidence,
                })
            }
            Err(e) => {
                let evidence = EditionEvidence {
                    seen: p.seen,
                    legacy_func: p.saw_legacy_func,
                };
                let ed = evidence.edition();
                // MLIR's lexer stops at a byte that starts no token before
                // its parser says anything.
                // (An error inside a string literal is the lexer's own.)
                let unexpected = !e.message.ends_with("in string literal")
                    && ParseError::at_unexpected_character(raw, e.pos, ed);
                let pos = if e.wrong_token && !unexpected && ed == Edition::V15 {
                    ParseError::wrong_token_pos(raw, e.pos)
                } else {
                    e.pos
                };
                let message = if unexpected {
                    "unexpected character".to_string()
                } else {
                    e.message
                };
                let (line, col) = p.line_col(pos);
                let mut d = Diagnostic::error(file, line, col, message);
                let notes = if unexpected { vec![] } else { e.notes };
                for (pos, msg) in notes {
                    let (line, col) = p.line_col(pos);
                    let mut n = Diagnostic::error(file, line, col, msg);
                    n.severity = Severity::Note;
                    d.notes.push(n);
                }
                Err(d)
            }
        }
    })
}

/// One piece of an input split at `// -----` markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitChunk {
    /// Byte range of the piece in the input.
    pub start: usize,
    pub end: usize,
    /// Newlines before `start`: the piece's first line is this line of
    /// the input (0-based).
    pub line_offset: u32,
}

/// A marker that looked like a split marker but was not one: mlir-opt
/// warns (`near miss with file split marker`) and keeps the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NearMiss {
    /// Byte offset of the text right after `// ---`.
    pub pos: usize,
}

/// Splits an input as `mlir-opt -split-input-file` does, marker for
/// marker: upstream cuts at every `// ---` wherever it stands (in the
/// middle of a line too) and accepts the cut when two more dashes and
/// something other than `0` follow (its check for a third dash compares
/// with the digit); anything else is a near miss glued back to the text
/// before it. The text after a marker, rest of its line included, starts
/// the next piece. Empty pieces are dropped where upstream drops them: an
/// empty input gives no piece at all, so nothing is printed.
pub fn split_input(text: &[u8]) -> (Vec<SplitChunk>, Vec<NearMiss>) {
    const CUT: &[u8] = b"// ---";
    // Pieces between cuts at every `// ---`, as `StringRef::split`.
    let mut raw = vec![];
    let mut from = 0;
    let mut i = 0;
    while i + CUT.len() <= text.len() {
        if &text[i..i + CUT.len()] == CUT {
            raw.push((from, i));
            i += CUT.len();
            from = i;
        } else {
            i += 1;
        }
    }
    raw.push((from, text.len()));
    let mut pieces = vec![];
    let mut misses = vec![];
    // The piece being grown; empty means none yet (upstream tests the
    // piece's emptiness, so an empty first piece is replaced by the next,
    // dashes included).
    let mut prev: Option<(usize, usize)> = None;
    for (s, e) in raw {
        let Some((ps, pe)) = prev.filter(|(ps, pe)| pe > ps) else {
            prev = Some((s, e));
            continue;
        };
        let piece = &text[s..e];
        if piece.len() > 2 && piece.starts_with(b"--") && piece[2] != b'0' {
            pieces.push((ps, pe));
            prev = Some((s + 2, e));
        } else {
            misses.push(NearMiss { pos: s });
            prev = Some((ps, e));
        }
    }
    if let Some((ps, pe)) = prev.filter(|(ps, pe)| pe > ps) {
        pieces.push((ps, pe));
    }
    // Lines before each piece, counted in one pass.
    let mut line = 0u32;
    let mut at = 0;
    let chunks = pieces
        .into_iter()
        .map(|(start, end)| {
            line += text[at..start].iter().filter(|&&c| c == b'\n').count() as u32;
            at = start;
            SplitChunk {
                start,
                end,
                line_offset: line,
            }
        })
        .collect();
    (chunks, misses)
}

/// The placeholder for a byte of invalid UTF-8 in [`decode_source`]'s
/// text (ASCII SUB: no token contains it).
pub const INVALID_BYTE: u8 = 0x1a;

/// A source as text the parser can slice, byte for byte as long as the
/// input: MLIR reads bytes, and bytes that are not UTF-8 are fine in
/// comments and string literals. Each byte of an invalid sequence becomes
/// [`INVALID_BYTE`]; the parser reads string literals from the original
/// bytes (see [`parse_source_bytes`]), so they keep theirs. Borrowed when
/// the input is valid UTF-8 (nearly always).
pub fn decode_source(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => {
            let mut out = Vec::with_capacity(bytes.len());
            let mut rest = bytes;
            loop {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        out.extend_from_slice(s.as_bytes());
                        break;
                    }
                    Err(e) => {
                        let good = e.valid_up_to();
                        out.extend_from_slice(&rest[..good]);
                        let bad = e.error_len().unwrap_or(rest.len() - good);
                        out.extend(std::iter::repeat_n(INVALID_BYTE, bad));
                        rest = &rest[good + bad..];
                    }
                }
            }
            std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_default())
        }
    }
}

/// An op as mlir-opt's diagnostics print it (see
/// [`Printer::op_for_diagnostic`]): in the generic form for the "see
/// current operation" note, in either form inside a message.
pub fn print_op_for_diagnostic(
    ctx: &Context,
    hooks: &dyn DialectHooks,
    op: Op,
    edition: Edition,
    generic: bool,
) -> String {
    let opts = PrintOptions {
        edition,
        generic,
        debug_info: false,
    };
    Printer::op_for_diagnostic(ctx, hooks, op, opts)
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
        pieces.push(printer::printed_text(piece));
        Ok::<_, std::convert::Infallible>(None)
    });
    if parallel.is_none() {
        pieces = vec![print_sequential(ctx, hooks, op, opts).into_string()];
    }
    // One scan of the (large) output in the common case of no maps.
    if pieces.iter().any(|p| p.contains("affine_")) {
        vec![alias::apply(pieces.concat())]
    } else {
        pieces
    }
}

fn print_sequential(
    ctx: &Context,
    hooks: &dyn DialectHooks,
    op: Op,
    opts: PrintOptions,
) -> printer::Output {
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
        out.write_all(&piece).map(|()| Some(piece))
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
        out.write_all(&piece).map(|()| Some(piece))
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

#[cfg(test)]
mod split_tests {
    use super::split_input;

    /// The chunks' texts and the near misses' offsets.
    fn split(s: &str) -> (Vec<&str>, Vec<usize>) {
        let (c, m) = split_input(s.as_bytes());
        (
            c.iter().map(|c| &s[c.start..c.end]).collect(),
            m.iter().map(|m| m.pos).collect(),
        )
    }

    #[test]
    fn empty_input_has_no_chunk() {
        assert_eq!(split(""), (vec![], vec![]));
        assert_eq!(split("\n"), (vec!["\n"], vec![]));
    }

    #[test]
    fn a_marker_in_the_middle_of_a_line_splits_there() {
        assert_eq!(split("a // ----- b\nc"), (vec!["a ", " b\nc"], vec![]));
        assert_eq!(split("a\n// -----\nb\n"), (vec!["a\n", "\nb\n"], vec![]));
    }

    #[test]
    fn near_misses_stay_in_the_text() {
        // Four dashes, then a marker followed by the digit zero.
        assert_eq!(split("a\n// ----\nb"), (vec!["a\n// ----\nb"], vec![8]));
        assert_eq!(split("a\n// -----0b"), (vec!["a\n// -----0b"], vec![8]));
        // A marker ending the input has nothing after its dashes.
        assert_eq!(split("a\n// -----"), (vec!["a\n// -----"], vec![8]));
    }

    #[test]
    fn a_leading_marker_keeps_its_dashes() {
        // The first piece is empty, so upstream starts with the text after
        // `// ---`, the last two dashes included.
        assert_eq!(split("// -----\na"), (vec!["--\na"], vec![]));
    }

    #[test]
    fn chunks_know_their_first_line() {
        let (c, _) = split_input(b"a\nb\n// -----\nc\n// ----- d");
        let lines: Vec<u32> = c.iter().map(|c| c.line_offset).collect();
        assert_eq!(lines, vec![0, 2, 4]);
    }
}
