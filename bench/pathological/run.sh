#!/usr/bin/env bash
# Pathological input sizes from issue #16, ours against mlir-opt-14: one
# function with 1M block arguments, one op with 200k attributes, a 120 MB
# module on one line, 1.6M distinct constants in one function. Each must
# take time linear in its size and no more than upstream's.
#
# Usage: bench/pathological/run.sh [--scale F] [--runs N] [--only KIND]
#   --scale F   multiplies every size (e.g. 0.1 for a quick look; default 1)
#   --runs N    best of N runs per tool (default 1: upstream takes ~60 s
#               over the four inputs at full size)
#   --only KIND one of blockargs, attrs, oneline, constants
#   OURS=path/to/mlir-async-opt   (default: target/release/mlir-async-opt)
#   UPSTREAM=mlir-opt-14          (the reference tool)
#   WORK=dir                      (inputs and outputs; default: a temp dir)
# Prints a markdown table with the ratio ours / upstream per input and
# fails if the two outputs differ. Run it at two scales to see growth:
# a linear path doubles its time when the size doubles.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ours=${OURS:-$root/target/release/mlir-async-opt}
upstream=${UPSTREAM:-mlir-opt-14}
scale=1
runs=1
only=""
while [ $# -gt 0 ]; do
  case $1 in
    --scale) scale=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in "$ours" "$upstream" /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 2; }
done
if [ -z "${WORK:-}" ]; then
  work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
  trap 'rm -rf "$work"' EXIT
else
  work=$WORK
fi
mkdir -p "$work"

. "$root/bench/lib.sh"

echo "| input | size | upstream s | ours s | ours/upstream | upstream MB | ours MB |"
echo "|---|---|---|---|---|---|---|"
status=0
for spec in "blockargs 1000000" "attrs 200000" "oneline 120000000" "constants 1600000"; do
  set -- $spec
  kind=$1
  [ -n "$only" ] && [ "$only" != "$kind" ] && continue
  n=$(awk -v a="$2" -v s="$scale" 'BEGIN{printf "%d", a * s}')
  in=$work/$kind.mlir
  python3 "$root/bench/pathological/gen.py" "$kind" "$n" >"$in"
  read -r ut um ot om < <(side_by_side "$runs" "$work/up.out" "$work/ours.out" \
    "$upstream" "$in" -- "$ours" "$in")
  if [ "$ut" = FAIL ]; then
    echo "| $kind | $n | FAIL | | | | |"
    status=1
    continue
  fi
  if ! cmp -s "$work/up.out" "$work/ours.out"; then
    echo "outputs differ for $kind $n" >&2
    status=1
  fi
  ratio=$(awk -v a="$ot" -v b="$ut" 'BEGIN{printf "%.2f", a / b}')
  echo "| $kind | $n | $ut | $ot | $ratio | $((um / 1024)) | $((om / 1024)) |"
  rm -f "$in"
done
exit $status
