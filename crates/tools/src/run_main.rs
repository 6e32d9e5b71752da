//! `mlir-async-run`: `mlir-cpu-runner`'s command line over our parser and
//! our executor (`mlir-async-executor`): no LLVM anywhere.

use crate::stdio;
use mlir_async_dialects::Registry;
use mlir_async_executor::{codegen::OptLevel, engine, frontend, EntryResult, RunOptions};
use mlir_async_ir::Context;
use mlir_async_syntax::{parse_source_bytes, Diagnostic, Edition};
use std::io::Read;

/// The parsed command line.
#[derive(Debug, Default)]
pub struct Options {
    pub input: Option<String>,
    pub run: RunOptionsCli,
    pub verbose: bool,
    pub trace: Option<String>,
}

/// The run options as given (defaults as `mlir-cpu-runner`'s).
#[derive(Debug)]
pub struct RunOptionsCli {
    pub entry: String,
    pub result: String,
    pub opt: Option<OptLevel>,
    pub shared_libs: Vec<String>,
}

impl Default for RunOptionsCli {
    fn default() -> Self {
        RunOptionsCli {
            entry: "main".into(),
            result: "f32".into(),
            opt: None,
            shared_libs: Vec::new(),
        }
    }
}

const HELP: &str = "OVERVIEW: MLIR Async execution driver (mlir-async-run): runs LLVM-dialect MLIR with a Cranelift JIT on the mlir-async runtime

USAGE: mlir-async-run [options] <input file>

OPTIONS:
  -e <function name>                The function to be called (default: main)
  -entry-point-result=<type>        f32 | i32 | i64 | void (default: f32)
  -O0, -O1, -O2, -O3                Optimization level (-O0: no optimization; -O1..-O3: Cranelift's speed level)
  -shared-libs=<lib>[,<lib>...]     Libraries to link dynamically; the runner utilities and the async runtime
                                    (libmlir_c_runner_utils, libmlir_runner_utils, libmlir_async_runtime) are built in
  --trace=<file.json>               Write a Chrome / Perfetto trace of the coroutines' runs (created, resumed, suspended, completed) on each thread
  -v                                Say what is done on stderr
  --help                            Display available options
  --version                         Display the version of this program
";

/// Parses `mlir-cpu-runner`-style arguments (`-x=v`, `-x v`, `--x=v`).
pub fn parse_args(args: &[String]) -> Result<Result<Options, String>, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "-" || !a.starts_with('-') {
            if o.input.is_some() {
                return Err("mlir-async-run: Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: mlir-async-run --help".to_string());
            }
            o.input = Some(a.clone());
            continue;
        }
        let body = a.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            if i < args.len() {
                i += 1;
                return Ok(args[i - 1].clone());
            }
            Err(format!(
                "mlir-async-run: for the -{what} option: requires a value!"
            ))
        };
        match name {
            "help" | "h" => return Ok(Err(HELP.to_string())),
            "version" => {
                return Ok(Err(format!(
                    "mlir-async-run {}\n",
                    env!("CARGO_PKG_VERSION")
                )))
            }
            "e" => o.run.entry = value("e")?,
            "entry-point-result" => o.run.result = value("entry-point-result")?,
            "shared-libs" => {
                let v = value("shared-libs")?;
                o.run
                    .shared_libs
                    .extend(v.split(',').filter(|s| !s.is_empty()).map(String::from));
            }
            "O0" => o.run.opt = Some(OptLevel::O0),
            "O1" => o.run.opt = Some(OptLevel::O1),
            "O2" => o.run.opt = Some(OptLevel::O2),
            "O3" => o.run.opt = Some(OptLevel::O3),
            "v" => o.verbose = true,
            "trace" => o.trace = Some(value("trace")?),
            // Accepted for compatibility; nothing to dump without LLVM.
            "dump-object-file" => {}
            "object-filename" => {
                value("object-filename")?;
            }
            _ => {
                return Err(format!(
                    "mlir-async-run: Unknown command line argument '{a}'.  Try: 'mlir-async-run --help'"
                ))
            }
        }
    }
    Ok(Ok(o))
}

