#!/usr/bin/env python3
"""Runs the upstream runner tests (mlir-cpu-runner/async*.mlir and
Integration/Dialect/Async/CPU/*.mlir of LLVM 13, 14 and 15) with
mlir-async-run in place of mlir-cpu-runner, on upstream's lowering: each
RUN line's mlir-opt pipeline is run by that generation's upstream
mlir-opt-N, the result (custom form, or generic form with --generic) by
mlir-async-run with the RUN line's options, the output checked by
mlir-async-filecheck against the test. (The conformance run with
mlir-async-lit runs the same tests on mlir-async-opt's own lowering; this
one checks that mlir-async-run takes what upstream's tools produce.)

    scripts/run-upstream-runner-tests.py [--bin DIR] [--shared DIR] [--generic] [-v] [FILTER]

Prints one line per RUN line and ends with 'N passed, M failed'.
"""
import argparse, glob, os, shlex, subprocess, sys, time

ap = argparse.ArgumentParser()
ap.add_argument('--bin', default=os.path.join(os.environ.get('CARGO_TARGET_DIR', 'target'), 'release'))
ap.add_argument('--shared', default=os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'upstream-tests'))
ap.add_argument('-v', action='store_true')
ap.add_argument('--generic', action='store_true', help="feed mlir-async-run mlir-opt's generic form")
ap.add_argument('filter', nargs='?', default='')
a = ap.parse_args()
run_bin = os.path.join(a.bin, 'mlir-async-run')
GENERIC = ['--mlir-print-op-generic'] if a.generic else []
fc_bin = os.path.join(a.bin, 'mlir-async-filecheck')

def run_lines(path):
    script = ''
    for l in open(path):
        if '// RUN:' not in l:
            continue
        s = l.split('// RUN:', 1)[1].rstrip('\n')
        script += s.rstrip()[:-1] + ' ' if s.rstrip().endswith('\\') else s + '\n'
    return [c for c in script.split('\n') if c.strip()]

passed = failed = 0
for gen in ['13', '14', '15']:
    base = os.path.join(a.shared, f'llvm{gen}', 'mlir', 'test')
    files = sorted(glob.glob(base + '/mlir-cpu-runner/async*.mlir') +
                   glob.glob(base + '/Integration/Dialect/Async/CPU/*.mlir'))
    for f in files:
        name = f'llvm{gen}/' + os.path.relpath(f, base)
        if a.filter not in name:
            continue
        for k, cmd in enumerate(run_lines(f)):
            stages = [s.strip() for s in cmd.split('|')]
            opt = shlex.split(stages[0].replace("%s", f))
            opt[0] = f'mlir-opt-{gen}'
            runner = shlex.split(stages[1])
            runner = [x for x in runner if not x.startswith('-shared-libs=%')]
            lowered = subprocess.run(opt + GENERIC, capture_output=True, text=True)
            t = time.time()
            try:
                r = subprocess.run([run_bin] + runner[1:], input=lowered.stdout,
                                   capture_output=True, text=True, timeout=300)
                out, err, rc = r.stdout, r.stderr, r.returncode
            except subprocess.TimeoutExpired:
                out, err, rc = '', 'timeout', -1
            dt = time.time() - t
            fc = subprocess.run([fc_bin, f], input=out, capture_output=True, text=True)
            ok = lowered.returncode == 0 and rc == 0 and fc.returncode == 0
            passed += ok
            failed += not ok
            print(f"{'PASS' if ok else 'FAIL'} {dt:6.2f}s {name} (RUN {k})")
            if not ok and a.v:
                print(lowered.stderr[-2000:], err[-2000:], fc.stderr[-2000:], sep='\n')
print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
