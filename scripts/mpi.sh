#!/usr/bin/env bash
# gonu solve --mpi on this machine's loopback (Open MPI, `mpirun --oversubscribe`, with
# --allow-run-as-root when run as root), against the single-process solve.
#   scripts/mpi.sh                 the check: every finite rule set (untagged and tagged) on 3x3,
#                                  3x4 and 4x3 on 2, 4 and 8 processes (tests/mpi/compare.sh: the --json values
#                                  and the table bytes), and one run aborted after a restart point
#                                  and resumed.
#   scripts/mpi.sh --measure BOARD [RULE-FLAGS...]
#                                  the timings for results/mpi.md: the single-process compact solve,
#                                  then --mpi on 1, 2, 4 and 8 processes (NPS overrides: NPS="1 2"),
#                                  each checked against it (the report, and the table, written by
#                                  every process, with cmp); per run the wall time, the bytes sent
#                                  in all and each process's peak resident memory, and the bytes
#                                  sent per level in build/mpi-BOARD-NP.levels.
#   scripts/mpi.sh --plan          the plan table of results/mpi.md (scripts/mpi_plan.py): the
#                                  boards past one machine, from gonu's estimates and the rate
#                                  measured here (MPI_RATE, states a second, overrides).
#   scripts/mpi.sh --jungi-plan    the section "Jungi: every 5-piece table on a cluster" of
#                                  results/mpi.md (scripts/jungi_plan.py): from `gonu solve --game jungi
#                                  --all 5 --plan` and the rates measured in results/jungi.md and
#                                  FORMAT.md, and a run measured here: `--all 3` by one process and by
#                                  two under --mpi, timed, their files and stdout compared.
set -euo pipefail
cd "$(dirname "$0")/.."
# GONU=PATH runs that binary instead of building build/bin/gonu (a measurement beside a running one).
if [ -n "${GONU:-}" ]; then gonu=$GONU; else scripts/build.sh gonu; gonu=build/bin/gonu; fi
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
strip() { grep -v -E '"(seconds|peak_bytes|bytes_per_state|engine|estimated_peak_bytes|file)"' "$1"; }

if [ "${1:-}" = "--jungi-plan" ]; then
  exec python3 scripts/jungi_plan.py "$gonu" "${mpirun[@]}"
fi
if [ "${1:-}" = "--plan" ]; then
  # 5x5 free on one MPI process here: 2,296,238,932 states in 2,456 s (results/mpi.md).
  exec python3 scripts/mpi_plan.py "$gonu" "${MPI_RATE:-935000}"
fi

if [ "${1:-}" != "--measure" ]; then
  for board in 3x3 3x4 4x3; do
    for capture in line single; do
      for corner in off on; do
        for np in 2 4 8; do
          tests/mpi/compare.sh "$gonu" "$np" --board "$board" --capture "$capture" --corner "$corner" --repetition none
        done
      done
    done
  done
  for board in 3x3 3x4 4x3; do
    for repetition in immediate undo; do
      for capture in line single; do
        for corner in off on; do
          for np in 2 4 8; do
            tests/mpi/compare.sh "$gonu" "$np" --board "$board" --capture "$capture" --corner "$corner" \
              --repetition "$repetition"
          done
        done
      done
    done
  done
  RESTART=30 tests/mpi/compare.sh "$gonu" 8 --board 3x4 --rules free
  RESTART=40 tests/mpi/compare.sh "$gonu" 8 --board 3x3 --rules encyclopedia
  exit 0
fi

shift
board=$1
shift
flags=(--board "$board" "$@")
[ $# -gt 0 ] || flags+=(--rules free)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lscpu | sed -n 's/^Model name: *//p')"
echo "command: gonu solve ${flags[*]} --json --quiet --out FILE [--mpi under ${mpirun[*]} -np N]"
one=$(mktemp -p build mpi-measure.XXXXXX)
trap 'rm -f "$one" "$one".*' EXIT
/usr/bin/time -f "%e %M" -o "$one.time" "$gonu" solve "${flags[@]}" --engine compact --json --quiet --out "$one.gtb" >"$one"
read -r wall peak <"$one.time"
printf 'single process (compact engine): %s s wall, %d MiB peak\n' "$wall" $((peak / 1024))
for np in ${NPS:-1 2 4 8}; do
  start=$(date +%s.%N)
  "${mpirun[@]}" -np "$np" "$gonu" solve --mpi "${flags[@]}" --json --out "$one.mpi.gtb" >"$one.mpi" 2>"$one.err"
  end=$(date +%s.%N)
  diff <(strip "$one") <(strip "$one.mpi") >/dev/null || { echo "mpi.sh: $np processes: report differs" >&2; exit 1; }
  cmp "$one.gtb" "$one.mpi.gtb" || { echo "mpi.sh: $np processes: table differs" >&2; exit 1; }
  grep '^mpi: .* level' "$one.err" | sed 's/^mpi: //' >"build/mpi-$board-$np.levels"
  printf '%d processes: %.2f s wall; %s\n' "$np" "$(awk "BEGIN {print $end - $start}")" \
    "$(grep '^mpi: .* in all' "$one.err" | sed 's/^mpi: //')"
done
