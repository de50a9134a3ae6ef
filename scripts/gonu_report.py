#!/usr/bin/env python3
"""Report writers for the scripts beside this file: each subcommand turns the JSON of `gonu solve`
or of Google Benchmark, and GNU time's report, into a results/*.md table or one row of it. The
shell scripts run the programs; this file only formats, so a report can be regenerated from saved
outputs. Formats are fixed: a changed character here shows up as a diff in results/.

  gonu_report.py bench OUT FILTER BENCH_JSON...          results/bench.md      (bench.sh)
  gonu_report.py published OUT SOLVE_JSON                results/published.md  (reproduce.sh)
  gonu_report.py values-row RULES BOARD RC DIR LIMIT     one JSON row          (results.sh)
  gonu_report.py values-tables ROWS CSV MD THREADS ARCH CPU MEM_GIB            (results.sh)
  gonu_report.py superko-row BASE BOARD RULES CHECK      one Markdown row      (superko.sh)
  gonu_report.py superko-lazy-row BASE BOARD RULES CHECK one row of the lazy search's table (superko.sh)
  gonu_report.py superko-cube-row BASE BOARD RULES RUN CHECK  one row of the cube-and-conquer table (superko.sh)
  gonu_report.py superko-memory-row BASE BOARD RULES M LAYERS CHECK  one row of the search with memory (superko.sh)
  gonu_report.py superko-ilp-row BASE BOARD RULES METHOD CHECK  one row of the ILP-beside-SAT table (superko.sh)
  gonu_report.py run-summary SOLVE_JSON                  one line of run.sh's table

A JSON argument of `-` is read from stdin.
"""
import csv
import io
import json
import os
import platform
import re
import sys


def load_json(path):
    return json.load(sys.stdin if path == "-" else open(path))


def value_text(value, distance):
    """`DRAW`, or `WIN in 7` / `LOSS in 0`: a value with its distance in plies."""
    return value + ("" if value == "DRAW" else f" in {distance}")


def gnu_time(text):
    """(wall seconds, peak resident KiB) from `/usr/bin/time -v`, each None when absent."""
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    secs = None
    if wall:
        parts = [float(x) for x in wall.group(1).split(":")]
        secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    return secs, (int(rss.group(1)) if rss else None)


# ---- bench.sh: results/bench.md from Google Benchmark's JSON files ----

BENCH_FIELDS = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
                "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index",
                "aggregate_name", "aggregate_unit"}


def cpu_model():
    return next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")


def bench_header(f, filter_):
    cpu = cpu_model()
    mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "0")
    load = open("/proc/loadavg").read().split()[0]
    f.write("# Benchmarks\n\nWritten by `scripts/bench.sh`; do not edit by hand.\n\n")
    f.write(f"Machine: {cpu}, {os.cpu_count()} cores, {int(mem) // 1024 // 1024} GiB, {platform.machine()}; "
            f"load average {load} when the run started.\n")
    f.write(f"Command: `scripts/bench.sh` (each `build/bin/bench_*` with `--benchmark_filter={filter_}`).\n")
    f.write("Thread counts: the `threads:N` argument of each benchmark (TBB limited with global_control);\n"
            "the others are single-threaded.\n\n")
    f.write("Baseline: the published Python solver (talvola/abstract_games `_solve.py`) reports about 4.5 min\n"
            "for 4x4 `free` under CPython 3.10 on its author's machine, and was reported to take about a\n"
            "minute on this kind of machine (not measured by this script).\n\n")


def bench_table(f, path):
    data = load_json(path)
    f.write(f"## {os.path.basename(path)[:-5]}\n\n| benchmark | real time | CPU time | iterations | counters |\n"
            "|---|---:|---:|---:|---|\n")
    for b in data["benchmarks"]:
        counters = ", ".join(f"{k}={v:.4g}" for k, v in b.items()
                             if k not in BENCH_FIELDS and isinstance(v, (int, float)))
        u = b["time_unit"]
        f.write(f"| {b['name']} | {b['real_time']:.4g} {u} | {b['cpu_time']:.4g} {u} | {b['iterations']} "
                f"| {counters} |\n")
    f.write("\n")


