//! `mlir-async-opt`: mlir-opt's command line over our IR, parser, verifier,
//! passes and printer (the counterpart of MLIR's `MlirOptMain`).

/// `eprint!`/`eprintln!` that cannot panic: std's panic when stderr is
/// full (`2>/dev/full`), which would turn a diagnostic into a crash.
macro_rules! eprint {
    ($($t:tt)*) => { $crate::stdio::eprint(&format!($($t)*)) };
}
macro_rules! eprintln {
    ($($t:tt)*) => { $crate::stdio::eprint(&format!("{}\n", format_args!($($t)*))) };
}

mod shards;

use crate::stdio;
use mlir_async_dialects::{verify::verify, Registry};
use mlir_async_ir::{Context, IrError};
use mlir_async_passes::{
    make_pass, make_pass_for, parse_pipeline_for, registry, run_entry, AnalysisManager,
    PassContext, PipelineEntry, PipelineError,
};
use mlir_async_syntax::edition::join_split_outputs;
use mlir_async_syntax::{
    parse_source_bytes, print_op, print_op_pieces, write_op, Diagnostic, Edition, PrintOptions,
    Severity, ShowOp,
};
use std::io::{Read, Write};
use std::time::Instant;

/// Parsed command line.
#[derive(Default)]
pub struct Options {
    pub input: Option<String>,
    pub output: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub allow_unregistered: bool,
    pub print_generic: bool,
    pub print_debuginfo: bool,
    pub edition: Option<Edition>,
    pub timing: bool,
    pub print_ir_after_all: bool,
    pub pipeline: Vec<(String, String, bool)>,
    /// `--mlir-shards=<n>`: how many parts a large module is run in.
    pub shards: Option<usize>,
}

const HELP_HEAD: &str = "OVERVIEW: MLIR Async modular optimizer driver (mlir-async)

USAGE: mlir-async-opt [options] <input file>

OPTIONS:
  -o <filename>                     Output filename (default: stdout)
  --split-input-file                Split the input file into pieces and process each chunk independently
  --verify-diagnostics              Check that emitted diagnostics match expected-* lines on the corresponding line
  --allow-unregistered-dialect      Allow operation with no registered dialects
  --mlir-print-op-generic           Print the generic op form
  --mlir-print-debuginfo            Print debug info in MLIR output
  --mlir-edition=<13|14|15>         Read and print in the syntax of this LLVM release (default: $MLIR_ASYNC_EDITION, else that of the input)
  --mlir-timing                     Display execution times
  --mlir-disable-threading          Verify and print on the calling thread only
  --mlir-shards=<n>                 Run -async-to-async-runtime or -async-parallel-for (alone or followed by the ref-counting passes) on n parts of the module at once (default: one per core above 64 KB of text; 1: never)
  --print-ir-after-all              Print IR after each pass
  --pass-pipeline=<pipeline>        A textual description of a pass pipeline to run
  --help                            Display available options
  --version                         Display the version of this program

Passes:
";

fn help() -> String {
    let mut s = HELP_HEAD.to_string();
    for p in registry() {
        s.push_str(&format!("  --{:<32} - {}\n", p.arg, p.summary));
        for o in p.options {
            let default = if o.default.is_empty() {
                String::new()
            } else {
                format!(" (default: {})", o.default)
            };
            let only = match (o.first, o.last) {
                (Edition::V13, Edition::V15) => "",
                (Edition::V13, Edition::V13) => " [LLVM 13 only]",
                (Edition::V14, Edition::V15) => " [LLVM 14 and 15]",
                (Edition::V15, _) => " [LLVM 15 only]",
                _ => " [LLVM 13 and 14]",
            };
            s.push_str(&format!(
                "    --{:<30} - {}{default}{only}\n",
                format!("{}{}", o.name, o.help_value()),
                o.description,
            ));
        }
    }
    s
}

