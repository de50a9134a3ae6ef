#!/usr/bin/env bash
# Sanitizer runs of gonu (each in a build directory of its own, so the normal build/ is untouched):
#
#   asan  ASan + UBSan (clang if present, else gcc; undefined behaviour is fatal): gonu and
#         gonu_tests in build-asan/ (with clang also the fuzz targets, with edge coverage, for
#         `GONU_FUZZ_BUILD=build-asan scripts/fuzz.sh`), then the Catch2 suite through ctest,
#         less the slow cases listed in asan_excluded below (each with its reason).
#   tsan  ThreadSanitizer (clang): oneTBB rebuilt with -fsanitize=thread from Debian's own source
#         package (apt-get source, into build-tsan/onetbb/, once), since Debian's libtbb is not
#         instrumented and TSan cannot see the synchronisation inside it; then gonu in build-tsan/
#         linked to it; then 2-thread solves (every engine, free 3x4 and encyclopedia 3x3) writing
#         tables, and `gonu verify` of each, with the suppressions of tests/tsan.supp.
#
# Writes one line per run to build-asan/sanitize-summary.txt (read by scripts/reliability.sh).
# Exits non-zero if a test fails, a sanitizer reports anything, or a build fails.
#   scripts/sanitize.sh [asan|tsan|all]      (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
scripts/setup.sh
jobs=$(nproc)
summary=build-asan/sanitize-summary.txt
mkdir -p build-asan
[ "$what" = tsan ] || : >"$summary"
failed=0

# Test cases left out of the sanitized run, as "name|reason". Under ASan the first three took 167,
# 119 and 74 s of the suite's 689 test-seconds (2-core VM), mostly in the plain full-history
# negamax they compare against; the superko solver and strategy code they check is also run, on
# smaller inputs, by the cases kept (tiny boards against the negamax, certificates, strategy
# trees). The suite has grown to 1,827 test-seconds since; the heaviest case of each family
# (strategy, entry layers, table stream, cube) is left out where a lighter case of the same code
# stays; and three cases whose time under ASan goes to what it does not instrument or what is no
# question of memory (CBC, Chromium, killed solves). That keeps scripts/test.sh, and so CI, under
# its 40 minutes.
asan_excluded=(
  "superko: a ban-free decided state keeps its value under a history inside the draw region and of larger distances|167 s under ASan: the plain negamax on many histories"
  "superko: random positions with random histories agree with the negamax|119 s under ASan: the plain negamax on random histories"
  "strategy: proven values agree with the full-history negamax|74 s under ASan: the plain negamax behind each proven value"
  "strategy, ILP: CBC finds a strategy exactly where CaDiCaL does, its certificates check and replay|283 s under ASan, most of it inside CBC (not instrumented); the plain run checks the answers"
  "jungi tables: the generator agrees with the plain reference on KPvK|54 s under ASan: the plain reference solver's fixed point; the 2-piece materials stay"
  "jungi tables: the retrograde generator gives the sweeps' table of K+RvK|the level sweeps' solve of a 3-piece table, as heavy as the KPvK reference check; the retrograde thread-count case stays"
  "jungi tables: the retrograde generator gives the sweeps' table of KvKP|the level sweeps' solve of a 3-piece table, as heavy as the KPvK reference check; the retrograde thread-count case stays"
  "jungi tables: the retrograde generator gives the sweeps' table of K+SvK under --lancer queen|the level sweeps' solve of a 3-piece table, as heavy as the KPvK reference check; the retrograde thread-count case stays"
  "jungi: every move's result lists the position it came from|42 s under ASan: un-moves of every move of 600 random positions; the other un-move tests stay"
  "the compact tagged engine agrees with the dense and graph engines from the start|178 s under ASan: three engines' full solves; the tagged engine's thread-count and memory-limit cases stay"
  "the compact tagged engine agrees with the dense and graph engines from other roots|165 s under ASan: as the case from the start"
  "table stream: the indexed verify agrees with the arrays on good tables|140 s under ASan: both verifies over many tables; the damaged-table and first-wrong-state cases stay"
  "strategy, lazy: a strategy valid only under S3 is accepted, and every play against it is won|113 s under ASan: every play against the strategy; the lazy strategy's format-4 and refusal cases stay"
  "entry layers: proven capture-entry values agree with the full-history negamax or search|100 s under ASan: the plain negamax and search behind each value; the case that takes captures onto proven entries and checks them stays"
  "entry layers: the format-6 certificate is checked, a corrupted one is a FLAW|78 s under ASan: the checker over many certificates; the case that checks the certificates of captures onto proven entries stays"
  "table stream: the indexed verify agrees with the arrays on tables damaged behind resealed checks|96 s under ASan: both verifies over many damaged tables; the first-wrong-state case stays"
  "strategy with memory: proven values agree with the full-history negamax, and every play is won|92 s under ASan: the plain negamax and every play; the 5x2 and 3x4 certificate case stays"
  "cube: proven values agree with the full-history negamax, with checked certificates|60 s under ASan: the plain negamax behind each value; the 4x3 proof with 1 and 2 threads stays"
  "cube: a run stopped after k searches and resumed ends with the uninterrupted run's proof|56 s under ASan: many stopped and resumed runs; the killed-line resume case stays"
  "strategy, ILP: without an objective (feasibility) the same answers|111 s under ASan, most of it in CBC's allocations through ASan's allocator; the plain run checks the answers, and the instance CBC gets is the SAT case's, built by code the strategy cases run"
  "atomic write: kill -9 during gonu solve --out leaves the old table or the new one, nothing else|56 s under ASan: eleven 3x4 solves, ten killed; what it checks (the old table or the new one) is no question of memory, and the plain run checks it"
  "browser_explorer|40 s under ASan, most of it in Chromium (not instrumented); gonu serve's requests are checked under ASan by the serve cases and by fuzz_serve"
  "gonu solve runs under a 256 KiB stack limit|ASan's runtime itself needs more stack than 256 KiB before main runs"
  "strategy, lazy: proven values agree with the full-history negamax|75 s under ASan: the plain negamax behind each value; the lazy strategy's format-4 and refusal cases stay"
  "the dense engine agrees with the state-graph engine under immediate and undo|34 s under ASan: two engines' full solves under two rule sets; the dense engine's history-tag root and thread-count cases stay"
  "dfpn: proven values agree with the full-history negamax on random tiny positions|33 s under ASan: the plain negamax behind each value; the cases without ban-free leaves and with 1, 2 and 4 threads, against the same negamax, stay"
  "gonu serve under a tight address-space limit starts, and answers 200 or 503 with JSON|ASan reserves terabytes of shadow address space, so no address-space limit can be set under it"
)

