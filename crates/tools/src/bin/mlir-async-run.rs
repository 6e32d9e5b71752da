//! `mlir-async-run`: mlir-cpu-runner's command line, with no LLVM.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Parsing recurses per level of nesting: on a deep stack.
    let code = mlir_async_ir::parallel::with_deep_stack(|| {
        mlir_async_tools::run_main::main_with_args(&args)
    });
    // `exit` flushes C stdio (where the program's output is) and runs the
    // runtime's exit hook.
    std::process::exit(code);
}
