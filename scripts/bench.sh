#!/usr/bin/env bash
# Runs the Google Benchmark programs under tests/bench/ and writes results/bench.md with the
# machine, the thread counts and the commands. Speed claims in the README and docs/ come from here.
# GONU_BENCH_FILTER narrows the run (a Google Benchmark regex).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
filter=${GONU_BENCH_FILTER:-.}
benches=()
for b in build/bin/bench_*; do
  name=$(basename "$b")
  echo "bench: $name" >&2
  "$b" --benchmark_filter="$filter" --benchmark_format=json --benchmark_out="$tmp/$name.json" \
       --benchmark_out_format=json >/dev/null
  benches+=("$tmp/$name.json")
done
python3 scripts/gonu_report.py bench results/bench.md "$filter" "${benches[@]}"
