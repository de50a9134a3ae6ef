#!/usr/bin/env python3
"""Prints, as Markdown, how far a resumable `gonu solve --game jungi --all N --dir DIR` has come:
the kept materials of up to N pieces (`--all N --plan`) against the table files in DIR, with their
positions, sizes on disk and the longest wins, every figure read from the files by `gonu info`;
the solve's time of each table from the run's logs (DIR/all*.err: `gonu solve`'s stderr, one
line a table solved). With CSV, every table's figures go there, one row a table; and what a
player wants from the N-piece tables (scripts/jungi_findings.py's shares): two pieces against a
bare King, one piece against one. Used by scripts/jungi.sh (GONU_JUNGI_FOUR_DIR); nothing is
solved here.
  scripts/jungi_progress.py GONU DIR N [CSV]
"""
import csv
import glob
import os
import re
import subprocess
import sys

from jungi_findings import add_flips, share


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
    t = {"positions": positions, "bytes": os.path.getsize(path),
         "format": int(re.search(r"format version (\d+)", field["format"])[1]),
         "longest": int(longest[1]) if longest else -1, "where": longest[2] if longest else ""}
    for side in ("South", "North"):
        wld = re.match(r"WIN ([\d,]+) / LOSS ([\d,]+) / DRAW ([\d,]+)$", field[f"{side} to move"])
        t[side] = tuple(int(x.replace(",", "")) for x in wld.groups())
    return t


def verified_files(directory):
    """The file names `scripts/jungi.sh --four` recorded as passing gonu verify."""
    path = os.path.join(directory, "verified.list")
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {line.strip() for line in f if line.strip()}


def solve_seconds(directory):
    """Material -> seconds its solve took, from the run's logs (the last run that solved it)."""
    seconds = {}
    for log in sorted(glob.glob(os.path.join(directory, "all*.err"))):
        with open(log) as f:
            for line in f:
                if m := re.match(r"^  (\S+) solved in ([\d.]+) s ", line):
                    seconds[m[1]] = float(m[2])
    return seconds


def processes(directory, n):
    """The run's `gonu solve` processes: [(wall, cpu seconds or None, peak KiB or None)] from DIR/allN.time (GNU time,
    one line a process; the line a failed process adds before its figures skipped; a line
    "WALL\t-\t-\t-" stands for a process stopped together with its GNU time, when a session's
    machine was taken back: its wall from its start (a first process's: the file's creation) to its
    last table file written, its CPU not known), and the tables each process that finished solved,
    from DIR/allN.err's closing lines (older runs, without a .time line, among them)."""
    runs, solved = [], []
    path = os.path.join(directory, f"all{n}.time")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if m := re.match(r"^([\d.]+)\t([\d.]+)\t([\d.]+)\t(\d+)$", line):
                    runs.append((float(m[1]), float(m[2]) + float(m[3]), int(m[4])))
                elif m := re.match(r"^([\d.]+)\t-\t-\t-$", line):
                    runs.append((float(m[1]), None, None))
    log = os.path.join(directory, f"all{n}.err")
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                if m := re.match(r"^[\d,]+ materials: ([\d,]+) solved and written", line):
                    solved.append(int(m[1].replace(",", "")))
    return runs, solved


def from_scratch(directory, n):
    """Whether the run began in an empty DIR and every one of its processes left its GNU time line:
    the first line of DIR/allN.err (the memory estimate) says no table was there, and DIR/allN.time
    has a line for each process that began (each logs its memory estimate)."""
    log = os.path.join(directory, f"all{n}.err")
    if not os.path.exists(log):
        return False
    with open(log) as f:
        starts = [line for line in f if line.startswith("memory estimate:")]
    return bool(starts) and "(0 already in " in starts[0] and len(processes(directory, n)[0]) == len(starts)


def speeds(directory, n):
    """The machine's speed beside the solve processes: [(date, "before" or "after", ms)] from
    DIR/allN.speed (BM_JungiPerftStart/4, written by scripts/jungi.sh --four)."""
    path = os.path.join(directory, f"all{n}.speed")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [tuple(line.rstrip("\n").split("\t")) for line in f if line.count("\t") == 2 and line.split("\t")[2].strip()]


def duration(seconds):
    return f"{seconds / 3600:.2f} h" if seconds >= 360 else f"{seconds:.0f} s"