/// Parses `args` (without the program name).
pub fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "-" || !a.starts_with('-') {
            if o.input.is_some() {
                return Err("Too many positional arguments specified! Can specify at most 1 positional arguments: See: mlir-async-opt --help".to_string());
            }
            o.input = Some(a.clone());
            continue;
        }
        let flag = a.trim_start_matches('-');
        let (key, val) = match flag.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (flag, None),
        };
        let take = |i: &mut usize| -> Result<String, String> {
            if let Some(v) = &val {
                return Ok(v.clone());
            }
            let v = args
                .get(*i)
                .cloned()
                .ok_or(format!("option '{key}' requires a value"))?;
            *i += 1;
            Ok(v)
        };
        match key {
            "o" => o.output = Some(take(&mut i)?),
            "split-input-file" => o.split_input_file = true,
            "verify-diagnostics" => o.verify_diagnostics = true,
            "allow-unregistered-dialect" => o.allow_unregistered = true,
            "mlir-print-op-generic" => o.print_generic = true,
            "mlir-print-debuginfo" => o.print_debuginfo = true,
            "mlir-timing" => o.timing = true,
            "mlir-disable-threading" => mlir_async_ir::parallel::disable_threading(true),
            // 15 renamed the flag; both spellings are accepted.
            "print-ir-after-all" | "print-after-all" => o.print_ir_after_all = true,
            "mlir-edition" => {
                let v = take(&mut i)?;
                o.edition = Some(
                    Edition::parse(&v)
                        .ok_or(format!("unknown edition '{v}': expected 13, 14 or 15"))?,
                );
            }
            "mlir-shards" => {
                let v = take(&mut i)?;
                o.shards = Some(
                    v.parse()
                        .map_err(|_| format!("invalid value '{v}' for --mlir-shards"))?,
                );
            }
            "pass-pipeline" => {
                let v = take(&mut i)?;
                o.pipeline.push((v, String::new(), true));
            }
            "help" | "h" => return Err(String::new()),
            "version" => return Err("\u{0}version".into()),
            _ => {
                if registry().iter().any(|p| p.arg == key) {
                    o.pipeline
                        .push((key.to_string(), val.unwrap_or_default(), false));
                } else {
                    return Err(format!(
                        "Unknown command line argument '{a}'.  Try: 'mlir-async-opt --help'"
                    ));
                }
            }
        }
    }
    if o.edition.is_none() {
        // The release a whole test tree belongs to, set once by whoever runs
        // it (as LLVM 13's tests run LLVM 13's mlir-opt), for the files that
        // spell nothing only that release spells.
        if let Ok(v) = std::env::var("MLIR_ASYNC_EDITION") {
            o.edition = Some(Edition::parse(&v).ok_or(format!(
                "unknown edition '{v}' in MLIR_ASYNC_EDITION: expected 13, 14 or 15"
            ))?);
        }
    }
    Ok(o)
}

/// An `expected-*` annotation of `-verify-diagnostics`.
struct Expected {
    severity: Severity,
    /// The line the diagnostic must be on (may be past the end: never met).
    line: i64,
    msg: String,
    matched: bool,
    /// Line and column of the `expected-` text, where a missing diagnostic
    /// is reported.
    at: (u32, u32),
}

/// Matches MLIR 15's `expected-(error|note|remark|warning)
/// *(@([+-][0-9]+|above|below))? *{{(.*)}}$` at the start of `s`; returns
/// (severity, designator, message). Anchored at the end of the line, so a
/// line with text after the closing `}}` (or an unclosed `{{`, or an
/// unknown `@` designator) holds no directive, and neither does a string
/// literal such as `{s = "expected-error {{x}}"}` (13 and 14 took those).
fn match_expected(s: &str) -> Option<(Severity, &str, &str)> {
    let rest = s.strip_prefix("expected-")?;
    let (severity, rest) = [
        ("error", Severity::Error),
        ("note", Severity::Note),
        ("remark", Severity::Remark),
        ("warning", Severity::Warning),
    ]
    .into_iter()
    .find_map(|(w, sev)| rest.strip_prefix(w).map(|r| (sev, r)))?;
    let rest = rest.trim_start_matches(' ');
    let (designator, rest) = match rest.strip_prefix('@') {
        Some(d) => {
            let len = if d.starts_with("above") || d.starts_with("below") {
                5
            } else if d.starts_with(['+', '-']) {
                let digits = d[1..].bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    return None;
                }
                1 + digits
            } else {
                return None;
            };
            (&d[..len], d[len..].trim_start_matches(' '))
        }
        None => ("", rest),
    };
    let body = rest.strip_prefix("{{")?.strip_suffix("}}")?;
    Some((severity, designator, body))
}

