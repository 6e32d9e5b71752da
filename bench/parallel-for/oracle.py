#!/usr/bin/env python3
"""Execution oracle for -async-parallel-for: generated programs with an
`entry` function print the same with the pass as without it (where
mlir-opt-14 lowers the parallel loop to a sequential one).

Each program fills a buffer of 1 to 4 dimensions in an `scf.parallel`
(bounds constant or passed as arguments, steps 1 to 3) whose body writes
only its own element, from the induction variables, an `scf.for` with a
carried value and an `scf.if` (no races: the result does not depend on
the order of iterations), then prints the buffer. With the pass,
`mlir-async-opt` runs `-async-parallel-for=<options> -async-to-async-runtime`
and mlir-opt-14 the rest of the pipeline; mlir-cpu-runner-14 runs both on
our runtime. The options cycle through every combination.

Usage: bench/parallel-for/oracle.py MLIR_ASYNC_OPT LIBMLIR_ASYNC_RUNTIME [N] [SEED]
Prints one line per failing program and a summary; exit 1 on a mismatch.
"""
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-14/lib"


def program(rng):
    dims = rng.randint(1, 4)
    lbs = [rng.randint(0, 2) for _ in range(dims)]
    ubs = [lb + rng.randint(0, 6 if dims > 2 else 13) for lb in lbs]
    steps = [rng.randint(1, 3) for _ in range(dims)]
    dynamic = [rng.random() < 0.5 for _ in range(3 * dims)]
    shape = "x".join("?" for _ in range(dims))
    mt = f"memref<{shape}xf32>"
    args = []
    lines = []
    bound_names = {}
    for kind, vals in (("lb", lbs), ("ub", ubs), ("st", steps)):
        for d, v in enumerate(vals):
            name = f"%{kind}{d}"
            if dynamic[("lb", "ub", "st").index(kind) * dims + d]:
                args.append(f"{name}: index")
            else:
                lines.append(f"  {name} = arith.constant {v} : index")
            bound_names[(kind, d)] = name
    ivs = [f"%i{d}" for d in range(dims)]
    body = []
    body.append("    %c0b = arith.constant 0 : index")
    body.append("    %c1b = arith.constant 1 : index")
    body.append("    %c3b = arith.constant 3 : index")
    body.append("    %z = arith.constant 0.0 : f32")
    body.append("    %acc0 = arith.constant 0.0 : f32")
    acc = "%acc0"
    for d, iv in enumerate(ivs):
        body.append(f"    %n{d} = arith.index_cast {iv} : index to i32")
        body.append(f"    %f{d} = arith.sitofp %n{d} : i32 to f32")
        body.append(f"    %w{d} = arith.constant {rng.randint(1, 9)}.0 : f32")
        body.append(f"    %p{d} = arith.mulf %f{d}, %w{d} : f32")
        body.append(f"    %acc{d + 1} = arith.addf {acc}, %p{d} : f32")
        acc = f"%acc{d + 1}"
    body.append(f"    %sum = scf.for %k = %c0b to %c3b step %c1b iter_args(%s = {acc}) -> (f32) {{")
    body.append("      %kn = arith.index_cast %k : index to i32")
    body.append("      %kf = arith.sitofp %kn : i32 to f32")
    body.append("      %s2 = arith.addf %s, %kf : f32")
    body.append("      scf.yield %s2 : f32")
    body.append("    }")
    body.append(f"    %odd = arith.cmpi ult, {ivs[0]}, %c3b : index")
    body.append("    %v = scf.if %odd -> (f32) {")
    body.append("      %neg = arith.subf %z, %sum : f32")
    body.append("      scf.yield %neg : f32")
    body.append("    } else {")
    body.append("      scf.yield %sum : f32")
    body.append("    }")
    body.append(f"    memref.store %v, %A[{', '.join(ivs)}] : {mt}")
    lb_list = ", ".join(bound_names[("lb", d)] for d in range(dims))
    ub_list = ", ".join(bound_names[("ub", d)] for d in range(dims))
    st_list = ", ".join(bound_names[("st", d)] for d in range(dims))
    kernel = [f"func @kernel(%A: {mt}{''.join(', ' + a for a in args)}) {{"]
    kernel += lines
    kernel.append(f"  scf.parallel ({', '.join(ivs)}) = ({lb_list}) to ({ub_list}) step ({st_list}) {{")
    kernel += body
    kernel.append("  }")
    kernel.append("  return")
    kernel.append("}")
    # entry: allocate (extent ub + 1 in each dimension), zero, run, print.
    entry = ["func @entry() {"]
    entry.append("  %c0 = arith.constant 0 : index")
    entry.append("  %c1 = arith.constant 1 : index")
    entry.append("  %zero = arith.constant 0.0 : f32")
    sizes = []
    for d in range(dims):
        entry.append(f"  %e{d} = arith.constant {ubs[d] + 1} : index")
        sizes.append(f"%e{d}")
    entry.append(f"  %A = memref.alloc({', '.join(sizes)}) : {mt}")
    zs = [f"%z{d}" for d in range(dims)]
    entry.append(f"  scf.parallel ({', '.join(zs)}) = ({', '.join(['%c0'] * dims)}) to ({', '.join(sizes)}) step ({', '.join(['%c1'] * dims)}) {{")
    entry.append(f"    memref.store %zero, %A[{', '.join(zs)}] : {mt}")
    entry.append("  }")
    call_args = ["%A"]
    for a in args:
        name = a.split(":")[0][1:]
        kind, d = name[:2], int(name[2:])
        v = {"lb": lbs, "ub": ubs, "st": steps}[kind][d]
        entry.append(f"  %a_{name} = arith.constant {v} : index")
        call_args.append(f"%a_{name}")
    types = ", ".join([mt] + ["index"] * len(args))
    entry.append(f"  call @kernel({', '.join(call_args)}) : ({types}) -> ()")
    entry.append(f"  %U = memref.cast %A : {mt} to memref<*xf32>")
    entry.append("  call @print_memref_f32(%U) : (memref<*xf32>) -> ()")
    entry.append(f"  memref.dealloc %A : {mt}")
    entry.append("  return")
    entry.append("}")
    decl = "func private @print_memref_f32(memref<*xf32>) attributes { llvm.emit_c_interface }"
    return "\n".join(kernel + entry + [decl]) + "\n"


