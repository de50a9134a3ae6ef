#!/usr/bin/env python3
"""The section "Plan for every 5-piece Jungi table" of results/mpi.md: how many 5-piece materials,
their indices, memory, dependency waves, time and disk, and how the work would split on a cluster.

usage: jungi_plan.py GONU
  GONU  the gonu binary: `gonu solve --game jungi --all 5 --plan` counts the materials, their
        indices, waves and closures, and the memory estimate of `--all 5 --dir DIR` (said before
        it is refused under `--max-memory 1`) the largest step of a streamed run (nothing is solved)
Every other figure is read from the files that hold the measurement, so that they agree:
  - the rate: results/jungi.md, `gonu solve --game jungi --material +K+Rv+K+N` (its CPU seconds in
    user mode over the indices of the tables it solved), and its peak resident memory;
  - the disk: solver/table/FORMAT.md, the bytes an index measured on +K+Rv+K+R's table file and the
    3-piece tables' spread around their all-promoted neighbour.
The section replaces the one already in results/mpi.md (or goes before "## Not done").
Called by `scripts/mpi.sh --jungi-plan`.
"""
import os
import re
import subprocess
import sys
import tempfile

HEADING = "## Plan for every 5-piece Jungi table"
MEASURED = "+K+Rv+K+N"          # the 4-piece material of results/jungi.md whose rate is used
NODE_CORES = 16                 # a cluster node, as in scripts/mpi_plan.py
HERE_CORES = 2                  # this machine
NODES = (16, 64, 256)
GIB = 2**30


def plan(gonu):
    """(wave, material, pieces, indices, closure_indices, closure_largest) for every material of up to
    5 pieces."""
    out = subprocess.run([gonu, "solve", "--game", "jungi", "--all", "5", "--plan"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    rows = []
    for line in out[1:]:
        f = line.split("\t")
        if f[0] != "total":
            rows.append((int(f[0]), f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5])))
    return rows


def largest_step(gonu):
    """(material, size text) of the largest step of `--all 5 --dir DIR`: one material solved with
    the tables it reads, from the estimate gonu says before refusing a limit of one byte."""
    with tempfile.TemporaryDirectory() as d:
        err = subprocess.run([gonu, "solve", "--game", "jungi", "--all", "5", "--dir", d, "--max-memory", "1"],
                             capture_output=True, text=True).stderr
    m = re.search(r"the largest step, (\S+), needs ([\d.]+ \w+) ", err)
    if not m:
        sys.exit("jungi_plan.py: no memory estimate in: " + err)
    return m.group(1), m.group(2)


def measured_rate():
    """CPU seconds an index, peak bytes an index and the indices, from results/jungi.md."""
    text = open("results/jungi.md").read()
    section = text.split(f"## `gonu solve --game jungi --material {MEASURED}`")[1].split("\n## ")[0]
    cpu = float(re.search(r"\(([\d.]+) s of CPU in user mode", section).group(1))
    peak_kib = int(re.search(r"(\d+) KiB at peak", section).group(1))
    indices = sum(int(x.replace(",", "")) for x in re.findall(r"\(([\d,]+) indices\)", section))
    return cpu, peak_kib * 1024, indices


def measured_disk():
    """Bytes an index of the measured 4-piece table file, and the 3-piece tables' spread."""
    text = open("solver/table/FORMAT.md").read()
    rate = float(re.search(r"against 27,099 bytes\): ([\d.]+) bytes an index", text).group(1))
    spread = float(re.search(r"\(([\d.]+)\s+times \+K\+Rv\+K's rate on average\)", text).group(1))
    return rate, spread


def gib(b):
    return f"{b / GIB:,.1f} GiB"


def tb(b):
    return f"{b / 1e12:,.1f} TB"


def duration(s):
    if s < 3600:
        return f"{s / 60:,.0f} min"
    if s < 2 * 86400:
        return f"{s / 3600:,.1f} h"
    return f"{s / 86400:,.0f} days"


