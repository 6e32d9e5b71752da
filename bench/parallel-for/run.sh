#!/usr/bin/env bash
# Side-by-side benchmark of parse + async-parallel-for + print against
# mlir-opt-14 on modules of N parallel loops (bench/parallel-for/gen.py:
# one loop per function, 1-d dynamic, 2-d with a static inner trip count,
# 3-d with a nested scf.for; syntax 14; with MULF=K every loop is the 2-d
# one with a chain of K arith.mulf, MULF=400 being issue #13's
# "b125.mlir" shape). Prints a markdown table (best of $RUNS wall times,
# the tools run alternately; peak RSS of one more run) and checks that the
# outputs are identical. Upstream is superlinear: at sizes in
# $UPSTREAM_ONCE (default 10000) it runs once, under a timeout of
# $UPSTREAM_TIMEOUT seconds (default 3600; a size it does not finish in
# shows ">limit").
# Usage: [MULF=400] [SIZES="100 500"] bench/parallel-for/run.sh [path/to/mlir-async-opt]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ours=${1:-${CARGO_TARGET_DIR:-$root/target}/release/mlir-async-opt}
mulf=${MULF:-0}
up=${UPSTREAM:-mlir-opt-14}
runs=${RUNS:-3}
once=${UPSTREAM_ONCE:-10000}
limit=${UPSTREAM_TIMEOUT:-3600}
tmp=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d); trap 'rm -rf "$tmp"' EXIT

. "$root/bench/lib.sh"

echo "| loops | ops out | $up s | $up MB | ours s | ours MB | speedup | memory ratio | identical |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for loops in ${SIZES:-100 500 1000 10000}; do
  f=$tmp/p$loops.mlir
  python3 "$root/bench/parallel-for/gen.py" --loops "$loops" --mulf "$mulf" -o "$f"
  if [[ " $once " == *" $loops "* ]]; then
    ut=$(timeout "$limit" bash -c ". '$root/bench/lib.sh'; time_once '$tmp/up.txt' $up '$f' -async-parallel-for" || echo TIMEOUT)
    um=$(grep -c . /dev/null || true); um=0
    ot=""
    for _ in $(seq "$runs"); do ot=$(min_of "$ot" "$(time_once "$tmp/out" "$ours" "$f" -async-parallel-for)"); done
    om=$(peak_kb "$ours" "$f" -async-parallel-for)
    us=$ut
  else
    read -r us um ot om < <(side_by_side "$runs" "$tmp/up.txt" "$tmp/out" "$up" "$f" -async-parallel-for -- "$ours" "$f" -async-parallel-for)
  fi
  same=no; cmp -s "$tmp/out" "$tmp/up.txt" && same=yes
  ops=$(grep -c ' = \| call \|scf\.\|memref.store\|async.await_all\|return' "$tmp/out" || true)
  awk -v n="$loops" -v ops="$ops" -v us="$us" -v um="$um" -v os="$ot" -v om="$om" -v same="$same" \
    'BEGIN{
       if (us == "TIMEOUT") { printf "| %d | %d | >%s | - | %.3f | %.0f | - | - | - |\n", n, ops, ENVIRON["UPSTREAM_TIMEOUT"] ? ENVIRON["UPSTREAM_TIMEOUT"] : 3600, os, om/1024; exit }
       printf "| %d | %d | %.3f | %s | %.3f | %.0f | %.1fx | %s | %s |\n", n, ops, us, (um > 0 ? sprintf("%.0f", um/1024) : "-"), os, om/1024, us/(os>0?os:0.005), (um > 0 ? sprintf("%.2f", om/um) : "-"), same}'
done
