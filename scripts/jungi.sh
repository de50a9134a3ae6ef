#!/usr/bin/env bash
# Writes results/jungi.md: Jungi endgame tables solved by `gonu solve --game jungi` (positions, W/L/D
# for each side to move, the longest win with its position, time and peak memory), with the
# machine and the commands:
#   - every material of up to three pieces (`--all 3`), written as table files into a fresh
#     directory and each file checked by `gonu verify`, with what a player wants from them
#     (scripts/jungi_findings.py: King against King, one piece against a bare royal, the longest
#     wins) and the files' size on disk;
#   - a few 4-piece materials solved in memory with their closure (GONU_JUNGI_MATERIALS, default
#     "+K+Rv+K+N +KCRv+K": the first with all its pieces promoted, so that it leads only to
#     smaller tables; the second with two pieces that promote, whose promotions lead to three
#     tables of four pieces, the kind most 4-piece tables are);
#   - with GONU_JUNGI_FOUR_DIR=DIR, how far the resumable run of every material of up to four
#     pieces into DIR (`--four DIR` below) has come, read from its files and logs
#     (scripts/jungi_progress.py), with what a player wants from the 4-piece tables, and every
#     table's figures in results/jungi4.csv, and the estimate of the whole run's time from the
#     sample a `--time DIR` run timed (scripts/jungi_time.py);
#   - with GONU_JUNGI_FIVE_DIR=DIR, the chosen 5-piece materials a `--five DIR` run (below) solved
#     there, from its logs; without it, that section of results/jungi.md is kept as it was.
#   scripts/jungi.sh
#
# Off by default, `scripts/jungi.sh --four DIR` instead solves every material of up to four
# pieces (`--all 4 --dir DIR`, hours; `--all 4 --plan` lists the tables) one material at a time in
# bounded memory (GONU_JUNGI_MAX_MEMORY, default 8G, bounds the tables held; the memory estimate
# on stderr names the largest step), then checks each table file in DIR with `gonu verify` (a
# table of four pieces by every 1000th placement, GONU_JUNGI_VERIFY_SAMPLE; the others whole). Both
# halves resume: run it again after a stop and the solve goes on from the files in DIR, and the
# files listed in DIR/verified.list are not verified again. The logs go to DIR/allN.out (stdout:
# every table's block), DIR/allN.err (stderr, appended run after run: each table's solve time)
# and DIR/allN.time (GNU time's line for each run's solve process), with DIR/allN.speed (the
# machine's speed before and after each, by a benchmark), read by scripts/jungi_progress.py. GONU_JUNGI_ALL (default 4) sets N, for a shorter check (3: 83
# tables). Writes nothing into results/.
#   scripts/jungi.sh --four DIR
#
# `scripts/jungi.sh --time DIR [STEP]` measures what solving every table of up to four pieces
# costs this gonu on this machine, by a systematic sample: every STEP-th 4-piece material of the
# run's order (default 20) is solved again (`gonu solve --game jungi --material M --dir SCRATCH`,
# SCRATCH holding hard links to DIR's other tables, so that its reads are loaded from disk as a
# resumed run loads them), timed by GNU time, and its file compared byte for byte with DIR's. One
# line a material goes to DIR/time-STEP.tsv (resumable: a material there is not solved again);
# `scripts/jungi.sh` with GONU_JUNGI_FOUR_DIR=DIR then writes the estimate for the whole run into
# results/jungi.md (scripts/jungi_time.py). Needs a complete DIR (`--four DIR` first); run it
# with nothing else on the machine.
#   scripts/jungi.sh --time DIR 20
#
# `scripts/jungi.sh --five DIR MATERIAL...` solves a chosen few 5-piece materials into DIR, one
# after the other (`nice -n 19 gonu solve --game jungi --material M --dir DIR`; seed DIR with the
# tables of their closures already solved, e.g. from a --four DIR, and only the rest is solved),
# each timed by GNU time with its logs kept in DIR (five-M.out, five-M.err, five-M.time: a material
# with its five-M.time there is not solved again) and its table checked by `gonu verify --sample
# 1000` (five-M.verify), then writes the section "Five pieces: a chosen
# few" of results/jungi.md from those logs (scripts/jungi_five.py: each material's W/L/D, longest
# win, time and memory, beside the tables of one piece fewer of its kind), replacing it there.
#   scripts/jungi.sh --five DIR +K+C+C+Cv+K
# GONU=PATH runs that binary instead of building build/bin/gonu (a run beside a build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n ${GONU:-} ]]; then gonu=$GONU; else scripts/build.sh gonu; gonu=$PWD/build/bin/gonu; fi
materials=${GONU_JUNGI_MATERIALS:-+K+Rv+K+N +KCRv+K}
out=results/jungi.md

