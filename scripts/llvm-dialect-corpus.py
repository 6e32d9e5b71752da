#!/usr/bin/env python3
"""Builds the LLVM-dialect corpus and round-trips it through mlir-async-opt.

For each generation N in 13, 14, 15 whose `mlir-opt-N` is installed: every
RUN pipeline of the runner tests (mlir-cpu-runner/async*.mlir), the async
integration tests (Integration/Dialect/Async/CPU) and the AsyncToLLVM
conversion tests is run with `mlir-opt-N` up to its first pipe; the output,
in the LLVM dialect, and the AsyncToLLVM test files themselves are the
corpus. Each corpus file is then printed by `mlir-opt-N` and by ours with
`--mlir-edition=N` (text in the LLVM dialect alone rarely betrays which
generation printed it), in custom and in generic form, and upstream's
generic form of it is read back and printed in custom form: the texts must
be identical.

Usage: scripts/llvm-dialect-corpus.py [--ours PATH] [--corpus DIR] [--out DIR] [-v]
Prints one line per difference and a summary line
`identical: I, different: D, upstream-rejected: R` (exit 1 when D > 0).
"""
import argparse, os, re, shlex, subprocess, sys, shutil

ap = argparse.ArgumentParser()
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap.add_argument("--ours", default=os.path.join(root, "target/release/mlir-async-opt"))
ap.add_argument("--corpus", default=os.environ.get("CORPUS", os.path.join(root, "../shared/upstream-tests")))
ap.add_argument("--out", default="/tmp/llvm-dialect-corpus")
ap.add_argument("--gens", default="13,14,15")
ap.add_argument("-v", action="store_true", help="print the first differing lines")
ap.add_argument("--infer-edition", action="store_true",
                help="let ours infer the generation from the text (LLVM-dialect text rarely "
                     "says which generation printed it) instead of passing --mlir-edition")
args = ap.parse_args()

SOURCES = ["mlir/test/mlir-cpu-runner", "mlir/test/Integration/Dialect/Async/CPU",
           "mlir/test/Conversion/AsyncToLLVM"]


def run_lines(path):
    """The RUN commands of a lit test, continuation lines joined."""
    cmds, cur = [], None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.search(r"RUN:(.*)$", line)
        if not m:
            continue
        body = m.group(1).rstrip()
        cont = body.endswith("\\")
        if cont:
            body = body[:-1]
        cur = body if cur is None else cur + " " + body
        if not cont:
            cmds.append(cur)
            cur = None
    return cmds


def opt_args(cmd, path):
    """The arguments of the `mlir-opt %s ...` stage of a RUN command."""
    first = cmd.split("|")[0]
    words = shlex.split(first)
    if not words or words[0] != "mlir-opt":
        return None
    return [path if w == "%s" else w for w in words[1:]]


def inputs(gen):
    """(name, text) of each corpus file of generation `gen`."""
    up = f"mlir-opt-{gen}"
    out = []
    base = os.path.join(args.corpus, f"llvm{gen}")
    for src in SOURCES:
        d = os.path.join(base, src)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".mlir"):
                continue
            path = os.path.join(d, f)
            stem = f[:-5]
            if src.endswith("AsyncToLLVM"):
                out.append((f"{stem}.input", None, path))
            for i, cmd in enumerate(run_lines(path)):
                a = opt_args(cmd, path)
                if a is None:
                    continue
                # -print-ir-after-all goes to stderr; the stdout is the result.
                r = subprocess.run([up] + a, capture_output=True)
                if r.returncode != 0:
                    continue
                out.append((f"{stem}.run{i}", r.stdout, None))
    return out


same = diff = rejected = 0
for gen in args.gens.split(","):
    up = f"mlir-opt-{gen}"
    if not shutil.which(up):
        continue
    odir = os.path.join(args.out, f"llvm{gen}")
    os.makedirs(odir, exist_ok=True)
    for name, text, path in inputs(gen):
        if path is None:
            path = os.path.join(odir, name + ".mlir")
            with open(path, "wb") as fh:
                fh.write(text)
        # Upstream's generic form of the file, read back in custom form:
        # each generation's generic spellings must be read into ours.
        g = subprocess.run([up, path, "-split-input-file", "--mlir-print-op-generic"],
                           capture_output=True)
        gpath = os.path.join(odir, name + ".generic.mlir")
        with open(gpath, "wb") as fh:
            fh.write(g.stdout if g.returncode == 0 else b"")
        for mode, src in (("", path), (" (generic)", path), (" (from generic)", gpath)):
            generic = mode == " (generic)"
            flags = ["-split-input-file"] + (["--mlir-print-op-generic"] if generic else [])
            r = subprocess.run([up, src] + flags, capture_output=True)
            if r.returncode != 0:
                rejected += 1
                continue
            ed = [] if args.infer_edition else [f"--mlir-edition={gen}"]
            o = subprocess.run([args.ours, src] + flags + ed, capture_output=True)
            tag = f"llvm{gen} {name}{mode}"
            if o.returncode == 0 and o.stdout == r.stdout:
                same += 1
                continue
            diff += 1
            print(f"DIFF {tag}: {src}")
            if args.v:
                if o.returncode != 0:
                    print("   ours failed: " + o.stderr.decode(errors="replace").strip()[:400])
                else:
                    a = r.stdout.decode(errors="replace").splitlines()
                    b = o.stdout.decode(errors="replace").splitlines()
                    for x, y in zip(a + [""] * len(b), b + [""] * len(a)):
                        if x != y:
                            print(f"   upstream: {x.strip()[:300]}\n   ours:     {y.strip()[:300]}")
                            break
print(f"identical: {same}, different: {diff}, upstream-rejected: {rejected}")
sys.exit(1 if diff else 0)
