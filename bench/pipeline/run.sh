#!/usr/bin/env bash
# The whole runner pipeline, parse to LLVM dialect to print, against
# mlir-opt-14 on generated modules (syntax 14): the lowering every
# upstream runner test of LLVM 14 runs,
#   -async-to-async-runtime -async-runtime-ref-counting
#   -async-runtime-ref-counting-opt -convert-async-to-llvm
#   -convert-scf-to-std -convert-memref-to-llvm -convert-arith-to-llvm
#   -convert-std-to-llvm -reconcile-unrealized-casts
# and the same without the two reference-counting passes. Prints a
# markdown table: best of $RUNS wall times (the tools run alternately),
# peak RSS, and whether the outputs are byte-identical. With reference
# counting they are not, by design: upstream drops references the caller
# owns on coroutine error paths and orders its blocks by pointer hashes
# (docs/ref-counting.md; crates/tools/tests/ref_counting_differential.rs
# compares that part up to block order); the column then says "rc".
# Upstream grows faster than linearly here, so sizes above $UP_MAX_FUNCS
# functions run ours alone.
# Usage: bench/pipeline/run.sh [path/to/mlir-async-opt]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ours=${1:-$root/target/release/mlir-async-opt}
gen=${GEN:-$root/../shared/bench/gen_async_module.py}
up=${UPSTREAM:-mlir-opt-14}
runs=${RUNS:-3}
up_max=${UP_MAX_FUNCS:-880}
tmp=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d); trap 'rm -rf "$tmp"' EXIT

. "$root/bench/lib.sh"

rc="-async-runtime-ref-counting -async-runtime-ref-counting-opt"
llvm="-convert-async-to-llvm -convert-scf-to-std -convert-memref-to-llvm -convert-arith-to-llvm -convert-std-to-llvm -reconcile-unrealized-casts"

echo "| ops in | pipeline | $up s | $up MB | ours s | ours MB | speedup | memory ratio | identical |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---|"
for funcs in ${SIZES:-22 88 880 8800}; do
  f=$tmp/m$funcs.mlir
  python3 "$gen" --syntax 14 --seed 42 --funcs "$funcs" -o "$f" >/dev/null 2>&1
  ops=$(head -1 "$f" | sed -n 's/.*ops=\([0-9]*\).*/\1/p')
  for p in runner no-rc; do
    # shellcheck disable=SC2206
    if [ "$p" = runner ]; then passes=(-async-to-async-runtime $rc $llvm); else passes=(-async-to-async-runtime $llvm); fi
    n=$runs; [ "$funcs" -ge "$up_max" ] && n=1
    if [ "$funcs" -le "$up_max" ]; then
      read -r us um os om < <(side_by_side "$n" "$tmp/up.txt" "$tmp/out" "$up" "$f" "${passes[@]}" -- "$ours" "$f" "${passes[@]}")
      same=no; cmp -s "$tmp/out" "$tmp/up.txt" && same=yes
      [ "$p" = runner ] && [ "$same" = no ] && same=rc
      awk -v ops="$ops" -v l="$p" -v us="$us" -v um="$um" -v os="$os" -v om="$om" -v same="$same" \
        'BEGIN{printf "| %d | %s | %.3f | %.0f | %.3f | %.0f | %.1fx | %.2f | %s |\n", ops, l, us, um/1024, os, om/1024, us/(os>0?os:0.005), om/um, same}'
    else
      os=""; for _ in $(seq "$n"); do os=$(min_of "$os" "$(time_once "$tmp/out" "$ours" "$f" "${passes[@]}")"); done
      om=$(peak_kb "$ours" "$f" "${passes[@]}")
      awk -v ops="$ops" -v l="$p" -v os="$os" -v om="$om" \
        'BEGIN{printf "| %d | %s | - | - | %.3f | %.0f | - | - | - |\n", ops, l, os, om/1024}'
    fi
  done
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; best of $runs (one run at $up_max functions and above)"
