#!/usr/bin/env bash
# Regenerates results/values.csv and results/values.md: every rule set with a finite repetition
# rule on boards 3x3, 3x4, 4x3, 4x4, 4x5 and 5x4 - reachable states, W/L/D, start value and
# distance, wall time and peak memory (GNU time). A solve that cannot fit this machine is listed
# with the reason: gonu's --max-states guard (GONU_MAX_STATES, default 200 million: 4x5 `free`
# has 189 million, while the tagged rule sets on 4x5 and 5x4 have about a billion states or more:
# 11 bytes a state for the result plus 4 bytes a tag slot for the dense engine pass 24 GB), the
# dense engine's own memory check, or the time limit (GONU_TIME_LIMIT seconds, default 1800). On a board where a rule set already
# passed the guard, the tagged ones after it (immediate, undo: 33 to 59 times the states of `free`
# on 4x4) are listed as not run, expected not to fit, with that reason, instead of each spending
# minutes to reach the guard.
# GONU_BOARDS / GONU_RULESETS narrow the run (e.g. GONU_BOARDS="3x3 3x4"); rows of an earlier
# run for other (rule set, board) pairs are kept, so the table can be regenerated in parts, and
# the tables are rewritten after every solve, so an interrupted run keeps what it finished.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
boards=${GONU_BOARDS:-3x3 3x4 4x3 4x4 4x5 5x4}
rulesets=${GONU_RULESETS:-free single single+corner encyclopedia undo single-immediate single+corner-immediate}
max_states=${GONU_MAX_STATES:-200000000}
limit=${GONU_TIME_LIMIT:-1800}
threads=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags_of() {
  case "$1" in
    free|encyclopedia|undo) echo "--rules $1" ;;
    single) echo "--rules free --capture single" ;;
    single+corner) echo "--rules free --capture single --corner on" ;;
    single-immediate) echo "--rules encyclopedia --capture single" ;;
    single+corner-immediate) echo "--rules encyclopedia --capture single --corner on" ;;
    *) echo "unknown rule set $1" >&2; exit 2 ;;
  esac
}
write_tables() {
python3 - "$tmp/rows" "$threads" "$(uname -m)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" \
  "$(free -g | awk '/Mem:/{print $2}')" <<'PY'
import json, sys
import csv, os
new_rows = [json.loads(l) for l in open(sys.argv[1])]
threads, arch, cpu, mem = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
cols = ["rules", "board", "status", "states", "edges", "wins", "losses", "draws", "value", "distance",
        "max_distance", "seconds", "peak_mib"]
merged = {}
if os.path.exists("results/values.csv"):
    for r in csv.DictReader(open("results/values.csv")):
        for c in ("states", "edges", "wins", "losses", "draws", "distance", "max_distance"):
            if r.get(c):
                r[c] = int(r[c])
        merged[(r["rules"], r["board"])] = r
for r in new_rows:
    merged[(r["rules"], r["board"])] = r
order_rules = ["free", "single", "single+corner", "encyclopedia", "undo", "single-immediate", "single+corner-immediate"]
order_boards = ["3x3", "3x4", "4x3", "4x4", "4x5", "5x4"]
def rank(k):
    return (order_rules.index(k[0]) if k[0] in order_rules else 99, order_boards.index(k[1]) if k[1] in order_boards else 99, k)
rows = [merged[k] for k in sorted(merged, key=rank)]
with open("results/values.csv", "w") as f:
    f.write(",".join(cols) + "\n")
    for r in rows:
        f.write(",".join(str(r.get(c, "")).replace(",", ";") for c in cols) + "\n")
def n(v):
    return f"{v:,}" if isinstance(v, int) else (v or "")
with open("results/values.md", "w") as f:
    f.write("# Values of Jul-gonu under the finite repetition rules\n\n")
    f.write("Written by `scripts/results.sh`; do not edit by hand. Values are for the side to move at the\n"
            "start (Black, who moves first); distance in plies with perfect play. W/L/D count every\n"
            "reachable state from the side to move's view.\n\n")
    f.write(f"Machine: {cpu}, {arch}, {mem} GiB, {threads} threads (`gonu solve --threads 0`).\n\n")
    f.write("Rule sets: `free` = line capture, no repetition rule; `encyclopedia` = line, immediate ban;\n"
            "`undo` = line, no moving the last-moved piece straight back; `single` = single capture, no\n"
            "repetition rule; `+corner` adds corner capture; `-immediate` adds the immediate ban.\n\n")
    f.write("| rules | board | states | W / L / D | start | max dist | time (s) | peak MiB |\n")
    f.write("|---|---|---:|---|---|---:|---:|---:|\n")
    for r in rows:
        if r["status"] == "solved":
            start = r["value"] + ("" if r["value"] == "DRAW" else f" in {r['distance']}")
            f.write(f"| {r['rules']} | {r['board']} | {n(r['states'])} | {n(r['wins'])} / {n(r['losses'])} / "
                    f"{n(r['draws'])} | {start} | {r['max_distance']} | {r.get('seconds','')} | {r.get('peak_mib','')} |\n")
        else:
            f.write(f"| {r['rules']} | {r['board']} | | | {r['status']} | | {r.get('seconds','')} | {r.get('peak_mib','')} |\n")
print("wrote results/values.csv and results/values.md")
PY
}
: > "$tmp/rows"
tagged() { case "$1" in encyclopedia|undo|*-immediate) return 0 ;; *) return 1 ;; esac; }
for b in $boards; do
  too_big=""
  for rs in $rulesets; do
    echo "results: $rs $b" >&2
    if [ -n "$too_big" ] && tagged "$rs"; then
      echo "{\"rules\": \"$rs\", \"board\": \"$b\", \"status\": \"not run: expected not to fit ($too_big passed the $max_states-state guard on this board; tagged rule sets have 33 to 59 times the states of free on 4x4)\"}" >> "$tmp/rows"
      write_tables
      continue
    fi
    set +e
    timeout "$limit" /usr/bin/time -v -o "$tmp/time" build/bin/gonu solve $(flags_of "$rs") --board "$b" \
      --json --quiet --max-states "$max_states" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    set -e
    if [ "$rc" != 0 ] && grep -q "max-states" "$tmp/err"; then too_big="$rs"; fi
    python3 - "$rs" "$b" "$rc" "$tmp" "$limit" >> "$tmp/rows" <<'PY'
