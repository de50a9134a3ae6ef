#!/usr/bin/env bash
# Writes results/jungi.md: Jungi endgame tables solved in memory by `gonu solve --game jungi`
# (positions, W/L/D for each side to move, the longest win with its position, time and peak
# memory of each), with the machine and the commands: every 2-piece material, a few 3-piece ones
# and one 4-piece table whose pieces are all promoted, so that it leads only to smaller tables
# (GONU_JUNGI_MATERIALS, default "KPvK KRvK +Kv+K+R +K+Rv+K+N").
#   scripts/jungi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
materials=${GONU_JUNGI_MATERIALS:-KPvK KRvK +Kv+K+R +K+Rv+K+N}
gonu=build/bin/gonu
out=results/jungi.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # run NAME ARGS...: the report and GNU time's figures of one command
  local name=$1
  shift
  /usr/bin/time -f "%e s (%U s of CPU in user mode, both cores), %M KiB at peak (resident)" -o "$tmp/$name.time" "$gonu" solve --game jungi "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err"
}
run all2 --all 2
for m in $materials; do run "m_$m" --material "$m"; done
{
  echo "# Jungi endgame tables"
  echo
  echo "Written by \`scripts/jungi.sh\`; do not edit by hand."
  echo
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
  echo "Machine: $cpu, $(nproc) cores, $(awk '/^MemTotal:/{printf "%d", $2/1048576}' /proc/meminfo) GiB;" \
       "load average $(cut -d' ' -f1 /proc/loadavg) when the run ended; all cores used."
  echo
  echo "Each command solves the material named and, first, every material its captures and"
  echo "promotions lead to (smaller ones first). Positions count both mirror images of a position"
  echo "whose South royal stands on the e-file (the index keeps both). Distances are in plies to the"
  echo "royal's capture (or a side without a move); en-passant positions are derived, not counted."
  echo
  echo "## \`gonu solve --game jungi --all 2\`"
  echo
  echo "Whole command: $(cat "$tmp/all2.time")."
  echo
  echo '```'
  cat "$tmp/all2.out"
  echo '```'
  for m in $materials; do
    echo
    echo "## \`gonu solve --game jungi --material $m\`"
    echo
    echo "Whole command: $(cat "$tmp/m_$m.time")."
    echo
    echo '```'
    cat "$tmp/m_$m.out"
    echo '```'
  done
} >"$out"
echo "wrote $out"