/// LLVM's `getAsInteger` with radix 0, as MLIR reads `@+N`: a leading `0`
/// means octal. Digits that do not fit give no line (never matched).
fn designator_offset(digits: &str) -> Option<i64> {
    if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()
    } else {
        digits.parse().ok()
    }
}

/// The `expected-*` directives of a chunk, one per line at most (the first
/// `expected-` of the line that forms one), as MLIR's
/// `SourceMgrDiagnosticVerifierHandler` reads them. `@above` refers to the
/// last line without a directive, `@below` to the next one.
fn parse_expected(chunk: &str, line_offset: u32) -> Vec<Expected> {
    let mut out: Vec<Expected> = vec![];
    let lines: Vec<&str> = chunk.split('\n').collect();
    let mut below: Vec<usize> = vec![];
    let mut last_plain = i64::from(line_offset);
    for (i, l) in lines.iter().enumerate() {
        let lineno = i64::from(line_offset) + i as i64 + 1;
        let found = l
            .match_indices("expected-")
            .find_map(|(p, _)| match_expected(&l[p..]).map(|m| (p, m)));
        let Some((col, (severity, designator, msg))) = found else {
            for k in below.drain(..) {
                out[k].line = lineno;
            }
            last_plain = lineno;
            continue;
        };
        let line = match designator {
            "" => lineno,
            "above" => last_plain,
            // Dangling when no plain line follows: past the end.
            "below" => {
                below.push(out.len());
                i64::from(line_offset) + lines.len() as i64 + 1
            }
            d => match designator_offset(&d[1..]) {
                Some(n) if d.starts_with('+') => lineno + n,
                Some(n) => lineno - n,
                None => -1,
            },
        };
        out.push(Expected {
            severity,
            line,
            msg: msg.to_string(),
            matched: false,
            at: (lineno as u32, col as u32 + 1),
        });
    }
    out
}

struct Chunk<'a> {
    /// The chunk as text; `raw` as read (they differ where the input is
    /// not UTF-8, see `decode_source`).
    text: &'a str,
    raw: &'a [u8],
    line_offset: u32,
}

/// The chunks of the input (one when not splitting), with the near
/// misses of split markers mlir-opt warns about.
fn split_chunks<'a>(
    text: &'a str,
    raw: &'a [u8],
    split: bool,
) -> (Vec<Chunk<'a>>, Vec<mlir_async_syntax::NearMiss>) {
    if !split {
        let whole = Chunk {
            text,
            raw,
            line_offset: 0,
        };
        return (vec![whole], vec![]);
    }
    let (chunks, misses) = mlir_async_syntax::split_input(raw);
    let chunks = chunks
        .into_iter()
        .map(|c| Chunk {
            // Cut at ASCII bytes, the same in both.
            text: text.get(c.start..c.end).unwrap_or(""),
            raw: &raw[c.start..c.end],
            line_offset: c.line_offset,
        })
        .collect();
    (chunks, misses)
}

/// The outcome of processing one chunk.
enum ChunkResult {
    /// The printed module, in pieces to write one after the other.
    Output(Vec<String>),
    /// The printed module went straight to the output.
    Written,
    /// It could not: the message says why.
    WriteFailed(String),
    Failed(Vec<Diagnostic>),
}

/// Creates the output (`-`: stdout) and writes to it with `write`. Called
/// only once the IR is verified, so an input that fails leaves an existing
/// output file as it was. A failed write to stdout (full disk, closed
/// stdout, closed pipe) is an error, as in mlir-opt 15.
fn write_output(
    dest: &str,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    if dest == "-" {
        return stdio::stdout()
            .and_then(|f| {
                let mut w = std::io::BufWriter::new(f);
                write(&mut w)?;
                w.flush()
            })
            .map_err(|e| write_error(&e));
    }
    let f = std::fs::File::create(dest).map_err(|e| open_failure(dest, &e))?;
    let mut w = std::io::BufWriter::new(f);
    write(&mut w)
        .and_then(|()| w.flush())
        .map_err(|e| write_error(&e))
}

