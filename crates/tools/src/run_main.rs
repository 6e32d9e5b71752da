//! `mlir-async-run`: `mlir-cpu-runner`'s command line over our parser and
//! our executor (`mlir-async-executor`): no LLVM anywhere.

use crate::stdio;
use mlir_async_dialects::Registry;
use mlir_async_executor::{codegen::OptLevel, engine, frontend, EntryResult, RunOptions};
use mlir_async_ir::Context;
use mlir_async_syntax::{parse_source_bytes, Diagnostic};
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
            let _ = stdio::write_stdout(text.as_bytes());
            return 0;
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
            if let Some(v) = out {
                let _ = stdio::write_stdout(format!("{v}\n").as_bytes());
            }
            0
        }
        Err(e) => {
            mlir_async_executor::runner_utils::flush_stdout();
            stdio::eprint(format!("{}\n", e.render(&module)));
            1
        }
    }
}

fn report(diags: &[Diagnostic], text: &str) {
    for d in diags {
        stdio::eprint(d.render(Some(text)));
    }
}