import json, re, sys
rs, board, rc, tmp, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
t = open(f"{tmp}/time").read() if rc != 124 else ""
def grab(pattern):
    m = re.search(pattern, t)
    return m.group(1) if m else ""
wall = grab(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)")
secs = ""
if wall:
    parts = [float(x) for x in wall.split(":")]
    secs = f"{sum(p * 60 ** i for i, p in enumerate(reversed(parts))):.2f}"
rss = grab(r"Maximum resident set size \(kbytes\): (\d+)")
mib = f"{int(rss) / 1024:.0f}" if rss else ""
row = {"rules": rs, "board": board}
if rc == 0:
    j = json.load(open(f"{tmp}/out"))
    row.update(status="solved", states=j["states"], edges=j["edges"], wins=j["wins"], losses=j["losses"],
               draws=j["draws"], value=j["value"], distance=j["distance"], max_distance=j["max_distance"],
               seconds=secs, peak_mib=mib)
elif rc == 124:
    row.update(status=f"not solved: over the {limit} s time limit")
else:
    err = open(f"{tmp}/err").read().strip().splitlines()
    row.update(status="not solved: " + (err[-1].replace("gonu: error: ", "") if err else f"exit {rc}"),
               seconds=secs, peak_mib=mib)
print(json.dumps(row))
PY
    write_tables  # after every solve, so an interrupted run keeps what it finished
  done
done
