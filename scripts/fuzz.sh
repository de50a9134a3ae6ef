#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ (clang, ASan + UBSan, in build-fuzz/) and runs each
# for SECONDS (default 30) on a fresh copy of its committed corpus, as many targets at a time as
# there are cores (eight targets in four rounds, 120 s, on two cores).
# Before fuzzing, every saved input of tests/fuzz/regressions/<name>/ is replayed once.
# Prints, per target, the inputs executed and whether it crashed; writes the same lines to
# build-fuzz/fuzz-summary.txt (read by scripts/reliability.sh). A crashing input is kept under
# build-fuzz/run/<name>/crashes/ (copy it to tests/fuzz/regressions/<name>/ to keep it).
# Exits non-zero if any target crashed, leaked, hung or a regression input still fails.
# GONU_FUZZ_BUILD=DIR runs the targets a build in DIR made already instead of building build-fuzz:
# scripts/test.sh runs those of scripts/sanitize.sh's ASan build (edge coverage only; see
# GONU_FUZZ_COVERAGE in CMakeLists.txt), the logs and summary still going to build-fuzz/.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
scripts/setup.sh
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ is needed (scripts/setup.sh installs it)" >&2
  exit 1
fi
bins=$PWD/${GONU_FUZZ_BUILD:-build-fuzz}/bin
if [ -n "${GONU_FUZZ_BUILD:-}" ]; then
  mkdir -p build-fuzz
else
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" -DGONU_FUZZ=ON -DGONU_FUZZ_COVERAGE=full \
    -DGONU_BUILD_TESTS=OFF -DGONU_BUILD_BENCHMARKS=OFF -DGONU_BUILD_PYTHON=OFF -DGONU_MPI=OFF >/dev/null
  # The compiler's output goes to build-fuzz/build.log (clang's -Wconversion also warns on sign
  # changes, which gcc's does not), shown only if the build fails.
  if ! cmake --build build-fuzz -j"$(nproc)" --target fuzz_targets >build-fuzz/build.log 2>&1; then
    tail -40 build-fuzz/build.log >&2
    echo "fuzz: build failed (see build-fuzz/build.log)" >&2
    exit 1
  fi
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
summary=build-fuzz/fuzz-summary.txt
: >"$summary"
names=(table notation certificate serve jungi_notation cli jungi_table dfpn_table)
for name in "${names[@]}"; do
  if [ ! -x "$bins/fuzz_$name" ]; then
    echo "fuzz: $bins/fuzz_$name is not built" >&2
    exit 1
  fi
done

# One target: its regressions replayed, then fuzzed; its summary line written to
# build-fuzz/run/NAME/line. Returns non-zero if it found anything.
fuzz_one() {
  local name=$1 bin="$bins/fuzz_$1" failed=0
  local run="build-fuzz/run/$name"
  rm -rf "$run"
  mkdir -p "$run/corpus" "$run/crashes"
  cp tests/fuzz/corpus/"$name"/* "$run/corpus/"
  seeds=$(ls "$run/corpus" | wc -l)

  # Inputs that once crashed: each must now run clean.
  regressions=(tests/fuzz/regressions/"$name"/*)
  if [ -e "${regressions[0]}" ]; then
    if ! "$bin" "${regressions[@]}" >"$run/regressions.log" 2>&1; then
      line="fuzz_$name: a saved regression input still fails (see $run/regressions.log)"
      echo "$line" | tee -a "$summary"
      failed=1
    fi
  fi

  # -timeout: one input may take at most 30 s (a hang is a finding); -rss_limit_mb: 2 GB.
  rc=0
  t0=$SECONDS
  (cd "$run" && "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus) >"$run/fuzz.log" 2>&1 || rc=$?
  took=$((SECONDS - t0))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/fuzz.log" | tail -1)
  found=$(ls "$run/crashes" | wc -l)
  after=$(ls "$run/corpus" | wc -l)
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    # The sanitizer's one-line reason and the first frame in gonu's code, for the summary.
    why=$(grep -m1 -E 'runtime error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$run/fuzz.log" |
          sed -E 's/^.*(runtime error|ERROR): *//' | cut -c1-90)
    where=$(grep -m1 -E '^ +#[0-9]+ .* in gonu::' "$run/fuzz.log" | sed -E 's/^.* in (gonu::[^(]*).* ([^ ]*\/)?([^/ ]+:[0-9]+):[0-9]+$/\1 (\3)/')
    result="CRASH after ${took} s: ${why:-exit $rc}${where:+ at $where}; input $run/crashes/$(ls "$run/crashes" | head -1)"
    failed=1
  else
    result="no crash"
  fi
  echo "fuzz_$name: ${took} s of ${seconds} s, ${execs:-?} inputs executed, corpus $seeds -> $after files, $result" >"$run/line"
  return "$failed"
}

# As many targets at a time as there are cores (each fuzzes on one): eight targets in four
# rounds of SECONDS on two cores instead of eight. The lines are printed in the targets' order.
jobs=$(nproc)
failed=0
for ((first = 0; first < ${#names[@]}; first += jobs)); do
  pids=()
  for name in "${names[@]:first:jobs}"; do
    fuzz_one "$name" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
done
for name in "${names[@]}"; do
  [ -f "build-fuzz/run/$name/line" ] || { echo "fuzz_$name: no result" >"build-fuzz/run/$name/line"; failed=1; }
  tee -a "$summary" <"build-fuzz/run/$name/line"
done
exit "$failed"
