#!/usr/bin/env python3
"""Prints, as Markdown, what solving every table of up to four pieces costs, estimated from the
systematic sample `scripts/jungi.sh --time DIR STEP` timed (DIR/time-STEP.tsv: every STEP-th
4-piece material of the run's order solved again, its reads loaded from disk). The estimate is a
ratio estimator: the sample's seconds an index times the indices of all 4-piece tables, with its
standard error (sampling without replacement). Prints nothing when DIR has no such file. Used by
scripts/jungi.sh (GONU_JUNGI_FOUR_DIR); nothing is solved here. The timed run is meant to have the
machine to itself (say so where the figures are quoted: this file cannot know).
  scripts/jungi_time.py GONU DIR
"""
import csv
import glob
import math
import os
import subprocess
import sys


def four_piece_indices(gonu):
    out = subprocess.run([gonu, "solve", "--game", "jungi", "--all", "4", "--plan"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    rows = [line.split("\t") for line in out[1:]]
    return [int(r[3]) for r in rows if r[0] != "total" and r[2] == "4"]


def ratio_estimate(xs, ys, total_x, population):
    """Total of y over the population from a sample, by y / x, with its standard error."""
    n = len(xs)
    r = sum(ys) / sum(xs)
    if n < 2:
        return r * total_x, float("nan")
    residual = sum((y - r * x) ** 2 for x, y in zip(xs, ys)) / (n - 1)
    mean_x = total_x / population
    se_r = math.sqrt((1 - n / population) * residual / n) / mean_x
    return r * total_x, se_r * total_x


def hours(s):
    return f"{s / 3600:.2f} h"


def main():
    gonu, directory = sys.argv[1], sys.argv[2]
    logs = sorted(glob.glob(os.path.join(directory, "time-*.tsv")))
    if not logs:
        return
    log = logs[0]
    step = os.path.basename(log)[len("time-"):-len(".tsv")]
    with open(log) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        return
    indices = four_piece_indices(gonu)
    total, population = sum(indices), len(indices)
    xs = [int(r["indices"]) for r in rows]
    wall = [float(r["wall_s"]) for r in rows]
    cpu = [float(r["user_s"]) + float(r["system_s"]) for r in rows]
    solve = [float(r["solve_s"]) for r in rows]
    est_wall, se_wall = ratio_estimate(xs, wall, total, population)
    est_solve, se_solve = ratio_estimate(xs, solve, total, population)
    est_cpu, _ = ratio_estimate(xs, cpu, total, population)
    peak = max(int(r["peak_kib"]) for r in rows)
    print(f"Every {step}th of the {population:,} 4-piece materials in the run's order, {len(rows):,} in all"
          f" ({sum(xs):,} of the {total:,} indices), solved again by `scripts/jungi.sh --time DIR {step}`")
    print("(each with `gonu solve --game jungi --material M --dir SCRATCH`, the tables it reads loaded from")
    print("files as a resumed run loads them, its file then compared with the run's: "
          f"{len(rows):,} of {len(rows):,} byte-identical),")
    print(f"{sum(wall):,.0f} s in all ({sum(solve):,.0f} s of it solving, the rest loading")
    print(f"the tables read and writing the file), {sum(xs) / sum(wall) / 1e6:.2f} million indices a second;"
          f" {peak / 1048576:.1f} GiB at peak.")
    print()
    print("Scaled by indices to all 4-piece tables (a ratio estimate, ± one standard error of the sample):")
    print()
    print(f"- every table solved, read and written as here: **{hours(est_wall)}** ± {hours(se_wall)}"
          f" ({hours(est_cpu)} of CPU);")
    print(f"- the solves alone: {hours(est_solve)} ± {hours(se_solve)}.")
    print()
    print("A run from scratch (`--four DIR`) loads fewer tables than this, keeping those it solved in")
    print("memory for the tables that read them, so its time lies between the two; the tables of up to three")
    print("pieces add seconds (above).")


if __name__ == "__main__":
    main()
