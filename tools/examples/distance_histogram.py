# Example, notebook style (one cell per "# %%"): solve 3x4 Jul-gonu under the `free` rules with
# the Python module and draw how many states are won and lost at each distance, into a PNG.
# Run from the source tree after a build:
#   PYTHONPATH=build/python python3 tools/examples/distance_histogram.py [OUT.png]
# (or plain python3 after cmake --install). Without matplotlib it prints the table and draws nothing.

# %% Solve. 3x4 free has 267,707 states; a solve takes well under a second.
import sys

import gonu

solution = gonu.solve(rules="free", board="3x4")
print(solution)
print(f"WIN {solution.wins:,} / LOSS {solution.losses:,} / DRAW {solution.draws:,}; "
      f"longest win {solution.max_distance} plies")

# %% States by distance. A state won in d plies has d odd (the winner makes the last move);
# a lost one has d even. Draws have no distance and are left out.
distances = list(range(solution.max_distance + 1))
wins = solution.wins_by_distance
losses = solution.losses_by_distance
for d in distances:
    if wins[d] or losses[d]:
        print(f"{d:3d}  WIN {wins[d]:8,}  LOSS {losses[d]:8,}")

# %% Draw, if matplotlib is here.
try:
    import matplotlib
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed (apt-get install python3-matplotlib): no picture drawn")
    sys.exit(0)

out = sys.argv[1] if len(sys.argv) > 1 else "distance_histogram.png"
fig, ax = plt.subplots(figsize=(9, 4.5))
ax.bar(distances, wins, color="tab:green", label="WIN for the side to move")
ax.bar(distances, losses, color="tab:red", label="LOSS for the side to move")
ax.set_xlabel("distance (plies to the end with perfect play)")
ax.set_ylabel("states")
ax.set_title(f"3x4 Jul-gonu, free rules: {solution.states:,} states, {solution.draws:,} drawn")
ax.legend()
fig.tight_layout()
fig.savefig(out, dpi=120)
print(f"wrote {out}")
