#!/usr/bin/env bash
# Side-by-side benchmark of parse + async-to-async-runtime +
# async-runtime-ref-counting + async-runtime-ref-counting-opt + print
# against mlir-opt-14 (issue #12), on generated modules of ~10k, ~100k and
# ~1M ops (gen_async_module.py, syntax 14), with and without
# eliminate-blocking-await-ops. Prints a markdown table (best of $RUNS wall
# times, the tools run alternately, on a microsecond clock; peak RSS of
# one more run) and checks that the outputs are the same up to block order
# (upstream places the blocks it adds in pointer-hash order): both are
# normalized as crates/tools/tests/ref_counting_differential.rs does
# (crates/tools/examples/same-up-to-block-order.rs), which also names
# upstream's known spurious drop_refs when they are the only difference.
# Usage: bench/ref-counting/run.sh [path/to/mlir-async-opt]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
ours=${1:-$target/release/mlir-async-opt}
gen=${GEN:-$root/../shared/bench/gen_async_module.py}
up=${UPSTREAM:-mlir-opt-14}
runs=${RUNS:-3}
(cd "$root" && cargo build -q --release -p mlir-async-tools --example same-up-to-block-order)
same_check=$target/release/examples/same-up-to-block-order
tmp=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d); trap 'rm -rf "$tmp"' EXIT

. "$root/bench/lib.sh"

rc=(-async-runtime-ref-counting -async-runtime-ref-counting-opt)
echo "| ops | option | $up s | $up MB | ours s | ours MB | speedup | memory ratio | same up to block order |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---|"
for funcs in ${SIZES:-88 880 8800}; do
  f=$tmp/m$funcs.mlir
  python3 "$gen" --syntax 14 --seed 42 --funcs "$funcs" -o "$f" >/dev/null 2>&1
  ops=$(head -1 "$f" | sed -n 's/.*ops=\([0-9]*\).*/\1/p')
  for opt in "" "=eliminate-blocking-await-ops=true"; do
    read -r us um os om < <(side_by_side "$runs" "$tmp/up.txt" "$tmp/out" \
      "$up" "$f" "-async-to-async-runtime$opt" "${rc[@]}" -- \
      "$ours" "$f" "-async-to-async-runtime$opt" "${rc[@]}")
    same=$("$same_check" "$tmp/up.txt" "$tmp/out" || true)
    label=${opt:+eliminate}; label=${label:-default}
    awk -v ops="$ops" -v l="$label" -v us="$us" -v um="$um" -v os="$os" -v om="$om" -v same="$same" \
      'BEGIN{printf "| %d | %s | %.3f | %.0f | %.3f | %.0f | %.1fx | %.2f | %s |\n", ops, l, us, um/1024, os, om/1024, us/(os>0?os:0.005), om/um, same}'
  done
done
