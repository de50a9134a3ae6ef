#!/usr/bin/env bash
# Runs the fuzzers (scripts/fuzz.sh), the sanitizer runs (scripts/sanitize.sh) and the hostile
# input and starved resource reproducers (scripts/hostile.sh), and writes what they did and found
# to results/reliability.md: targets, seconds, inputs executed, crashes; the ASan/UBSan test run
# and the TSan solve and verify, with their times; per reproducer, its tries and failures.
#   scripts/reliability.sh [FUZZ_SECONDS]     (default 60 per target)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
t0=$SECONDS
scripts/fuzz.sh "$seconds"
fuzz_rc=$?
fuzz_s=$((SECONDS - t0))
t0=$SECONDS
scripts/sanitize.sh all
san_rc=$?
san_s=$((SECONDS - t0))
# The fault and hostile-file tests (tests/test_table_atomic.cpp, tests/test_table_hostile.cpp):
# full disks, kill -9 during a write, targets that are not regular files, crafted headers.
scripts/build.sh gonu gonu_tests
t0=$SECONDS
fault_rc=0
build/bin/gonu_tests "[atomic],[hostile]" --durations yes >build/fault-tests.log 2>&1 || fault_rc=$?
fault_s=$((SECONDS - t0))
t0=$SECONDS
scripts/hostile.sh
hostile_rc=$?
hostile_s=$((SECONDS - t0))

out=results/reliability.md
mkdir -p results
{
  echo "# Reliability: fuzzing, sanitizers and faults"
  echo
  echo "Written by \`scripts/reliability.sh $seconds\` on $(date -u +%Y-%m-%d) at commit" \
       "$(git rev-parse --short HEAD 2>/dev/null || echo '?'), on $(nproc) cores" \
       "($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end;" \
       "$(clang++ --version 2>/dev/null | head -1)."
  echo
  echo "## Fuzzing (libFuzzer + ASan + UBSan, \`scripts/fuzz.sh $seconds\`)"
  echo
  echo "Each target had $seconds s on a copy of its corpus in tests/fuzz/corpus/ (small tables"
  echo "from \`gonu solve --out\`, positions and move lists, certificates from \`gonu solve --certificate\`)."
  echo "fuzz_table tries each input as given and again with its checksums recomputed, so that"
  echo "mutations reach the layout checks, the Elias-Fano decoding and verify_table. fuzz_cli runs"
  echo "gonu's own dispatch (run_gonu) in-process on fuzzer-chosen arguments and checks every answer:"
  echo "valid UTF-8, JSON with --json, one line per error (exit 1), the usage on a usage error (exit 2),"
  echo "never an internal error. Saved inputs of tests/fuzz/regressions/ are replayed first."
  echo
  echo "| target | what it feeds | result |"
  echo "|---|---|---|"
  while IFS= read -r line; do
    name=${line%%:*}
    case "$name" in
      fuzz_table) feeds="table file bytes: Table::open, find, query_state, verify_table" ;;
      fuzz_notation) feeds="text: rule parts, board size, positions, play, play_history, parse_move" ;;
      fuzz_certificate) feeds="text: check_certificate" ;;
      fuzz_serve) feeds="HTTP requests: gonu serve's routes, API and error handlers over two tables" ;;
      fuzz_jungi_notation) feeds="text: Jungi positions and moves, legal moves, un-moves" ;;
      fuzz_cli) feeds="command lines: gonu query (two tables, --history, --json), moves, show, perft, both games" ;;
      fuzz_jungi_table) feeds="Jungi table file bytes: TableFile::open, value, load (checksums recomputed)" ;;
      *) feeds="" ;;
    esac
    echo "| $name | $feeds | ${line#*: } |"
  done <build-fuzz/fuzz-summary.txt
  echo
  echo "Exit status of fuzz.sh: $fuzz_rc (build and runs: $fuzz_s s). A target stops at its first"
  echo "crash, so while a saved regression is unfixed its target's count of inputs is short."
  echo
  echo "Saved crashing inputs (tests/fuzz/regressions/, described in its README.md):"
  echo
  found=0
  for f in tests/fuzz/regressions/*/*; do
    [ -f "$f" ] || continue
    found=1
    target=fuzz_$(basename "$(dirname "$f")")
    if build-fuzz/bin/"$target" "$f" >/dev/null 2>&1; then state="runs clean now"; else state="still crashes"; fi
    echo "- \`$f\`: $state"
  done
  [ "$found" = 1 ] || echo "- none"
  echo
  echo "## Fault and hostile-file tests (ctest; \`build/bin/gonu_tests \"[atomic],[hostile]\"\`)"
  echo
  echo "Full disks (a file-size limit on the writer, SIGXFSZ ignored), kill -9 at random moments of"
  echo "\`gonu solve --out\`, targets that are not regular files, and crafted table headers (offsets that"
  echo "wrap around 2^64, out-of-range root tags, board sizes and rule codes, every numeric field at its"
  echo "extremes, checksums recomputed) through \`gonu info\`, \`query\` and \`verify\`."
  echo
  echo "| test case | seconds |"
  echo "|---|---:|"
  sed -nE 's/^([0-9.]+) s: (.*)$/| \2 | \1 |/p' build/fault-tests.log
  echo
  echo "Result: $(grep -E '^(All tests passed|test cases:)' build/fault-tests.log | tail -1) (exit $fault_rc, $fault_s s)."
  echo
  echo "## Sanitizers (\`scripts/sanitize.sh\`)"
  echo
  while IFS= read -r line; do echo "- $line"; done <build-asan/sanitize-summary.txt
  echo
  echo "Exit status of sanitize.sh: $san_rc (builds and runs: $san_s s). The test cases left out of"
  echo "the ASan run, and why, are listed in scripts/sanitize.sh (asan_excluded); the TSan"
  echo "suppressions, and why each is there, in tests/tsan.supp. Build times of a few seconds mean"
  echo "the build directory (and build-tsan/onetbb) was already up to date from an earlier run."
  echo
  echo "## Hostile input and starved resources (\`scripts/hostile.sh\`)"
  echo
  echo "The reproducers of the reliability issue against build/bin/gonu and the Python module, each"
  echo "run again: a failure is a crash, a hang, a 5xx, JSON that is not valid UTF-8, an answer that is"
  echo "not one line (exit 1) or a 4xx JSON error, a temporary file left, or a slow answer where one must"
  echo "be fast. The regression tests of each are in tests/test_tools_reliability.cpp,"
  echo "tests/test_tools_serve.cpp, tests/test_table_atomic.cpp and python/tests/test_gonu.py."
  echo
  cat build/hostile-summary.md
  echo
  echo "Exit status of hostile.sh: $hostile_rc ($hostile_s s)."
} >"$out"
echo "reliability: wrote $out"
[ "$fuzz_rc" -eq 0 ] && [ "$san_rc" -eq 0 ] && [ "$fault_rc" -eq 0 ] && [ "$hostile_rc" -eq 0 ]