/// The message of a failed write; empty for a broken pipe, which ends the
/// run with `EX_IOERR` and no message (see `stdio::EX_IOERR`).
fn write_error(e: &std::io::Error) -> String {
    if stdio::is_broken_pipe(e) {
        String::new()
    } else {
        format!("mlir-async-opt: {}", stdio::io_failure(e))
    }
}

/// mlir-opt's text for an output file it cannot create.
fn open_failure(path: &str, e: &std::io::Error) -> String {
    format!("cannot open output file '{path}': {}", stdio::os_message(e))
}

/// `stream`: where to write the output as it is printed (`-`: stdout),
/// when this chunk is the whole input; otherwise its text is returned.
#[allow(clippy::too_many_arguments)]
fn process_chunk(
    o: &Options,
    file: &str,
    stream: Option<&str>,
    chunk: &Chunk,
    timing: &mut Vec<(String, f64)>,
    after_all: &mut String,
    edition_seen: &mut Option<Edition>,
    warnings: &mut Vec<Diagnostic>,
) -> ChunkResult {
    // Parts are cut from the text: only an input that is all UTF-8.
    if let Some(dest) = stream.filter(|_| chunk.raw == chunk.text.as_bytes()) {
        match shards::try_sharded(o, file, dest, chunk.text) {
            Ok(run) => {
                timing.extend(run.timing);
                edition_seen.get_or_insert(run.edition);
                return match run.written {
                    Ok(()) => ChunkResult::Written,
                    Err(m) => ChunkResult::WriteFailed(m),
                };
            }
            // Asked for by name: say why the module runs whole.
            Err(why) if o.shards.is_some_and(|n| n > 1) => {
                eprintln!("mlir-async-opt: note: --mlir-shards: the module runs whole: {why}");
            }
            Err(_) => {}
        }
    }
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let t0 = Instant::now();
    let parsed = match parse_source_bytes(
        &mut ctx,
        &reg,
        file,
        chunk.text,
        chunk.raw,
        chunk.line_offset,
        o.allow_unregistered,
    ) {
        Ok(p) => p,
        Err(d) => return ChunkResult::Failed(vec![d]),
    };
    timing.push(("Parser".into(), t0.elapsed().as_secs_f64()));
    let edition = o.edition.unwrap_or(parsed.edition);
    edition_seen.get_or_insert(edition);
    let module = parsed.module;
    // Errors on an op show it in a note, except under
    // `-verify-diagnostics` (as `MlirOptMain` sets `printOpOnDiagnostic`).
    let show = ShowOp {
        hooks: &reg,
        edition,
        debug_info: o.print_debuginfo,
    };
    let show = (!o.verify_diagnostics).then_some(&show);
    let t0 = Instant::now();
    if let Err(e) = verify(&ctx, &reg, module, edition) {
        return ChunkResult::Failed(vec![Diagnostic::from_ir_showing_op(&ctx, &e, show)]);
    }
    timing.push(("Verifier".into(), t0.elapsed().as_secs_f64()));
    let mut entries: Vec<PipelineEntry> = vec![];
    for (name, opts, is_pipeline) in &o.pipeline {
        if *is_pipeline {
            match parse_pipeline_for(name, Some(edition)) {
                Ok(es) => entries.extend(es),
                // The pass manager's complaints about nesting in this
                // generation, as `pipeline_errors` reports them.
                Err(PipelineError::Unlocated(ms)) => {
                    return ChunkResult::Failed(
                        ms.iter()
                            .map(|m| Diagnostic::error("<unknown>", 0, 0, m.clone()))
                            .collect(),
                    )
                }
                // Checked before the input was read (`pipeline_errors`).
                Err(e) => {
                    return ChunkResult::Failed(vec![Diagnostic::error(file, 0, 0, e.message())])
                }
            }
        } else {
            match make_pass_for(name, opts, Some(edition)) {
                Ok((pass, anchor)) => entries.push(PipelineEntry {
                    pass,
                    nesting: if anchor == "builtin.module" || anchor.is_empty() {
                        vec![]
                    } else {
                        vec![anchor.to_string()]
                    },
                }),
                Err(m) => return ChunkResult::Failed(vec![Diagnostic::error(file, 0, 0, m)]),
            }
        }
    }
    let popts = PrintOptions {
        edition,
        generic: o.print_generic,
        debug_info: o.print_debuginfo,
    };
    // Analyses passes computed, kept for the next passes that ask.
    let mut analyses = AnalysisManager::new();
    for e in &entries {
        let t0 = Instant::now();
        let mut pc = PassContext::new(&mut ctx, &reg, edition, &mut analyses);
        let r: Result<(), IrError> = run_entry(&mut pc, e, module);
        for w in std::mem::take(&mut pc.warnings) {
            let d = Diagnostic::at(&ctx, w.loc, Severity::Warning, &w.message);
            if o.verify_diagnostics {
                warnings.push(d);
            } else {
                stdio::eprint(d.render(Some(chunk.text)));
            }
        }
        if let Err(err) = r {
            return ChunkResult::Failed(vec![Diagnostic::from_ir_showing_op(&ctx, &err, show)]);
        }
        timing.push((e.pass.name().to_string(), t0.elapsed().as_secs_f64()));
        let t0 = Instant::now();
        if let Err(err) = verify(&ctx, &reg, module, edition) {
            return ChunkResult::Failed(vec![Diagnostic::from_ir_showing_op(&ctx, &err, show)]);
        }
        timing.push(("Verifier".into(), t0.elapsed().as_secs_f64()));
        if o.print_ir_after_all {
            after_all.push_str(&format!(
                "// -----// IR Dump After {} //----- //\n",
                e.pass.display_name()
            ));
            after_all.push_str(&print_op(&ctx, &reg, module, popts));
            after_all.push_str("\n\n");
        }
    }
    let t0 = Instant::now();
    let out = match stream {
        Some(dest) => {
            // IR dumps come before the output, as mlir-opt prints them.
            stdio::eprint(&after_all);
            after_all.clear();
            match write_output(dest, |w| {
                write_op(&ctx, &reg, module, popts, w)?;
                // mlir-opt ends its output with an empty line.
                w.write_all(b"\n")
            }) {
                Ok(()) => ChunkResult::Written,
                Err(m) => ChunkResult::WriteFailed(m),
            }
        }
        None => ChunkResult::Output(print_op_pieces(&ctx, &reg, module, popts)),
    };
    timing.push(("Output".into(), t0.elapsed().as_secs_f64()));
    if !o.split_input_file {
        // The process ends right after: freeing a large IR piece by piece
        // would only cost time (mlir-opt skips it the same way).
        std::mem::forget(ctx);
    }
    out
}

