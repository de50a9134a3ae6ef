#!/usr/bin/env bash
# Runs the Google Benchmark programs under tests/bench/ and writes results/bench.md with the
# machine, the thread counts and the commands. Speed claims in the README come from here.
# GONU_BENCH_FILTER narrows the run (a Google Benchmark regex).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
filter=${GONU_BENCH_FILTER:-.}
benches=()
for b in build/bin/bench_*; do
  name=$(basename "$b")
  echo "bench: $name" >&2
  "$b" --benchmark_filter="$filter" --benchmark_format=json --benchmark_out="$tmp/$name.json" \
       --benchmark_out_format=json >/dev/null
  benches+=("$tmp/$name.json")
done
python3 - "$filter" "${benches[@]}" <<'PY'
import json, os, platform, subprocess, sys
filter_, files = sys.argv[1], sys.argv[2:]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "0")
load = open("/proc/loadavg").read().split()[0]
with open("results/bench.md", "w") as f:
    f.write("# Benchmarks\n\nWritten by `scripts/bench.sh`; do not edit by hand.\n\n")
    f.write(f"Machine: {cpu}, {os.cpu_count()} cores, {int(mem) // 1024 // 1024} GiB, {platform.machine()}; "
            f"load average {load} when the run started.\n")
    f.write(f"Command: `scripts/bench.sh` (each `build/bin/bench_*` with `--benchmark_filter={filter_}`).\n")
    f.write("Thread counts: the `threads:N` argument of each benchmark (TBB limited with global_control);\n"
            "the others are single-threaded.\n\n")
    f.write("Baseline: the published Python solver (talvola/abstract_games `_solve.py`) reports about 4.5 min\n"
            "for 4x4 `free` under CPython 3.10 on its author's machine, and took about a minute on this kind\n"
            "of machine by the issue's measurement.\n\n")
    for path in files:
        data = json.load(open(path))
        f.write(f"## {os.path.basename(path)[:-5]}\n\n| benchmark | real time | CPU time | iterations | counters |\n|---|---:|---:|---:|---|\n")
        for b in data["benchmarks"]:
            skip = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
                    "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index",
                    "aggregate_name", "aggregate_unit"}
            counters = ", ".join(f"{k}={v:.4g}" for k, v in b.items() if k not in skip and isinstance(v, (int, float)))
            u = b["time_unit"]
            f.write(f"| {b['name']} | {b['real_time']:.4g} {u} | {b['cpu_time']:.4g} {u} | {b['iterations']} | {counters} |\n")
        f.write("\n")
print("wrote results/bench.md")
PY
