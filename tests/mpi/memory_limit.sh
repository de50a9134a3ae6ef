#!/usr/bin/env bash
# That `gonu solve --mpi` holds each process to its memory limit before anything large is
# allocated: a run whose per-process estimate passes --max-memory is refused with exit 1, one
# "gonu: error:" line (from the first process over it, not one per process) and no table left;
# and the estimate is per process: 4x4 free's on 4 processes is below its estimate on 1, and
# each is above process 0's measured peak in that run.
# usage: tests/mpi/memory_limit.sh GONU NP
set -euo pipefail
source "$(dirname "$0")/setup.sh"
status=0
"${mpirun[@]}" "$gonu" solve --mpi --board 3x3 --rules free --quiet --max-memory 5M --out "$work/t.gtb" \
  >"$work/out" 2>"$work/err" || status=$?
[ "$status" -ne 0 ] || { echo "memory_limit: a solve over its limit ran" >&2; exit 1; }
errors=$(grep -c '^gonu: error: ' "$work/err" || true)
[ "$errors" -eq 1 ] || { echo "memory_limit: $errors error lines, not 1:" >&2; cat "$work/err" >&2; exit 1; }
grep -q 'more than the limit of 5.0 MiB (--max-memory, per process)' "$work/err" ||
  { echo "memory_limit: the error does not name the per-process limit:" >&2; cat "$work/err" >&2; exit 1; }
[ ! -e "$work/t.gtb" ] || { echo "memory_limit: a table was left behind" >&2; exit 1; }
any=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && any+=(--allow-run-as-root)
estimate() {  # process 0's estimated peak bytes on $1 processes; checked against its measured peak
  "${any[@]}" -np "$1" "$gonu" solve --mpi --board 4x4 --rules free --json >"$work/e.json" 2>"$work/e.err"
  local bytes peak
  bytes=$(sed -n 's/^  "estimated_peak_bytes": \([0-9]*\),$/\1/p' "$work/e.json")
  peak=$(sed -n 's/^mpi: .* peak resident (MiB): \([0-9]*\).*$/\1/p' "$work/e.err")
  [ -n "$bytes" ] && [ -n "$peak" ] || { echo "memory_limit: no estimate or peak on $1 processes" >&2; exit 1; }
  [ "$bytes" -ge $((peak << 20)) ] ||
    { echo "memory_limit: estimated $bytes bytes, below the measured peak of $peak MiB on $1 processes" >&2; exit 1; }
  echo "$bytes"
}
one=$(estimate 1)
many=$(estimate "$np")
echo "memory_limit: refused over the limit; 4x4 free estimated at $one bytes on 1 process, $many on $np (each above the measured peak)"
[ "$many" -lt "$one" ] || { echo "memory_limit: the estimate is not per process" >&2; exit 1; }
