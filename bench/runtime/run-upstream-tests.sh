#!/usr/bin/env bash
# Runs the 8 llvm14 mlir-cpu-runner / Integration Async tests with
# mlir-opt-14 + mlir-cpu-runner-14, but with OUR libmlir_async_runtime.so on
# the -shared-libs= line (the RUN lines are otherwise unchanged).
#   bench/runtime/run-upstream-tests.sh [path/to/libmlir_async_runtime.so] [-v]
# Needs /work/shared (the upstream test corpus and run-upstream.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
lib=${1:-$here/target/release/libmlir_async_runtime.so}
shift || true
shared=${SHARED_DIR:-/work/shared}
llvm=/usr/lib/llvm-14/lib
libdir=$(mktemp -d)
trap 'rm -rf "$libdir"' EXIT
ln -s "$llvm/libmlir_runner_utils.so" "$libdir/libmlir_runner_utils.so"
ln -s "$llvm/libmlir_c_runner_utils.so" "$libdir/libmlir_c_runner_utils.so"
ln -s "$(readlink -f "$lib")" "$libdir/libmlir_async_runtime.so"
t=$shared/upstream-tests/llvm14/mlir/test
cd "$shared/upstream-tests"
MLIR_ASYNC_RUNTIME_LEAK_REPORT=${MLIR_ASYNC_RUNTIME_LEAK_REPORT:-1} \
./run-upstream.sh --opt mlir-opt-14 --runner mlir-cpu-runner-14 --filecheck FileCheck-14 \
  --libdir "$libdir" "$@" "$t"/mlir-cpu-runner/async*.mlir "$t"/Integration/Dialect/Async/CPU/*.mlir
