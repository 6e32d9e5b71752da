# Shared by bench/opt/run.sh and bench/pass/run.sh (sourced, not run).
#
# The two tools are run alternately, run after run, so that both meet the
# same moments of a shared machine; each keeps its smallest time.

# time_once OUT CMD... -> wall seconds of one run of CMD (stdout to OUT) on
# bash's microsecond clock, around the bare command: /usr/bin/time's fork,
# exec and 10 ms clock would be part of a 10 ms measurement. "FAIL" if
# CMD fails.
time_once() {
  local out=$1
  shift
  local t0 t1
  t0=$EPOCHREALTIME
  "$@" >"$out" 2>/dev/null || { echo FAIL; return; }
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b - a}'
}

# peak_kb CMD... -> peak RSS in KB of one run of CMD.
peak_kb() {
  local mem m
  mem=$(mktemp)
  /usr/bin/time -f "%M" -o "$mem" "$@" >/dev/null 2>&1 || true
  m=$(tail -1 "$mem")
  rm -f "$mem"
  echo "$m"
}

# min_of A B -> the smaller number (A may be empty).
min_of() {
  if [ -z "$1" ] || awk -v a="$2" -v b="$1" 'BEGIN{exit !(a < b)}'; then echo "$2"; else echo "$1"; fi
}

# side_by_side RUNS OUT_UP OUT_OURS UP_CMD... -- OURS_CMD... -> prints
# "up_s up_kb ours_s ours_kb" (best times, peak memory).
side_by_side() {
  local runs=$1 out_up=$2 out_ours=$3
  shift 3
  local up=() ours=() seen=0 a
  for a in "$@"; do
    if [ "$seen" = 0 ] && [ "$a" = "--" ]; then seen=1; continue; fi
    if [ "$seen" = 0 ]; then up+=("$a"); else ours+=("$a"); fi
  done
  local ut="" ot="" t
  for _ in $(seq "$runs"); do
    t=$(time_once "$out_up" "${up[@]}"); [ "$t" = FAIL ] && { echo "FAIL FAIL FAIL FAIL"; return; }
    ut=$(min_of "$ut" "$t")
    t=$(time_once "$out_ours" "${ours[@]}"); [ "$t" = FAIL ] && { echo "FAIL FAIL FAIL FAIL"; return; }
    ot=$(min_of "$ot" "$t")
  done
  echo "$ut $(peak_kb "${up[@]}") $ot $(peak_kb "${ours[@]}")"
}