/// Runs the tool; returns the exit code.
/// What checking the `--pass-pipeline`s before reading the input found.
enum PipelineCheck {
    Ok,
    /// The diagnostics of the first pipeline that does not parse, as
    /// mlir-opt reports them while reading its command line (before the
    /// input): at a column of the pipeline text, or at `<unknown>:0` for
    /// the pass manager's complaints.
    Failed(String),
    /// The pass manager's complaints depend on the generation (which op
    /// kinds a pass may nest on, and their names: 13's module is
    /// `module`), and none was given: the input must tell.
    NeedsEdition,
}

fn pipeline_errors(o: &Options, edition: Option<Edition>, defer: bool) -> PipelineCheck {
    for (text, opts, is_pipeline) in &o.pipeline {
        if !*is_pipeline {
            // A pass flag's options are checked as the command line is
            // read, as LLVM's option parser does.
            if let Err(m) = make_pass(text, opts) {
                return PipelineCheck::Failed(format!("mlir-async-opt: {m}\n"));
            }
            continue;
        }
        match parse_pipeline_for(text, edition) {
            Ok(_) => {}
            Err(PipelineError::At { col, message }) => {
                let d =
                    Diagnostic::error("MLIR Textual PassPipeline Parser", 1, col as u32, message);
                return PipelineCheck::Failed(d.render(Some(text)));
            }
            Err(PipelineError::Unlocated(_)) if defer && edition.is_none() => {
                return PipelineCheck::NeedsEdition;
            }
            Err(PipelineError::Unlocated(ms)) => {
                return PipelineCheck::Failed(
                    ms.iter()
                        .map(|m| format!("<unknown>:0: error: {m}\n"))
                        .collect(),
                );
            }
        }
    }
    PipelineCheck::Ok
}

