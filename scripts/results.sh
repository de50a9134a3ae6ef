#!/usr/bin/env bash
# Regenerates results/values.csv and results/values.md: every rule set with a finite repetition
# rule on boards 3x3, 3x4, 4x3, 4x4, 4x5 and 5x4 - reachable states, W/L/D, start value and
# distance, wall time and peak memory (GNU time). A solve that cannot fit this machine is listed
# with the reason: gonu's --max-states guard (GONU_MAX_STATES, default 200 million: 4x5 `free`
# has 189 million, while the tagged rule sets on 4x5 and 5x4 have about a billion states or more:
# 11 bytes a state for the result plus 4 bytes a tag slot for the dense engine pass 24 GB), the
# dense engine's own memory check, or the time limit (GONU_TIME_LIMIT seconds, default 1800). On a board where a rule set already
# passed the guard, the tagged ones after it (immediate, undo: 33 to 59 times the states of `free`
# on 4x4) are listed as not run, expected not to fit, with that reason, instead of each spending
# minutes to reach the guard.
# GONU_BOARDS / GONU_RULESETS narrow the run (e.g. GONU_BOARDS="3x3 3x4"); rows of an earlier
# run for other (rule set, board) pairs are kept, so the table can be regenerated in parts, and
# the tables are rewritten after every solve, so an interrupted run keeps what it finished.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
boards=${GONU_BOARDS:-3x3 3x4 4x3 4x4 4x5 5x4}
rulesets=${GONU_RULESETS:-free single single+corner encyclopedia undo single-immediate single+corner-immediate}
max_states=${GONU_MAX_STATES:-200000000}
limit=${GONU_TIME_LIMIT:-1800}
threads=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
mem_gib=$(free -g | awk '/Mem:/{print $2}')
write_tables() {
  python3 scripts/gonu_report.py values-tables "$tmp/rows" results/values.csv results/values.md \
    "$threads" "$(uname -m)" "$cpu" "$mem_gib"
}
: > "$tmp/rows"
tagged() { case "$1" in encyclopedia|undo|*-immediate) return 0 ;; *) return 1 ;; esac; }
for b in $boards; do
  too_big=""
  for rs in $rulesets; do
    echo "results: $rs $b" >&2
    if [ -n "$too_big" ] && tagged "$rs"; then
      echo "{\"rules\": \"$rs\", \"board\": \"$b\", \"status\": \"not run: expected not to fit ($too_big passed the $max_states-state guard on this board; tagged rule sets have 33 to 59 times the states of free on 4x4)\"}" >> "$tmp/rows"
      write_tables
      continue
    fi
    set +e
    timeout "$limit" /usr/bin/time -v -o "$tmp/time" build/bin/gonu solve $(flags_of "$rs") --board "$b" \
      --json --quiet --max-states "$max_states" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    set -e
    if [ "$rc" != 0 ] && grep -q "max-states" "$tmp/err"; then too_big="$rs"; fi
    python3 scripts/gonu_report.py values-row "$rs" "$b" "$rc" "$tmp" "$limit" >> "$tmp/rows"
    write_tables  # after every solve, so an interrupted run keeps what it finished
  done
done