LOWER = ["-async-runtime-ref-counting", "-async-runtime-ref-counting-opt",
         "-convert-async-to-llvm", "-convert-scf-to-std", "-convert-memref-to-llvm",
         "-arith-expand", "-memref-expand", "-convert-std-to-llvm",
         "-reconcile-unrealized-casts"]


def norm(out):
    """The printed buffer without its address, which differs run to run."""
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@", out)


def run(cmds, stdin_text):
    data = stdin_text.encode()
    for c in cmds:
        p = subprocess.run(c, input=data, capture_output=True, timeout=300)
        if p.returncode != 0:
            return None, p.stderr.decode(errors="replace")
        data = p.stdout
    return data.decode(errors="replace"), ""


def main():
    ours, runtime = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 72
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 42
    rng = random.Random(seed)
    options = [f"async-dispatch={d} num-workers={w} min-task-size={m}"
               for d, w, m in itertools.product(["true", "false"], [-1, 1, 4, 8], [1, 4, 1000])]
    runner = ["mlir-cpu-runner-14", "-e", "entry", "-entry-point-result=void", "-O0",
              f"-shared-libs={LLVM}/libmlir_runner_utils.so",
              f"-shared-libs={LLVM}/libmlir_c_runner_utils.so",
              f"-shared-libs={os.path.abspath(runtime)}"]
    same = 0
    bad = []
    tmp = tempfile.mkdtemp()
    for i in range(n):
        text = program(rng)
        opt = options[i % len(options)]
        path = os.path.join(tmp, f"p{i}.mlir")
        with open(path, "w") as f:
            f.write(text)
        seq, err = run([["mlir-opt-14", "-", "-convert-scf-to-std", "-convert-memref-to-llvm",
                         "-convert-std-to-llvm", "-reconcile-unrealized-casts"], runner], text)
        if seq is None:
            bad.append(f"{path}: sequential pipeline failed: {err.strip()[:300]}")
            continue
        par, err = run([[ours, "-", f"-async-parallel-for={opt}", "-async-to-async-runtime"],
                        ["mlir-opt-14", "-"] + LOWER, runner], text)
        if par is None:
            bad.append(f"{path} [{opt}]: parallel pipeline failed: {err.strip()[:300]}")
        elif norm(par) != norm(seq):
            bad.append(f"{path} [{opt}]: output differs")
        else:
            same += 1
    for b in bad:
        print(b)
    print(f"{same} of {n} programs print the same with -async-parallel-for as without "
          f"({len(options)} option sets in turn)")
    sys.exit(1 if bad else 0)


main()
