//! `mlir-async-opt`: mlir-opt's command line for the async toolchain.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Parse, verify, passes and print recurse per level of nesting: on a
    // thread whose stack holds the deepest input the parser accepts.
    let code = mlir_async_ir::parallel::with_deep_stack(|| {
        mlir_async_tools::opt_main::main_with_args(&args)
    });
    std::process::exit(code);
}