def cmd_bench(out, filter_, *files):
    if filter_ != "." and os.path.exists(out):
        return merge_bench(out, filter_, files)
    with open(out, "w") as f:
        bench_header(f, filter_)
        for path in files:
            bench_table(f, path)
        serve_bench_section(f, os.path.join(os.path.dirname(out), "serve-bench.md"))
    print(f"wrote {out}")


def merge_bench(out, filter_, files):
    """A filtered run (GONU_BENCH_FILTER) replaces the rows it measured in the existing file and
    keeps the others, with a line saying which rows were rerun, by what command and at what load.
    A benchmark new to the file goes after the last row of its program's table."""
    rows, program = {}, {}
    for path in files:
        try:
            data = load_json(path)
        except ValueError:
            continue  # a program none of whose benchmarks the filter names
        tmp = io.StringIO()
        bench_table(tmp, path)
        for line in tmp.getvalue().splitlines():
            if line.startswith("| BM_"):
                rows[line.split(" | ")[0][2:]] = line
                program[line.split(" | ")[0][2:]] = os.path.basename(path)[:-5]
    lines = open(out).read().splitlines()
    # A row the filter names that the run did not give is of a benchmark renamed or removed: dropped,
    # with the lines that said it was rerun.
    gone = {l.split(" | ")[0][2:] for l in lines if l.startswith("| BM_")}
    gone = {n for n in gone if n not in rows and re.search(filter_, n)}
    lines = [l for l in lines if not (l.startswith("| BM_") and l.split(" | ")[0][2:] in gone)]
    lines = [l for l in lines if not (l.startswith("Rerun: ") and any(n in l for n in gone))]
    present = {l.split(" | ")[0][2:] for l in lines if l.startswith("| BM_")}
    lines = [rows.get(l.split(" | ")[0][2:], l) if l.startswith("| BM_") else l for l in lines]
    # A program new to the file: its whole table, before the explorer's load figures (or last).
    for path in files:
        name = os.path.basename(path)[:-5]
        if "## " + name in lines or name not in program.values():
            continue
        tmp = io.StringIO()
        bench_table(tmp, path)
        at = next((i for i, l in enumerate(lines) if l.startswith("## gonu serve")), len(lines))
        lines[at:at] = tmp.getvalue().splitlines()
        present |= {n for n in rows if program[n] == name}
    for name in (n for n in rows if n not in present):
        start = lines.index("## " + program[name])
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        last = max(i for i in range(start, end) if lines[i].startswith("| "))
        lines.insert(last + 1, rows[name])
    load = open("/proc/loadavg").read().split()[0]
    # A rerun on another machine than the header's says which: its rows are that machine's.
    header = next((l for l in lines if l.startswith("Machine: ")), "")
    machine = "" if header.startswith(f"Machine: {cpu_model()},") else f" on {cpu_model()}"
    note = (f"Rerun: `GONU_BENCH_FILTER='{filter_}' scripts/bench.sh`{machine} (load average {load} when it started) "
            f"gave the rows of {', '.join(sorted(rows))}.")
    # An earlier rerun whose rows this one all gave again says nothing that is still there.
    def rerun_rows(line):
        return set(line.split("gave the rows of ", 1)[-1].rstrip(".").split(", "))
    lines = [l for l in lines if not (l.startswith("Rerun: ") and rerun_rows(l) <= set(rows))]
    at = next(i for i, l in enumerate(lines) if l.startswith("Command: ")) + 1
    lines.insert(at, note)
    open(out, "w").write("\n".join(lines) + "\n")
    print(f"wrote {out} ({len(rows)} rows rerun)")


def serve_bench_section(f, path):
    """The web explorer's load figures, kept in serve-bench.md by scripts/serve-bench.sh (a server
    and a load client, not a Google Benchmark program): its command and table, quoted here."""
    if not os.path.exists(path):
        return
    lines = open(path).read().splitlines()
    command = [l for l in lines if l.startswith("GONU_BENCH_SECONDS") or l.startswith("  wrk ")]
    table = [l for l in lines if l.startswith("|")]
    f.write("## gonu serve (web explorer load)\n\nFrom [serve-bench.md](serve-bench.md), written by "
            "`scripts/serve-bench.sh` (commands below; details and settings there):\n\n```\n")
    f.write("\n".join(command) + "\n```\n\n" + "\n".join(table) + "\n")


