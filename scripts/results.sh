#!/usr/bin/env bash
# Regenerates results/values.csv and results/values.md: every rule set with a finite repetition
# rule on boards 3x3, 3x4, 4x3, 4x4, 4x5 and 5x4, and the rule sets without one (free, single,
# single+corner) on 5x5 - reachable states, W/L/D, start value and distance, wall time, peak
# memory (GNU time) and bytes a state. Each solve runs with --max-memory set to this machine's
# memory (GONU_MAX_MEMORY overrides it): gonu estimates the solve's peak before it starts and
# refuses at once one that would not fit, and that refusal is the row's reason. A solve over the
# time limit (GONU_TIME_LIMIT seconds, default 1800) is listed as such.
# On the big boards (GONU_VERIFY_BOARDS, default 4x5 5x4 5x5) the solve also writes its table
# (--out, into a temporary directory: GONU_TABLE_DIR, default under /tmp) and `gonu verify`
# re-derives every value from it; the row records OK or failed with the verify's time, and the
# table is deleted. Time and peak memory then include writing the table.
# A solve refused by the estimate is probed (GONU_PROBE_STATES, default 2500000000; 0: no probe):
# run again with the memory limit lifted and --max-states, so that the row records how far the
# reach got, in what time and memory, beside the estimate of what the whole solve would take.
# GONU_BOARDS / GONU_RULESETS narrow the run (e.g. GONU_BOARDS="3x3 3x4"); rows of an earlier
# run for other (rule set, board) pairs are kept, so the table can be regenerated in parts, and
# the tables are rewritten after every solve, so an interrupted run keeps what it finished.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
boards=${GONU_BOARDS:-3x3 3x4 4x3 4x4 4x5 5x4 5x5}
rulesets=${GONU_RULESETS:-free single single+corner encyclopedia undo single-immediate single+corner-immediate}
verify_boards=${GONU_VERIFY_BOARDS:-4x5 5x4 5x5}
limit=${GONU_TIME_LIMIT:-1800}
probe_states=${GONU_PROBE_STATES:-2500000000}
mem_bytes=$(awk '/^MemTotal:/{printf "%.0f\n", $2 * 1024}' /proc/meminfo)
max_memory=${GONU_MAX_MEMORY:-$mem_bytes}
threads=$(nproc)
tmp=$(mktemp -d)
table_dir=$(mktemp -d "${GONU_TABLE_DIR:-${TMPDIR:-/tmp}}/gonu-results.XXXXXX")
trap 'rm -rf "$tmp" "$table_dir"' EXIT
flags_of() {
  case "$1" in
    free|encyclopedia|undo) echo "--rules $1" ;;
    single) echo "--rules free --capture single" ;;
    single+corner) echo "--rules free --capture single --corner on" ;;
    single-immediate) echo "--rules encyclopedia --capture single" ;;
    single+corner-immediate) echo "--rules encyclopedia --capture single --corner on" ;;
    *) echo "unknown rule set $1" >&2; exit 2 ;;
  esac
}
tagged() { case "$1" in encyclopedia|undo|*-immediate) return 0 ;; *) return 1 ;; esac; }
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
mem_gib=$(free -g | awk '/Mem:/{print $2}')
write_tables() {
  python3 scripts/gonu_report.py values-tables "$tmp/rows" results/values.csv results/values.md \
    "$threads" "$(uname -m)" "$cpu" "$mem_gib"
}
# verify_table FILE: `gonu verify` on the table, its result in $tmp/verify ("OK SECONDS" or
# "failed SECONDS"), then the table deleted.
verify_table() {
  local start rc=0 result=failed
  start=$(date +%s%N)
  timeout "$limit" build/bin/gonu verify --quiet "$1" > "$tmp/verify.out" 2>&1 || rc=$?
  if [ "$rc" = 0 ]; then result=OK; elif [ "$rc" = 124 ]; then result=timeout; fi
  awk -v r="$result" -v ns="$(( $(date +%s%N) - start ))" 'BEGIN { printf "%s %.2f\n", r, ns / 1e9 }' > "$tmp/verify"
  rm -f "$1"
}
# probe RULES BOARD: the refused solve run with the limit lifted (4x this machine's memory) until
# --max-states stops it; its error line and GNU time in $tmp/probe_err and $tmp/probe_time.
probe() {
  set +e
  timeout "$limit" /usr/bin/time -v -o "$tmp/probe_time" build/bin/gonu solve $(flags_of "$1") --board "$2" \
    --quiet --max-memory "$((4 * mem_bytes))" --max-states "$probe_states" > /dev/null 2> "$tmp/probe_err"
  set -e
}
: > "$tmp/rows"
for b in $boards; do
  for rs in $rulesets; do
    if [ "$b" = 5x5 ] && tagged "$rs"; then continue; fi  # 5x5: the rule sets without a repetition rule
    echo "results: $rs $b" >&2
    out=()
    rm -f "$tmp/verify" "$tmp/probe_err" "$tmp/probe_time"
    case " $verify_boards " in *" $b "*) out=(--out "$table_dir/$rs-$b.gonu") ;; esac
    set +e
    timeout "$limit" /usr/bin/time -v -o "$tmp/time" build/bin/gonu solve $(flags_of "$rs") --board "$b" \
      --json --quiet --max-memory "$max_memory" "${out[@]}" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    set -e
    if [ "$rc" = 0 ] && [ ${#out[@]} -gt 0 ]; then verify_table "${out[1]}"; fi
    if [ "$rc" = 1 ] && [ "$probe_states" != 0 ] && grep -q "would need about" "$tmp/err"; then
      echo "results: $rs $b refused; probing the reach up to $probe_states states" >&2
      probe "$rs" "$b"
    fi
    rm -f "$table_dir"/*
    python3 scripts/gonu_report.py values-row "$rs" "$b" "$rc" "$tmp" "$limit" >> "$tmp/rows"
    write_tables  # after every solve, so an interrupted run keeps what it finished
  done
done
