#!/usr/bin/env python3
"""The section "Jungi: every 5-piece table on a cluster" of results/mpi.md: how many 5-piece
materials, their indices, memory, dependency waves, time and disk, how `gonu solve --game jungi
--all 5 --dir DIR --mpi` would deal them out over a cluster's nodes, and a small run of it measured
here.

usage: jungi_plan.py GONU MPIRUN...
  GONU    the gonu binary: `gonu solve --game jungi --all 5 --plan` counts the materials, their
          indices, waves and closures, and the memory estimate of `--all 5 --dir DIR` (said before
          it is refused under `--max-memory 1`) the largest step of a streamed run (nothing is solved)
  MPIRUN  the mpirun command line that starts the measured run (`mpirun --oversubscribe`): `--all 3`
          into a fresh folder by one process (its threads on every core), then by `-np 2` processes
          of one thread each under --mpi; both timed, their stdout and files compared byte for byte
Every other figure is read from the files that hold the measurement, so that they agree:
  - the rate: results/jungi.md, `gonu solve --game jungi --material +K+Rv+K+N` (its CPU seconds in
    user mode over the indices of the tables it solved), and its peak resident memory;
  - the disk: results/jungi.md, the bytes a position of the 4-piece tables, and the
    spread over KRvK's closure in solver/jungi/table/FORMAT.md;
  - the rate on a 5-piece table: results/jungi.md, "Five pieces: a chosen few" (scripts/jungi.sh
    --five), the first material's CPU seconds in user mode over its indices, when it is there.
The cluster's wall time deals each wave's tables (every table of up to five pieces: `--all 5`) as
gonu does (solver/jungi/generator/schedule.hpp: largest first to the least loaded process) and takes each
wave's most loaded process, its threads assumed to scale.
The section replaces the one already in results/mpi.md (or the plan it grew from, or goes before
"## Not done"). Called by `scripts/mpi.sh --jungi-plan`.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

HEADING = "## Jungi: every 5-piece table on a cluster"
OLD_HEADINGS = ("## Plan for every 5-piece Jungi table",)
MEASURED = "+K+Rv+K+N"          # the 4-piece material of results/jungi.md whose rate is used
NODE_CORES = 16                 # a cluster node, as in scripts/mpi_plan.py
NODE_BYTES = 128 * 10**9        # its memory (128 GB)
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
    """Bytes a position of the 4-piece table files, and how many (results/jungi.md)."""
    # The row of the 4-piece tables: materials, solved, positions, bytes, bytes a position, then
    # the solve time logged.
    row = re.search(r"^\| 4 \| [\d,]+ \| ([\d,]+) \| [\d,]+ \| [\d,]+ \| ([\d.]+) \|",
                    open("results/jungi.md").read(), re.M)
    return float(row.group(2)), int(row.group(1).replace(",", ""))


def format_spread():
    """The least and most bytes a position of the table files measured in solver/jungi/table/FORMAT.md."""
    # KRvK's closure: table, formats 1, 2 and 3's bytes and bytes a position (format 3's last).
    rates = [float(x) for x in re.findall(r"^\| \S+ \| [\d,]+ \| [\d.]+ \| [\d,]+ \| [\d.]+ \| [\d,]+ \| ([\d.]+) \|$",
                                          open("solver/jungi/table/FORMAT.md").read(), re.M)]
    return min(rates), max(rates)


def measured_five():
    """(material, CPU seconds, indices) of the first 5-piece table solved here (results/jungi.md,
    "Five pieces: a chosen few": its closure's smaller tables read from files, its own solved and
    written), or None."""
    text = open("results/jungi.md").read()
    m = re.search(r"^### `(\S+)`\n\n`nice -n 19 gonu solve [^\n]*?\(([\d.]+) s of CPU in user mode\)[^\n]*? "
                  r"([\d,]+) indices, ", text, re.M)
    return (m.group(1), float(m.group(2)), int(m.group(3).replace(",", ""))) if m else None


def bytes_of(text):
    """Bytes of a size as gonu writes it ("54.5 GiB")."""
    value, unit = text.split()
    return float(value) * {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}[unit]


def deal(sizes, processes):
    """gonu's deal (solver/jungi/generator/schedule.hpp): largest first, each to the least loaded process."""
    load = [0] * processes
    for size in sorted(sizes, reverse=True):
        least = load.index(min(load))
        load[least] += size
    return load


def measured_mpi_run(gonu, mpirun):
    """`--all 3` by one process and by two under --mpi: (seconds, seconds, files, bytes), the two
    runs' stdout and files checked identical."""
    with tempfile.TemporaryDirectory() as d:
        one, two = os.path.join(d, "one"), os.path.join(d, "two")
        os.mkdir(one)
        os.mkdir(two)
        t0 = time.monotonic()
        a = subprocess.run([gonu, "solve", "--game", "jungi", "--all", "3", "--dir", one, "--quiet"], check=True,
                           capture_output=True, text=True).stdout
        t1 = time.monotonic()
        b = subprocess.run(mpirun + ["-np", "2", gonu, "solve", "--game", "jungi", "--all", "3", "--dir", two, "--mpi",
                                     "--threads", "1", "--quiet"], check=True, capture_output=True, text=True).stdout
        t2 = time.monotonic()
        names = sorted(os.listdir(one))
        if a != b or names != sorted(os.listdir(two)):
            sys.exit("jungi_plan.py: the run over two processes printed or wrote other tables than one process")
        size = 0
        for n in names:
            x, y = open(os.path.join(one, n), "rb").read(), open(os.path.join(two, n), "rb").read()
            if x != y:
                sys.exit(f"jungi_plan.py: {n} differs between one process and two")
            size += len(x)
    return t1 - t0, t2 - t1, len(names), size


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