# ---- reproduce.sh: results/published.md, 4x4 `free` against the published numbers ----

PUBLISHED = {"states": 3412738, "edges": 21039712, "wins": 1315354, "losses": 807911, "draws": 1289473,
             "value": "DRAW", "moves": ["DRAW"] * 4}

PUBLISHED_INTRO = (
    "# The published result, reproduced\n\n"
    "Written by `scripts/reproduce.sh`; do not edit by hand.\n\n"
    "Source: talvola/abstract_games, `engine/games/jul_gonu/_solve.py` (Python, one-time exhaustive\n"
    "solver; its docstring and `rules.md` give the numbers below, frozen 2026-07-17).\n\n"
    "Rules it used: 4x4 board, four pieces a side on the home ranks, Black first; a piece steps\n"
    "orthogonally to an empty point; line (custodian) capture of every run of enemies closed by a\n"
    "friendly piece, in every direction from the moved piece, made only by the mover; the side to\n"
    "move loses with at most one piece or no legal move; no repetition rule (endless play is a draw).\n"
    "That is gonu's rule set `free`: `gonu solve --rules free`.\n\n")

PUBLISHED_NOTE = (
    "\nMove edges count the legal moves of every non-terminal state (terminal states are not\n"
    "expanded), as the published solver does. Terminal: the side to move has at most one piece or\n"
    "no legal move; it is a LOSS at distance 0.\n")


def cmd_published(out, solve_json):
    """Exits 1 when any number differs from the published one."""
    ours, p = load_json(solve_json), PUBLISHED
    rows = [("reachable states", p["states"], ours["states"]),
            ("move edges", p["edges"], ours["edges"]),
            ("WIN (side to move)", p["wins"], ours["wins"]),
            ("LOSS (side to move)", p["losses"], ours["losses"]),
            ("DRAW", p["draws"], ours["draws"]),
            ("start", p["value"], ours["value"]),
            ("the four first moves", ", ".join(p["moves"]), ", ".join(m["value"] for m in ours["moves"]))]
    fmt = lambda v: f"{v:,}" if isinstance(v, int) else v
    ok = all(mine == theirs for _, mine, theirs in rows)
    with open(out, "w") as f:
        f.write(PUBLISHED_INTRO)
        f.write("| | published | gonu |\n|---|---:|---:|\n")
        for name, mine, theirs in rows:
            f.write(f"| {name} | {fmt(mine)} | {fmt(theirs)} |\n")
        f.write(f"\nVerdict: {'identical' if ok else 'DIFFERENT'}.\n")
        f.write(PUBLISHED_NOTE)
    print(f"{out}:", "identical to the published numbers" if ok else "DIFFERENT from the published numbers")
    return 0 if ok else 1


# ---- results.sh: one solve's row, then results/values.csv and results/values.md ----

VALUE_COLUMNS = ["rules", "board", "status", "states", "edges", "wins", "losses", "draws", "value", "distance",
                 "max_distance", "seconds", "peak_mib", "bytes_per_state", "verify", "verify_seconds",
                 "probe_states", "probe_levels", "probe_seconds", "probe_peak_mib"]
INT_COLUMNS = ("states", "edges", "wins", "losses", "draws", "distance", "max_distance")
ORDER_RULES = ["free", "single", "single+corner", "encyclopedia", "undo", "single-immediate",
               "single+corner-immediate"]
ORDER_BOARDS = ["3x3", "3x4", "4x3", "4x4", "4x5", "5x4", "5x5"]


def refusal_text(err_line):
    """gonu's one-line error without its prefix and without the advice on raising the limit."""
    return re.sub(r"; --max-memory SIZE sets the limit.*$", "", err_line.replace("gonu: error: ", ""))