def print_processes(directory, n, total, scratch):
    runs, solved = processes(directory, n)
    if not runs:
        return
    wall = sum(r[0] for r in runs)
    timed = [r[1] for r in runs if r[1] is not None]
    cpu = ("CPU not known" if not timed else duration(sum(timed)) + " of CPU" if len(timed) == len(runs)
           else f"{duration(sum(timed))} of CPU in the {len(timed)} with GNU time's line")
    if timed:
        cpu += f", {max(r[2] for r in runs if r[2] is not None) / 1024:,.0f} MiB at peak (resident)"
    print()
    if len(runs) == 1 and solved == [total]:
        print(f"**The whole run from scratch, in one process: {duration(wall)}** ({cpu};"
              f" GNU time's figures in DIR/all{n}.time), every one of the {total:,} tables solved, its file"
              " written, and the tables it reads loaded again where the memory bound had let them go.")
    elif scratch and len(solve_seconds(directory)) == total:
        print(f"**The whole run from scratch, in {len(runs)} processes: {duration(wall)} in all** ({cpu};"
              f" GNU time's figures in DIR/all{n}.time: " + ", ".join(duration(r[0]) for r in runs) + "), every one of the"
              f" {total:,} tables solved and its file written. Each process after the first was the run resumed in a later"
              " session from the files the one before had written: it loads again the tables it reads, and the process"
              " stopped lost the table it was solving, so the sum is more than one process from scratch would take.")
    else:
        print(f"The run's {len(runs):,} `gonu solve` processes (DIR/all{n}.time, GNU time) took {duration(wall)}"
              f" ({cpu}), and solved and wrote {len(solve_seconds(directory)):,} of the {total:,} tables"
              f" (a stopped process leaves no closing line, so they are counted by their lines in DIR/all{n}.err). A resumed"
              " run loads again what it reads, and a stopped one loses the table it was solving, so the sum is"
              " more than one process from scratch would take.")
    if len(timed) < len(runs):
        print(f"{len(runs) - len(timed)} of them stopped together with GNU time, when a session's machine was"
              " taken back, and left no line: each such process's wall time is counted from its start to its last"
              " table file written, a little less than it ran.")
    marks = speeds(directory, n)
    if marks:
        print()
        print("The machine's speed beside them (DIR/all{0}.speed: `BM_JungiPerftStart/4`, median of 3, in ms;"
              " results/bench.md has the figure of a quiet hour): ".format(n) +
              ", ".join(f"{when} {ms} ({date})" for date, when, ms in marks) + ".")


def write_csv(path, materials, done, seconds):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["material", "pieces", "positions", "south_to_move_win", "south_to_move_loss", "south_to_move_draw",
                    "north_to_move_win", "north_to_move_loss", "north_to_move_draw", "longest_win_plies",
                    "longest_win_position", "bytes", "solve_seconds"])
        for m in sorted(done, key=lambda m: (materials[m], m)):
            t = done[m]
            w.writerow([m, materials[m], t["positions"], *t["South"], *t["North"], t["longest"], t["where"], t["bytes"],
                        seconds.get(m, "")])


def bare_royal_pairs(tables):
    """KXYvK: South's unpromoted King and two pieces against North's King alone, by South's
    share of wins with South to move."""
    rows = []
    for name, t in tables.items():
        south, north = name.split("v")
        if north == "K" and re.fullmatch(r"K(\+?[A-Z]){2}", south):
            rows.append((south[1:], t))
    return sorted(rows, key=lambda r: -r[1]["South"][0] / max(1, sum(r[1]["South"])))


def findings(done, n, complete):
    """What a player wants from the n-piece tables (both sides' figures from each kept table);
    `complete`: every n-piece table is there (else the figures are of those solved so far)."""
    so_far = "" if complete else " solved so far"
    tables = {m: dict(t) for m, t in done.items()}
    add_flips(tables)
    pairs = bare_royal_pairs(tables)
    if pairs:
        wins = sum(1 for _, t in pairs if t["South"][0] > sum(t["South"]) / 2)
        print()
        print("### Two pieces against a bare King")
        print()
        print(f"South's King with two pieces (`KXYvK`, the {len(pairs)} pairs{so_far}, promoted forms included) against North's")
        print(f"King alone: South to move wins more than half the positions with {wins} of them. The pairs")
        print("that win most and least often (South wins with South to move, then with North to move; the")
        print("longest win):")
        print()
        print("| pieces | positions | South wins, South to move | South wins, North to move | longest win (plies) |")
        print("|---|---:|---:|---:|---:|")
        for extra, t in pairs if len(pairs) <= 16 else pairs[:8] + pairs[-8:]:
            print(f"| {extra} | {t['positions']:,} | {share(t['South'][0], sum(t['South']))} | "
                  f"{share(t['North'][1], sum(t['North']))} | {t['longest']} |")
    types = "CELMNOPQRS"
    grid = {(x, y): tables.get(f"K{x}vK{y}") for x in types for y in types}
    if any(grid.values()):
        print()
        print("### One piece against one")
        print()
        print("`KXvKY`, both Kings unpromoted: the share of positions South (the row's piece) wins with South")
        print(f"to move{'' if complete else ' (- where not solved yet)'}.")
        print()
        print("| South \\ North | " + " | ".join(types) + " |")
        print("|---|" + "---:|" * len(types))
        for x in types:
            cells = [share(t["South"][0], sum(t["South"])) if (t := grid[(x, y)]) else "-" for y in types]
            print(f"| {x} | " + " | ".join(cells) + " |")


