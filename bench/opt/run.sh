#!/usr/bin/env bash
# Parse + verify + print speed and peak memory of mlir-async-opt against
# mlir-opt-14 on generated Async modules of ~10k, ~100k and ~1M ops.
#
# Usage: bench/opt/run.sh [--sizes "88 877 8772"] [--runs 3]
#   OURS=path/to/mlir-async-opt   (default: target/release/mlir-async-opt)
#   UPSTREAM=mlir-opt-14          (the reference tool)
#   WORK=dir                      (where modules and outputs go; default: a temp dir)
# Prints a markdown table; every size fails the run if the outputs differ.
# Times are the best wall seconds of --runs runs, the two tools run
# alternately (microsecond clock); memory is the peak RSS of one more run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ours=${OURS:-$root/target/release/mlir-async-opt}
upstream=${UPSTREAM:-mlir-opt-14}
gen=${GEN:-$root/../shared/bench/gen_async_module.py}
sizes="88 877 8772" # functions; ~114 ops each
runs=3
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in "$ours" "$upstream" /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 2; }
done
[ -f "$gen" ] || { echo "missing generator: $gen" >&2; exit 2; }
# Outputs go to a RAM disk when there is one: the disk's write speed is
# not what is measured.
if [ -z "${WORK:-}" ]; then
  work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
  trap 'rm -rf "$work"' EXIT
else
  work=$WORK
fi
mkdir -p "$work"

. "$root/bench/lib.sh"

status=0
echo "| ops | $upstream s | $upstream MB | ours s | ours MB | speedup | memory ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for funcs in $sizes; do
  f=$work/m$funcs.mlir
  [ -f "$f" ] || python3 "$gen" --syntax 14 --seed 7 --funcs "$funcs" -o "$f" >/dev/null 2>&1
  ops=$(head -1 "$f" | sed -n 's/.*ops=\([0-9]*\).*/\1/p')
  read -r ut um ot om < <(side_by_side "$runs" "$work/up.txt" "$work/ours.txt" "$upstream" "$f" -- "$ours" "$f")
  if ! cmp -s "$work/up.txt" "$work/ours.txt"; then
    echo "outputs differ at $ops ops ($f)" >&2
    status=1
  fi
  awk -v ops="$ops" -v ut="$ut" -v um="$um" -v ot="$ot" -v om="$om" 'BEGIN{
    sp = (ot > 0) ? sprintf("%.1fx", ut / ot) : "n/a";
    printf "| %d | %.3f | %.0f | %.3f | %.0f | %s | %.2f |\n", ops, ut, um / 1024, ot, om / 1024, sp, om / um }'
done
exit $status
