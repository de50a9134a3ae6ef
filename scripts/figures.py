#!/usr/bin/env python3
"""Figures for results/figures.md, drawn with matplotlib (Debian python3-matplotlib).

usage: figures.py WORK VALUES_CSV OUT_DIR RULESET...
       figures.py --check WORK VALUES_CSV OUT_DIR RULESET...
       figures.py --check-values VALUES_CSV OUT_DIR
  WORK holds stats-RULESET.json (`gonu solve --board 4x4 --stats --json`) for each RULESET and
  soldiers.json (`gonu query --json` of the Games of Soldiers example); writes into OUT_DIR
  distance-4x4.png, values.png and soldiers.png, and beside each FIGURE.png.sha256: the SHA-256 of
  the data it was drawn from (only the fields it shows, so a new time or memory figure in
  values.csv leaves values.png current). Called by scripts/figures.sh.
  --check draws nothing: it computes each figure's data hash again and exits 1, one line per
  figure, when a figure is stale (drawn from other data, or its hash missing); --check-values
  does that for values.png alone, from VALUES_CSV (no solve needed: ctest runs it).
"""
import csv
import hashlib
import json
import sys

WIN, LOSS, DRAW = "#2a7ab9", "#d1495b", "#9a9a9a"


def pyplot():
    """matplotlib's pyplot, imported only to draw (--check needs no matplotlib)."""
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def digest(data):
    """The SHA-256 of data (lists, dicts, strings, numbers) written as canonical JSON."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def distance_data(work, rulesets):
    """What distance-4x4.png shows: per rule set, its counts by distance, states, draws, value."""
    data = []
    for rs in rulesets:
        j = json.load(open(f"{work}/stats-{rs}.json"))
        rows = [[r["distance"], r["wins"], r["losses"]] for r in j["stats"]["by_distance"]]
        data.append({"rules": rs, "by_distance": rows, "states": j["states"], "draws": j["draws"],
                     "value": j["value"]})
    return data


def values_data(values_csv):
    """What values.png shows: each row's rule set, board, status, value and distance."""
    rows = list(csv.DictReader(open(values_csv)))
    return [{k: r[k] for k in ("rules", "board", "status", "value", "distance")} for r in rows]


def soldiers_data(work):
    """What soldiers.png shows: the position, its value, the principal variation, the captures."""
    j = json.load(open(f"{work}/soldiers.json"))
    keep = ("position", "side_to_move", "value", "distance", "pv", "pv_end")
    return {**{k: j[k] for k in keep}, "moves": [[m["move"], m["captures"]] for m in j["moves"]]}


def write_hash(out, name, data):
    with open(f"{out}/{name}.sha256", "w") as f:
        f.write(f"{digest(data)}  the data {name} was drawn from (scripts/figures.py)\n")


def stale(out, name, data):
    """A one-line reason when out/name was not drawn from data, else None."""
    try:
        stored = open(f"{out}/{name}.sha256").read().split()[0]
    except (OSError, IndexError):
        return f"{out}/{name}: no {name}.sha256 beside it; draw it with scripts/figures.sh"
    if stored != digest(data):
        return f"{out}/{name}: drawn from other data than now; draw it again with scripts/figures.sh"
    return None


def distance_figure(work, rulesets, out):
    """One panel per rule set: states per distance, wins (odd) and losses (even) as bars; the
    draws, all at distance 0, in the panel's title."""
    plt = pyplot()
    n = len(rulesets)
    cols = 2 if n > 1 else 1
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6 * cols, 2.6 * rows), squeeze=False)
    for ax, rs in zip(axes.flat, rulesets):
        j = json.load(open(f"{work}/stats-{rs}.json"))
        rows_ = j["stats"]["by_distance"]
        d = [r["distance"] for r in rows_]
        ax.bar(d, [r["wins"] for r in rows_], color=WIN, width=0.9, label="WIN for the side to move")
        ax.bar(d, [r["losses"] for r in rows_], color=LOSS, width=0.9, label="LOSS for the side to move")
        ax.set_title(f"{rs}: {j['states']:,} states, {j['draws']:,} draws, start {j['value']}", fontsize=9)
        ax.set_xlabel("distance to the end (plies, perfect play)", fontsize=8)
        ax.set_ylabel("states", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 3))
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("Jul-gonu 4x4: reachable states by distance to the end", fontsize=11)
    fig.tight_layout()
    fig.savefig(f"{out}/distance-4x4.png", dpi=90)
    plt.close(fig)
    write_hash(out, "distance-4x4.png", distance_data(work, rulesets))