/// Runs the tool; returns the exit status.
pub fn main_with_args(args: &[String]) -> i32 {
    let o = match parse_args(args) {
        Ok(Ok(o)) => o,
        Ok(Err(text)) => {
            return match stdio::write_stdout(text.as_bytes()) {
                Ok(()) => 0,
                Err(e) => stdio::write_failed("mlir-async-run", &e, 1),
            };
        }
        Err(m) => {
            stdio::eprint(format!("{m}\n"));
            return 1;
        }
    };
    let input = o.input.clone().unwrap_or_else(|| "-".into());
    let mut bytes = vec![];
    let read = if input == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(&input).and_then(|mut f| f.read_to_end(&mut bytes).map(|_| ()))
    };
    if let Err(e) = read {
        stdio::eprint(format!(
            "Could not open input file '{input}': {}\ncould not parse the input IR\n",
            stdio::os_message(&e)
        ));
        return 1;
    }
    let file = if input == "-" { "<stdin>" } else { &input };
    let text = mlir_async_syntax::decode_source(&bytes);
    let mut ctx = Context::new();
    let reg = Registry::new(&mut ctx);
    let t0 = std::time::Instant::now();
    let parsed = match parse_source_bytes(&mut ctx, &reg, file, &text, &bytes, 0, true) {
        Ok(p) => p,
        Err(d) => {
            stdio::eprint(d.render(Some(&text)));
            stdio::eprint("could not parse the input IR\n");
            return 1;
        }
    };
    // As mlir-cpu-runner: the module must verify (ops of dialects we do
    // not know are left to the front end, which names them).
    if let Err(e) = mlir_async_dialects::verify::verify(&ctx, &reg, parsed.module, parsed.edition) {
        stdio::eprint(Diagnostic::from_ir(&ctx, &e).render(Some(&text)));
        stdio::eprint("could not parse the input IR\n");
        return 1;
    }
    if !is_llvm_module(&ctx, parsed.module) {
        if let Err(d) = standard_lowering(&mut ctx, &reg, parsed.module, parsed.edition, o.verbose)
        {
            stdio::eprint(d.render(Some(&text)));
            return 1;
        }
    }
    let lowered = engine::catch_panic(|| Ok(frontend::lower(&ctx, parsed.module)));
    let module = match lowered {
        Ok(Ok(m)) => m,
        Ok(Err(diags)) => {
            report(&diags, &text);
            return 1;
        }
        Err(e) => {
            stdio::eprint(format!("Error: {e}\n"));
            return 1;
        }
    };
    if o.verbose {
        stdio::eprint(format!(
            "mlir-async-run: parsed and lowered {} functions in {:.3} s\n",
            module.functions.len(),
            t0.elapsed().as_secs_f64()
        ));
    }
    let Some(result) = EntryResult::parse(&o.run.result) else {
        stdio::eprint("Error: unsupported function type\n");
        return 1;
    };
    let opts = RunOptions {
        entry: o.run.entry.clone(),
        result,
        opt: o.run.opt.unwrap_or(OptLevel::O2),
        shared_libs: o.run.shared_libs.clone(),
        trace: o.trace.clone(),
    };
    match engine::run(&module, &opts) {
        Ok(out) => {
            // As `mlir-cpu-runner`: the result goes through its own stream
            // (LLVM's `outs()`), written before C stdio's buffer is flushed
            // at exit, so in a pipe it precedes the program's unflushed
            // output.
            let result = match out {
                Some(v) => stdio::write_stdout(format!("{v}\n").as_bytes()),
                None => Ok(()),
            };
            // The program's own output, still in C stdio's buffer, must
            // reach fd 1 too: a failed write is an error, not exit 0.
            let program =
                mlir_async_executor::runner_utils::finish_stdout(stdio::stdout_was_closed());
            match result.and(program.map(|_| ())) {
                Ok(()) => 0,
                Err(e) => stdio::write_failed("mlir-async-run", &e, 1),
            }
        }
        Err(e) => {
            mlir_async_executor::runner_utils::flush_stdout();
            stdio::eprint(format!("{}\n", e.render(&module)));
            1
        }
    }
}

/// Whether every op of the module is the LLVM dialect's (what the
/// executor runs directly).
pub fn is_llvm_module(ctx: &Context, module: mlir_async_ir::Op) -> bool {
    ctx.regions_of(module).iter().all(|r| {
        ctx.region_blocks(*r).all(|b| {
            ctx.block_ops_iter(b)
                .all(|op| ctx.name(op).starts_with("llvm."))
        })
    })
}

/// Our standard lowering to the LLVM dialect, as the upstream runner tests
/// spell it in each generation.
pub fn standard_pipeline(edition: Edition) -> &'static [&'static str] {
    match edition {
        Edition::V13 => &[
            "async-to-async-runtime",
            "async-runtime-ref-counting",
            "async-runtime-ref-counting-opt",
            "convert-async-to-llvm",
            "convert-linalg-to-loops",
            "convert-scf-to-std",
            "convert-memref-to-llvm",
            "convert-std-to-llvm",
            "reconcile-unrealized-casts",
        ],
        Edition::V14 => &[
            "async-to-async-runtime",
            "async-runtime-ref-counting",
            "async-runtime-ref-counting-opt",
            "convert-async-to-llvm",
            "convert-linalg-to-loops",
            "convert-scf-to-std",
            "convert-memref-to-llvm",
            "convert-arith-to-llvm",
            "convert-std-to-llvm",
            "reconcile-unrealized-casts",
        ],
        Edition::V15 => &[
            "async-to-async-runtime",
            "async-runtime-ref-counting",
            "async-runtime-ref-counting-opt",
            "convert-async-to-llvm",
            "convert-linalg-to-loops",
            "convert-scf-to-cf",
            "convert-memref-to-llvm",
            "convert-arith-to-llvm",
            "convert-func-to-llvm",
            "reconcile-unrealized-casts",
        ],
    }
}

