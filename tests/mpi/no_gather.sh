#!/usr/bin/env bash
# That `gonu solve --mpi --out` keeps the states where they were computed: the bytes sent after
# the solve (process 0's "mpi: table and report: N bytes sent, ...", the tails of the blocks that
# straddle processes, the index and the report's states) stay under 1 byte a state, where a
# gather to process 0 sends 11 bytes a state of the other processes; the same line with --verify,
# which does gather the arrays, shows that the figure would catch one.
# usage: tests/mpi/no_gather.sh GONU NP RULE-FLAGS...
set -euo pipefail
source "$(dirname "$0")/setup.sh"
after_solve() {  # the bytes sent after the solve, with extra flags $@
  "${mpirun[@]}" "$gonu" solve --mpi "${flags[@]}" --json --out "$work/t.gtb" "$@" >"$work/out.json" 2>"$work/err"
  sed -n 's/^mpi: table[^:]*: \([0-9]*\) bytes sent,.*$/\1/p' "$work/err"
}
flags=("$@")
kept=$(after_solve)
states=$(sed -n 's/^  "states": \([0-9]*\),$/\1/p' "$work/out.json")
gathered=$(after_solve --verify)
echo "no_gather: $states states; after the solve $kept bytes sent (with --verify, which gathers: $gathered)"
[ -n "$kept" ] && [ -n "$states" ] && [ -n "$gathered" ] || { echo "no_gather: a figure is missing" >&2; exit 1; }
[ "$kept" -lt "$states" ] || { echo "no_gather: $kept bytes sent after the solve: a gather?" >&2; exit 1; }
[ "$gathered" -gt $((8 * states * (np - 1) / np)) ] || { echo "no_gather: the gather's figure is too small to tell" >&2; exit 1; }
