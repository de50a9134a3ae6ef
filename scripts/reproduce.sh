#!/usr/bin/env bash
# Reproduces the only published computer result for Jul-gonu (talvola/abstract_games, Python):
# 4x4, line capture, no repetition rule, Black first. Regenerates results/published.md and exits
# non-zero if any of our numbers differs from the published ones.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
json=$(build/bin/gonu solve --rules free --json --quiet)
python3 scripts/gonu_report.py published results/published.md - <<<"$json"
