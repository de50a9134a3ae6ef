#!/usr/bin/env bash
# The web explorer: builds gonu, makes the 4x4 `free` table in tables/ if it is missing (about a
# second), and serves every table in tables/ on http://127.0.0.1:8080/ until Ctrl-C.
# Arguments go to `gonu serve` (e.g. --port 9000; --port 0 takes a free port).
# Tables of the other rule sets come from scripts/run.sh (or gonu solve --rules NAME --out FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
gonu=build/bin/gonu
mkdir -p tables
if [ ! -f tables/4x4-free.gonu ]; then
  echo "serve: solving 4x4 free into tables/4x4-free.gonu" >&2
  $gonu solve --rules free --quiet --out tables/4x4-free.gonu >/dev/null
fi
# The 4x4 free table first: the page opens on the first one.
tables=(tables/4x4-free.gonu)
for t in tables/*.gonu; do
  [ "$t" = tables/4x4-free.gonu ] || tables+=("$t")
done
echo "serve: open the address below in a browser (it listens on this machine only)" >&2
exec $gonu serve "${tables[@]}" "$@"