def cmd_values_row(rules, board, rc, dir_, limit):
    """DIR holds `out` (gonu's JSON), `err` and `time` of one `gonu solve`, and `verify` ("OK
    SECONDS", "failed SECONDS" or "timeout SECONDS") when its table was verified; RC is the
    solve's exit status (124: killed by `timeout`)."""
    rc = int(rc)
    secs, rss = gnu_time(open(f"{dir_}/time").read() if rc != 124 else "")
    secs = f"{secs:.2f}" if secs is not None else ""
    mib = f"{rss / 1024:.0f}" if rss is not None else ""
    row = {"rules": rules, "board": board}
    if rc == 0:
        j = load_json(f"{dir_}/out")
        row.update(status="solved", states=j["states"], edges=j["edges"], wins=j["wins"], losses=j["losses"],
                   draws=j["draws"], value=j["value"], distance=j["distance"], max_distance=j["max_distance"],
                   seconds=secs, peak_mib=mib, bytes_per_state=f"{j['bytes_per_state']:.1f}")
        if os.path.exists(f"{dir_}/verify"):
            result, verify_secs = open(f"{dir_}/verify").read().split()
            row.update(verify=result, verify_seconds=verify_secs)
    elif rc == 124:
        row.update(status=f"not solved: over the {limit} s time limit")
    else:
        err = open(f"{dir_}/err").read().strip().splitlines()
        row.update(status="not solved: " + (refusal_text(err[-1]) if err else f"exit {rc}"),
                   seconds=secs, peak_mib=mib)
        row.update(probe_row(dir_))
    print(json.dumps(row))


def probe_row(dir_):
    """The probe of a refused solve (results.sh: the limit lifted, --max-states): how far its reach
    got ("more than N states after L levels") with its time and peak; {} if none ran or it ended
    otherwise."""
    if not os.path.exists(f"{dir_}/probe_err"):
        return {}
    err = open(f"{dir_}/probe_err").read().strip().splitlines()
    m = re.search(r"more than (\d+) states after (\d+) levels", err[-1]) if err else None
    if not m:
        return {}
    secs, rss = gnu_time(open(f"{dir_}/probe_time").read())
    return {"probe_states": m.group(1), "probe_levels": m.group(2),
            "probe_seconds": f"{secs:.2f}" if secs is not None else "",
            "probe_peak_mib": f"{rss / 1024:.0f}" if rss is not None else ""}


def probe_text(r):
    """A refused row's probe, for its status cell."""
    if not r.get("probe_states"):
        return ""
    states, mib = int(r["probe_states"]), float(r["probe_peak_mib"] or 0)
    return (f"; probe with the limit lifted: the reach passed {states:,} states after {r['probe_levels']} "
            f"levels, in {r['probe_seconds']} s and {mib:,.0f} MiB ({mib * 1048576 / states:.1f} bytes a state)")


def merged_rows(rows_file, csv_path):
    """The rows of an earlier CSV, replaced by the new rows of the same (rules, board), in table order."""
    merged = {}
    if os.path.exists(csv_path):
        for r in csv.DictReader(open(csv_path)):
            for c in INT_COLUMNS:
                if r.get(c):
                    r[c] = int(r[c])
            merged[(r["rules"], r["board"])] = r
    for r in (json.loads(l) for l in open(rows_file)):
        merged[(r["rules"], r["board"])] = r

    def rank(k):
        return (ORDER_RULES.index(k[0]) if k[0] in ORDER_RULES else 99,
                ORDER_BOARDS.index(k[1]) if k[1] in ORDER_BOARDS else 99, k)
    return [merged[k] for k in sorted(merged, key=rank)]


def write_values_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")  # quotes a field with a comma (a refusal's text)
        w.writerow(VALUE_COLUMNS)
        for r in rows:
            w.writerow(str(r.get(c, "")) for c in VALUE_COLUMNS)


def bytes_per_state(r):
    """The row's own figure, else (rows written before it was recorded) its peak MiB over its states."""
    if r.get("bytes_per_state"):
        return r["bytes_per_state"]
    if r["status"] == "solved" and r.get("peak_mib") and r.get("states"):
        return f"{float(r['peak_mib']) * 1048576 / int(r['states']):.1f}"
    return ""


