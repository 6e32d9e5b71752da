#!/usr/bin/env bash
# Runs the two "main returns with tasks it never awaited" programs of
# crates/runtime/tests/programs (exit_queued: 200 tasks still queued;
# exit_running: a long task still running) many times through
# mlir-cpu-runner-14 on the given library, optionally with CPU burners
# running meanwhile (the crash was most frequent under load).
#   bench/runtime/exit-unawaited.sh [lib.so] [runs] [burners]
# RUNNER=mlir-async-run runs them with our executor instead (which links
# the runtime in; the library argument is then unused), on the same
# mlir-opt-14 lowering. MLIR_ASYNC_RUN=path picks its binary (default:
# target/release/mlir-async-run).
# Prints ok/bad counts (bad: exit status, or output other than expected).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
lib=$(readlink -f "${1:-$here/target/release/libmlir_async_runtime.so}")
runs=${2:-1000}
burners=${3:-0}
runner=${RUNNER:-mlir-cpu-runner-14}
async_run=${MLIR_ASYNC_RUN:-$here/target/release/mlir-async-run}
L=/usr/lib/llvm-14/lib
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
pipe="-async-to-async-runtime -async-runtime-ref-counting -async-runtime-ref-counting-opt -convert-async-to-llvm -convert-scf-to-std -convert-memref-to-llvm -convert-arith-to-llvm -convert-std-to-llvm -reconcile-unrealized-casts"
for p in exit_queued exit_running; do
  mlir-opt-14 "$here/crates/runtime/tests/programs/$p.mlir" $pipe -o "$tmp/$p.mlir" || exit 1
done
for _ in $(seq "$burners"); do
  ( while :; do :; done ) &
  pids+=($!)
done
echo "runner: $runner; load average before: $(cut -d' ' -f1-3 /proc/loadavg); $burners burner(s); $(nproc) CPUs"
stress() { # name expected-stdout
  local ok=0 bad=0 out rc codes=""
  for _ in $(seq "$runs"); do
    if [ "$runner" = mlir-async-run ]; then
      out=$(timeout 120 "$async_run" "$tmp/$1.mlir" -e main -entry-point-result=void -O3 2>/dev/null)
    else
      out=$(timeout 120 mlir-cpu-runner-14 "$tmp/$1.mlir" -e main -entry-point-result=void -O3 \
        -shared-libs=$L/libmlir_c_runner_utils.so,$L/libmlir_runner_utils.so,"$lib" 2>/dev/null)
    fi
    rc=$?
    if [ $rc = 0 ] && [ "$out" = "$2" ]; then ok=$((ok + 1)); else bad=$((bad + 1)); codes="$codes $rc"; fi
  done
  echo "$1: ok=$ok bad=$bad${codes:+ (exit statuses:$codes)}"
}
stress exit_queued ""
stress exit_running "$(printf '%s\n%s' -6331144384443599054 2737239331662092611)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
