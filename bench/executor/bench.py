#!/usr/bin/env python3
"""mlir-async-run against mlir-cpu-runner-14 (-O3, upstream's runtime and
runner utilities), side by side on the same mlir-opt-14 lowering.

  bench/executor/bench.py [--run target/release/mlir-async-run] [--runs 3] [--only REGEX] [--toolchain]

With --toolchain the rows time the whole toolchain instead, from the source
file to exit: `mlir-async-opt <pipeline> | mlir-async-run` against
`mlir-opt-14 <pipeline> | mlir-cpu-runner-14 -O3` on upstream's runtime
(the same pass pipeline text for both), and the microbenchmarks are lowered
by each tool's own opt. Peak memory is then that of the larger process.

Rows: the task programs of <shared>/bench/programs (fan-out, chain, the fib
tree with eliminate-blocking-await-ops), a trivial program (start-up), and
the upstream compute microbenchmarks (their own printed kernel times).
Wall time and peak RSS are the whole process (parse, compile, run, exit).
Both runners read the same lowered module (mlir-opt-14's output; with
--generic ours reads its generic form). Prints a Markdown table and the load
average.
"""
import argparse, os, re, statistics, subprocess, tempfile, time

LLVM = "/usr/lib/llvm-14/lib"
LIBS = f"-shared-libs={LLVM}/libmlir_c_runner_utils.so,{LLVM}/libmlir_runner_utils.so,{LLVM}/libmlir_async_runtime.so"
PIPE = ("-async-runtime-ref-counting -async-runtime-ref-counting-opt -convert-async-to-llvm "
        "-convert-scf-to-std -convert-memref-to-llvm -convert-arith-to-llvm -convert-std-to-llvm "
        "-reconcile-unrealized-casts").split()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

ap = argparse.ArgumentParser()
ap.add_argument("--run", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "mlir-async-run"))
ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--only", default="")
ap.add_argument("--generic", action="store_true", help="feed mlir-async-run mlir-opt's generic form")
ap.add_argument("--toolchain", action="store_true", help="time source to exit: our opt + run against mlir-opt-14 + mlir-cpu-runner-14")
a = ap.parse_args()
tmp = tempfile.mkdtemp()


OPT = os.path.join(os.path.dirname(a.run), "mlir-async-opt")


def lower(src_text, name, a2ar, extra=()):
    base = os.path.join(tmp, name)
    open(base + ".mlir", "w").write(src_text)
    if a.toolchain:
        # The rows pipe the source through each toolchain themselves.
        return base + ".mlir", [*a2ar, *PIPE, *extra]
    subprocess.run(["mlir-opt-14", base + ".mlir", *a2ar, *PIPE, *extra, "-o", base + ".ll.mlir"], check=True)
    if not a.generic:
        return base + ".ll.mlir", base + ".ll.mlir"
    subprocess.run(["mlir-opt-14", base + ".ll.mlir", "--mlir-print-op-generic", "-o", base + ".gen.mlir"], check=True)
    return base + ".ll.mlir", base + ".gen.mlir"


def timed(cmd):
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    rss = int(p.stderr.strip().splitlines()[-1]) / 1024 if p.stderr.strip() else 0
    return p.returncode, wall, rss, p.stdout


def program(prog, n, w, eliminate):
    src = open(f"{a.shared}/bench/programs/{prog}.mlir.in").read().replace("@N@", str(n)).replace("@W@", str(w))
    a2ar = ["-async-to-async-runtime=eliminate-blocking-await-ops=true" if eliminate else "-async-to-async-runtime"]
    return lower(src, f"{prog}-{n}-{w}", a2ar)


TRIVIAL = """func @main() {
  %c = arith.constant 42 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
func private @printI64(i64)
func private @printNewline()
"""

def toolchain(opt, src, passes, runner):
    """One shell pipeline, source file to exit; a failing stage fails it."""
    q = lambda xs: " ".join("'" + x + "'" for x in xs)
    return ["bash", "-o", "pipefail", "-c", f"{q([opt, src, *passes])} | {q(runner)}"]


rows = [
    ("fan-out into a group", "fanout", 10**5, 100, False),
    ("fan-out into a group", "fanout", 10**6, 100, False),
    ("chain of dependent tasks", "chain", 10**5, 0, False),
    ("chain of dependent tasks", "chain", 10**6, 0, False),
    ("fib tree, eliminate-blocking-await-ops", "fib", 25, 0, True),
    ("trivial program (start-up)", "trivial", 1, 0, False),
]
if a.toolchain:
    print("| program | N | mlir-opt-14 + mlir-cpu-runner-14 s | mlir-async-opt + mlir-async-run s | speed-up | upstream MiB | ours MiB | same output |")
