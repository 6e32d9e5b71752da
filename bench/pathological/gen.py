#!/usr/bin/env python3
"""Pathological MLIR inputs (LLVM 14 syntax, valid for mlir-opt-14/15):

  blockargs N   one function with N entry block arguments
  attrs N       one op with N attributes
  oneline N     a module of about N bytes on a single line
  constants N   one function with N distinct constants

Usage: gen.py KIND N > file.mlir
"""
import sys


def blockargs(n, w):
    w("func @f(")
    w(", ".join(f"%a{i}: i32" for i in range(n)))
    w(") {\n  return\n}\n")


def attrs(n, w):
    # Names out of order, so that sorting them is part of the work.
    w("func @f() attributes {")
    w(", ".join(f"a{(i * 7919) % n} = {i} : i32" for i in range(n)))
    w("} {\n  return\n}\n")


def oneline(n, w):
    # Functions of async code on one line; about 200 bytes each.
    body = ("func @f{i}(%a: i32) -> i32 {{ %t, %v = async.execute -> !async.value<i32> "
            "{{ %x = arith.addi %a, %a : i32 async.yield %x : i32 }} "
            "%r = async.await %v : !async.value<i32> return %r : i32 }} ")
    size = 0
    i = 0
    while size < n:
        s = body.format(i=i)
        w(s)
        size += len(s)
        i += 1
    w("\n")


def constants(n, w):
    w("func @f() {\n")
    for i in range(n):
        w(f"  %c{i} = arith.constant {i} : i64\n")
    w("  return\n}\n")


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    out = sys.stdout
    buf = []
    size = 0

    def w(s):
        nonlocal size
        buf.append(s)
        size += len(s)
        if size > 1 << 20:
            out.write("".join(buf))
            buf.clear()
            size = 0

    {"blockargs": blockargs, "attrs": attrs, "oneline": oneline, "constants": constants}[kind](n, w)
    out.write("".join(buf))


if __name__ == "__main__":
    main()