note() { echo "$*" | tee -a "$summary"; }

# Builds targets in a build directory; the compiler's output goes to DIR/build.log (clang's
# -Wconversion also warns on sign changes, which gcc's does not), shown only if the build fails.
build() {
  local dir=$1
  shift
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  if ! cmake --build "$dir" -j"$jobs" "${targets[@]}" >"$dir/build.log" 2>&1; then
    tail -40 "$dir/build.log" >&2
    echo "sanitize: build in $dir failed (see $dir/build.log)" >&2
    exit 1
  fi
}

run_asan() {
  local cc=gcc cxx=g++ flags="-O2 -g1"
  if command -v clang++ >/dev/null; then cc=clang cxx=clang++ flags="-O2 -gline-tables-only"; fi
  local t0=$SECONDS
  # Without MPI: Open MPI's own libraries are not built with the sanitizer and leave allocations at
  # exit that LeakSanitizer reports; `gonu solve --mpi` is checked in the plain build (ctest -L mpi).
  # With clang, the fuzz targets are built here too, with edge coverage (GONU_FUZZ_COVERAGE=edges:
  # the suite runs some 6 % slower), for scripts/test.sh's short fuzzing run (GONU_FUZZ_BUILD):
  # a build of their own would compile every library once more.
  local fuzz=(-DGONU_FUZZ=OFF) targets=(gonu gonu_tests)
  if [ "$cxx" = clang++ ]; then fuzz=(-DGONU_FUZZ=ON -DGONU_FUZZ_COVERAGE=edges) targets+=(fuzz_targets); fi
  CC=$cc CXX=$cxx cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
    -DGONU_SANITIZE=address,undefined "${fuzz[@]}" -DGONU_BUILD_BENCHMARKS=OFF -DGONU_BUILD_PYTHON=OFF -DGONU_MPI=OFF >/dev/null
  build build-asan "${targets[@]}"
  local built=$((SECONDS - t0))
  local exclude=""
  if ((${#asan_excluded[@]})); then
    # ctest reads the names as regular expressions: '+' (K+RvK) and parentheses are escaped.
    exclude=$(printf '%s|' "${asan_excluded[@]%%|*}" | sed 's/[+()]/\\&/g')
    exclude="^(${exclude%|})\$"
  fi
  export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  t0=$SECONDS
  local rc=0
  (cd build-asan && ctest -j"$jobs" --timeout 1500 --output-on-failure ${exclude:+-E "$exclude"}) \
    >build-asan/ctest.log 2>&1 || rc=$?
  local ran=$((SECONDS - t0))
  local passed
  passed=$(grep -E '^[0-9]+% tests passed' build-asan/ctest.log | tail -1)
  if [ "$rc" -ne 0 ]; then
    failed=1
    grep -E 'Failed|\*\*\*|ERROR: AddressSanitizer|runtime error' build-asan/ctest.log | head -20 >&2
  fi
  note "asan: $cxx -fsanitize=address,undefined -fno-sanitize-recover=undefined; build ${built} s;" \
       "ctest ${ran} s: ${passed:-no result} (exit $rc); ${#asan_excluded[@]} slow cases excluded"
}

# oneTBB from Debian's source package, built with TSan, installed under build-tsan/onetbb/install.
# apt-get reads a private source list (deb-src of the same suites as the system's), so the
# system's apt configuration is left alone.
build_tsan_tbb() {
  local root=$PWD/build-tsan/onetbb
  [ -f "$root/install/lib/cmake/TBB/TBBConfig.cmake" ] && return 0
  rm -rf "$root"
  mkdir -p "$root/apt/lists/partial" "$root/src"
  printf 'deb-src http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian-security bookworm-security main\n' \
    >"$root/apt/sources.list"
  local apt=(-o "Dir::Etc::SourceList=$root/apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
             -o "Dir::State::Lists=$root/apt/lists" -o "Debug::NoDropPrivs=1")
  local version
  version=$(dpkg-query -W -f='${source:Version}' libtbb-dev)
  apt-get "${apt[@]}" update -qq >/dev/null 2>&1 || return 1
  (cd "$root/src" && apt-get "${apt[@]}" source -qq --download-only "onetbb=$version" >/dev/null 2>&1) || return 1
  # apt-get checked the files against the signed Sources index; dpkg-source would also check the
  # .dsc's own signature but has no Debian keyring here, and only warns (into the log).
  (cd "$root/src" && dpkg-source -x ./*.dsc tbb >"$root/unpack.log" 2>&1) || return 1
  CC=clang CXX=clang++ cmake -S "$root/src/tbb" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
    -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF \
    -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON -DCMAKE_INSTALL_PREFIX="$root/install" >/dev/null || return 1
  cmake --build "$root/build" -j"$jobs" >"$root/build.log" 2>&1 && cmake --install "$root/build" >/dev/null
}

run_tsan() {
  if ! command -v clang++ >/dev/null; then
    note "tsan: skipped (clang++ not found)"
    return
  fi
  local t0=$SECONDS
  if ! build_tsan_tbb; then
    # Without an instrumented TBB every report between a task and its spawner would be noise.
    note "tsan: skipped (could not fetch or build Debian's oneTBB source with TSan)"
    failed=1
    return
  fi
  local tbb_built=$((SECONDS - t0))
  t0=$SECONDS
  CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" -DGONU_SANITIZE=thread \
    -DGONU_BUILD_TESTS=OFF -DGONU_BUILD_BENCHMARKS=OFF -DGONU_BUILD_PYTHON=OFF -DGONU_MPI=OFF \
    -DTBB_DIR="$PWD/build-tsan/onetbb/install/lib/cmake/TBB" >/dev/null
  build build-tsan gonu
  local built=$((SECONDS - t0))
  local logs=build-tsan/reports
  rm -rf "$logs" build-tsan/*.gonu
  mkdir -p "$logs"
  export TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp halt_on_error=0 exitcode=66 second_deadlock_stack=1 log_path=$PWD/$logs/tsan"
  export LD_LIBRARY_PATH=$PWD/build-tsan/onetbb/install/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  local g=build-tsan/bin/gonu rc=0
  t0=$SECONDS
  # Each engine on an untagged (free 3x4) and a tagged (encyclopedia 3x3) rule set, with the
  # solver's own re-derivation (--verify); then `gonu verify` of the table (it uses every core).
  # The compact engine runs without --verify, so that its result streams into the table from its
  # own form (a StateSource read by the writer's threads) instead of being copied into arrays.
  local run rules board engine table
  for run in "free 3x4" "encyclopedia 3x3"; do
    read -r rules board <<<"$run"
    for engine in dense compact graph; do
      table="build-tsan/$rules-$board-$engine.gonu"
      local check=(--verify)
      [ "$engine" = compact ] && check=()
      "$g" solve --rules "$rules" --board "$board" --threads 2 --engine "$engine" "${check[@]}" --quiet --out "$table" >/dev/null || rc=$?
      "$g" verify --quiet "$table" >/dev/null || rc=$?
    done
  done
  local ran=$((SECONDS - t0))
  local reports
  reports=$(cat "$logs"/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
  if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
    failed=1
    cat "$logs"/tsan.* 2>/dev/null | head -60 >&2
  fi
  note "tsan: clang -fsanitize=thread, oneTBB $(dpkg-query -W -f='${source:Version}' libtbb-dev) rebuilt with TSan" \
       "(${tbb_built} s), gonu build ${built} s; solve --threads 2 --verify --out of free 3x4 and encyclopedia 3x3" \
       "(dense, compact (streamed) and graph engines) and gonu verify of each table: ${ran} s," \
       "${reports} reports after tests/tsan.supp (exit $rc)"
}

case "$what" in
  asan) run_asan ;;
  tsan) run_tsan ;;
  all) run_asan; run_tsan ;;
  *) echo "usage: scripts/sanitize.sh [asan|tsan|all]" >&2; exit 2 ;;
esac
exit "$failed"
