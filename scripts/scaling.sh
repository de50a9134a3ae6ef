#!/usr/bin/env bash
# Writes results/scaling.md: wall time of `gonu solve` for 4x4 `free` and `encyclopedia` at 1, 2,
# 4, ... threads up to the machine's cores, best of GONU_RUNS runs (default 3), with the machine.
# The speed targets are measured on the 2-core machine by scripts/bench.sh; this shows how the
# same solves scale on a bigger one. GONU=path uses a gonu built elsewhere (no build here).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GONU:-}" ]; then
  scripts/build.sh gonu
  GONU=build/bin/gonu
fi
runs=${GONU_RUNS:-3}
cores=$(nproc)
threads=()
for ((t = 1; t <= cores; t *= 2)); do threads+=("$t"); done
[ "${threads[-1]}" = "$cores" ] || threads+=("$cores")
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/^MemTotal/ {print int($2 / 1048576)}' /proc/meminfo)
out=results/scaling.md.tmp
{
  echo "# Thread scaling"
  echo
  echo "Written by \`scripts/scaling.sh\`; do not edit by hand."
  echo
  echo "Machine: $cpu, $cores cores, $mem GiB; load average $(cut -d' ' -f1 /proc/loadavg) when the run started."
  echo "Command: \`$GONU solve --rules R --threads N --quiet\`, wall time of the whole process, best of $runs."
  echo "Every run's output is checked to be the same bytes as the 1-thread run's."
  echo
  echo "| rule set | threads | wall (s) | speed-up |"
  echo "|---|---:|---:|---:|"
} > "$out"
for rules in free encyclopedia; do
  base=""
  first=""
  for t in "${threads[@]}"; do
    best=""
    for ((r = 0; r < runs; ++r)); do
      start=$(date +%s.%N)
      answer=$("$GONU" solve --rules "$rules" --threads "$t" --quiet)
      end=$(date +%s.%N)
      if [ -z "$first" ]; then first=$answer; fi
      if [ "$answer" != "$first" ]; then
        echo "scaling.sh: $rules with $t threads printed a different answer" >&2
        exit 1
      fi
      secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
      if [ -z "$best" ] || awk -v s="$secs" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$secs; fi
    done
    [ -n "$base" ] || base=$best
    awk -v r="$rules" -v t="$t" -v s="$best" -v b="$base" 'BEGIN { printf "| %s | %d | %.2f | %.1f |\n", r, t, s, b / s }' >> "$out"
    echo "scaling: $rules $t threads $best s" >&2
  done
done
mv "$out" results/scaling.md