pub fn main_with_args(args: &[String]) -> i32 {
    let mut o = match parse_args(args) {
        Ok(o) => o,
        Err(m) if m.is_empty() => return print_or_fail(&help()),
        Err(m) if m == "\u{0}version" => {
            return print_or_fail(&format!(
                "mlir-async-opt {} (MLIR syntax 13/14/15)\n",
                env!("CARGO_PKG_VERSION")
            ));
        }
        Err(m) => {
            eprintln!("mlir-async-opt: {m}");
            return 1;
        }
    };
    let needs_edition = match pipeline_errors(&o, o.edition, true) {
        PipelineCheck::Ok => false,
        PipelineCheck::Failed(report) => {
            eprint!("{report}");
            return 1;
        }
        PipelineCheck::NeedsEdition => true,
    };
    let input = o.input.clone().unwrap_or_else(|| "-".into());
    let mut bytes = vec![];
    let read = if input == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(&input).and_then(|mut f| f.read_to_end(&mut bytes).map(|_| ()))
    };
    if let Err(e) = read {
        eprintln!(
            "cannot open input file '{input}': {}",
            stdio::os_message(&e)
        );
        return 1;
    }
    let file = if input == "-" {
        "<stdin>".to_string()
    } else {
        input.clone()
    };
    // MLIR reads bytes: invalid UTF-8 is fine in comments and strings.
    let text = mlir_async_syntax::decode_source(&bytes);
    let text: &str = &text;
    if needs_edition {
        // The generation of the input (of its first part), then the
        // pipeline's verdict in it, still before anything else is said.
        let (chunks, _) = split_chunks(text, &bytes, o.split_input_file);
        let edition = chunks.first().and_then(|c| {
            let mut ctx = Context::new();
            let reg = Registry::new(&mut ctx);
            parse_source_bytes(
                &mut ctx,
                &reg,
                &file,
                c.text,
                c.raw,
                0,
                o.allow_unregistered,
            )
            .ok()
            .map(|p| p.edition)
        });
        if let PipelineCheck::Failed(report) = pipeline_errors(&o, edition, false) {
            eprint!("{report}");
            return 1;
        }
    }
    let mut outputs: Vec<Option<Vec<String>>> = vec![];
    let mut edition_seen = o.edition;
    let mut failed = false;
    let mut broken_pipe = false;
    let mut timing = vec![];
    let mut after_all = String::new();
    let mut stderr = String::new();
    // A single module is written while it is printed; split inputs and
    // diagnostic checks decide what to write only at the end.
    let dest = o.output.clone().unwrap_or_else(|| "-".into());
    let stream = (!o.split_input_file && !o.verify_diagnostics).then_some(dest.as_str());
    let (chunks, near_misses) = split_chunks(text, &bytes, o.split_input_file);
    for m in near_misses {
        let ln = bytes[..m.pos].iter().filter(|&&c| c == b'\n').count();
        let ls = bytes[..m.pos]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let col = text.get(ls..m.pos).map_or(0, |l| l.chars().count()) + 1;
        let mut d = Diagnostic::error(
            &file,
            ln as u32 + 1,
            col as u32,
            "near miss with file split marker",
        );
        d.severity = Severity::Warning;
        eprint!("{}", d.render(Some(text)));
    }
    // One mlir-opt reads the whole file: a spelling only LLVM 13 knows in
    // any chunk makes all chunks 13 (a chunk of async ops alone would
    // read as 14). Other chunks conclude alone, as they always did.
    if o.edition.is_none() && chunks.len() > 1 {
        o.edition = file_edition(&file, &chunks, o.allow_unregistered);
    }
    let split = o.split_input_file;
    fn chunk_at<'t>(split: bool, c: &Chunk<'t>) -> Option<(&'t str, u32)> {
        split.then_some((c.text, c.line_offset))
    }
    let mut warnings = vec![];
    for chunk in chunks {
        let result = process_chunk(
            &o,
            &file,
            stream,
            &chunk,
            &mut timing,
            &mut after_all,
            &mut edition_seen,
            &mut warnings,
        );
        if o.verify_diagnostics {
            let mut expected = parse_expected(chunk.text, chunk.line_offset);
            let mut diags = match result {
                ChunkResult::Output(out) => {
                    outputs.push(Some(out));
                    vec![]
                }
                // Not streamed when checking diagnostics.
                ChunkResult::Written | ChunkResult::WriteFailed(_) => vec![],
                ChunkResult::Failed(d) => {
                    outputs.push(None);
                    d
                }
            };
            diags.splice(0..0, warnings.drain(..));
            let mut flat = vec![];
            for d in diags {
                let notes = d.notes.clone();
                flat.push(d);
                flat.extend(notes);
            }
            for d in flat {
                let hit = expected.iter_mut().find(|e| {
                    !e.matched
                        && e.severity == d.severity
                        && e.line == i64::from(d.line)
                        && d.message.contains(&e.msg)
                });
                match hit {
                    Some(e) => e.matched = true,
                    None => {
                        // Unexpected notes fail too, as in mlir-opt.
                        failed = true;
                        let mut u = d.clone();
                        u.notes.clear();
                        u.message = format!("unexpected {}: {}", d.severity.as_str(), d.message);
                        u.severity = Severity::Error;
                        stderr.push_str(&render_in(&u, &file, text, chunk_at(split, &chunk)));
                    }
                }
            }
            for e in expected.iter().filter(|e| !e.matched) {
                failed = true;
                let d = Diagnostic::error(
                    &file,
                    e.at.0,
                    e.at.1,
                    format!(
                        "expected {} \"{}\" was not produced",
                        e.severity.as_str(),
                        e.msg
                    ),
                );
                let r = render_in(&d, &file, text, chunk_at(split, &chunk));
                stderr.push_str(&underline(r, e.msg.len()));
            }
        } else {
            match result {
                ChunkResult::Output(out) => outputs.push(Some(out)),
                ChunkResult::Written => {}
                ChunkResult::WriteFailed(m) if m.is_empty() => broken_pipe = true,
                ChunkResult::WriteFailed(m) => {
                    stderr.push_str(&m);
                    stderr.push('\n');
                    failed = true;
                }
                ChunkResult::Failed(diags) => {
                    outputs.push(None);
                    failed = true;
                    for d in diags {
                        stderr.push_str(&render_in(&d, &file, text, chunk_at(split, &chunk)));
                    }
                }
            }
        }
    }
    stdio::eprint(&stderr);
    if !after_all.is_empty() {
        stdio::eprint(&after_all);
    }
    if o.timing {
        let total: f64 = timing.iter().map(|t| t.1).sum();
        eprintln!(
            "===-------------------------------------------------------------------------==="
        );
        eprintln!("                         ... Execution time report ...");
        eprintln!(
            "===-------------------------------------------------------------------------==="
        );
        eprintln!("  Total Execution Time: {total:.4} seconds\n");
        eprintln!("  ----Wall Time----  ----Name----");
        for (n, t) in &timing {
            eprintln!(
                "    {:.4} ({:5.1}%)  {}",
                t,
                100.0 * t / total.max(1e-12),
                n
            );
        }
        eprintln!("    {total:.4} (100.0%)  Total");
    }
    if broken_pipe {
        return stdio::EX_IOERR;
    }
    if stream.is_some() {
        return i32::from(failed);
    }
    let pieces: Vec<String> = if o.split_input_file {
        let chunks: Vec<Option<String>> =
            outputs.into_iter().map(|c| c.map(|p| p.concat())).collect();
        vec![join_split_outputs(
            &chunks,
            edition_seen.unwrap_or(Edition::V15),
        )]
    } else {
        // mlir-opt ends its output with an empty line.
        let mut pieces = vec![];
        for o in outputs.into_iter().flatten() {
            pieces.extend(o);
            pieces.push("\n".to_string());
        }
        pieces
    };
    let write = |w: &mut dyn Write| pieces.iter().try_for_each(|p| w.write_all(p.as_bytes()));
    match &o.output {
        Some(path) if path != "-" => {
            if failed {
                return 1;
            }
            match write_output(path, write) {
                Ok(()) => {}
                // A FIFO whose reader has gone.
                Err(m) if m.is_empty() => return stdio::EX_IOERR,
                Err(m) => {
                    eprintln!("{m}");
                    return 1;
                }
            }
        }
        _ if pieces.iter().all(String::is_empty) => {}
        _ => {
            let written = stdio::stdout().and_then(|f| {
                let mut w = std::io::BufWriter::new(f);
                write(&mut w)?;
                w.flush()
            });
            if let Err(e) = written {
                return stdio::write_failed("mlir-async-opt", &e, 1);
            }
        }
    }
    i32::from(failed)
}

