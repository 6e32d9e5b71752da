#!/usr/bin/env bash
# Runs the four llvm14 Integration/Dialect/Async/CPU tests (the ones that use
# -async-parallel-for) with OUR -async-parallel-for and -async-to-async-runtime,
# the rest of each RUN line's pipeline by mlir-opt-14, mlir-cpu-runner-14 and
# OUR libmlir_async_runtime.so.
#   bench/parallel-for/run-cpu-tests.sh [mlir-async-opt] [libmlir_async_runtime.so] [-v]
# Needs /work/shared (the upstream corpus and run-upstream.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
ours=$(readlink -f "${1:-$here/target/release/mlir-async-opt}")
lib=$(readlink -f "${2:-$here/target/release/libmlir_async_runtime.so}")
shift 2 || shift $# || true
shared=${SHARED_DIR:-/work/shared}
llvm=/usr/lib/llvm-14/lib
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$llvm/libmlir_runner_utils.so" "$work/libmlir_runner_utils.so"
ln -s "$llvm/libmlir_c_runner_utils.so" "$work/libmlir_c_runner_utils.so"
ln -s "$lib" "$work/libmlir_async_runtime.so"
# An mlir-opt that hands the contiguous run of async-parallel-for /
# async-to-async-runtime passes to ours and the passes before and after it
# to mlir-opt-14.
cat > "$work/split-opt" <<SCRIPT
#!/usr/bin/env bash
set -euo pipefail
pre=(); mid=(); post=(); input=-
for a in "\$@"; do
  case "\$a" in
    -async-parallel-for*|-async-to-async-runtime*)
      if [ \${#post[@]} -gt 0 ]; then post+=("\$a"); else mid+=("\$a"); fi ;;
    -*)
      if [ \${#mid[@]} -eq 0 ]; then pre+=("\$a"); else post+=("\$a"); fi ;;
    *) input=\$a ;;
  esac
done
if [ \${#mid[@]} -eq 0 ]; then exec mlir-opt-14 "\$@"; fi
echo "ours: \${mid[*]}" >> "${CPU_TESTS_LOG:-/dev/null}"
mlir-opt-14 "\$input" "\${pre[@]}" | "$ours" - "\${mid[@]}" | mlir-opt-14 - "\${post[@]}"
SCRIPT
chmod +x "$work/split-opt"
t=$shared/upstream-tests/llvm14/mlir/test/Integration/Dialect/Async/CPU
cd "$shared/upstream-tests"
./run-upstream.sh --opt "$work/split-opt" --runner mlir-cpu-runner-14 --filecheck FileCheck-14 \
  --libdir "$work" "$@" "$t"/*.mlir