/// Lowers a module that is not in the LLVM dialect yet with our passes
/// (said on stderr with `-v`); a pass we do not have yet is a diagnostic
/// naming it.
fn standard_lowering(
    ctx: &mut Context,
    reg: &Registry,
    module: mlir_async_ir::Op,
    edition: Edition,
    verbose: bool,
) -> Result<(), Diagnostic> {
    let names = standard_pipeline(edition);
    // The first op that is not the LLVM dialect's.
    let first = ctx.regions_of(module).iter().find_map(|r| {
        ctx.region_blocks(*r).find_map(|b| {
            ctx.block_ops_iter(b)
                .find(|op| !ctx.name(*op).starts_with("llvm."))
        })
    });
    let loc = ctx.op_loc(first.unwrap_or(module));
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| mlir_async_passes::make_pass(n, "").is_err())
        .collect();
    if !missing.is_empty() {
        return Err(Diagnostic::at(
            ctx,
            loc,
            mlir_async_syntax::Severity::Error,
            &format!(
                "the input is not in the LLVM dialect, and our lowering to it lacks -{} (not implemented yet): lower it with mlir-opt first",
                missing.join(", -")
            ),
        ));
    }
    if verbose {
        stdio::eprint(format!(
            "mlir-async-run: the input is not in the LLVM dialect: lowering it with -{}\n",
            names.join(" -")
        ));
    }
    let mut analyses = mlir_async_passes::AnalysisManager::new();
    for n in names {
        let (pass, anchor) = mlir_async_passes::make_pass(n, "")
            .map_err(|m| Diagnostic::at(ctx, loc, mlir_async_syntax::Severity::Error, &m))?;
        let entry = mlir_async_passes::PipelineEntry {
            pass,
            nesting: if anchor == "builtin.module" || anchor.is_empty() {
                vec![]
            } else {
                vec![anchor.to_string()]
            },
        };
        let mut pc = mlir_async_passes::PassContext::new(ctx, reg, edition, &mut analyses);
        let r = mlir_async_passes::run_entry(&mut pc, &entry, module);
        for w in std::mem::take(&mut pc.warnings) {
            let d = Diagnostic::at(ctx, w.loc, mlir_async_syntax::Severity::Warning, &w.message);
            stdio::eprint(d.render(None));
        }
        r.map_err(|e| Diagnostic::from_ir(ctx, &e))?;
        mlir_async_dialects::verify::verify(ctx, reg, module, edition)
            .map_err(|e| Diagnostic::from_ir(ctx, &e))?;
    }
    Ok(())
}

fn report(diags: &[Diagnostic], text: &str) {
    for d in diags {
        stdio::eprint(d.render(Some(text)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Options {
        let v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse_args(&v) {
            Ok(Ok(o)) => o,
            other => panic!("{other:?}"),
        }
    }

    /// The spellings `mlir-cpu-runner` (LLVM's command-line library)
    /// accepts: one or two dashes, `=` or a separate value, repeated and
    /// comma-separated libraries.
    #[test]
    fn option_spellings() {
        let o = parse(&["-e", "entry", "--entry-point-result=i64", "-O3", "in.mlir"]);
        assert_eq!(o.run.entry, "entry");
        assert_eq!(o.run.result, "i64");
        assert_eq!(o.run.opt, Some(OptLevel::O3));
        assert_eq!(o.input.as_deref(), Some("in.mlir"));
        let o = parse(&[
            "--e=f",
            "-shared-libs=a.so,b.so",
            "-shared-libs",
            "c.so",
            "--trace=t.json",
        ]);
        assert_eq!(o.run.entry, "f");
        assert_eq!(o.run.shared_libs, ["a.so", "b.so", "c.so"]);
        assert_eq!(o.trace.as_deref(), Some("t.json"));
        // Defaults: main, f32, stdin.
        let o = parse(&[]);
        assert_eq!(
            (o.run.entry.as_str(), o.run.result.as_str()),
            ("main", "f32")
        );
        assert!(o.input.is_none());
    }

    #[test]
    fn bad_command_lines_are_errors() {
        let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(parse_args(&v(&["-bogus"])).is_err());
        assert!(parse_args(&v(&["-e"])).is_err());
        assert!(parse_args(&v(&["a.mlir", "b.mlir"])).is_err());
    }
}