def main():
    gonu, directory, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    csv_path = sys.argv[4] if len(sys.argv) > 4 else None
    materials = plan(gonu, n)
    files = {f.split(".")[0]: os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".gonu")}
    done = {m: info(gonu, files[m]) for m in materials if m in files}
    print(f"{len(done):,} of the {len(materials):,} kept materials of up to {n} pieces have their table in the run's")
    print("directory (each material and its colour flip share one table; `--all "
          f"{n} --plan` lists them).")
    verified = verified_files(directory) & {os.path.basename(files[m]) for m in done}
    print(f"{len(verified):,} of them checked by `gonu verify` (DIR/verified.list: checksums, counts and"
          f" don't-cares in full, a {n}-piece table's every 1000th placement re-derived, the others whole).")
    print()
    scratch = from_scratch(directory, n)
    if scratch:
        print("The last column sums each table's solve time as the run's log has it (DIR/all*.err), one build of gonu from")
        print("an empty DIR; the loading and writing of files between tables are not in it (the processes' whole")
        print("time is below the table).")
    else:
        print("The last column sums each table's solve time as the run's log has it (DIR/all*.err): runs niced")
        print("beside other work over several sessions, most tables by older generators (the first Emperor tables")
        print("up to a hundred times slower than now), so not a measure of the generator (results/bench.md's")
        print("`BM_JungiSolveFourPieces` is, and `scripts/jungi.sh --time DIR` samples the whole run); the loading and writing of")
        print("files between tables are not in it.")
    print()
    print("| pieces | materials | solved | positions | bytes on disk | bytes a position | solve time logged |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    seconds = solve_seconds(directory)
    for pieces in sorted(set(materials.values())):
        mine = [m for m in materials if materials[m] == pieces]
        have = [done[m] for m in mine if m in done]
        positions = sum(t["positions"] for t in have)
        size = sum(t["bytes"] for t in have)
        rate = f"{size / positions:.4f}" if positions else "-"
        timed = [seconds[m] for m in mine if m in done and m in seconds]
        total = sum(timed)
        solve = f"{duration(total)} ({len(timed):,} tables)" if timed else "-"
        print(f"| {pieces} | {len(mine):,} | {len(have):,} | {positions:,} | {size:,} | {rate} | {solve} |")
    print_processes(directory, n, len(materials), scratch)
    old = [m for m in done if done[m]["format"] < max(t["format"] for t in done.values())]
    if old:
        new = [t for m, t in done.items() if m not in old and materials[m] == n]
        rate = sum(t["bytes"] for t in new) / max(1, sum(t["positions"] for t in new))
        print()
        print(f"{len(old):,} of these files are of an older table format, written before the current one (which")
        print("`scripts/jungi.sh --four` writes them in again once the run is done); the "
              f"{n}-piece tables of the current format take {rate:.4f} bytes a position.")
    if csv_path:
        write_csv(csv_path, materials, done, seconds)
    longest = sorted(((m, t) for m, t in done.items() if materials[m] == n), key=lambda kv: -kv[1]["longest"])[:10]
    if longest:
        print()
        print(f"The longest wins among the {n}-piece tables{'' if len(done) == len(materials) else ' solved so far'}:")
        print()
        for m, t in longest:
            print(f"- `{m}`: {t['longest']} plies, from `{t['where']}`")
    findings({m: t for m, t in done.items() if materials[m] == n}, n, len(done) == len(materials))


if __name__ == "__main__":
    main()
