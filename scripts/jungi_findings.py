#!/usr/bin/env python3
"""Reads the report of `gonu solve --game jungi --all 3` (stdin) and prints, as Markdown, what a
player wants from it: who wins King against King, which single piece beats a bare royal (for each
piece, the share of positions its side wins with either side to move), and the longest wins.
Used by scripts/jungi.sh; every figure comes from the report, nothing is computed anew but shares.
  gonu solve --game jungi --all 3 | scripts/jungi_findings.py
"""
import re
import sys

HEAD = re.compile(r"^(\S+): ([\d,]+) positions \(([\d,]+) indices\)$")
SIDE = re.compile(r"^  (South|North) to move: WIN ([\d,]+) / LOSS ([\d,]+) / DRAW ([\d,]+)$")
LONG = re.compile(r"^  longest win: (\d+) plies, (.+)$")


def number(text):
    return int(text.replace(",", ""))


def read(lines):
    """Material text -> {positions, South: (w, l, d), North: (w, l, d), longest, where}."""
    tables, current = {}, None
    for line in lines:
        line = line.rstrip("\n")
        if m := HEAD.match(line):
            current = tables.setdefault(m[1], {"positions": number(m[2]), "longest": -1, "where": ""})
        elif current is not None and (m := SIDE.match(line)):
            current[m[1]] = tuple(number(x) for x in m.groups()[1:])
        elif current is not None and (m := LONG.match(line)):
            current["longest"], current["where"] = int(m[1]), m[2]
    return tables


def flip_material(name):
    south, north = name.split("v")
    return f"{north}v{south}"


def flip_position(text):
    """The position colour-flipped (gonu's flip_position): ranks reversed, sides swapped, the
    other side to move. A longest win's position has no en-passant field."""
    board, to_move, field = text.split()[:3]
    ranks = [r.swapcase() for r in reversed(board.split("/"))]
    return f"{'/'.join(ranks)} {'n' if to_move == 's' else 's'} {field}"


def add_flips(tables):
    """gonu keeps one table for a material and its colour flip (the one whose South has more
    pieces): the flip's figures are the table's with the sides swapped."""
    for name, t in list(tables.items()):
        other = flip_material(name)
        if other in tables:
            continue
        tables[other] = {"positions": t["positions"], "South": t["North"], "North": t["South"], "longest": t["longest"],
                         "where": flip_position(t["where"]) if t["where"] else "", "flipped": True}


def share(part, whole):
    return f"{100.0 * part / whole:.1f} %" if whole else "-"


def lone_piece_rows(tables):
    """Materials where South has its royal and one more piece and North a bare royal."""
    rows = []
    for name, t in tables.items():
        south, north = name.split("v")
        extra = re.sub(r"^\+?K", "", south)
        if not extra or north not in ("K", "+K"):
            continue
        per_side = sum(t["South"]) if "South" in t else 0
        rows.append((south[: len(south) - len(extra)], extra, north, t, per_side))
    return rows


def main():
    tables = read(sys.stdin)
    if not tables:
        sys.exit("jungi_findings.py: no table in the report")
    add_flips(tables)
    print("### King against King")
    print()
    for name in ("KvK", "+KvK", "+Kv+K"):
        if name in tables:
            t = tables[name]
            s, n = t["South"], t["North"]
            print(f"- `{name}`: South to move wins {share(s[0], sum(s))}, loses {share(s[1], sum(s))}, draws "
                  f"{share(s[2], sum(s))}; North to move wins {share(n[0], sum(n))}, loses "
                  f"{share(n[1], sum(n))}; longest win {t['longest']} plies (`{t['where']}`).")
    print()
    print("### One piece against a bare royal")
    print()
    print("South has its royal and one piece, North its royal alone. \"South wins\" is the share of")
    print("positions South wins with South to move, then with North to move (positions of the whole")
    print("board, each once); the longest win is the table's, for either side.")
    print()
    print("| South | piece | North | positions | South wins, South to move | South wins, North to move | North wins, North to move | longest win (plies) |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    rows = lone_piece_rows(tables)
    rows.sort(key=lambda r: (r[0], r[2], -r[3]["South"][0] / max(1, sum(r[3]["South"]))))
    for royal, extra, north, t, _ in rows:
        s, n = t["South"], t["North"]
        print(f"| {royal} | {extra} | {north} | {t['positions']:,} | {share(s[0], sum(s))} | {share(n[1], sum(n))} | "
              f"{share(n[0], sum(n))} | {t['longest']} |")
    print()
    print("### The longest wins of up to three pieces")
    print()
    longest = sorted(((k, t) for k, t in tables.items() if not t.get("flipped")), key=lambda kv: -kv[1]["longest"])[:10]
    for name, t in longest:
        print(f"- `{name}`: {t['longest']} plies, from `{t['where']}`")


if __name__ == "__main__":
    main()
