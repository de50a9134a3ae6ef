#!/usr/bin/env bash
# One distributed solve compared with the single-process one: `gonu solve --mpi` under
# `mpirun -np NP` on loopback against plain `gonu solve`, same rule flags: the --json report
# (less the timing, memory and engine fields, and the table's name) and the table bytes (cmp).
# With RESTART=K in the environment the MPI run is first aborted after restart point K
# (GONU_MPI_STOP_AFTER) and then run again with the same arguments, which must resume and give
# the same bytes.
# usage: tests/mpi/compare.sh GONU NP RULE-FLAGS...   (exit 0: identical)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
strip() { grep -v -E '"(seconds|peak_bytes|bytes_per_state|engine|estimated_peak_bytes|file)"' "$1"; }
"$gonu" solve "$@" --json --quiet --out "$work/one.gtb" >"$work/one.json"
mpi=(solve --mpi "$@" --json --quiet --out "$work/mpi.gtb")
if [ -n "${RESTART:-}" ]; then
  mpi+=(--checkpoint "$work/ckpt")
  if GONU_MPI_STOP_AFTER=$RESTART "${mpirun[@]}" "$gonu" "${mpi[@]}" >"$work/stopped.json" 2>"$work/stopped.err"; then
    echo "compare: the run asked to stop after restart point $RESTART did not stop" >&2
    exit 1
  fi
  ls "$work/ckpt" | grep -q "step-$RESTART" || { echo "compare: no restart point $RESTART" >&2; exit 1; }
  [ ! -e "$work/mpi.gtb" ] || { echo "compare: the stopped run wrote a table" >&2; exit 1; }
fi
"${mpirun[@]}" "$gonu" "${mpi[@]}" >"$work/mpi.json"
cmp "$work/one.gtb" "$work/mpi.gtb"
diff <(strip "$work/one.json") <(strip "$work/mpi.json")
echo "compare: $* on $np processes${RESTART:+ (stopped after restart point $RESTART, resumed)}: same report and table"