# --five DIR MATERIAL...: the chosen 5-piece materials into DIR, then their section.
if [[ ${1:-} == --five ]]; then
  dir=${2:?usage: scripts/jungi.sh --five DIR MATERIAL...}
  shift 2
  (($# > 0)) || { echo "usage: scripts/jungi.sh --five DIR MATERIAL..." >&2; exit 1; }
  for m in "$@"; do
    [[ -e $dir/five-$m.time ]] && continue
    /usr/bin/time -f "%e s (%U s of CPU in user mode), %M KiB at peak (resident)" -o "$dir/five-$m.time.part" \
      nice -n 19 "$gonu" solve --game jungi --material "$m" --dir "$dir" >"$dir/five-$m.out" 2>"$dir/five-$m.err" ||
      { tail -1 "$dir/five-$m.err" >&2; exit 1; }
    mv "$dir/five-$m.time.part" "$dir/five-$m.time"
  done
  # Each table checked by gonu verify (its header, checksums and counts in full; every
  # GONU_JUNGI_VERIFY_SAMPLE-th placement, default 1000, re-derived from its successors), once.
  for m in "$@"; do
    [[ -e $dir/five-$m.verify ]] && continue
    file=$(cd "$dir" && ls -- "$m".*.gonu)
    (cd "$dir" && nice -n 19 "$gonu" verify "$file" --quiet --sample "${GONU_JUNGI_VERIFY_SAMPLE:-1000}" | head -1) \
      >"$dir/five-$m.verify.part"
    mv "$dir/five-$m.verify.part" "$dir/five-$m.verify"
  done
  GONU=$gonu python3 scripts/jungi_five.py "$dir" "$out" "$@"
  echo "wrote the section \"Five pieces: a chosen few\" of $out"
  exit 0
fi

# --time DIR [STEP]: a systematic sample of the 4-piece tables solved again and timed.
if [[ ${1:-} == --time ]]; then
  dir=${2:?usage: scripts/jungi.sh --time DIR [STEP]}
  step=${3:-20}
  log=$dir/time-$step.tsv
  [[ -e $log ]] || printf 'material\tindices\twall_s\tuser_s\tsystem_s\tsolve_s\tpeak_kib\n' >"$log"
  scratch=$(mktemp -d "$dir/../time-scratch.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  ln "$dir"/*.gonu "$scratch"/
  k=0
  while IFS=$'\t' read -r _ material pieces indices _; do
    [[ $pieces == 4 ]] || continue
    k=$((k + 1))
    (((k - 1) % step == 0)) || continue
    cut -f1 "$log" | grep -qxF -- "$material" && continue
    file=$(cd "$dir" && ls -- "$material".*.gonu)
    rm "$scratch/$file"
    /usr/bin/time -f "%e\t%U\t%S\t%M" -o "$scratch/time" \
      "$gonu" solve --game jungi --material "$material" --dir "$scratch" >/dev/null 2>"$scratch/err" ||
      { tail -1 "$scratch/err" >&2; exit 1; }
    cmp -s "$scratch/$file" "$dir/$file" || { echo "$material: the table solved again differs from $dir/$file" >&2; exit 1; }
    solve=$(sed -n "s/^  $(printf '%s' "$material" | sed 's/[+]/[+]/g') solved in \([0-9.]*\) s.*/\1/p" "$scratch/err")
    IFS=$'\t' read -r wall user sys peak <"$scratch/time"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$material" "$indices" "$wall" "$user" "$sys" "$solve" "$peak" >>"$log"
  done < <("$gonu" solve --game jungi --all 4 --plan | tail -n +2)
  echo "$log: $(($(wc -l <"$log") - 1)) materials timed"
  exit 0
fi

# --four DIR: every material of up to GONU_JUNGI_ALL (4) pieces into DIR, resumable, then verified.
if [[ ${1:-} == --four ]]; then
  dir=${2:?usage: scripts/jungi.sh --four DIR}
  n=${GONU_JUNGI_ALL:-4}
  mkdir -p "$dir"
  # stdout afresh (a resumed run prints every table's block, from the files it finds), stderr
  # appended: its line for each table solved, with the time, is kept across resumed runs. GNU
  # time's line for the process (wall, user and system seconds, peak KiB) is appended to
  # DIR/allN.time: one line from a run from scratch is the whole run's time, loads and writes in.
  # A process stopped together with GNU time (a session's machine taken back) leaves no line; one
  # is added by hand, "WALL\t-\t-\t-": WALL from its start (a first process's is DIR/allN.time's
  # creation, stat's %w) to its last table file's mtime, its CPU not known; the run's time counts it.
  # This shared machine's speed drifts by up to 1.7 times from hour to hour, so the solve is
  # bracketed by BM_JungiPerftStart/4 (bench_jungi beside gonu, median of 3 runs, in ms; results/
  # bench.md has the figure of a quiet hour), appended to DIR/allN.speed as "date\tbefore|after\tms".
  speed() {
    local bench ms
    bench=$(dirname "$gonu")/bench_jungi
    [[ -x $bench ]] || return 0
    ms=$("$bench" --benchmark_filter='BM_JungiPerftStart/4$' --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
      2>/dev/null | awk '/_median/ {print $2}')
    printf '%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$1" "$ms" >>"$dir/all$n.speed"
  }
  speed before
  /usr/bin/time -a -o "$dir/all$n.time" -f "%e\t%U\t%S\t%M" \
    "$gonu" solve --game jungi --all "$n" --dir "$dir" --max-memory "${GONU_JUNGI_MAX_MEMORY:-8G}" \
    >"$dir/all$n.out" 2>>"$dir/all$n.err" || { speed after; tail -1 "$dir/all$n.err" >&2; exit 1; }
  speed after
  touch "$dir/verified.list"
  # Tables of an older format than this gonu writes are written again in the current one by
  # `gonu repack`, which reads each new file back and compares it with the old before it replaces
  # it: their values, verified before, are unchanged, and stay in verified.list.
  "$gonu" repack "$dir"/*.gonu >"$dir/repack.out" || exit 1
  grep -v ': format [0-9]* already$' "$dir/repack.out" || true
  # The files not verified yet, in the run's order (--plan: what a table reads comes before it),
  # in one gonu verify run for each sample rate, which keeps the tables read for the next file:
  # each table is then read about once. Tables of four pieces or more: every
  # GONU_JUNGI_VERIFY_SAMPLE-th placement re-derived (default 1000; a whole 4-piece table takes
  # minutes to re-derive), smaller ones whole. Each file that passes goes into verified.list.
  small=() large=() total=0
  while IFS=$'\t' read -r _ material pieces _; do
    file=$(cd "$dir" && ls -- "$material".*.gonu 2>/dev/null) || continue
    total=$((total + 1))
    grep -qxF "$file" "$dir/verified.list" && continue
    if ((pieces >= 4)); then large+=("$dir/$file"); else small+=("$dir/$file"); fi
  done < <("$gonu" solve --game jungi --all "$n" --plan | tail -n +2)
  # (sed -u: each file goes into verified.list as it passes, so a stop loses none.)
  verify_all() {  # verify_all SAMPLE FILE...
    local sample=$1
    shift
    (($#)) || return 0
    "$gonu" verify --quiet --sample "$sample" --max-memory "${GONU_JUNGI_MAX_MEMORY:-8G}" "$@" |
      sed -u -n 's|^OK .*/\([^/]*\.gonu\): header.*|\1|p' >>"$dir/verified.list"
  }
  verify_all 1 "${small[@]}" || { echo "verify failed" >&2; exit 1; }
  verify_all "${GONU_JUNGI_VERIFY_SAMPLE:-1000}" "${large[@]}" || { echo "verify failed" >&2; exit 1; }
  checked=$((${#small[@]} + ${#large[@]}))
  echo "$dir: $total table files, all verified ($checked in this run); $(tail -1 "$dir/all$n.err")"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timed() {  # timed NAME COMMAND...: GNU time's figures of one command, its output in NAME.out
  local name=$1
  shift
  /usr/bin/time -f "%e s (%U s of CPU in user mode, both cores), %M KiB at peak (resident)" -o "$tmp/$name.time" \
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
}
# The section of the chosen 5-piece tables is written from a --five run's logs (below); without
# GONU_JUNGI_FIVE_DIR the one already in $out is kept as it is.
if [[ -z ${GONU_JUNGI_FIVE_DIR:-} && -f $out ]]; then
  sed -n '/^## Five pieces: a chosen few$/,$p' "$out" >"$tmp/five.md"
fi
# So is the section of every 4-piece table without GONU_JUNGI_FOUR_DIR (the run takes hours),
# marked as a run's of a gonu that counted indices where that run was made before format 5.
if [[ -z ${GONU_JUNGI_FOUR_DIR:-} && -f $out ]]; then
  sed -n '/^## Every material of up to four pieces/,/^## Five pieces: a chosen few$/p' "$out" | sed '$d' >"$tmp/four.md"
  if ! grep -q 'counted indices' "$tmp/four.md"; then
    note='(Kept from the last run of every 4-piece table, made before table format 5 by a gonu that counted indices: its positions and shares count both mirror images of a position whose South royal stands on the e-file and one of the others, not the whole board. `scripts/jungi.sh --four DIR`, then `GONU_JUNGI_FOUR_DIR=DIR scripts/jungi.sh`, counts them anew.)'
    awk -v note="$note" 'NR == 2 {print; print note; next} {print}' "$tmp/four.md" >"$tmp/four2.md"
    mv "$tmp/four2.md" "$tmp/four.md"
  fi
fi
mkdir "$tmp/tables"
timed all3 "$gonu" solve --game jungi --all 3 --dir "$tmp/tables" --quiet
files=$(find "$tmp/tables" -name '*.gonu' | wc -l)
bytes=$(find "$tmp/tables" -name '*.gonu' -printf '%s\n' | awk '{s += $1} END {print s}')
verify_start=$SECONDS
verified=0
for f in "$tmp"/tables/*.gonu; do
  (cd "$tmp/tables" && "$gonu" verify "$(basename "$f")" --quiet >/dev/null) || { echo "verify failed: $f" >&2; exit 1; }
  verified=$((verified + 1))
done
verify_s=$((SECONDS - verify_start))
for m in $materials; do timed "m_$m" "$gonu" solve --game jungi --material "$m"; done
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
  echo "promotions lead to (smaller ones first). A material and its colour flip (sides swapped) share"
  echo "one table, kept for the side with more pieces (KRvK holds KvKR). Positions are those of the whole"
  echo "board, each distinct position once (a table's index keeps one of a position and its left-right"
  echo "mirror image, both where South's royal stands on the e-file). Distances are in plies to the"
  echo "royal's capture (or a side without a move); en-passant positions are derived, not counted."
  echo
  echo "## Every material of up to three pieces"
  echo
  echo "\`gonu solve --game jungi --all 3 --dir DIR\` (a fresh DIR): $(cat "$tmp/all3.time")."
  echo "$files table files, $(printf "%'d" "$bytes") bytes in all; each checked by \`gonu verify\`"
  echo "($verified of $files verified, ${verify_s} s in all)."
  echo
  python3 scripts/jungi_findings.py <"$tmp/all3.out"
  echo
  echo "### Every table"
  echo
  echo '```'
  cat "$tmp/all3.out"
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
  if [[ -n ${GONU_JUNGI_FOUR_DIR:-} ]]; then
    echo
    echo "## Every material of up to four pieces (a run across sessions)"
    echo
    echo "\`scripts/jungi.sh --four DIR\` (\`gonu solve --game jungi --all 4 --dir DIR\`, one material at a"
    echo "time, resuming from the files in DIR), as far as it has come:"
    echo
    python3 scripts/jungi_progress.py "$gonu" "$GONU_JUNGI_FOUR_DIR" 4 results/jungi4.csv
    echo
    echo "Every table's figures, one row a table: results/jungi4.csv (positions, W/L/D for each side to move,"
    echo "the longest win and its position, bytes on disk, the solve's seconds as logged)."
    timing=$(python3 scripts/jungi_time.py "$gonu" "$GONU_JUNGI_FOUR_DIR")
    if [[ -n $timing ]]; then
      echo
      echo "### How long every table takes: a timed sample"
      echo
      echo "$timing"
    fi
  fi
  if [[ -s $tmp/four.md ]]; then
    echo
    cat "$tmp/four.md"
  fi
} >"$out"
# The chosen 5-piece materials' section, from the logs a --five run kept (see above), or as it was.
if [[ -s $tmp/five.md ]]; then
  { echo; cat "$tmp/five.md"; } >>"$out"
fi
if [[ -n ${GONU_JUNGI_FIVE_DIR:-} ]]; then
  mapfile -t five < <(cd "$GONU_JUNGI_FIVE_DIR" && ls five-*.time | sed 's/^five-//; s/\.time$//')
  GONU=$gonu python3 scripts/jungi_five.py "$GONU_JUNGI_FIVE_DIR" "$out" "${five[@]}"
fi
echo "wrote $out"
