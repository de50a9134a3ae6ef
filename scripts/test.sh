#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through ctest; then, where clang is
# present, the sanitizer runs (scripts/sanitize.sh: ASan+UBSan suite, TSan solve and verify) and
# a short fuzzing run (scripts/fuzz.sh, GONU_FUZZ_SECONDS a target, default 15: eight targets,
# two at a time, in four rounds (66 s), a check that the targets build and find nothing quickly, which keeps CI
# under its 40 minutes), of the fuzz targets the ASan build made (edge coverage only, no build of
# their own; scripts/reliability.sh fuzzes 60 s a target, in build-fuzz/ with libFuzzer's full
# coverage).
# GONU_QUICK_TEST=1 stops after ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc)")
if [ "${GONU_QUICK_TEST:-0}" = 1 ]; then exit 0; fi
if ! command -v clang++ >/dev/null; then
  echo "test: clang++ not found: sanitizer and fuzzing runs skipped" >&2
  exit 0
fi
status=0
scripts/sanitize.sh all || status=1
GONU_FUZZ_BUILD=build-asan scripts/fuzz.sh "${GONU_FUZZ_SECONDS:-15}" || status=1
exit "$status"
