//! `mlir-async-opt`: mlir-opt's command line for the async toolchain.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(mlir_async_tools::opt_main::main_with_args(&args));
}
