#!/usr/bin/env python3
"""Modules of N parallel loops for bench/parallel-for/run.sh.

Each function holds one `scf.parallel` (1-d with dynamic bounds, 2-d with a
static inner trip count, or 3-d with a nested `scf.for`), a load, an add
and a store, in the syntax of LLVM 14 (`--syntax 15` for 15). With
`--mulf K`, every function is the 2-d loop with a chain of K `arith.mulf`
between its load and store (the shape of issue #13's measurement:
`--mulf 400`, "b125.mlir" at 125 loops). Deterministic.
"""
import argparse


def func(i, syntax):
    f = "func.func" if syntax == 15 else "func"
    shape = i % 3
    if shape == 0:
        return f"""{f} @f{i}(%m: memref<?xf32>, %lb: index, %ub: index, %st: index) {{
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%lb) to (%ub) step (%st) {{
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %m[%i] : memref<?xf32>
  }}
  return
}}
"""
    if shape == 1:
        return f"""{f} @f{i}(%m: memref<?x16xf32>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) {{
    %v = memref.load %m[%i, %j] : memref<?x16xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %m[%i, %j] : memref<?x16xf32>
  }}
  return
}}
"""
    return f"""{f} @f{i}(%m: memref<?x?x4xf32>, %a: index, %b: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%a, %b, %c4) step (%c1, %c2, %c1) {{
    scf.for %t = %c0 to %c4 step %c1 {{
      %v = memref.load %m[%i, %j, %t] : memref<?x?x4xf32>
      memref.store %v, %m[%i, %j, %k] : memref<?x?x4xf32>
    }}
  }}
  return
}}
"""


def heavy(i, syntax, k):
    f = "func.func" if syntax == 15 else "func"
    body = "".join(
        f"    %v{j} = arith.mulf %v{j - 1}, %two : f32\n" for j in range(1, k + 1)
    )
    return f"""{f} @f{i}(%m: memref<?x16xf32>, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c16) step (%c1, %c1) {{
    %v0 = memref.load %m[%i, %j] : memref<?x16xf32>
{body}    memref.store %v{k}, %m[%i, %j] : memref<?x16xf32>
  }}
  return
}}
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--loops", type=int, required=True)
    p.add_argument("--syntax", type=int, default=14)
    p.add_argument("--mulf", type=int, default=0,
                   help="every loop 2-d with a chain of this many arith.mulf")
    p.add_argument("-o", required=True)
    a = p.parse_args()
    with open(a.o, "w") as out:
        for i in range(a.loops):
            if a.mulf > 0:
                out.write(heavy(i, a.syntax, a.mulf))
            else:
                out.write(func(i, a.syntax))


main()
