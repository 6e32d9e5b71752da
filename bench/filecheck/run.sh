#!/usr/bin/env bash
# FileCheck speed on many CHECK-DAG and many CHECK-NOT directives, ours
# against FileCheck-14 on the same generated inputs (issue #16: both were
# quadratic here). Prints one line per case with the best wall time of each
# tool over --runs runs and the ratio ours/upstream; fails if the two tools
# disagree on the exit status.
#
# Usage: bench/filecheck/run.sh [--n 10000] [--runs 3]
#   OURS=path/to/mlir-async-filecheck   (default: target/release/...)
#   UPSTREAM=FileCheck-14
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ours=${OURS:-$root/target/release/mlir-async-filecheck}
upstream=${UPSTREAM:-FileCheck-14}
n=10000
runs=3
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in "$ours" "$upstream"; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# dag: n distinct lines, matched by n CHECK-DAG in reverse order, then a
#      CHECK on the last line (every DAG search scans the whole input).
# dag-same: n identical lines matched by n identical CHECK-DAG (each match
#      must skip all earlier, overlapping ones).
# dag-regex: as dag, each DAG a regex defining a variable.
# not: n CHECK-NOT that never match between two CHECKs on a short input.
# not-wide: n CHECK-NOT before the end of a 10k-line input.
awk -v n="$n" 'BEGIN{for(i=0;i<n;i++) printf "%%v%d = op %d\n", i, i; print "end"}' >"$work/dag.in"
awk -v n="$n" 'BEGIN{for(i=n-1;i>=0;i--) printf "CHECK-DAG: %%v%d = op %d\n", i, i; print "CHECK: end"}' >"$work/dag.chk"
awk -v n="$n" 'BEGIN{for(i=0;i<n;i++) print "same"; print "end"}' >"$work/dag-same.in"
awk -v n="$n" 'BEGIN{for(i=0;i<n;i++) print "CHECK-DAG: same"; print "CHECK: end"}' >"$work/dag-same.chk"
cp "$work/dag.in" "$work/dag-regex.in"
awk -v n="$n" 'BEGIN{for(i=n-1;i>=0;i--) printf "CHECK-DAG: [[V%d:%%v[0-9]+]] = op {{%d$}}\n", i, i; print "CHECK: end"}' >"$work/dag-regex.chk"
printf 'begin\nmiddle\nend\n' >"$work/not.in"
awk -v n="$n" 'BEGIN{print "CHECK: begin"; for(i=0;i<n;i++) printf "CHECK-NOT: absent%d\n", i; print "CHECK: end"}' >"$work/not.chk"
awk -v n="$n" 'BEGIN{print "begin"; for(i=0;i<10000;i++) printf "line %d\n", i; print "end"}' >"$work/not-wide.in"
awk -v n="$n" 'BEGIN{print "CHECK: begin"; for(i=0;i<n;i++) printf "CHECK-NOT: absent{{[0-9]+}}x%d\n", i}' >"$work/not-wide.chk"

best() { # best wall seconds of $runs runs of "$@" < input; prints "secs rc"
  local b="" rc t0 t1 t
  for _ in $(seq "$runs"); do
    t0=$EPOCHREALTIME
    rc=0
    "$@" >/dev/null 2>&1 || rc=$?
    t1=$EPOCHREALTIME
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b - a}')
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a < b)}'; then b=$t; fi
  done
  echo "$b $rc"
}

status=0
printf '%-10s %8s %10s %10s %8s\n' case n upstream_s ours_s ratio
for c in dag dag-same dag-regex not not-wide; do
  read -r up uprc < <(best "$upstream" "$work/$c.chk" --input-file "$work/$c.in")
  read -r us usrc < <(best "$ours" "$work/$c.chk" --input-file "$work/$c.in")
  ratio=$(awk -v a="$us" -v b="$up" 'BEGIN{printf "%.2f", a / (b > 0.001 ? b : 0.001)}')
  printf '%-10s %8s %10s %10s %8s\n' "$c" "$n" "$up" "$us" "$ratio"
  if [ "$uprc" != "$usrc" ]; then
    echo "  exit status differs: upstream $uprc, ours $usrc" >&2
    status=1
  fi
done
exit $status
