#!/usr/bin/env python3
"""scripts/gonu_report.py bench, a filtered rerun (GONU_BENCH_FILTER): the rows it measured replace
theirs in results/bench.md, a new benchmark joins its program's table, the other rows stay, and a
row the filter names that the run did not give (a benchmark renamed or removed) goes, with the
lines that said it was rerun; a rerun on another machine than the header's names it.

  tests/test_bench_report.py scripts/gonu_report.py
"""
import json
import os
import subprocess
import sys
import tempfile

OLD = """# Benchmarks

Machine: test.
Command: `scripts/bench.sh` (each `build/bin/bench_*` with `--benchmark_filter=.`).
Rerun: `GONU_BENCH_FILTER='BM_Write' scripts/bench.sh` (load average 1.00 when it started) gave the rows of BM_Write/iterations:3.
Rerun: `GONU_BENCH_FILTER='BM_Probe' scripts/bench.sh` (load average 1.00 when it started) gave the rows of BM_Probe.

## bench_x

| benchmark | real time | CPU time | iterations | counters |
|---|---:|---:|---:|---|
| BM_Probe | 1 ns | 1 ns | 10 |  |
| BM_Write/iterations:3 | 5 s | 5 s | 3 |  |
| BM_WriteOther | 2 s | 2 s | 3 |  |

## bench_y

| benchmark | real time | CPU time | iterations | counters |
|---|---:|---:|---:|---|
| BM_Y | 3 ms | 3 ms | 7 |  |
"""


def bench(name, seconds):
    return {"name": name, "real_time": seconds, "cpu_time": seconds, "time_unit": "s", "iterations": 3}


def main():
    report = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "bench.md")
        open(out, "w").write(OLD)
        run = os.path.join(d, "bench_x.json")
        json.dump({"benchmarks": [bench("BM_Write/0/iterations:3", 6), bench("BM_Write/1/iterations:3", 4),
                                  bench("BM_WriteOther", 1.5)]}, open(run, "w"))
        subprocess.run([sys.executable, report, "bench", out, "BM_Write", run], check=True, stdout=subprocess.DEVNULL)
        lines = open(out).read().splitlines()
        rows = [l.split(" | ")[0][2:] for l in lines if l.startswith("| BM_")]
        assert rows == ["BM_Probe", "BM_WriteOther", "BM_Write/0/iterations:3", "BM_Write/1/iterations:3", "BM_Y"], rows
        assert "| BM_WriteOther | 1.5 s | 1.5 s | 3 |  |" in lines
        reruns = [l for l in lines if l.startswith("Rerun: ")]
        assert len(reruns) == 2 and "BM_Probe" in reruns[1], reruns
        assert "BM_Write/0/iterations:3, BM_Write/1/iterations:3, BM_WriteOther" in reruns[0], reruns
        assert "scripts/bench.sh` on " in reruns[0], reruns  # "Machine: test." is another machine
        assert not any("BM_Write/iterations:3" in l for l in lines)
    print("bench report: a filtered rerun replaces, adds and drops rows as it should")


if __name__ == "__main__":
    main()
