#!/usr/bin/env python3
"""Side-by-side benchmark: our libmlir_async_runtime.so vs LLVM 14's.

Both libraries run the same mlir-opt-14 lowering of the programs in
<shared>/bench/programs (see <shared>/bench/README.md) under the same
mlir-cpu-runner-14, alternating runs, in one invocation, so the ratios are
meaningful on a noisy shared machine. Prints a Markdown table.

  bench/runtime/bench.py [--ours target/release/libmlir_async_runtime.so]
                         [--baseline lib.so] [--runs 3] [--quick] [--timeout 10]
                         [--only REGEX]

--baseline puts another library (e.g. an earlier build of ours) in the
"upstream" columns, to compare two builds the same way.

--only keeps the rows whose "label N" matches REGEX (e.g. 'fanout|chain W=0').
The load average before and after is printed below the table.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

LLVM = "/usr/lib/llvm-14/lib"
UPSTREAM = f"{LLVM}/libmlir_async_runtime.so"
PIPE = ("-async-runtime-ref-counting -async-runtime-ref-counting-opt -convert-async-to-llvm "
        "-convert-scf-to-std -convert-memref-to-llvm -convert-arith-to-llvm -convert-std-to-llvm "
        "-reconcile-unrealized-casts").split()


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def fanout_expect(n, w):
    v = (w * (w - 1) // 2) * (n * (n - 1) // 2) % (1 << 64)
    return v - (1 << 64) if v >= 1 << 63 else v


def lower(shared, prog, n, w, eliminate, tmp):
    src = open(f"{shared}/bench/programs/{prog}.mlir.in").read()
    src = src.replace("@N@", str(n)).replace("@W@", str(w))
    base = f"{tmp}/{prog}-{n}-{w}-{int(eliminate)}"
    open(base + ".mlir", "w").write(src)
    a2ar = "-async-to-async-runtime=eliminate-blocking-await-ops=true" if eliminate else "-async-to-async-runtime"
    subprocess.run(["mlir-opt-14", base + ".mlir", a2ar, *PIPE, "-o", base + ".ll.mlir"], check=True)
    return base + ".ll.mlir"


def run(ll, lib, threads, timeout):
    env = dict(os.environ, MLIR_ASYNC_RUNTIME_LEAK_REPORT="1")
    if threads:
        env["MLIR_ASYNC_RUNTIME_NUM_THREADS"] = str(threads)
    cmd = ["mlir-cpu-runner-14", ll, "-e", "main", "-entry-point-result=void", "-O3",
           f"-shared-libs={LLVM}/libmlir_c_runner_utils.so,{LLVM}/libmlir_runner_utils.so,{lib}"]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
        status = "ok" if p.returncode == 0 else f"rc={p.returncode}"
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        status = "HANG"
    wall = time.monotonic() - t0
    _, _, ru = os.wait4(p.pid, os.WNOHANG) if False else (0, 0, None)
    return status, wall, out.decode(), err.decode()


def peak_rss_run(ll, lib, threads, timeout):
    """Runs under /usr/bin/time-like accounting: returns (status, wall, rss MiB, out, err)."""
    env = dict(os.environ, MLIR_ASYNC_RUNTIME_LEAK_REPORT="1")
    if threads:
        env["MLIR_ASYNC_RUNTIME_NUM_THREADS"] = str(threads)
    cmd = ["mlir-cpu-runner-14", ll, "-e", "main", "-entry-point-result=void", "-O3",
           f"-shared-libs={LLVM}/libmlir_c_runner_utils.so,{LLVM}/libmlir_runner_utils.so,{lib}"]
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, env=env)
        deadline = t0 + timeout
        status = None
        while True:
            pid, st, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                wall = time.monotonic() - t0
                code = os.waitstatus_to_exitcode(st)
                status = "ok" if code == 0 else f"rc={code}"
                rss = ru.ru_maxrss / 1024
                break
            if time.monotonic() > deadline:
                p.kill()
                _, _, ru = os.wait4(p.pid, 0)
                wall = time.monotonic() - t0
                status, rss = "HANG", ru.ru_maxrss / 1024
                break
            time.sleep(0.002)
        p.returncode = 0
        fo.seek(0)
        fe.seek(0)
        return status, wall, rss, fo.read().decode(), fe.read().decode()


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--ours", default=os.path.join(here, "../../target/release/libmlir_async_runtime.so"))
    ap.add_argument("--shared", default="/work/shared")
    ap.add_argument("--baseline", default=UPSTREAM,
                    help="library in the 'upstream' columns (e.g. an earlier build of ours); "
                         "it gets the same thread count as --ours unless it is upstream's")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    ap.add_argument("--only", help="keep rows whose 'label N' matches this regex")
    a = ap.parse_args()
    ours = os.path.abspath(a.ours)

    # (label, program, N, W, eliminate, threads, expected output)
    cfgs = [
        ("fanout W=100", "fanout", 10**5, 100, False, None, fanout_expect(10**5, 100)),
        ("fanout W=100", "fanout", 10**6, 100, False, None, fanout_expect(10**6, 100)),
        ("chain W=0", "chain", 10**5, 0, False, None, 10**5 * (10**5 - 1) // 2),
        ("chain W=0", "chain", 10**6, 0, False, None, 10**6 * (10**6 - 1) // 2),
        ("chain slow head W=3e8", "chain", 10**5, 300000000, False, None, 10**5 * (10**5 - 1) // 2),
        ("fib eliminate", "fib", 25, 0, True, None, fib(25)),
        ("fib eliminate", "fib", 27, 0, True, None, fib(27)),
        ("fib blocking, 2 workers", "fib", 4, 0, False, 2, fib(4)),
        ("fib blocking, 2 workers", "fib", 20, 0, False, 2, fib(20)),
        ("fib blocking, 1 worker", "fib", 20, 0, False, 1, fib(20)),
    ]
    if a.quick:
        cfgs = [c for c in cfgs if c[2] <= 10**5 and not (c[1] == "fib" and c[2] > 20)]
    if a.only:
        cfgs = [c for c in cfgs if re.search(a.only, f"{c[0]} {c[2]}")]
    load_before = os.getloadavg()

    print("| program | N | upstream wall s | ours wall s | speed-up | upstream RSS MiB | ours RSS MiB | "
          "upstream result | ours result | ours leak report |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, prog, n, w, elim, threads, expect in cfgs:
            ll = lower(a.shared, prog, n, w, elim, tmp)
            res = {"up": [], "ours": []}
            for _ in range(a.runs):
                for key, lib in (("up", a.baseline), ("ours", ours)):
                    # Upstream has no thread-count knob; its pool is one per core.
                    knob = key == "ours" or a.baseline != UPSTREAM
                    st, wall, rss, out, err = peak_rss_run(ll, lib, threads if knob else None, a.timeout)
                    ok = st == "ok" and out.strip() == str(expect)
                    res[key].append((st if st != "ok" else ("ok" if ok else "WRONG"), wall, rss, err))
                # A hang repeats: do not spend the timeout again.
                if any(r[0] == "HANG" for r in res["up"]) and a.runs > 1 and len(res["up"]) == 1:
                    pass

            def summary(rs):
                oks = [r for r in rs if r[0] == "ok"]
                wall = statistics.median([r[1] for r in oks]) if oks else None
                rss = statistics.median([r[2] for r in rs])
                stat = f"ok {len(oks)}/{len(rs)}" if len(oks) == len(rs) else \
                    f"{'/'.join(sorted(set(r[0] for r in rs if r[0] != 'ok')))} {len(rs) - len(oks)}/{len(rs)}"
                return wall, rss, stat

            uw, ur, us = summary(res["up"])
            ow, orr, os_ = summary(res["ours"])
            speed = f"{uw / ow:.2f}x" if uw and ow else "–"
            leak = "–"
            m = re.search(r"leak report: (.*)", res["ours"][-1][3])
            if m:
                leak = m.group(1)
            f = lambda x: f"{x:.3f}" if x is not None else "–"
            print(f"| {label} | {n} | {f(uw)} | {f(ow)} | {speed} | {ur:.0f} | {orr:.0f} | {us} | {os_} | {leak} |")
            sys.stdout.flush()
    la = lambda t: ", ".join(f"{x:.2f}" for x in t)
    print(f"\nload average (1, 5, 15 min): before {la(load_before)}; after {la(os.getloadavg())}; "
          f"{os.cpu_count()} CPUs; {a.runs} runs per row")


if __name__ == "__main__":
    main()
