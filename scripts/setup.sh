#!/usr/bin/env bash
# Installs what gonu needs to build and test on Debian 12, with apt-get, only what is missing.
# Idempotent: a second run installs nothing. Called by scripts/build.sh, so by every script here.
set -euo pipefail
packages=(cmake g++ make pkg-config libboost-program-options-dev libtbb-dev catch2 libbenchmark-dev
          nlohmann-json3-dev libxxhash-dev libzstd-dev liblzma-dev libcadical-dev coinor-libcbc-dev libedit-dev python3 time
          tmux python3-matplotlib   # gonu play's terminal test; scripts/figures.sh
          libcpp-httplib-dev        # gonu serve
          chromium chromium-driver python3-selenium  # the web explorer's browser test
          wrk                       # the web explorer's load test (scripts/serve-bench.sh)
          libopenmpi-dev openmpi-bin  # gonu solve --mpi (solver/julgonu/mpi/), scripts/mpi.sh
          pybind11-dev python3-dev python3-pytest   # the Python module and its tests
          clang libclang-rt-dev llvm dpkg-dev xz-utils)
# clang, its sanitizer and libFuzzer runtimes (libclang-rt-dev) and llvm-symbolizer (llvm): for
# scripts/sanitize.sh and scripts/fuzz.sh; dpkg-dev unpacks the oneTBB source that sanitize.sh
# rebuilds with ThreadSanitizer.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
