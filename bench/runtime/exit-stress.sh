#!/usr/bin/env bash
# Repeats the programs that used to crash at exit (SIGSEGV when `main`
# returned while a worker still ran JIT code) and the 8 runner tests.
#   bench/runtime/exit-stress.sh [path/to/libmlir_async_runtime.so] [runs]
# Prints ok/bad counts per program and the number of all-pass runner rounds.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
lib=$(readlink -f "${1:-$here/target/release/libmlir_async_runtime.so}")
runs=${2:-30}
shared=${SHARED_DIR:-/work/shared}
L=/usr/lib/llvm-14/lib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pipe="-async-runtime-ref-counting -async-runtime-ref-counting-opt -convert-async-to-llvm -convert-scf-to-std -convert-memref-to-llvm -convert-arith-to-llvm -convert-std-to-llvm -reconcile-unrealized-casts"
lower() { # prog N W a2ar-option out
  sed -e "s/@N@/$2/" -e "s/@W@/$3/" "$shared/bench/programs/$1.mlir.in" > "$tmp/src.mlir"
  mlir-opt-14 "$tmp/src.mlir" "$4" $pipe -o "$5"
}
lower fib 25 0 -async-to-async-runtime=eliminate-blocking-await-ops=true "$tmp/fib.mlir"
lower chain 100000 0 -async-to-async-runtime "$tmp/chain.mlir"
stress() { # name file expected
  local ok=0 bad=0 out rc
  for _ in $(seq "$runs"); do
    out=$(mlir-cpu-runner-14 "$2" -e main -entry-point-result=void -O3 \
      -shared-libs=$L/libmlir_c_runner_utils.so,$L/libmlir_runner_utils.so,"$lib" 2>/dev/null)
    rc=$?
    if [ $rc = 0 ] && [ "$out" = "$3" ]; then ok=$((ok + 1)); else bad=$((bad + 1)); echo "  $1: rc=$rc out=$out"; fi
  done
  echo "$1: ok=$ok bad=$bad"
}
stress "fib eliminate 25" "$tmp/fib.mlir" 75025
stress "chain 1e5" "$tmp/chain.mlir" 4999950000
pass=0 fail=0
for _ in $(seq "$runs"); do
  r=$("$here/bench/runtime/run-upstream-tests.sh" "$lib" 2>&1 | tail -1)
  if [ "$r" = "8 passed, 0 failed" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  runner tests: $r"; fi
done
echo "runner tests: $pass rounds 8/8, $fail rounds with failures"
