#!/usr/bin/env bash
# Reproduces the only published computer result for Jul-gonu (talvola/abstract_games, Python):
# 4x4, line capture, no repetition rule, Black first. Regenerates results/published.md and exits
# non-zero if any of our numbers differs from the published ones.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
json=$(build/bin/gonu solve --rules free --json --quiet)
python3 - "$json" <<'PY'
import json, sys
ours = json.loads(sys.argv[1])
published = {"states": 3412738, "edges": 21039712, "wins": 1315354, "losses": 807911, "draws": 1289473,
             "value": "DRAW", "moves": ["DRAW"] * 4}
ours_moves = [m["value"] for m in ours["moves"]]
rows = [("reachable states", published["states"], ours["states"]),
        ("move edges", published["edges"], ours["edges"]),
        ("WIN (side to move)", published["wins"], ours["wins"]),
        ("LOSS (side to move)", published["losses"], ours["losses"]),
        ("DRAW", published["draws"], ours["draws"]),
        ("start", published["value"], ours["value"]),
        ("the four first moves", ", ".join(published["moves"]), ", ".join(ours_moves))]
def fmt(v):
    return f"{v:,}" if isinstance(v, int) else v
ok = all(p == o for _, p, o in rows)
with open("results/published.md", "w") as f:
    f.write("# The published result, reproduced\n\n")
    f.write("Written by `scripts/reproduce.sh`; do not edit by hand.\n\n")
    f.write("Source: talvola/abstract_games, `engine/games/jul_gonu/_solve.py` (Python, one-time exhaustive\n"
            "solver; its docstring and `rules.md` give the numbers below, frozen 2026-07-17).\n\n")
    f.write("Rules it used: 4x4 board, four pieces a side on the home ranks, Black first; a piece steps\n"
            "orthogonally to an empty point; line (custodian) capture of every run of enemies closed by a\n"
            "friendly piece, in every direction from the moved piece, made only by the mover; the side to\n"
            "move loses with at most one piece or no legal move; no repetition rule (endless play is a draw).\n"
            "That is gonu's rule set `free`: `gonu solve --rules free`.\n\n")
    f.write("| | published | gonu |\n|---|---:|---:|\n")
    for name, p, o in rows:
        f.write(f"| {name} | {fmt(p)} | {fmt(o)} |\n")
    f.write(f"\nVerdict: {'identical' if ok else 'DIFFERENT'}.\n")
    f.write("\nMove edges count the legal moves of every non-terminal state (terminal states are not\n"
            "expanded), as the published solver does. Terminal: the side to move has at most one piece or\n"
            "no legal move; it is a LOSS at distance 0.\n")
print("results/published.md:", "identical to the published numbers" if ok else "DIFFERENT from the published numbers")
sys.exit(0 if ok else 1)
PY
