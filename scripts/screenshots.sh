#!/usr/bin/env bash
# The Jungi explorer's screenshots for README, into results/figures/: explorer-jungi-desktop.png
# (1280x900) and explorer-jungi-phone.png (390x844, mobile emulation), taken by the Jungi browser
# test (tests/browser/test_explorer_jungi.py --screenshot-dir) on the KRvK ending it solves, after
# it has checked the page (the screenshots are only written by a run that passes). Needs
# Chromium, its driver and python3-selenium (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
mkdir -p results/figures
/usr/bin/python3 tests/browser/test_explorer_jungi.py --gonu build/bin/gonu --screenshot-dir results/figures