/// `--help` and `--version`: status 1 when the text cannot be written
/// (74 for a broken pipe).
/// `Some(13)` when a chunk of a split file is spelled as only LLVM 13
/// spells it.
fn file_edition(file: &str, chunks: &[Chunk], allow_unregistered: bool) -> Option<Edition> {
    let mut evidence = mlir_async_syntax::EditionEvidence::default();
    for c in chunks {
        let mut ctx = Context::new();
        let reg = Registry::new(&mut ctx);
        if let Ok(p) = parse_source_bytes(
            &mut ctx,
            &reg,
            file,
            c.text,
            c.raw,
            c.line_offset,
            allow_unregistered,
        ) {
            evidence = evidence.merge(p.evidence);
        }
    }
    (evidence.seen == Some(Edition::V13)).then_some(Edition::V13)
}

fn print_or_fail(text: &str) -> i32 {
    match stdio::write_stdout(text.as_bytes()) {
        Ok(()) => 0,
        Err(e) => stdio::write_failed("mlir-async-opt", &e, 1),
    }
}

/// mlir-opt marks a missing diagnostic's `expected-` with a range as long
/// as the expected message (`^~~~`); the renderer draws only the caret.
fn underline(rendered: String, len: usize) -> String {
    match rendered.strip_suffix("^\n") {
        Some(head) if len > 1 => format!("{head}^{}\n", "~".repeat(len - 1)),
        _ => rendered,
    }
}