def values_md_row(r):
    n = lambda v: f"{v:,}" if isinstance(v, int) else (v or "")
    verify = f"{r['verify']}, {r['verify_seconds']} s" if r.get("verify") else ""
    tail = f"| {r.get('seconds', '')} | {r.get('peak_mib', '')} | {bytes_per_state(r)} | {verify} |\n"
    if r["status"] != "solved":
        return f"| {r['rules']} | {r['board']} | | | {r['status']}{probe_text(r)} | " + tail
    return (f"| {r['rules']} | {r['board']} | {n(r['states'])} | {n(r['wins'])} / {n(r['losses'])} / "
            f"{n(r['draws'])} | {value_text(r['value'], r['distance'])} | {r['max_distance']} " + tail)


def write_values_md(path, rows, threads, arch, cpu, mem):
    with open(path, "w") as f:
        f.write("# Values of Jul-gonu under the finite repetition rules\n\n")
        f.write("Written by `scripts/results.sh`; do not edit by hand. Values are for the side to move at the\n"
                "start (Black, who moves first); distance in plies with perfect play. W/L/D count every\n"
                "reachable state from the side to move's view.\n\n")
        f.write(f"Machine: {cpu}, {arch}, {mem} GiB, {threads} threads (`gonu solve --threads 0`).\n\n")
        f.write("Each solve ran with `--max-memory` at this machine's memory: gonu estimates a solve's peak\n"
                "before it starts and refuses one that would not fit, and that refusal is the row's reason.\n"
                "bytes/state is the peak resident memory over the reachable states. On 4x5, 5x4 and 5x5 the\n"
                "solve also wrote its table (`--out`; time and peak include it) and `gonu verify` re-derived\n"
                "every value from it (numbering the states by a bitmap over the dense ids, tag slots for the\n"
                "tagged rule sets): the verify column says OK or failed, with its time. A refused solve\n"
                "has no table; results.sh then probes it (the limit lifted, stopped by `--max-states`), and\n"
                "its row says how far the reach got, in what time and memory, beside the estimate.\n\n")
        f.write("Rule sets: `free` = line capture, no repetition rule; `encyclopedia` = line, immediate ban;\n"
                "`undo` = line, no moving the last-moved piece straight back; `single` = single capture, no\n"
                "repetition rule; `+corner` adds corner capture; `-immediate` adds the immediate ban.\n\n")
        f.write("| rules | board | states | W / L / D | start | max dist | time (s) | peak MiB | bytes/state "
                "| verify |\n")
        f.write("|---|---|---:|---|---|---:|---:|---:|---:|---|\n")
        for r in rows:
            f.write(values_md_row(r))


def cmd_values_tables(rows_file, csv_path, md_path, threads, arch, cpu, mem):
    rows = merged_rows(rows_file, csv_path)
    write_values_csv(csv_path, rows)
    write_values_md(md_path, rows, threads, arch, cpu, mem)
    print(f"wrote {csv_path} and {md_path}")


# ---- superko.sh: one row of results/superko.md ----

def superko_statement(j, check):
    """The strongest statement the run proved, with how, or what it established when open."""
    sat = "; ".join("%s: %s%s" % (x["winner"], x["status"],
                                  " (%s variables)" % "{:,}".format(x["variables"]) if x["variables"] else "")
                    for x in j["strategy_searches"])
    if not j["proven"]:
        busiest = max(j["layers"], key=lambda l: l["nodes"])
        opened = sum(l["attractor_open"] for l in j["layers"])
        return ("strategy searches: %s; tree: %d nodes; attractors leave %s states open; search not proven "
                "within %s (stuck in the %d-%d layer, %d ban-free draws there, %s of its nodes)"
                % (sat, j["strategy_tree"]["nodes"], "{:,}".format(opened), j["stopped_by"], busiest["black"],
                   busiest["white"], busiest["banfree_draws"], "{:,}".format(busiest["nodes"])))
    if j["method"] == "strategy":
        s = [x for x in j["strategy_searches"] if x["status"] == "found"][0]
        how = "a memoryless strategy: %s states reachable, %s paired, %s ranked" % (
            "{:,}".format(s["reachable_states"]), "{:,}".format(s["paired"]), "{:,}".format(s["ranked"]))
    elif j["method"] == "strategy tree":
        how = "a %d-ply tree with %d memoryless strategies at its leaves (none from the start: %s)" % (
            j["proof_depth"], j["strategy_tree"]["leaves"], sat)
    elif j["method"] == "df-pn":
        how = "df-pn over the full history (F12), %s expansions" % "{:,}".format(j["nodes"])
    else:
        how = "a search proof of depth %d plies" % j["proof_depth"]
    return "%s wins from the start by %s; certificate %s" % (j["winner"], how, check)


