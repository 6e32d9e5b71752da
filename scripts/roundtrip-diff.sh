#!/usr/bin/env bash
# Round-trip every corpus input through mlir-async-opt and the upstream
# mlir-opt of its generation; report byte-identical / different / skipped.
# Usage: scripts/roundtrip-diff.sh [ours] [extra flags...]
set -u
ours=${1:-target/release/mlir-async-opt}; shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/upstream-tests}
same=0; diff=0; skip=0
for gen in 14 15; do
  up=mlir-opt-$gen
  command -v $up >/dev/null || continue
  for f in $(find "$corpus/llvm$gen" -name '*.mlir' | sort); do
    if ! $up "$f" -split-input-file "$@" >/tmp/rt-up.txt 2>/dev/null; then skip=$((skip+1)); continue; fi
    $ours "$f" -split-input-file "$@" >/tmp/rt-ours.txt 2>/tmp/rt-err.txt
    if cmp -s /tmp/rt-up.txt /tmp/rt-ours.txt; then same=$((same+1)); else diff=$((diff+1)); echo "DIFF llvm$gen ${f#$corpus/llvm$gen/}"; fi
  done
done
echo "identical: $same, different: $diff, upstream-rejected: $skip"