/// Renders `d`; in a split input, as mlir-opt does, where each chunk is a
/// buffer of its own: `within split at FILE:L offset :l:c:` with L the line
/// the chunk starts on (its `// -----` line) and l the line in the chunk.
fn render_in(d: &Diagnostic, file: &str, text: &str, split: Option<(&str, u32)>) -> String {
    let Some((chunk, offset)) = split else {
        return d.render(Some(text));
    };
    if d.file != file || d.line <= offset {
        return d.render(Some(text));
    }
    let local = Diagnostic {
        line: d.line - offset,
        notes: vec![],
        ..d.clone()
    };
    let plain = format!("{file}:{}:{}:", local.line, local.col);
    let within = format!(
        "within split at {file}:{} offset :{}:{}:",
        offset + 1,
        local.line,
        local.col
    );
    let mut out = local.render(Some(chunk));
    if out.starts_with(&plain) {
        out.replace_range(..plain.len(), &within);
    }
    for n in &d.notes {
        // A note at the place of its error does not show the line again
        // (as `Diagnostic::render`).
        if (n.file.as_str(), n.line, n.col) == (d.file.as_str(), d.line, d.col) {
            out.push_str(&render_in(n, file, "", split.map(|(_, o)| ("", o))));
        } else {
            out.push_str(&render_in(n, file, text, split));
        }
    }
    out
}
