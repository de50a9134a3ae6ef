#!/usr/bin/env bash
# The web explorer: builds gonu, makes the 4x4 `free` table in tables/ and the Jungi KRvK tables
# in tables/jungi/ if they are missing (about a second each), and serves every table of tables/
# and tables/jungi/ on http://127.0.0.1:8080/ until Ctrl-C (the Jungi tables each opened on its
# first question). Arguments go to `gonu serve` (e.g. --port 9000; --port 0 takes a free port;
# --max-memory 4G for the Jungi tables' block cache).
# Tables of the other rule sets come from scripts/run.sh (or gonu solve --rules NAME --out FILE);
# other Jungi endgames from gonu solve --game jungi --material M --dir tables/jungi.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
gonu=build/bin/gonu
mkdir -p tables/jungi
if [ ! -f tables/4x4-free.gonu ]; then
  echo "serve: solving 4x4 free into tables/4x4-free.gonu" >&2
  $gonu solve --rules free --quiet --out tables/4x4-free.gonu >/dev/null
fi
if ! compgen -G "tables/jungi/*.gonu" >/dev/null; then
  echo "serve: solving the Jungi KRvK ending into tables/jungi/" >&2
  $gonu solve --game jungi --material KRvK --dir tables/jungi --quiet >/dev/null
fi
echo "serve: open the address below in a browser (it listens on this machine only)" >&2
# The 4x4 free table first: the page opens on the first (a file given again by its directory is
# served once).
exec $gonu serve tables/4x4-free.gonu tables tables/jungi "$@"
