#!/usr/bin/env bash
# Jungi tables by whole files over MPI processes against one process: `gonu solve --game jungi
# --mpi --dir` under `mpirun -np NP` on loopback against plain `gonu solve --dir`, same arguments:
# the same stdout and the same files, byte for byte. Then the run over processes resumed: a table
# read by others and the target's own removed from its folder and the run made again (on NP + 1
# processes, another deal) must solve only those and give the same bytes; and --out, written by
# process 0, the single process's --out. Last, a damaged table in the folder is refused in one
# line before anything is solved.
# usage: tests/mpi/jungi_compare.sh GONU NP JUNGI-FLAGS...   (exit 0: identical)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
mkdir "$work/one" "$work/mpi"
"$gonu" solve --game jungi "$@" --dir "$work/one" --out "$work/one.gonu" --quiet >"$work/one.out"
"${mpirun[@]}" "$gonu" solve --game jungi --mpi "$@" --dir "$work/mpi" --out "$work/mpi.gonu" >"$work/mpi.out" 2>"$work/mpi.err"
same() {
  diff "$work/one.out" "$work/mpi.out"
  diff <(ls "$work/one") <(ls "$work/mpi")
  for f in "$work"/one/*; do cmp "$f" "$work/mpi/$(basename "$f")"; done
  cmp "$work/one.gonu" "$work/mpi.gonu"
}
same
files=$(ls "$work/one" | wc -l)
grep -q "^$files materials: $files solved by $np processes" "$work/mpi.err" || { cat "$work/mpi.err" >&2; exit 1; }
# The target's table (the last one written) and the first of the run's order, read by others.
rm "$work/mpi.gonu" "$work/mpi/$(ls -t "$work/mpi" | head -1)" "$work/mpi/$(ls -tr "$work/mpi" | head -1)"
mpirun=(mpirun --oversubscribe -np "$((np + 1))")
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
"${mpirun[@]}" "$gonu" solve --game jungi --mpi "$@" --dir "$work/mpi" --out "$work/mpi.gonu" >"$work/mpi.out" 2>"$work/mpi.err"
same
grep -q "^$files materials: 2 solved by $((np + 1)) processes" "$work/mpi.err" || { cat "$work/mpi.err" >&2; exit 1; }
# A damaged file in DIR: refused before anything is solved, in one line from one process.
target=$(ls -t "$work/mpi" | head -1)
rm "$work/mpi/$target"
damaged=$work/mpi/$(ls -S "$work/mpi" | head -1)
printf '\377\377\377' | dd of="$damaged" bs=1 seek=$(($(stat -c %s "$damaged") - 8)) conv=notrunc 2>/dev/null
if "${mpirun[@]}" "$gonu" solve --game jungi --mpi "$@" --dir "$work/mpi" >"$work/bad.out" 2>"$work/bad.err"; then
  echo "jungi_compare: a damaged table was not refused" >&2
  exit 1
fi
[ "$(grep -c '^gonu: error: .*the payload checksum does not match' "$work/bad.err")" -eq 1 ] || { cat "$work/bad.err" >&2; exit 1; }
[ ! -e "$work/mpi/$target" ] && [ ! -s "$work/bad.out" ] || { echo "jungi_compare: the refused run solved or printed" >&2; exit 1; }
echo "jungi_compare: $* on $np processes, and resumed on $((np + 1)): same stdout and tables; a damaged table refused"
