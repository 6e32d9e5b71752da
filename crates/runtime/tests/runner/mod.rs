//! Running lowered programs with `mlir-opt-14` and `mlir-cpu-runner-14` on
//! this crate's `libmlir_async_runtime.so` (shared by the runner tests).

// Each runner test binary uses a part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

const LLVM_LIB: &str = "/usr/lib/llvm-14/lib";

/// The lowering of `bench/runtime` and the runner tests.
pub const PIPELINE: &[&str] = &[
    "-async-to-async-runtime",
    "-async-runtime-ref-counting",
    "-async-runtime-ref-counting-opt",
    "-convert-async-to-llvm",
    "-convert-scf-to-std",
    "-convert-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-std-to-llvm",
    "-reconcile-unrealized-casts",
];

/// Whether the LLVM 14 tools are installed; prints why a test is skipped
/// when they are not.
pub fn tools_present() -> bool {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let present = ok("mlir-opt-14")
        && ok("mlir-cpu-runner-14")
        && Path::new(LLVM_LIB)
            .join("libmlir_c_runner_utils.so")
            .exists();
    if !present {
        eprintln!(
            "skipped: mlir-opt-14 / mlir-cpu-runner-14 / LLVM 14 runner libraries not installed"
        );
    }
    present
}

/// The cdylib cargo built next to this test binary (`target/<profile>/`).
fn our_library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps, deps.parent().unwrap()] {
        let p = dir.join("libmlir_async_runtime.so");
        if p.exists() {
            return p;
        }
    }
    panic!(
        "libmlir_async_runtime.so not found next to {}",
        exe.display()
    );
}

/// A lowered program in a temporary file, removed on drop.
pub struct Lowered(pub PathBuf);

impl Drop for Lowered {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl Lowered {
    /// The lowered text.
    pub fn text(&self) -> String {
        std::fs::read_to_string(&self.0).unwrap()
    }

    /// Another lowered program with this text.
    pub fn with_text(&self, tag: &str, text: &str) -> Lowered {
        let p = self.0.with_extension(format!("{tag}.mlir"));
        std::fs::write(&p, text).unwrap();
        Lowered(p)
    }
}

/// Lowers `tests/programs/<program>` with `passes`.
pub fn lower(program: &str, passes: &[&str]) -> Lowered {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(program);
    let out = std::env::temp_dir().join(format!(
        "mlir-async-runtime-{}-{}-{program}.ll.mlir",
        std::process::id(),
        passes.len()
    ));
    let st = Command::new("mlir-opt-14")
        .arg(&src)
        .args(passes)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success(), "mlir-opt-14 failed on {program}");
    Lowered(out)
}

/// One run: exit code (`None` for a signal), stdout, stderr.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs a lowered program's `main` with `env` set.
pub fn run(lowered: &Lowered, env: &[(&str, &str)]) -> Run {
    let libs = format!(
        "{LLVM_LIB}/libmlir_c_runner_utils.so,{LLVM_LIB}/libmlir_runner_utils.so,{}",
        our_library().display()
    );
    let o = Command::new("mlir-cpu-runner-14")
        .arg(&lowered.0)
        .args(["-e", "main", "-entry-point-result=void", "-O3"])
        .arg(format!("-shared-libs={libs}"))
        .envs(env.iter().copied())
        .env_remove("MLIR_ASYNC_RUNTIME_LEAK_REPORT")
        .output()
        .unwrap();
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into(),
        stderr: String::from_utf8_lossy(&o.stderr).into(),
    }
}
