# Shared by bench/opt/run.sh and bench/pass/run.sh (sourced, not run).
#
# best_of RUNS OUT CMD... -> prints "seconds kilobytes": the smallest wall
# time and the smallest peak RSS over RUNS runs of CMD, whose stdout goes
# to OUT. Wall time is taken with bash's microsecond clock around the run:
# /usr/bin/time's own wall time has a 10 ms resolution, which at 10k ops
# is the whole measurement. Prints "FAIL FAIL" if CMD fails.
best_of() {
  local runs=$1 out=$2
  shift 2
  local best_t="" best_m="" t0 t1 t m
  local mem
  mem=$(mktemp)
  for _ in $(seq "$runs"); do
    t0=$EPOCHREALTIME
    if ! /usr/bin/time -f "%M" -o "$mem" "$@" >"$out" 2>/dev/null; then
      rm -f "$mem"
      echo "FAIL FAIL"
      return
    fi
    t1=$EPOCHREALTIME
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b - a}')
    m=$(tail -1 "$mem")
    if [ -z "$best_t" ] || awk -v a="$t" -v b="$best_t" 'BEGIN{exit !(a < b)}'; then best_t=$t; fi
    if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
  done
  rm -f "$mem"
  echo "$best_t $best_m"
}
