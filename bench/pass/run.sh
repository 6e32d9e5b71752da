#!/usr/bin/env bash
# Side-by-side benchmark of parse + async-to-async-runtime + print against
# mlir-opt-14, on generated modules of ~10k, ~100k and ~1M ops (syntax 14),
# with and without eliminate-blocking-await-ops. Prints a markdown table
# (best of $RUNS wall times, the tools run alternately, on a microsecond
# clock; peak RSS of one more run) and checks
# outputs are identical.
# Usage: bench/pass/run.sh [path/to/mlir-async-opt]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ours=${1:-$root/target/release/mlir-async-opt}
gen=${GEN:-$root/../shared/bench/gen_async_module.py}
up=${UPSTREAM:-mlir-opt-14}
runs=${RUNS:-3}
# Outputs go to a RAM disk when there is one: the disk's write speed is
# not what is measured.
tmp=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d); trap 'rm -rf "$tmp"' EXIT

. "$root/bench/lib.sh"

echo "| ops | option | $up s | $up MB | ours s | ours MB | speedup | memory ratio | identical |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---|"
for funcs in ${SIZES:-88 880 8800}; do
  f=$tmp/m$funcs.mlir
  python3 "$gen" --syntax 14 --seed 42 --funcs "$funcs" -o "$f" >/dev/null 2>&1
  ops=$(head -1 "$f" | sed -n 's/.*ops=\([0-9]*\).*/\1/p')
  for opt in "" "=eliminate-blocking-await-ops=true"; do
    read -r us um os om < <(side_by_side "$runs" "$tmp/up.txt" "$tmp/out" "$up" "$f" "-async-to-async-runtime$opt" -- "$ours" "$f" "-async-to-async-runtime$opt")
    same=no; cmp -s "$tmp/out" "$tmp/up.txt" && same=yes
    label=${opt:+eliminate}; label=${label:-default}
    awk -v ops="$ops" -v l="$label" -v us="$us" -v um="$um" -v os="$os" -v om="$om" -v same="$same" \
      'BEGIN{printf "| %d | %s | %.3f | %.0f | %.3f | %.0f | %.1fx | %.2f | %s |\n", ops, l, us, um/1024, os, om/1024, us/(os>0?os:0.005), om/um, same}'
  done
done
