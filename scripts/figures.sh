#!/usr/bin/env bash
# Draws the figures of results/figures.md into results/figures/ (PNG, matplotlib):
#   distance-4x4.png  states and W/L/D per distance to the end, 4x4, each finite rule set
#                     (`gonu solve --stats --json`; free and single take about a second, the
#                     tagged ones 20 to 30 s each on two cores)
#   values.png        the start's value by board and rule set, from results/values.csv
#   soldiers.png      the Games of Soldiers example and its winning line (`gonu query --json`)
# Beside each figure, FIGURE.png.sha256: the hash of the data it was drawn from.
#   scripts/figures.sh           solve, draw every figure, write the hashes
#   scripts/figures.sh --check   solve, draw nothing: fail (exit 1, one line a figure) when a figure
#                                is not drawn from the data it shows now (ctest checks values.png
#                                against results/values.csv alone: `figures.py --check-values`)
# Builds gonu through scripts/build.sh; GONU=PROGRAM uses that gonu instead. GONU_FIGURE_RULESETS="free undo"
# draws fewer rule sets (and --check then checks the figure drawn with those).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=draw
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: scripts/figures.sh [--check]" >&2; exit 2 ;;
esac
if [ -n "${GONU:-}" ]; then
  gonu=$GONU
else
  scripts/build.sh gonu
  gonu=build/bin/gonu
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rulesets=${GONU_FIGURE_RULESETS:-free single single+corner encyclopedia undo single-immediate single+corner-immediate}
flags_of() {  # as scripts/results.sh names them
  case "$1" in
    free|encyclopedia|undo) echo "--rules $1" ;;
    single) echo "--rules free --capture single" ;;
    single+corner) echo "--rules free --capture single --corner on" ;;
    single-immediate) echo "--rules encyclopedia --capture single" ;;
    single+corner-immediate) echo "--rules encyclopedia --capture single --corner on" ;;
    *) echo "unknown rule set $1" >&2; exit 2 ;;
  esac
}
for rs in $rulesets; do
  echo "figures: solving 4x4 $rs" >&2
  # shellcheck disable=SC2046
  "$gonu" solve $(flags_of "$rs") --board 4x4 --stats --json --quiet >"$work/stats-$rs.json"
done
position='.w../w.xw/xx../..w. w'
"$gonu" solve --rules free --from "$position" --quiet --out "$work/soldiers.gonu" >/dev/null
"$gonu" query "$work/soldiers.gonu" --json >"$work/soldiers.json"
# Debian's python3 (its python3-matplotlib), even where another python3 comes first on PATH.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if [ "$mode" = check ]; then
  status=0
  # shellcheck disable=SC2086
  "$py" scripts/figures.py --check "$work" results/values.csv results/figures $rulesets || status=$?
  exit "$status"
fi
mkdir -p results/figures
# shellcheck disable=SC2086
"$py" scripts/figures.py "$work" results/values.csv results/figures $rulesets
ls -l results/figures >&2