def wave_table(five, cpu_per_index):
    lines = ["| wave | 5-piece materials | indices | 2-byte entries | largest material (indices) | "
             "largest closure (2-byte entries) | CPU (measured rate) |", "|---|---|---|---|---|---|---|"]
    for w in sorted({r[0] for r in five}):
        rows = [r for r in five if r[0] == w]
        idx = sum(r[3] for r in rows)
        big = max(rows, key=lambda r: r[3])
        clo = max(rows, key=lambda r: r[4])
        lines.append(f"| {w} | {len(rows):,} | {idx:,} | {gib(2 * idx)} | {big[1]} ({big[3]:,}) | "
                     f"{clo[1]} ({gib(2 * clo[4])}) | {idx * cpu_per_index / 3600:,.0f} CPU-hours |")
    return lines


def section(rows, step):
    cpu, peak, measured_indices = measured_rate()
    disk, spread = measured_disk()
    cpu_per_index = cpu / measured_indices
    peak_per_index = peak / measured_indices
    five = [r for r in rows if r[2] == 5]
    smaller = [r for r in rows if r[2] < 5]
    idx = sum(r[3] for r in five)
    cpu_all = idx * cpu_per_index
    here = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    passes = [r for r in five if 2 * r[4] + 2 * r[5] <= here]  # the refusal's estimate
    fits = [r for r in five if peak_per_index * r[4] <= here]
    small = min(five, key=lambda r: r[4])
    fit_big = max(fits, key=lambda r: r[4])
    big = max(five, key=lambda r: r[4])
    waves = sorted({r[0] for r in five})
    # Per material across nodes: a wave's work spread over the nodes, but no faster than its
    # largest material on one node.
    def wall(nodes):
        t = 0.0
        for w in waves:
            ws = [r for r in five if r[0] == w]
            t += max(sum(r[3] for r in ws) * cpu_per_index / (NODE_CORES * nodes),
                     max(r[3] for r in ws) * cpu_per_index / NODE_CORES)
        return t
    out = [HEADING, "",
           "Written by `scripts/mpi.sh --jungi-plan` (scripts/jungi_plan.py); do not edit by hand. Nothing here",
           "was solved: the counts are `gonu solve --game jungi --all 5 --plan`'s (every material with its",
           "indices, its closure's indices and its dependency wave, without solving), the time and memory",
           f"rates the ones measured on the 4-piece `{MEASURED}` (results/jungi.md), the disk the bytes an",
           "index measured on +K+Rv+K+R's table file (solver/table/FORMAT.md).", "",
           f"- **Materials and indices.** {len(five):,} materials of exactly five pieces (besides the "
           f"{len(smaller):,} of two to four), {idx:,} indices in all, {gib(2 * idx)} at 2 bytes an index "
           f"(the generator's entry); one material has up to {max(r[3] for r in five):,} indices "
           f"({gib(2 * max(r[3] for r in five))}).",
           f"- **Dependency order.** A capture or a promotion leads to a material with fewer pieces or "
           f"fewer unpromoted ones, so the tables go in waves: a material's wave is one more than the "
           f"highest wave of what its moves lead to, and the materials of a wave are independent. The "
           f"5-piece materials fall in waves {waves[0]} to {waves[-1]} (the table below); every table of "
           f"up to four pieces ({sum(r[3] for r in smaller):,} indices, "
           f"{sum(r[3] for r in smaller) * cpu_per_index / 3600:,.0f} CPU-hours at the rate below) comes first.",
           f"- **Time (an extrapolation).** `{MEASURED}` and its closure ({measured_indices:,} indices) took "
           f"{cpu:.2f} s of CPU in user mode: {cpu_per_index * 1e6:.3f} µs of CPU an index. At that rate the "
           f"5-piece tables take {cpu_all / 3600:,.0f} CPU-hours ({cpu_all / 86400 / 365:,.1f} CPU-years). "
           f"It is one all-promoted 4-piece material on this loaded 2-core machine: materials with "
           f"unpromoted pieces have promotion moves too, and larger tables miss the cache more, so read it "
           f"as a lower bound, to be checked on one 5-piece material on a node first.",
           f"- **Memory.** `gonu solve --game jungi --material M` (without `--dir`, which streams the run: "
           f"How the work splits) holds M's whole closure at 2 bytes an index, and 2 more an index of the table being solved (the refusal's estimate counts both, the "
           f"latter for the closure's largest table); the measured peak was {peak / 2**20:,.0f} MiB for "
           f"{measured_indices:,} indices, {peak_per_index:.1f} bytes an index (the retrograde pass's "
           f"counters and lists besides the entries). The largest 5-piece closure is {big[1]}'s, "
           f"{big[4]:,} indices: {gib(2 * big[4])} at 2 bytes, {gib(peak_per_index * big[4])} at the "
           f"measured peak; the smallest {small[1]}'s, {small[4]:,} indices ({gib(2 * small[4])}, "
           f"{gib(peak_per_index * small[4])}).",
           f"- **Disk.** At {disk} bytes an index (+K+Rv+K+R measured) the 5-piece tables take "
           f"{tb(disk * idx)}; at the 3-piece tables' spread ({spread} times their all-promoted "
           f"neighbour's rate) {tb(disk * spread * idx)}. The 2-byte entries would be {tb(2 * idx)}: "
           f"nothing may hold them all, so each wave's tables go to disk compressed as they are solved.",
           f"- **This machine ({gib(here)}, {HERE_CORES} cores).** {len(passes):,} of the 5-piece materials "
           f"pass the refusal (closure at 2 bytes an index and its largest table's 2 more, under physical "
           f"memory); {len(fits):,} fit at "
           f"the measured peak. The smallest, {small[1]} (with its closure), would take about "
           f"{duration(small[4] * cpu_per_index / HERE_CORES)} on both cores at the measured rate "
           f"({small[4] * cpu_per_index / 3600:,.1f} CPU-hours), the largest that fits at the measured "
           f"peak, {fit_big[1]}, about {duration(fit_big[4] * cpu_per_index / HERE_CORES)}. None was "
           f"solved here: this machine is shared, and the extrapolation is best checked on a node.", "",
           "The waves of the 5-piece materials (CPU at the measured rate; the largest closure is what",
           "`gonu solve --material` holds for that wave's largest, at 2 bytes an index):", ""]
    out += wave_table(five, cpu_per_index)
    out += ["", "**How the work splits.** What exists today: `gonu solve --game jungi --material M --dir DIR`",
            "solves M's closure one material at a time, each with only the tables its moves read (loaded",
            "from DIR), skips the tables already in DIR and writes each table atomically once solved; so a",
            "scheduler's job array, wave by wave, one material a job on a shared DIR, runs the plan per",
            "material across nodes with no new code, each job holding one step (a table, the tables it reads",
            f"and the solver's working array: up to {step[1]}, {step[0]}'s, in the estimate of `--all 5 --dir`)",
            f"rather than M's whole closure (up to {gib(2 * big[4])}). `gonu solve --mpi` does not run Jungi today",
            "(`--mpi is not (yet) an option of solve --game jungi`): solver/mpi/ splits one Jul-gonu state",
            "space's id range across processes, and nothing of it is wired to the Jungi generator. Per",
            "material across 16-core nodes (assuming the generator's threads scale to 16 cores; a wave no",
            "faster than its largest material on one node):", ""]
    out += ["| nodes | wall time (extrapolated) |", "|---|---|"]
    out += [f"| {n} | {duration(wall(n))} |" for n in NODES]
    out += ["", "What would have to be built: (1) for the largest materials, whose step passes most nodes'",
            "memory, one material's index range split across processes as solver/mpi does for Jul-gonu",
            "(each process its range's entries and counters; the un-moves of a level sent to the owners of",
            "their indices in MPI_Alltoallv batches; the smaller tables read-only on every node or probed",
            "remotely); (2) `gonu solve --mpi --game jungi --all 5` driving it, with the memory check per",
            "process that Jul-gonu's --mpi has.", ""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    new = section(plan(sys.argv[1]), largest_step(sys.argv[1]))
    text = open("results/mpi.md").read()
    if HEADING in text:
        before, rest = text.split(HEADING, 1)
        after = rest[rest.index("\n## "):] if "\n## " in rest else ""
        text = before + new + "\n" + after.lstrip("\n")
    else:
        before, after = text.split("## Not done", 1)
        text = before + new + "\n## Not done" + after
    with open("results/mpi.md.tmp", "w") as f:
        f.write(text)
    os.replace("results/mpi.md.tmp", "results/mpi.md")


if __name__ == "__main__":
    main()
