#!/usr/bin/env python3
"""The section "Five pieces: a chosen few" of results/jungi.md, from the logs `scripts/jungi.sh --five
DIR MATERIAL...` keeps in DIR for each material M: five-M.out (gonu solve's stdout: every table of
M's closure), five-M.err (its stderr: the memory estimate), five-M.time (GNU time's figures) and
five-M.verify (gonu verify's first line, when it has run).

usage: jungi_five.py DIR RESULTS_MD MATERIAL...
For each material: its command, time and memory, and the tables of its closure with the same
royals (the same pieces, fewer of them), so that a reader sees what one piece more changes; its
table file's bytes in DIR; its closure's indices against the smallest closure of a 5-piece material
(`gonu solve --game jungi --all 5 --plan`, with GONU the binary, default build/bin/gonu).
The section replaces the one already in RESULTS_MD, or is added at its end.
"""
import glob
import os
import re
import subprocess
import sys

HEADING = "## Five pieces: a chosen few"


def blocks(text):
    """{material: (positions, indices, [W, L, D] South to move, [W, L, D] North to move, longest)}"""
    out = {}
    for b in re.split(r"\n(?=\S)", text):
        head = re.match(r"(\S+): ([\d,]+) positions \(([\d,]+) indices\)", b)
        if not head:
            continue
        wld = [[int(x.replace(",", "")) for x in re.search(side + r" to move: WIN ([\d,]+) / LOSS ([\d,]+) / DRAW ([\d,]+)", b).groups()]
               for side in ("South", "North")]
        longest = re.search(r"longest win: (.*)", b).group(1)
        out[head.group(1)] = (int(head.group(2).replace(",", "")), int(head.group(3).replace(",", "")), wld[0], wld[1], longest)
    return out


def pct(x, n):
    return f"{100.0 * x / n:.1f} %"


def five_plan(gonu):
    """The 5-piece materials' count and the closure's indices of each (what solving it with its
    closure takes), from `gonu solve --game jungi --all 5 --plan`."""
    plan = subprocess.run([gonu, "solve", "--game", "jungi", "--all", "5", "--plan"], check=True, capture_output=True,
                          text=True).stdout.splitlines()[1:]
    rows = [l.split("\t") for l in plan if not l.startswith("total")]
    return {r[1]: int(r[4]) for r in rows if r[2] == "5"}


def royals(m):
    south, north = m.split("v")
    return re.match(r"\+?K", south).group(0), re.match(r"\+?K", north).group(0)


def material_section(d, m, closures):
    out_text = open(os.path.join(d, f"five-{m}.out")).read()
    err = open(os.path.join(d, f"five-{m}.err")).read()
    time = open(os.path.join(d, f"five-{m}.time")).read().strip()
    step = re.search(r"the largest step, (\S+), needs ([\d.]+ \w+)", err)
    verify_path = os.path.join(d, f"five-{m}.verify")
    verified = open(verify_path).read().strip() if os.path.exists(verify_path) else ""
    tables = blocks(out_text)
    mine = tables[m]
    files = glob.glob(os.path.join(d, glob.escape(m) + ".*.gonu"))
    size = os.path.getsize(files[0]) if files else 0
    lines = [f"### `{m}`", "",
             f"`nice -n 19 gonu solve --game jungi --material {m} --dir DIR` (the smaller tables of its closure "
             f"already in DIR): {time}; the memory estimate's largest step, {step.group(1)}, {step.group(2)}. "
             f"{mine[1]:,} indices, {mine[0]:,} positions; its closure {closures[m]:,} indices (the smallest "
             f"closure of a 5-piece material has {min(closures.values()):,}); its table file {size:,} bytes "
             f"({size / mine[0]:.4f} bytes a position)."
             + (" `gonu verify`: " + re.sub(r" \S+[.]gonu:", ":", verified) + "." if verified.startswith("OK ") else ""), "",
             "The tables of its closure with the same royals (South to move, then North to move; positions as "
             "the table counts them):", "",
             "| material | positions | South wins, South to move | draws, South to move | South wins, North to move "
             "| North wins, North to move | longest win |", "|---|---:|---:|---:|---:|---:|---|"]
    for x, (pos, _, s, n, longest) in tables.items():
        if royals(x) != royals(m):
            continue
        # Each side to move has its own positions (the table counts both).
        lines.append(f"| `{x}` | {pos:,} | {pct(s[0], sum(s))} | {pct(s[2], sum(s))} | {pct(n[1], sum(n))} | "
                     f"{pct(n[0], sum(n))} | {longest} |")
    return lines


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    d, results, materials = sys.argv[1], sys.argv[2], sys.argv[3:]
    closures = five_plan(os.environ.get("GONU", "build/bin/gonu"))
    out = [HEADING, "",
           "Written by `scripts/jungi.sh --five DIR " + " ".join(materials) + "`; do not edit by hand. A few of the",
           f"{len(closures):,} 5-piece tables, solved on this machine (niced, beside other work) with the tables of up to four",
           "pieces of their closures copied in from the run above. Why these: their closures are among the",
           "smallest of the 5-piece materials (`gonu solve --game jungi --all 5 --plan`: three identical pieces",
           "make few combinations, and promoted pieces promote no further), so they fit this machine, and they answer a",
           "player's question the smaller tables leave open: one promoted piece rarely beats a lone promoted royal",
           "(the 3-piece tables above), so how much do two and three of it win?", ""]
    for m in materials:
        out += material_section(d, m, closures) + [""]
    section = "\n".join(out)
    text = open(results).read()
    if HEADING in text:
        before, rest = text.split(HEADING, 1)
        after = rest[rest.index("\n## ") + 1:] if "\n## " in rest else ""
        text = before + section + ("\n" + after if after else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(results + ".tmp", "w") as f:
        f.write(text)
    os.replace(results + ".tmp", results)


if __name__ == "__main__":
    main()