def cmd_superko_row(base, board, rules, check):
    """BASE.json is `gonu solve --json` of a superko rule set, BASE.time its GNU time report; CHECK
    says what `gonu check-certificate` made of the certificate."""
    j = load_json(base + ".json")
    secs, rss = gnu_time(open(base + ".time").read())
    # null when the time budget stopped the ban-free solve itself
    bf = value_text(j["banfree_value"], j["banfree_distance"]) if j["banfree_value"] is not None else "not solved"
    value = "open"
    if j["proven"]:
        value = "**%s wins** (%s for %s to move)" % (j["winner"], j["value"], j["rules"]["first"])
    print("| %s | %s | %s | %s | %s | %s | %.1f s | %d MiB |" % (
        board, rules, bf, value, superko_statement(j, check), "{:,}".format(j["nodes"]), secs, rss // 1024))


def cmd_superko_lazy_row(base, board, rules, check):
    """One row per winner tried by the lazy strategy search (`--strategy-method lazy-local`): the
    instance, the rounds, S3 violations, blocking clauses and targets made injective, and its time."""
    j = load_json(base + ".json")
    secs, rss = gnu_time(open(base + ".time").read())
    for x in j["strategy_searches"]:
        lz = x.get("lazy", {})
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f s | %.1f s | %d MiB | %s |" % (
            board, rules, x["winner"], x["status"] + (" (%s)" % x["note"] if x["note"] else ""),
            "{:,}".format(x["variables"]), "{:,}".format(x["clauses"]), "{:,}".format(lz.get("rounds", 0)),
            "{:,}".format(lz.get("violations", 0)), "{:,}".format(lz.get("blocking_clauses", 0)),
            "{:,}".format(lz.get("targets_made_injective", 0)), lz.get("seconds", 0), secs, rss // 1024,
            check if x["status"] == "found" else "-"))


def cmd_superko_cube_row(base, board, rules, run, check):
    """One row per `gonu solve --cube` run (RUN: its depth, budget and confinement, in words): the
    value, the tree's nodes per depth, the searches run and resumed and their outcomes, the largest
    instance, the searches' summed time, and the whole run's time and memory."""
    j = load_json(base + ".json")
    secs, rss = gnu_time(open(base + ".time").read())
    c = j["cube"]
    n = c["searches"]
    value = "**%s wins** (%s)" % (j["winner"], j["method"]) if j["proven"] else "open"
    outcomes = "%d / %d / %d" % (n["found"], n["none"], n["budget"])
    if n["not_applicable"]:
        outcomes += " (+%d n/a)" % n["not_applicable"]
    print("| %s | %s | %s | %s | %s | %s / %s | %s | %s / %s | %.1f s | %.1f s | %d MiB | %s |" % (
        board, rules, run, value, " / ".join("{:,}".format(x) for x in c["nodes_per_depth"]),
        "{:,}".format(n["run"]), "{:,}".format(n["resumed"]), outcomes,
        "{:,}".format(c["largest_instance"]["variables"]), "{:,}".format(c["largest_instance"]["clauses"]),
        c["search_seconds"], secs, rss // 1024, check))


def cmd_superko_memory_row(base, board, rules, memory, layers, check):
    """One row per winner tried by the search with memory (`--strategy-memory M`, F11): the instance
    (variables, clauses, product nodes with a variable), what a strategy found reaches (states and
    (state, label) nodes) and its paired nodes, the search's time and the run's."""
    j = load_json(base + ".json")
    secs, rss = gnu_time(open(base + ".time").read())
    for x in j["strategy_searches"]:
        mem = x.get("memory", {})
        found = x["status"] == "found"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f s | %.1f s | %d MiB | %s |" % (
            board, rules, memory, "all" if layers == "-1" else layers, x["winner"],
            x["status"] + (" (%s)" % x["note"] if x["note"] else ""),
            "{:,}".format(x["variables"]), "{:,}".format(x["clauses"]), "{:,}".format(mem.get("product_nodes", 0)),
            "{:,} / {:,}".format(x["reachable_states"], mem.get("product_reachable", 0)) if found else "-",
            "{:,}".format(x["paired"]) if found else "-", mem.get("seconds", 0), secs, rss // 1024,
            check if found else "-"))