def cluster(rows, step_bytes, cpu_per_index):
    """Processes a node (the most whose share of its memory holds the largest step), threads a
    process, and the wall time of `--all 5 --mpi` on each count of nodes: wave by wave, the
    tables dealt as gonu deals them, the wave as long as its most loaded process."""
    per_node = max(1, min(NODE_CORES, int(NODE_BYTES // step_bytes)))
    threads = NODE_CORES // per_node
    waves = sorted({r[0] for r in rows})
    walls = {}
    for n in NODES:
        walls[n] = sum(max(deal([r[3] for r in rows if r[0] == w], n * per_node)) * cpu_per_index / threads
                       for w in waves)
    return per_node, threads, walls


def section(rows, step, run):
    cpu, peak, measured_indices = measured_rate()
    disk, disk_tables = measured_disk()
    lo, hi = format_spread()
    cpu_per_index = cpu / measured_indices
    peak_per_index = peak / measured_indices
    five = [r for r in rows if r[2] == 5]
    smaller = [r for r in rows if r[2] < 5]
    idx = sum(r[3] for r in five)
    cpu_all = idx * cpu_per_index
    here = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    passes = [r for r in five if 2 * r[4] + 2 * r[5] <= here]  # the refusal's estimate
    small = min(five, key=lambda r: r[4])
    big = max(five, key=lambda r: r[4])
    largest = max(five, key=lambda r: r[3])
    waves = sorted({r[0] for r in five})
    step_bytes = bytes_of(step[1])
    per_node, threads, walls = cluster(rows, step_bytes, cpu_per_index)
    five_run = measured_five()
    five_rate = five_run[1] / five_run[2] if five_run else None
    walls_five = cluster(rows, step_bytes, five_rate)[2] if five_run else None
    one_s, two_s, files, size = run
    out = [HEADING, "",
           "Written by `scripts/mpi.sh --jungi-plan` (scripts/jungi_plan.py); do not edit by hand. Only the",
           "3-piece run at the end was solved for this section: the counts are `gonu solve --game jungi --all 5",
           "--plan`'s (every material with its indices, its closure's indices and its dependency wave, without",
           f"solving), the time and memory rates the ones measured on the 4-piece `{MEASURED}` (results/jungi.md),",
           "the disk the bytes a position of the 4-piece table files (results/jungi.md).", "",
           f"- **Materials and indices.** {len(five):,} materials of exactly five pieces (besides the "
           f"{len(smaller):,} of two to four), {idx:,} indices in all, {gib(2 * idx)} at 2 bytes an index "
           f"(the generator's entry); the largest, {largest[1]}, has {largest[3]:,} indices "
           f"({gib(2 * largest[3])}; {gib(4 * largest[3])} while it is solved, 2 bytes an index more).",
           f"- **Dependency order.** A capture or a promotion leads to a material with fewer pieces or "
           f"fewer unpromoted ones, so the tables go in waves: a material's wave is one more than the "
           f"highest wave of what its moves lead to, and the materials of a wave are independent. The "
           f"5-piece materials fall in waves {waves[0]} to {waves[-1]} (the table below); the tables of "
           f"up to four pieces ({sum(r[3] for r in smaller):,} indices, "
           f"{sum(r[3] for r in smaller) * cpu_per_index / 3600:,.0f} CPU-hours at the rate below) fill "
           f"waves 0 to {max(r[0] for r in smaller)}.",
           f"- **Time (an extrapolation).** `{MEASURED}` and its closure ({measured_indices:,} indices) took "
           f"{cpu:.2f} s of CPU in user mode: {cpu_per_index * 1e6:.3f} µs of CPU an index "
           f"({1 / cpu_per_index / 1e6:.2f} million indices a second a core). At that rate the "
           f"5-piece tables take {cpu_all / 3600:,.0f} CPU-hours ({cpu_all / 86400 / 365:,.1f} CPU-years). "
           f"It is one all-promoted 4-piece material on this loaded 2-core machine: materials with "
           f"unpromoted pieces have promotion moves too, and larger tables miss the cache more, so read it "
           f"as a lower bound."
           + (f" Checked on one 5-piece table here, {five_run[0]} (results/jungi.md, \"Five pieces: a chosen "
              f"few\": niced on this loaded machine, its smaller tables read from files and its own written "
              f"compressed): {five_run[1]:,.0f} s of CPU for its {five_run[2]:,} indices, "
              f"{five_rate * 1e6:.2f} µs an index, {five_rate / cpu_per_index:.1f} times the 4-piece rate; at "
              f"that rate the 5-piece tables take {idx * five_rate / 3600:,.0f} CPU-hours." if five_run else ""),
           f"- **Memory per process.** `--dir` streams the run: a process holds one step, the table it "
           f"solves (2 bytes an index, 2 more while it is solved) and the tables that one reads (2 bytes "
           f"an index), the least recently used released under its limit. The largest step of "
           f"`--all 5 --dir` is {step[0]}'s, {step[1]} (gonu's estimate, said before it solves); "
           f"without `--dir` `--material M` holds M's whole closure, up to {big[1]}'s "
           f"{big[4]:,} indices ({gib(2 * big[4])}). The peak measured on `{MEASURED}` was "
           f"{peak_per_index:.1f} bytes an index of its closure (the retrograde pass's counters and lists "
           f"besides the entries).",
           f"- **Disk.** The {disk_tables:,} 4-piece table files take {disk} bytes a position "
           f"(results/jungi.md); at that rate, counting every index as a position (an upper bound: about "
           f"96 % are), the 5-piece tables take {tb(disk * idx)} (KRvK's closure took {lo} to {hi} bytes a "
           f"position, solver/jungi/table/FORMAT.md: the rate varies with the material). The 2-byte "
           f"entries would be {tb(2 * idx)}: each table goes to disk compressed as soon as it is solved.",
           f"- **This machine ({gib(here)}, {HERE_CORES} cores).** {len(passes):,} of the 5-piece materials "
           f"pass the in-memory refusal (closure at 2 bytes an index and its largest table's 2 more); the "
           f"smallest, {small[1]} ({small[3]:,} indices), would take about "
           f"{duration(small[4] * cpu_per_index / HERE_CORES)} on both cores at the measured rate. A chosen few "
           f"are solved here: results/jungi.md, \"Five pieces: a chosen few\".", "",
           "The waves of the 5-piece materials (CPU at the measured rate; the largest closure is what",
           "`gonu solve --material` holds for that wave's largest without `--dir`, at 2 bytes an index):", ""]
    out += wave_table(five, cpu_per_index)
    out += ["", "**The plan on a cluster.** `gonu solve --game jungi --all 5 --dir DIR --mpi` under mpirun:",
            "every process computes the same schedule (the run's waves; in each wave the tables not yet in DIR,",
            "dealt largest first to the least loaded process), solves its tables with its own threads and",
            "writes each into DIR atomically; a barrier ends each wave, and the next wave reads what it needs",
            "from DIR. DIR is a file system every node sees (Lustre, GPFS, BeeGFS, NFS): each table is written",
            "by one process and read after the barrier, so no two processes write one file. Process 0 prints",
            "the report from the files' headers; the files and stdout are a single process's (`ctest -L mpi`,",
            "tests/mpi/jungi_compare.sh). A run killed mid-way is started again with the same command, on any",
            "number of processes: the tables already in DIR are checked and not solved again. Each process",
            "checks its largest step against its limit before it starts (`--max-memory` per process, default",
            f"its node's memory shared by the processes there). On nodes of {NODE_CORES} cores and "
            f"{NODE_BYTES // 10**9} GB the largest step ({step[1]}) allows {per_node} process{'es' if per_node > 1 else ''} a node "
            f"of {threads} threads each (`mpirun --map-by ppr:{per_node}:node --bind-to none ... --threads {threads}`);",
            "the wall time of `--all 5` at the measured rate, wave by wave as the processes are dealt (each",
            "wave as long as its most loaded process; the generator's threads assumed to scale to them):", ""]
    if walls_five:
        out += ["| nodes | processes | wall time at the 4-piece rate | at the 5-piece rate measured here |",
                "|---|---|---|---|"]
        out += [f"| {n} | {n * per_node} | {duration(walls[n])} | {duration(walls_five[n])} |" for n in NODES]
    else:
        out += ["| nodes | processes | wall time (extrapolated) |", "|---|---|---|"]
        out += [f"| {n} | {n * per_node} | {duration(walls[n])} |" for n in NODES]
    out += ["", f"**Measured here.** `{' '.join(['mpirun', '--oversubscribe', '-np', '2'])} gonu solve --game jungi "
            "--all 3 --dir DIR --mpi --threads 1` (two processes of one thread on this machine's two cores) "
            f"against `gonu solve --game jungi --all 3 --dir DIR` (one process, its threads on both cores): "
            f"{two_s:.2f} s against {one_s:.2f} s wall on this shared machine (load average "
            f"{os.getloadavg()[0]:.2f} at the end); the {files} table files ({size:,} bytes) and stdout "
            "byte for byte the same.",
            "", "Not built: one table's index range split across processes (as solver/julgonu/mpi does for Jul-gonu),",
            "for tables whose step passes a node's memory; at 5 pieces the largest step fits a 128 GB node.", ""]
    return "\n".join(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    gonu = os.path.abspath(sys.argv[1])
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    new = section(plan(gonu), largest_step(gonu), measured_mpi_run(gonu, sys.argv[2:]))
    text = open("results/mpi.md").read()
    for old in OLD_HEADINGS:
        text = text.replace(old, HEADING)
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