else:
    print("| program | N | mlir-cpu-runner-14 s | mlir-async-run s | speed-up | upstream MiB | ours MiB | same output |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
print(f"load average before: {os.getloadavg()}", file=open(os.devnull, "w"))
load0 = os.getloadavg()
for label, prog, n, w, elim in rows:
    if a.only and not re.search(a.only, f"{label} {n}"):
        continue
    if prog == "trivial":
        ll, gen = lower(TRIVIAL, "trivial", ["-async-to-async-runtime"])
    else:
        ll, gen = program(prog, n, w, elim)
    run_args = ["-e", "main", "-entry-point-result=void", "-O3"]
    if a.toolchain:
        src, passes = ll, gen
        up_cmd = toolchain("mlir-opt-14", src, passes, ["mlir-cpu-runner-14", *run_args, LIBS])
        our_cmd = toolchain(OPT, src, passes, [a.run, *run_args])
    else:
        up_cmd = ["mlir-cpu-runner-14", ll, *run_args, LIBS]
        our_cmd = [a.run, gen, *run_args]
    up, ours = [], []
    outs = set()
    for _ in range(a.runs):
        rc, wall, rss, out = timed(up_cmd)
        up.append((wall, rss, rc)); outs.add(("up", out))
        rc, wall, rss, out = timed(our_cmd)
        ours.append((wall, rss, rc)); outs.add(("ours", out))
    uw = statistics.median(x[0] for x in up); ow = statistics.median(x[0] for x in ours)
    um = max(x[1] for x in up); om = max(x[1] for x in ours)
    same = len({o for _, o in outs}) == 1 and all(x[2] == 0 for x in up + ours)
    print(f"| {label} | {n} | {uw:.3f} | {ow:.3f} | {uw / ow:.2f}x | {um:.0f} | {om:.0f} | {'yes' if same else 'NO'} |", flush=True)

# Compute microbenchmarks: the kernel time each prints (median of runs).
micro = [("microbench-scf-async-parallel-for", ["-async-parallel-for"]),
         ("microbench-linalg-async-parallel-for", ["-convert-linalg-to-parallel-loops", "-async-parallel-for"])]
print()
print("| microbenchmark (kernel time it prints) | LLVM -O3 s | ours -O3 s | ours / LLVM speed |")
print("|---|---:|---:|---:|")
for name, pre in micro:
    if a.only and not re.search(a.only, name):
        continue
    src = open(f"{a.shared}/upstream-tests/llvm14/mlir/test/Integration/Dialect/Async/CPU/{name}.mlir").read()
    base = os.path.join(tmp, name)
    open(base + ".mlir", "w").write(src)
    passes = [*pre, "-async-to-async-runtime", *PIPE[:3], "-convert-linalg-to-loops",
              "-convert-scf-to-std", "-arith-expand", "-memref-expand", "-convert-vector-to-llvm",
              "-convert-memref-to-llvm", "-convert-std-to-llvm", "-reconcile-unrealized-casts"]
    subprocess.run(["mlir-opt-14", base + ".mlir", *passes, "-o", base + ".ll.mlir"], check=True)
    ours_in = base + ".ll.mlir"
    if a.toolchain:
        ours_in = base + ".ours.ll.mlir"
        subprocess.run([OPT, base + ".mlir", *passes, "-o", ours_in], check=True)
    ut, ot = [], []
    for _ in range(a.runs):
        out = subprocess.run(["mlir-cpu-runner-14", base + ".ll.mlir", "-e", "entry", "-entry-point-result=void", "-O3", LIBS],
                             capture_output=True, text=True).stdout
        ut.append(float(out.strip().splitlines()[-1]))
        out = subprocess.run([a.run, ours_in, "-e", "entry", "-entry-point-result=void", "-O3"],
                             capture_output=True, text=True).stdout
        ot.append(float(out.strip().splitlines()[-1]))
    u, o = statistics.median(ut), statistics.median(ot)
    print(f"| {name} | {u:.4f} | {o:.4f} | {u / o:.2f}x |", flush=True)
print(f"\nload average (1, 5, 15 min): before {load0}, after {os.getloadavg()}; {os.cpu_count()} CPUs; {a.runs} runs per row, medians")