def cmd_superko_entry_rows(base, board, rules, check):
    """One row per material layer of the layer-by-layer pass (`--entry-layers`, F10), ascending
    material, layers without capture-entry states left out: capture-entry states, open after the
    attractor, proven won / lost for the side to move, none for either side, still open, the SAT
    searches run, the largest instance and its time; then a row with the run's totals."""
    j = load_json(base + ".json")
    secs, rss = gnu_time(open(base + ".time").read())
    e = j["entry_layers"]
    c = "{:,}".format
    for l in e["layers"]:
        if not l["capture_entry"]:
            continue
        print("| %s | %s | %d-%d | %s | %s | %s | %s | %s | %s%s | %s | %s | %.2f s | %.1f s |" % (
            board, rules, l["black"], l["white"], c(l["capture_entry"]), c(l["open"]), c(l["win"]), c(l["loss"]),
            c(l["none"]), c(l["still_open"]), "" if l["complete"] else " (not all tried)", c(l["searches"]),
            c(l["largest_variables"]), l["largest_seconds"], l["seconds"]))
    root = "root %s" % (("proven: %s wins" % j["winner"]) if j["proven"] else "not proven")
    print("| %s | %s | all | | | | | | %s%s | | | | %.1f s in all, %d MiB; certificate %s |" % (
        board, rules, root, "; pass stopped by its budget" if e["budget_out"] else "", secs, rss // 1024, check))


def cmd_superko_ilp_row(base, board, rules, method, check):
    """One row per winner tried, for either solver of the strategy instance (`--strategy-solver
    sat|ilp`): its size (an ILP row per clause or at-most-one group), the lazy rounds, CBC's last
    root LP value with its fractional variables and branch-and-bound nodes, and the times."""
    j = load_json(base + ".json")
    secs, rss = gnu_time(open(base + ".time").read())
    for x in j["strategy_searches"]:
        ilp, lz = x.get("ilp"), x.get("lazy", {})
        solver = ilp["solver"] if ilp else "SAT"
        lp, nodes = "-", "-"
        if ilp:
            lp = "none" if ilp["lp_bound"] is None else "%g (%s)" % (ilp["lp_bound"], "{:,}".format(ilp["lp_fractional"]))
            nodes = "{:,}".format(ilp["nodes"])
        search = ilp["seconds"] if ilp else lz.get("seconds")
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f s | %d MiB | %s |" % (
            board, rules, method, solver, x["winner"], x["status"] + (" (%s)" % x["note"] if x["note"] else ""),
            "{:,}".format(x["variables"]), "{:,}".format(x["clauses"]),
            "{:,}".format(lz["rounds"]) if lz else "-", lp, nodes,
            "%.1f s" % search if search is not None else "-", secs, rss // 1024,
            check if x["status"] == "found" else "-"))


# ---- run.sh: one line of its summary table ----

def cmd_run_summary(solve_json):
    j = load_json(solve_json)
    v = value_text(j["value"], j["distance"])
    print(f"{j['rules']['name']:<13} {j['states']:>13,} {j['edges']:>14,} {j['wins']:>12,} {j['losses']:>12,} "
          f"{j['draws']:>12,}  {v}")


COMMANDS = {"bench": cmd_bench, "published": cmd_published, "values-row": cmd_values_row,
            "values-tables": cmd_values_tables, "superko-row": cmd_superko_row,
            "superko-lazy-row": cmd_superko_lazy_row, "superko-cube-row": cmd_superko_cube_row,
            "superko-memory-row": cmd_superko_memory_row,
            "superko-entry-rows": cmd_superko_entry_rows,
            "superko-ilp-row": cmd_superko_ilp_row,
            "run-summary": cmd_run_summary}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit("usage: gonu_report.py " + "|".join(COMMANDS) + " ARGS... (see the file's opening comment)")
    sys.exit(COMMANDS[sys.argv[1]](*sys.argv[2:]) or 0)
