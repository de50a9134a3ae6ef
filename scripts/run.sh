#!/usr/bin/env bash
# The main job: installs what is missing, builds, solves 4x4 Jul-gonu under the `free`,
# `encyclopedia` and `undo` readings, prints a table of the answers, writes the endgame tables to
# tables/ and shows `gonu query` on the start position; makes the Python module importable.
# Options: GONU_RULES="free" scripts/run.sh solves only the listed rule sets.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu gonu_python
gonu=build/bin/gonu
# `import gonu` for this user's python3 without installing: a .pth file in the user's
# site-packages naming build/python (what an editable pip install does); `cmake --install build`
# installs the module properly instead.
site=$(python3 -m site --user-site)
mkdir -p "$site" && echo "$PWD/build/python" >"$site/gonu-build.pth"
mkdir -p tables
rules=${GONU_RULES:-free encyclopedia undo}
summary=()
for r in $rules; do
  echo "== solving 4x4 under '$r' ==" >&2
  json=$($gonu solve --rules "$r" --json --quiet --out "tables/4x4-$r.gonu")
  summary+=("$(python3 scripts/gonu_report.py run-summary - <<<"$json")")
done
echo
echo "4x4 Jul-gonu, Black moves first; values for the side to move"
printf '%-13s %13s %14s %12s %12s %12s  %s\n' "rules" "states" "move edges" "WIN" "LOSS" "DRAW" "start"
printf '%s\n' "${summary[@]}"
echo
first=${rules%% *}
echo "== gonu query tables/4x4-$first.gonu (the start position) =="
$gonu query "tables/4x4-$first.gonu"
