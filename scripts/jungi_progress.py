#!/usr/bin/env python3
"""Prints, as Markdown, how far a resumable `gonu solve --game jungi --all N --dir DIR` has come:
the kept materials of up to N pieces (`--all N --plan`) against the table files in DIR, with their
positions, sizes on disk and the longest wins, every figure read from the files by `gonu info`.
Used by scripts/jungi.sh (GONU_JUNGI_FOUR_DIR); nothing is solved here.
  scripts/jungi_progress.py GONU DIR N
"""
import os
import re
import subprocess
import sys


def plan(gonu, n):
    """Material -> pieces, for every kept material of up to n pieces."""
    out = subprocess.run([gonu, "solve", "--game", "jungi", "--all", str(n), "--plan"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    return {f[1]: int(f[2]) for f in (line.split("\t") for line in out[1:]) if f[0] != "total"}


def info(gonu, path):
    text = subprocess.run([gonu, "info", path], check=True, capture_output=True, text=True).stdout
    field = dict(re.findall(r"^([a-zA-Z ]+):\s+(.*)$", text, re.M))
    positions = int(re.search(r"\(([\d,]+) positions\)", field["indices"])[1].replace(",", ""))
    longest = re.match(r"(\d+) plies, (.*)$", field["longest win"])
    return {"positions": positions, "bytes": os.path.getsize(path),
            "longest": int(longest[1]) if longest else -1, "where": longest[2] if longest else ""}


def main():
    gonu, directory, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    materials = plan(gonu, n)
    files = {f.split(".")[0]: os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".gonu")}
    done = {m: info(gonu, files[m]) for m in materials if m in files}
    print(f"{len(done):,} of the {len(materials):,} kept materials of up to {n} pieces have their table in the run's")
    print("directory (each material and its colour flip share one table; `--all "
          f"{n} --plan` lists them).")
    print()
    print("| pieces | materials | solved | positions | bytes on disk | bytes a position |")
    print("|---:|---:|---:|---:|---:|---:|")
    for pieces in sorted(set(materials.values())):
        mine = [m for m in materials if materials[m] == pieces]
        have = [done[m] for m in mine if m in done]
        positions = sum(t["positions"] for t in have)
        size = sum(t["bytes"] for t in have)
        rate = f"{size / positions:.4f}" if positions else "-"
        print(f"| {pieces} | {len(mine):,} | {len(have):,} | {positions:,} | {size:,} | {rate} |")
    longest = sorted(((m, t) for m, t in done.items() if materials[m] == n), key=lambda kv: -kv[1]["longest"])[:10]
    if longest:
        print()
        print(f"The longest wins among the {n}-piece tables solved so far:")
        print()
        for m, t in longest:
            print(f"- `{m}`: {t['longest']} plies, from `{t['where']}`")


if __name__ == "__main__":
    main()
