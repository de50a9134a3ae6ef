#!/usr/bin/env bash
# Configures and builds gonu (Release) into build/; every program lands in build/bin/.
# Arguments, if any, name the targets to build (default: everything, tests and benchmarks too).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}" >/dev/null
