//! `mlir-async-filecheck`: LLVM FileCheck's command line over the
//! `mlir-async-filecheck` library.

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let env = std::env::var("FILECHECK_OPTS").ok();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = mlir_async_filecheck::run(
        &args,
        env.as_deref(),
        &mut std::io::stdin().lock(),
        &mut out,
        &mut err,
    );
    let _ = std::io::stdout().write_all(&out);
    let _ = std::io::stderr().write_all(&err);
    std::process::exit(code);
}
