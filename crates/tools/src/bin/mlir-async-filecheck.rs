//! `mlir-async-filecheck`: LLVM FileCheck's command line over the
//! `mlir-async-filecheck` library.

use mlir_async_tools::stdio;

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let env = std::env::var("FILECHECK_OPTS").ok();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut code = mlir_async_filecheck::run(
        &args,
        env.as_deref(),
        &mut std::io::stdin().lock(),
        &mut out,
        &mut err,
    );
    stdio::eprint(&err);
    // A failed write is the tool's failure (2), not a check's (1).
    if let Err(e) = stdio::write_stdout(&out) {
        code = stdio::write_failed("FileCheck", &e, 2);
    }
    std::process::exit(code);
}