def values_figure(values_csv, out):
    """A grid: rule sets down, boards across, each cell the start's value, or why not solved
    ("not run" where values.csv has no row: the rule set was not tried on that board)."""
    plt = pyplot()
    rows = values_data(values_csv)
    rulesets = list(dict.fromkeys(r["rules"] for r in rows))
    boards = list(dict.fromkeys(r["board"] for r in rows))
    cell = {(r["rules"], r["board"]): r for r in rows}
    fig, ax = plt.subplots(figsize=(1.3 * len(boards) + 2.6, 0.5 * len(rulesets) + 1.2))
    for y, rs in enumerate(rulesets):
        for x, b in enumerate(boards):
            r = cell.get((rs, b))
            if r is None:
                colour, text = "white", "not run"
            elif r["status"] != "solved":
                colour, text = "white", "not solved"
            else:
                colour = {"WIN": WIN, "LOSS": LOSS}.get(r["value"], DRAW)
                text = r["value"] if r["value"] == "DRAW" else f"{r['value']} in {r['distance']}"
            ax.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=colour, edgecolor="black", linewidth=0.5))
            ax.text(x + 0.5, y + 0.5, text, ha="center", va="center", fontsize=8,
                    color="black" if colour in ("white", DRAW) else "white")
    ax.set_xlim(0, len(boards))
    ax.set_ylim(len(rulesets), 0)
    ax.set_xticks([x + 0.5 for x in range(len(boards))], boards)
    ax.set_yticks([y + 0.5 for y in range(len(rulesets))], rulesets)
    ax.tick_params(length=0, labelsize=8)
    ax.set_title("value of the start for Black (who moves first), rows x columns", fontsize=10)
    fig.tight_layout()
    fig.savefig(f"{out}/values.png", dpi=90)
    plt.close(fig)
    write_hash(out, "values.png", rows)


def parse_position(text):
    """'.w../w.xw/xx../..w. w' -> {(file, rank): 'x' or 'w'}, rows, cols (top rank first)."""
    board, _ = text.split()
    ranks = board.split("/")
    pieces, rows = {}, len(ranks)
    cols = 0
    for i, rank in enumerate(ranks):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
            else:
                if ch in "xw":
                    pieces[(f, rows - i)] = ch
                f += 1
        cols = max(cols, f)
    return pieces, rows, cols


def square(name):
    return ord(name[0]) - ord("a"), int(name[1:])


def soldiers_figure(work, out):
    """The example's board, with the principal variation as numbered arrows and the capture."""
    plt = pyplot()
    j = json.load(open(f"{work}/soldiers.json"))
    pieces, rows, cols = parse_position(j["position"])
    fig, ax = plt.subplots(figsize=(4.6, 4.8))
    for f in range(cols):
        ax.plot([f, f], [1, rows], color="black", linewidth=1)
        ax.text(f, 0.55, chr(ord("a") + f), ha="center", va="center", fontsize=10)
    for r in range(1, rows + 1):
        ax.plot([0, cols - 1], [r, r], color="black", linewidth=1)
        ax.text(-0.45, r, str(r), ha="center", va="center", fontsize=10)
    for (f, r), p in pieces.items():
        ax.add_patch(plt.Circle((f, r), 0.27, facecolor="black" if p == "x" else "white", edgecolor="black",
                                linewidth=1.5, zorder=3))
    first = next(m for m in j["moves"] if m["move"] == j["pv"][0])
    for c in first["captures"]:
        f, r = square(c)
        ax.plot([f - 0.3, f + 0.3], [r - 0.3, r + 0.3], color=LOSS, linewidth=3, zorder=4)
        ax.plot([f - 0.3, f + 0.3], [r + 0.3, r - 0.3], color=LOSS, linewidth=3, zorder=4)
    for i, move in enumerate(j["pv"]):
        a, b = move.split("x")[0].split("-")
        (f0, r0), (f1, r1) = square(a), square(b)
        colour = WIN if i % 2 == 0 else "#e08a1e"  # White's moves, Black's moves
        ax.annotate("", xy=(f1, r1), xytext=(f0, r0), zorder=5,
                    arrowprops=dict(arrowstyle="-|>", color=colour, linewidth=2, shrinkA=9, shrinkB=9))
        ax.text((f0 + f1) / 2 + 0.12, (r0 + r1) / 2 + 0.12, str(i + 1), fontsize=9, color=colour, zorder=6,
                fontweight="bold")
    ax.set_xlim(-0.7, cols - 0.4)
    ax.set_ylim(0.3, rows + 0.4)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{j['position']}: {j['side_to_move']} to move, {j['value']} in {j['distance']}\n"
                 f"{' '.join(j['pv'])} (x: {', '.join(first['captures'])} captured by move 1)\n{j['pv_end']}", fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{out}/soldiers.png", dpi=90)
    plt.close(fig)
    write_hash(out, "soldiers.png", soldiers_data(work))


def check(figures):
    """figures: (out, name, data) for each figure; prints why each stale one is, returns 0 or 1."""
    reasons = [r for r in (stale(out, name, data) for out, name, data in figures) if r]
    for r in reasons:
        print(f"figures: {r}", file=sys.stderr)
    if not reasons:
        print(f"figures: {len(figures)} figure(s) drawn from the data they show")
    return 1 if reasons else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "--check-values":
        return check([(argv[3], "values.png", values_data(argv[2]))])
    if len(argv) >= 6 and argv[1] == "--check":
        work, values_csv, out, rulesets = argv[2], argv[3], argv[4], argv[5:]
        return check([(out, "distance-4x4.png", distance_data(work, rulesets)),
                      (out, "values.png", values_data(values_csv)),
                      (out, "soldiers.png", soldiers_data(work))])
    if len(argv) < 5 or argv[1].startswith("--"):
        sys.exit(__doc__)
    work, values_csv, out, rulesets = argv[1], argv[2], argv[3], argv[4:]
    distance_figure(work, rulesets, out)
    values_figure(values_csv, out)
    soldiers_figure(work, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
