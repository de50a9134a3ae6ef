#!/usr/bin/env bash
# Regenerates results/superko.md, section by section:
#   values  the superko value of the start on 2x3, 3x2, 2x4, 4x2, 3x3, 3x4, 4x3, 4x4, 5x2, 3x5 and
#           5x3 under the soldiers and corner rules, proven (with a certificate checked by
#           `gonu check-certificate`) or open, with what was established, nodes, time and memory;
#   lazy    the lazy strategy search (F9, --strategy-method lazy-local) on 5x2, 3x4, 4x3 and 4x4:
#           rounds, violations and blocking clauses (the frontier on 4x4);
#   cube    cube and conquer (--cube): the strategy tree level by level, its searches in parallel,
#           every finished search kept in a resume file;
#   memory  strategies with memory (F11, format 7) on 5x2, 3x4, 4x3, and 4x4 confined to its first
#           material layer;
#   entry   capture-entry values layer by layer (F10, format 6) on 4x4: per layer, proven / open;
#   ilp     the strategy instances of 5x2, 3x4 and 4x3 solved by CaDiCaL and by CBC side by side;
#   dfpn    df-pn over the full history (F12): the 2-2 layer's open capture-entry classes of 3x4, 4x3,
#           5x3 and 3x5 (`soldiers`) at fixed node budgets, then the start by df-pn with them; then
#           dfpncert;
#   dfpncert (also alone, a minute) the 3x5 `soldiers` start by df-pn alone, its proof graph
#           (certificate format 8) written, checked and its size recorded, at the end of dfpn.md;
#   dfpnbig (alone, not in the default run: sized for a bigger machine, about 8 minutes) the 4x4
#           `soldiers` attempt by df-pn on every core: the 2-2 layer's open classes at a large node
#           budget a class, then the start by df-pn top-down from the layer's proofs file, each
#           within its time budget; its part follows dfpn's in results/superko.md when present.
# usage: scripts/superko.sh [SECTION...]   (default: every section but dfpnbig, about two hours here)
#        scripts/superko.sh --assemble       (results/superko.md put together again from the sections)
# Each section writes results/superko/SECTION.md with its machine and date; results/superko.md is
# then put together from every section's file and the notes below, so one section can be run again
# (a longer budget on a bigger machine) without the others.
# Builds gonu through scripts/build.sh, like every script here; GONU=PATH runs that binary instead
# (a run on a machine without the build's tools, e.g. a bundled binary on a lent machine).
# Budgets: SUPERKO_SAT_SECONDS for each strategy search (default 120) and SUPERKO_SECONDS for the
# depth-first search that runs when no strategy is found (default 40), in `values`;
# SUPERKO_LAZY_SECONDS for each side's lazy search on 4x4 (default 600; 60 on the smaller boards);
# SUPERKO_MEMORY_SECONDS for each side's search with memory on 4x4 (default 120; 60 on the smaller
# boards); the cube section's below.
# The entry section: SUPERKO_ENTRY_SECONDS per SAT search (default 3), SUPERKO_ENTRY_BUDGET for the
# whole pass (default 540), SUPERKO_ENTRY_RULES (default "soldiers"; about 10 minutes each).
# The dfpn section: SUPERKO_DFPN_NODES, the node budgets per class (default "2000 20000"),
# SUPERKO_DFPN_BOARDS (default "3x4 4x3 5x3 3x5"), SUPERKO_DFPN_4X4_NODES for 4x4 (default "2000 20000";
# "" leaves 4x4 out), then the 3x4 layer and 3x5 from the start on 1 and 2 threads; about fifteen
# minutes in all here. The 4x4 runs keep df-pn's proofs file
# (--dfpn-table) in SUPERKO_DFPN_TABLES (default build/superko-dfpn/), one per budget, so that each
# run of the section starts from what the earlier ones proved and goes further (delete the folder
# for figures from scratch).
# The dfpnbig section: SUPERKO_DFPNBIG_THREADS (default 0: every core), SUPERKO_DFPNBIG_NODES the
# layer's node budget a class (default 1000000), SUPERKO_DFPNBIG_LAYER_SECONDS and
# SUPERKO_DFPNBIG_START_SECONDS the two runs' time budgets (--max-seconds; defaults 230 and 210),
# SUPERKO_DFPNBIG_START_NODES the start's node budget (default 0: none but the time),
# SUPERKO_DFPNBIG_TABLE_ENTRIES the start's --table-entries (default 33554432), the proofs file
# SUPERKO_DFPN_TABLES/4x4-big.dfpn (kept, so a rerun goes on from it), and SUPERKO_DFPNBIG_RAW, a
# folder that gets each run's JSON, /usr/bin/time output, stderr, certificate and the proofs file
# (default: none).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
all=(values lazy cube memory entry ilp dfpn)
sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=("${all[@]}")
[ "${sections[*]}" != "--assemble" ] || sections=()  # only put results/superko.md together again
for s in ${sections[@]+"${sections[@]}"}; do
  case " ${all[*]} dfpncert dfpnbig " in
    *" $s "*) ;;
    *) echo "superko.sh: no section $s (sections: ${all[*]} dfpncert dfpnbig)" >&2; exit 2 ;;
  esac
done
if [ -n "${GONU:-}" ]; then
  gonu="$GONU"
else
  "$root/scripts/build.sh" gonu
  gonu="$root/build/bin/gonu"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
parts="$root/results/superko"
mkdir -p "$parts"
out="$root/results/superko.md"

# Runs `gonu solve --quiet --json` for TAG on BOARD and RULES with the flags after them, under
# /usr/bin/time, writing TAG.json/.time/.err/.cert in the work folder (exit 3, not proven, is fine).
solve() {  # TAG BOARD RULES FLAGS...
  local tag="$1" board="$2" rules="$3"
  shift 3
  rm -f "$work/$tag.cert"
  /usr/bin/time -v -o "$work/$tag.time" "$gonu" solve --rules "$rules" --board "$board" --quiet --json \
    --certificate "$work/$tag.cert" "$@" >"$work/$tag.json" 2>"$work/$tag.err" || [ $? -eq 3 ]
}

# "OK (N bytes)" or "FLAW (N bytes)" for TAG's certificate as gonu check-certificate finds it; "-"
# without one.
checked() {  # TAG
  local tag="$1" check
  [ -f "$work/$tag.cert" ] || { echo "-"; return; }
  if "$gonu" check-certificate "$work/$tag.cert" >"$work/$tag.check"; then check="OK"; else check="FLAW"; fi
  echo "$check ($(wc -c <"$work/$tag.cert") bytes)"
}

machine() { echo "Machine: $(nproc) cores, $(uname -m); gonu $("$gonu" --version | cut -d' ' -f2); $(date -u +%Y-%m-%d)."; }

section_values() {
  local seconds="${SUPERKO_SECONDS:-300}" sat_seconds="${SUPERKO_SAT_SECONDS:-120}" rows="$work/rows"
  : >"$rows"
  for board in 2x3 3x2 2x4 4x2 3x3 3x4 4x3 4x4 5x2 3x5 5x3; do
    for rules in soldiers corner; do
      local tag="$board-$rules"
      echo "superko: $tag (budgets: $sat_seconds s per strategy search, $seconds s for the whole run)" >&2
      solve "$tag" "$board" "$rules" --strategy-seconds "$sat_seconds" --max-seconds "$seconds"
      if ! grep -q '"proven": true' "$work/$tag.json"; then  # left open: df-pn from the start (F12) in its place
        echo "superko: $tag open; df-pn from the start ($seconds s)" >&2
        solve "$tag-dfpn" "$board" "$rules" --no-strategy --search dfpn --max-seconds "$seconds"
        grep -q '"proven": true' "$work/$tag-dfpn.json" && tag="$tag-dfpn"
      fi
      python3 "$root/scripts/gonu_report.py" superko-row "$work/$tag" "$board" "$rules" "$(checked "$tag")" >>"$rows"
    done
  done
  {
    echo "## Values of the start"
    echo
    echo "Budgets: ${sat_seconds} s per strategy search, ${seconds} s for the whole run. Time and memory are the whole"
    echo "\`gonu solve\` run (ban-free solve included), from /usr/bin/time. A start left open by the strategies and the"
    echo "depth-first search is tried by df-pn from the start (\`--no-strategy --search dfpn\`, F12, the same budget); the"
    echo "row is then df-pn's run when it proves the value."
    echo
    echo "| board | rules | ban-free | superko value | strongest statement proven | nodes | time | peak memory |"
    echo "|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    machine
  } >"$parts/values.md"
}

section_lazy() {
  local lazy_seconds="${SUPERKO_LAZY_SECONDS:-600}" rows="$work/lazy_rows"
  : >"$rows"
  for board in 5x2 3x4 4x3 4x4; do
    for rules in soldiers corner; do
      local tag="lazy-$board-$rules" budget=60
      [ "$board" = 4x4 ] && budget="$lazy_seconds"
      echo "superko: $tag (lazy-local, $budget s per side)" >&2
      solve "$tag" "$board" "$rules" --strategy-method lazy-local --strategy-depth 0 --no-search --strategy-seconds "$budget"
      python3 "$root/scripts/gonu_report.py" superko-lazy-row "$work/$tag" "$board" "$rules" "$(checked "$tag")" >>"$rows"
    done
  done
  {
    echo "## The lazy strategy search (F9)"
    echo
    echo "\`--strategy-method lazy-local --strategy-depth 0 --no-search\`, one side after the other (the side to"
    echo "move first), ${lazy_seconds} s per side on 4x4 and 60 s on the others: the SAT instance without injectivity"
    echo "(variables, clauses), the models read (rounds), the S3 violations found in them, the blocking clauses"
    echo "added, the targets made injective (then \"none\" is not proven: reported as budget), the search's time,"
    echo "and the whole run's time and memory. A strategy found is written as format 4 and checked."
    echo
    echo "| board | rules | winner | status | variables | clauses | rounds | violations | blocking | made injective | search | run | peak memory | certificate |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    machine
  } >"$parts/lazy.md"
}

# Cube and conquer. Budgets: SUPERKO_CUBE_SECONDS per strategy search on 4x4 (default 20),
# SUPERKO_CUBE_DEPTH the plies of the unconfined 4x4 tree (default 1; the tree confined to the
# start's layer goes to 2), SUPERKO_CUBE_THREADS (default 0: every core). About 10 minutes on 2
# cores with the defaults. Each unconfined 4x4 search holds about 3.4 GB (5.8 million variables),
# so threads x 3.4 GB at peak. On a 16-core machine with 128 GB, e.g. SUPERKO_CUBE_SECONDS=1800
# SUPERKO_CUBE_DEPTH=2 (42 searches, 16 at a time, about 55 GB; a few hours at most) with
# SUPERKO_CUBE_RESUME_DIR set, so that it can be stopped and continued.
# SUPERKO_CUBE_RESUME_DIR keeps the resume files (default: the temporary folder, removed at the
# end): name a folder to continue a stopped run, or to rerun with a larger budget, from its files.
section_cube() {
  local cube_seconds="${SUPERKO_CUBE_SECONDS:-20}" cube_depth="${SUPERKO_CUBE_DEPTH:-1}"
  local cube_threads="${SUPERKO_CUBE_THREADS:-0}" cube_dir="${SUPERKO_CUBE_RESUME_DIR:-$work}" rows="$work/cube_rows"
  mkdir -p "$cube_dir"
  : >"$rows"
  cube_run() {  # TAG RESUME-NAME BOARD RULES RUN-IN-WORDS GONU-ARGS...
    local tag="$1" resume="$2" board="$3" rules="$4" words="$5"
    shift 5
    echo "superko: $tag ($words)" >&2
    solve "$tag" "$board" "$rules" --cube --no-search --threads "$cube_threads" --resume "$cube_dir/$resume.resume" "$@"
    python3 "$root/scripts/gonu_report.py" superko-cube-row "$work/$tag" "$board" "$rules" "$words" \
      "$(checked "$tag")" >>"$rows"
  }
  for rules in soldiers corner; do
    cube_run "cube-4x3-$rules" "cube-4x3-$rules" 4x3 "$rules" "depth 2, no budget" --strategy-depth 2
  done
  cube_run cube-4x4-l0 cube-4x4-l0 4x4 soldiers "depth 2, layers 0, $cube_seconds s" \
    --strategy-depth 2 --strategy-layers 0 --strategy-seconds "$cube_seconds"
  cube_run cube-4x4 cube-4x4 4x4 soldiers "depth $cube_depth, $cube_seconds s" \
    --strategy-depth "$cube_depth" --strategy-seconds "$cube_seconds"
  cube_run cube-4x4-again cube-4x4 4x4 soldiers "the same, again from its resume file" \
    --strategy-depth "$cube_depth" --strategy-seconds "$cube_seconds"
  {
    echo "## Cube and conquer"
    echo
    echo "\`gonu solve --cube --no-search --resume FILE\` on $(nproc) cores (\`--threads ${cube_threads}\`, 0: all): the strategy"
    echo "tree level by level, both sides' searches at every live node run in parallel (a node is live while"
    echo "neither it nor an ancestor is settled), ${cube_seconds} s per search on 4x4. Nodes per depth (the root is depth"
    echo "0); searches run here and taken from the resume file; their outcomes found / none / budget; the"
    echo "largest SAT instance; the searches' summed time (more than the wall time when they ran in parallel);"
    echo "the whole run's wall time and peak memory. The last row reruns the one before it with its resume file."
    echo
    echo "| board | rules | run | value | nodes per depth | searches run / resumed | found / none / budget | largest instance (variables / clauses) | searches | run | peak memory | certificate |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    machine
  } >"$parts/cube.md"
}

section_memory() {
  local memory_seconds="${SUPERKO_MEMORY_SECONDS:-120}" rows="$work/memory_rows"
  : >"$rows"
  for run in 5x2:2:-1 5x2:4:-1 3x4:2:-1 3x4:4:-1 4x3:2:-1 4x3:4:-1 4x4:4:0; do
    local board m layers
    IFS=: read -r board m layers <<<"$run"
    for rules in soldiers corner; do
      [ "$board" = 4x4 ] && [ "$rules" = corner ] && continue
      local tag="memory-$board-$rules-$m" budget=60
      [ "$board" = 4x4 ] && budget="$memory_seconds"
      echo "superko: $tag (memory $m, layers $layers, $budget s per side)" >&2
      solve "$tag" "$board" "$rules" --strategy-memory "$m" --strategy-layers "$layers" --strategy-depth 0 --no-search \
        --strategy-seconds "$budget"
      python3 "$root/scripts/gonu_report.py" superko-memory-row "$work/$tag" "$board" "$rules" "$m" "$layers" \
        "$(checked "$tag")" >>"$rows"
    done
  done
  {
    echo "## Strategies with memory (F11)"
    echo
    echo "\`--strategy-memory M --strategy-depth 0 --no-search\`, one side after the other (the side to move"
    echo "first), 60 s per side (${memory_seconds} s on 4x4, confined to the start's layer by \`--strategy-layers 0\`):"
    echo "the winner's move may depend on its moves since the last capture mod M. The SAT instance (variables,"
    echo "clauses, (state, label) nodes given a variable), what a strategy found reaches (states / nodes) and"
    echo "its paired nodes, the search's time, and the whole run's time and memory. A strategy found is"
    echo "written as format 7 and checked."
    echo
    echo "| board | rules | M | layers | winner | status | variables | clauses | product nodes | reachable | paired | search | run | peak memory | certificate |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    machine
  } >"$parts/memory.md"
}

# The layer-by-layer pass of capture-entry values (F10, --entry-layers) on 4x4.
section_entry() {
  local entry_seconds="${SUPERKO_ENTRY_SECONDS:-3}" entry_budget="${SUPERKO_ENTRY_BUDGET:-540}" rows="$work/entry_rows"
  : >"$rows"
  for rules in ${SUPERKO_ENTRY_RULES:-soldiers}; do
    local tag="entry-4x4-$rules"
    echo "superko: $tag (--entry-layers, $entry_seconds s per search, $entry_budget s in all)" >&2
    solve "$tag" 4x4 "$rules" --entry-layers --entry-seconds "$entry_seconds" --entry-budget "$entry_budget" \
      --no-strategy --no-search
    python3 "$root/scripts/gonu_report.py" superko-entry-rows "$work/$tag" 4x4 "$rules" "$(checked "$tag")" >>"$rows"
  done
  {
    echo "## Layer by layer: capture-entry values"
    echo
    echo "\`--entry-layers --entry-seconds ${entry_seconds} --entry-budget ${entry_budget} --no-strategy --no-search\` on 4x4"
    echo "(solver/julgonu/superko/SUPERKO.md, F10): bottom up over the material layers, each layer's attractor with the"
    echo "exits proven so far, then a memoryless strategy (side to move first, then the other side) from every"
    echo "capture-entry state the attractor left open, as a root with no history, confined to its layer. Per layer:"
    echo "capture-entry states, open after the attractor, proven won / lost (for the side to move), none for"
    echo "either side, still open, SAT searches run, the largest instance (variables) and its time, the layer's"
    echo "time. The proven values are written as a format-6 certificate and checked."
    echo
    echo "| board | rules | layer | capture-entry | open | won | lost | none | still open | searches | largest instance | its time | layer time |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    machine
  } >"$parts/entry.md"
}

# ILP (CBC) beside SAT: the same strategy instance solved by CaDiCaL and by CBC (--strategy-solver
# sat|ilp), injective and lazy-local, one run at a time. Budget: SUPERKO_ILP_SECONDS per side and
# solver (default 30; about 10 minutes in all here).
section_ilp() {
  local ilp_seconds="${SUPERKO_ILP_SECONDS:-30}" rows="$work/ilp_rows"
  : >"$rows"
  for board in 5x2 3x4 4x3; do
    for method in injective lazy-local; do
      for solver in sat ilp; do
        local tag="ilp-$board-$method-$solver"
        echo "superko: $tag ($ilp_seconds s per side)" >&2
        solve "$tag" "$board" soldiers --strategy-method "$method" --strategy-solver "$solver" --strategy-depth 0 \
          --no-search --strategy-seconds "$ilp_seconds"
        python3 "$root/scripts/gonu_report.py" superko-ilp-row "$work/$tag" "$board" soldiers "$method" \
          "$(checked "$tag")" >>"$rows"
      done
    done
  done
  {
    echo "## ILP (CBC) beside SAT"
    echo
    echo "The strategy instance of the start (\`soldiers\`, \`--strategy-depth 0 --no-search\`) solved by CaDiCaL"
    echo "and by CBC as a 0-1 program (each clause a row \"sum of literals >= 1\", each at-most-one group one row,"
    echo "the objective the states of the reach), ${ilp_seconds} s per side and solver: the instance's size"
    echo "(variables; clauses or rows), the lazy rounds, CBC's last root LP value (its fractional variables;"
    echo "\"none\": decided by preprocessing) and branch-and-bound nodes, the search's and the run's time."
    echo
    echo "| board | rules | method | solver | winner | status | variables | clauses / rows | rounds | root LP | nodes | search | run | peak memory | certificate |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    machine
  } >"$parts/ilp.md"
}

# Df-pn (F12): per board and node budget, `--dfpn-layer 2-2 --max-nodes N` (N per class of the
# layer's open capture-entry states), then the start by df-pn (--search dfpn, its own search within
# the same budget, written with the layer's decided classes as a format-8 certificate and checked);
# no strategy search.
section_dfpn() {
  local budgets="${SUPERKO_DFPN_NODES:-2000 20000}" boards="${SUPERKO_DFPN_BOARDS:-3x4 4x3 5x3 3x5}"
  local big="${SUPERKO_DFPN_4X4_NODES-2000 20000}" rows="$work/dfpn_rows"
  local tables="${SUPERKO_DFPN_TABLES:-$root/build/superko-dfpn}"
  mkdir -p "$tables"
  : >"$rows"
  local runs=()
  for rules in soldiers corner; do
    for board in $boards; do for nodes in $budgets; do runs+=("$rules:$board:$nodes"); done; done
    for nodes in $big; do runs+=("$rules:4x4:$nodes"); done
  done
  for run in "${runs[@]}"; do
    local rules="${run%%:*}" board="${run#*:}" nodes="${run##*:}"
    board="${board%%:*}"
    {
      local tag="dfpn-$board-$nodes" file="4x4-$nodes.dfpn"
      [ "$rules" = soldiers ] || { tag="dfpn-$rules-$board-$nodes"; file="4x4-$rules-$nodes.dfpn"; }
      echo "superko: $tag (df-pn, $nodes nodes a class)" >&2
      local resume=()  # 4x4: resumed from, and saved to, its proofs file
      [ "$board" = 4x4 ] && resume=(--dfpn-table "$tables/$file")
      solve "$tag" "$board" "$rules" --no-strategy --search dfpn --dfpn-layer 2-2 --max-nodes "$nodes" \
        ${resume[@]+"${resume[@]}"}
      python3 - "$work/$tag" "$rules" "$board" "$nodes" "$(checked "$tag")" >>"$rows" <<'PY'
import json, re, sys
tag, rules, board, nodes, cert = sys.argv[1:]
j = json.load(open(tag + ".json"))
l = j["dfpn_layer"]
t = open(tag + ".time").read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (.*)", t).group(1)
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) // 1024
value = (j["value"] + " (" + j["winner"] + " wins)") if j["proven"] else "open (" + j["stopped_by"] + ")"
def n(x): return f"{x:,}"
print(f"| {rules} | {board} | {n(int(nodes))} | {n(l['capture_entry'])} / {n(l['open'])} / {n(l['classes'])} | "
      f"{n(l['classes_win'])} / {n(l['classes_loss'])} | {n(l['classes_open'])} | "
      f"{n(l['states_win'] + l['states_loss'])} | {n(l['nodes'])} | {n(l['max_decided_class_nodes'])} | "
      f"{n(l['table']['exact_entries'])} + {n(l['table']['conditional_entries'])} | {l['seconds']:.1f} s | {value} | "
      f"{n(j['dfpn']['nodes']) if 'dfpn' in j else '-'} | {cert} | {wall} | {peak} MiB |")
PY
    }
  done
  # 1 against 2 threads: the 3x4 layer at 20,000 expansions a class, and 3x5 from the start.
  local trows="$work/dfpn_thread_rows"
  : >"$trows"
  for run in "3x4:--no-search --dfpn-layer 2-2 --max-nodes 20000" "3x5:--search dfpn"; do
    local board="${run%%:*}" flags="${run#*:}"
    for threads in 1 2; do
      local tag="dfpn-threads-$board-$threads" load
      load="$(cut -d' ' -f1 /proc/loadavg)"
      echo "superko: $tag (df-pn on $threads threads)" >&2
      # shellcheck disable=SC2086 # the flags are words
      solve "$tag" "$board" soldiers --no-strategy $flags --threads "$threads"
      python3 - "$work/$tag" "$work/dfpn-threads-$board-1" "$board" "$flags" "$threads" "$load" >>"$trows" <<'PY'
import json, os, re, sys
tag, first, board, flags, threads, load = sys.argv[1:]
def report(base):  # the JSON less what depends on time and the certificate's path; its bytes
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if "seconds" not in k and "peak" not in k and k != "certificate"}
        return [strip(v) for v in x] if isinstance(x, list) else x
    cert = open(base + ".cert", "rb").read() if os.path.exists(base + ".cert") else None
    return strip(json.load(open(base + ".json"))), cert
t = open(tag + ".time").read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (.*)", t).group(1)
cpu = sum(float(re.search(name + r".*: ([\d.]+)", t).group(1)) for name in ("User time", "System time"))
j = json.load(open(tag + ".json"))
what = (f"{j['dfpn_layer']['classes_win'] + j['dfpn_layer']['classes_loss']:,} classes decided, "
        f"{j['dfpn_layer']['nodes']:,} nodes") if "dfpn_layer" in j else f"{j['value']}, {j['dfpn']['nodes']:,} nodes"
same = "yes" if report(tag) == report(first) else "NO"
print(f"| {board} | `{flags}` | {threads} | {what} | {wall} | {cpu:.1f} s | {load} | {same} |")
PY
    done
  done
  # Proofs shared under the symmetries (the default) against kept as found, and the exact subset
  # search (F13): the 2-2 layers at 20,000 expansions a class, on one thread, CPU time.
  local vrows="$work/dfpn_variant_rows"
  : >"$vrows"
  for board in 3x4 4x3 5x3; do
    for variant in "shared:" "own frame:--dfpn-own-frame" "subset 24:--subset-boards 24"; do
      local name="${variant%%:*}" flags="${variant#*:}" tag="dfpn-variant-$board-${variant%%:*}"
      tag="${tag// /-}"
      echo "superko: $tag" >&2
      # shellcheck disable=SC2086 # the flags are words
      solve "$tag" "$board" soldiers --no-strategy --no-search --dfpn-layer 2-2 --max-nodes 20000 --threads 1 $flags
      python3 - "$work/$tag" "$board" "$name" >>"$vrows" <<'PY'
import json, re, sys
tag, board, name = sys.argv[1:]
l = json.load(open(tag + ".json"))["dfpn_layer"]
t = open(tag + ".time").read()
cpu = sum(float(re.search(k + r".*: ([\d.]+)", t).group(1)) for k in ("User time", "System time"))
print(f"| {board} | {name} | {l['classes_win'] + l['classes_loss']:,} of {l['classes']:,} | "
      f"{l['states_win'] + l['states_loss']:,} | {l['nodes']:,} | {l['table']['image_hits']:,} | "
      f"{l['table']['subset_solved']:,} | {cpu:.1f} s |")
PY
    done
  done
  {
    echo "## Df-pn over the full history (F12)"
    echo
    echo "\`gonu solve --rules RULES --no-strategy --search dfpn --dfpn-layer 2-2 --max-nodes N\`: df-pn over"
    echo "the 2-2 layer's capture-entry states that the attractors leave open, one search per class under the"
    echo "board symmetries and the colour swap, N expansions a class, one table for the layer (proofs shared under their history"
    echo "condition; the classes in rounds of 16 on every core, each round's proofs added in class order); then the start by its own df-pn within N expansions (without the attractors' values and"
    echo "the symmetries, so that its proof is written as a certificate, checked by \`gonu check-certificate\`:"
    echo "format 8, a proof graph holding the start's proof and the layer's decided classes proven again"
    echo "in that mode, each an entry). Columns: capture-entry states / open / classes; classes proven won / lost"
    echo "for the side to move; classes left open; states proven; the layer's expansions and the most a decided"
    echo "class took; the table at the end (exact + conditional entries); the layer's time; the start's value,"
    echo "df-pn's expansions for it and its certificate; the whole run's time and memory (ban-free solve"
    echo "included). 4x4 runs resume from df-pn's proofs file of earlier runs of this section (\`--dfpn-table\`),"
    echo "so their figures grow from run to run. Load: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 minutes) at the end, two cores shared."
    echo
    echo "| rules | board | nodes a class | entry / open / classes | won / lost | open classes | states proven | layer nodes | most for a decided class | table | layer time | start | df-pn nodes (start) | certificate | run | peak memory |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    echo "On 1 and 2 threads (\`--threads\`; df-pn's jobs share the main table by rounds, F12, so the report is the"
    echo "same for any thread count: the last column compares the JSON, times aside, and the certificate with the"
    echo "1-thread run's)."
    echo "Wall and CPU (user + system) of the whole run, ban-free solve included, and the 1-minute load when it"
    echo "started; the cores are shared, so the wall time depends on the load."
    echo
    echo "| board | flags | threads | result | wall | CPU | load | same report |"
    echo "|---|---|---|---|---|---|---|---|"
    cat "$trows"
    echo
    echo "Proofs shared under the board's symmetries and the colour swap (the default, F12) against kept as"
    echo "found (\`--dfpn-own-frame\`), and the exact subset search on regions of at most 24 boards"
    echo "(\`--subset-boards 24\`, F13): the 2-2 layer at 20,000 expansions a class, \`--threads 1\`; CPU of the"
    echo "whole run (user + system, ban-free solve included) on the shared cores."
    echo
    echo "| board | proofs | classes decided | states proven | layer nodes | hits through an image | nodes by the subset search | CPU |"
    echo "|---|---|---|---|---|---|---|---|"
    cat "$vrows"
    echo
    machine
  } >"$parts/dfpn.md"
  section_dfpncert
}

# The 3x5 `soldiers` start by df-pn alone (no layer pass, no strategy), its proof written as a proof
# graph (format 8), checked, and its size recorded: a paragraph at the end of results/superko/dfpn.md,
# replaced when run again (about a minute here).
section_dfpncert() {
  local tag="dfpn-certificate-3x5" md="$parts/dfpn.md"
  echo "superko: $tag (df-pn from the start, its certificate in format 8)" >&2
  solve "$tag" 3x5 soldiers --no-strategy --search dfpn
  local cert; cert="$(checked "$tag")"
  [ ! -f "$md" ] || python3 - "$md" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.find("\n### The 3x5 start's proof graph")
open(sys.argv[1], "w").write(t if i < 0 else t[:i])
PY
  {
    echo
    echo "### The 3x5 start's proof graph (format 8)"
    echo
    python3 - "$work/$tag" "$cert" <<'PY'
import json, re, sys
tag, cert = sys.argv[1:]
j = json.load(open(tag + ".json"))
check = open(tag + ".check").read().strip()
value = (j["value"] + " (" + j["winner"] + " wins)") if j["proven"] else "open (" + j["stopped_by"] + ")"
print("`gonu solve --rules soldiers --board 3x5 --no-strategy --search dfpn --certificate FILE`: " + value +
      f" in {j['dfpn']['nodes']:,} df-pn expansions; the certificate {re.sub(r'^[^ ]* ', '', j.get('certificate', '-'))}, "
      f"`gonu check-certificate`: {cert}:")
print()
print("    " + check)
print()
print("(The same proof in format 1, the tree and ranked table written before format 8: 14,402 bytes;")
print("`gonu_tests '[.dfpn3x5]'` writes both and says their sizes.)")
PY
    echo
    machine
  } >>"$md"
}

# The 4x4 `soldiers` attempt by df-pn on every core (sized for a bigger machine than this one): the
# 2-2 layer's open capture-entry classes at SUPERKO_DFPNBIG_NODES a class, then the start by df-pn
# top-down, both with the proofs file of the runs before; each within its --max-seconds. Writes
# results/superko/dfpnbig.md, which follows dfpn.md in results/superko.md.
section_dfpnbig() {
  local threads="${SUPERKO_DFPNBIG_THREADS:-0}" nodes="${SUPERKO_DFPNBIG_NODES:-1000000}"
  local layer_seconds="${SUPERKO_DFPNBIG_LAYER_SECONDS:-230}" start_seconds="${SUPERKO_DFPNBIG_START_SECONDS:-210}"
  local start_nodes="${SUPERKO_DFPNBIG_START_NODES:-0}" entries="${SUPERKO_DFPNBIG_TABLE_ENTRIES:-33554432}"
  local tables="${SUPERKO_DFPN_TABLES:-$root/build/superko-dfpn}" raw="${SUPERKO_DFPNBIG_RAW:-}" rows="$work/big_rows"
  local table="$tables/4x4-big.dfpn"
  mkdir -p "$tables"
  : >"$rows"
  local layer=(--no-strategy --no-search --dfpn-layer 2-2 --max-nodes "$nodes" --max-seconds "$layer_seconds")
  local start=(--no-strategy --search dfpn --max-nodes "$start_nodes" --max-seconds "$start_seconds"
    --table-entries "$entries")
  for run in layer start; do
    local tag="dfpnbig-4x4-$run" flags
    if [ "$run" = layer ]; then flags=("${layer[@]}"); else flags=("${start[@]}"); fi
    echo "superko: $tag (df-pn on $threads threads: ${flags[*]})" >&2
    solve "$tag" 4x4 soldiers "${flags[@]}" --threads "$threads" --dfpn-table "$table"
    python3 - "$work/$tag" "${flags[*]} --threads $threads" "$table" "$(checked "$tag")" >>"$rows" <<'PY'
import json, os, re, sys
tag, flags, table, cert = sys.argv[1:]
j = json.load(open(tag + ".json"))
t = open(tag + ".time").read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (.*)", t).group(1)
cpu = sum(float(re.search(name + r".*: ([\d.]+)", t).group(1)) for name in ("User time", "System time"))
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) // 1024
def n(x): return f"{x:,}"
if "dfpn_layer" in j:  # the layer pass
    l = j["dfpn_layer"]
    what = (f"{n(l['classes_run'])} of {n(l['classes'])} classes run, {n(l['classes_win'])} / {n(l['classes_loss'])} "
            f"won / lost, {n(l['classes_open'])} open (stopped by the {l['stopped_by']})")
    s, secs = l["table"], l["seconds"]
else:  # the start
    s = j.get("dfpn", {"nodes": 0, "exact_entries": 0, "conditional_entries": 0, "fresh_entries": 0})
    what = ((j["value"] + " (" + j["winner"] + " wins)") if j["proven"] else "start open (" + j["stopped_by"] + ")")
    secs = j["seconds"]
size = os.path.getsize(table) if os.path.exists(table) else 0
print(f"| `{flags}` | {what} | {n(s['nodes'])} | {n(s['exact_entries'])} + {n(s['conditional_entries'])}, "
      f"{n(s['fresh_entries'])} fresh | {secs:.1f} s | {wall} | {cpu:.0f} s | {peak:,} MiB | {n(size)} bytes | {cert} |")
PY
    if [ -n "$raw" ]; then
      mkdir -p "$raw"
      for f in json time err cert; do [ ! -f "$work/$tag.$f" ] || cp "$work/$tag.$f" "$raw/"; done
    fi
  done
  [ -z "$raw" ] || [ ! -f "$table" ] || cp "$table" "$raw/"
  local cpu mem
  cpu="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
  mem="$(free -g 2>/dev/null | awk '/^Mem:/ {print $2}')"
  {
    echo "### 4x4 on a $(nproc)-core machine"
    echo
    echo "\`gonu solve --rules soldiers --board 4x4 --quiet --json --certificate FILE --dfpn-table FILE\` with the flags"
    echo "below, on every core, one run after the other on one proofs file (\`4x4-big.dfpn\`, kept between runs of"
    echo "this section): the 2-2 layer's open capture-entry classes at ${nodes} expansions a class, in rounds of 16"
    echo "(a job a class, one per thread); then the start by df-pn top-down (its rounds: the main search, then up to"
    echo "8 jobs on the replies to its most proving move, the budget doubling every round), in certificate mode (no"
    echo "attractors' values, no symmetries), from the layer's proofs. Each run stops at its --max-seconds (the"
    echo "ban-free solve included); a layer round not started by then is counted as not run. Columns: what was"
    echo "reached; df-pn's expansions; its table at the end (exact + conditional entries, fresh-entry values); the"
    echo "phase's time (the layer pass; the start: the run less the ban-free solve); the whole run's wall and CPU"
    echo "time (user + system) and peak memory, from /usr/bin/time; the proofs file after the run; the certificate."
    echo
    echo "| flags | reached | df-pn nodes | table | phase | wall | CPU | peak memory | proofs file | certificate |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
    echo
    echo "Machine: $(nproc) cores (${cpu:-unknown CPU}), ${mem:-?} GiB, $(uname -m); gonu $("$gonu" --version | cut -d' ' -f2);"
    echo "$(date -u +%Y-%m-%d)."
  } >"$parts/dfpnbig.md"
}

for s in ${sections[@]+"${sections[@]}"}; do "section_$s"; done

{
  echo "# Superko values"
  echo
  echo "Regenerated by \`scripts/superko.sh\`, section by section (\`scripts/superko.sh SECTION\` runs one again;"
  echo "each section says its budgets, machine and date). Value of the start (both home ranks full, Black"
  echo "first) under positional superko: no move may recreate any earlier board. \`soldiers\`: line capture;"
  echo "\`corner\`: single capture with corner capture. \"Ban-free\" is the value of the same game with no"
  echo "repetition rule (draw = endless play). Proven values come with a certificate that"
  echo "\`gonu check-certificate\` replays against every reply of the loser with the full board history."
  for s in "${all[@]}"; do
    echo
    if [ -f "$parts/$s.md" ]; then cat "$parts/$s.md"; else echo "(section $s not run yet: scripts/superko.sh $s)"; fi
    # the bigger machine's 4x4 attempt, under the df-pn section, only where it was run
    if [ "$s" = dfpn ] && [ -f "$parts/dfpnbig.md" ]; then echo; cat "$parts/dfpnbig.md"; fi
  done
  echo
  cat <<'NOTES'
## What is proven, and what is open

- Proven, each with a certificate that `gonu check-certificate` accepts (method and proofs in
  solver/julgonu/superko/SUPERKO.md, facts F1 to F11):
  - 2x3, 3x2, 2x4 and 4x2: White wins (Black, to move first, is stalemated at once on 2x3 and 2x4,
    and loses by the ban-free attractor on 3x2 and 4x2 `soldiers`; by a memoryless strategy on 3x2
    and 4x2 `corner`, ban-free draws);
  - 3x3: Black wins in 7 plies under both rule sets (the ban-free win never repeats a board);
  - 5x2 and 3x4: **White wins** under both rule sets, by one memoryless strategy from the start
    (found by a SAT solver; on 3x4 `soldiers` only 12 of White's states need a paired reply, the
    rest follow the layer attractors). The tests also replay the 3x4 `soldiers` strategy against
    every play of Black with the full board history;
  - 4x3: **Black wins** under both rule sets. Neither side has a single memoryless strategy from
    the start (nor one with memory of its move count, F11); after a4-a3 Black has one against each
    of White's three replies;
  - 5x3: **Black wins** under both rule sets, by one memoryless strategy from the start; 3x5
    `corner`: Black wins (a ban-free win that never repeats a board);
  - 3x5 `soldiers`: **Black wins**, by df-pn over the full history (F12, section "Df-pn" above:
    `gonu solve --rules soldiers --board 3x5 --no-strategy --search dfpn`, a format-8 certificate
    (a proof graph) of 50 nodes and 377 strategy states, 9,468 bytes, first move e3-e2; format 1
    held 30 tree nodes and 573 table lines, 14,402 bytes). In the values section the strategies
    and the depth-first search leave it open, and its df-pn step proves it.
- Open: 4x4 under both rule sets. On 4x4 every method here stalls at the same
  place, the 2-2 material layer and the whole-game SAT instances of 2 to 7 million variables: the
  memoryless search (F7) and its lazy form (F9) give no answer within their budgets; strategies with
  memory (F11) find none confined to the start's layer and no answer with one layer more; cube and
  conquer (the tree of searches in parallel, resumable) finds that a few plies of history shrink no
  instance; the layer-by-layer pass (F10) finds the 2-2 layer's capture-entry states (3,320 open on
  `soldiers`) unanswered at a few seconds per search, so no layer above it gets proven exits; df-pn
  over the full history (F12) decides none of that layer's 426 open classes, at 2,000 and 20,000
  expansions a class here and at 1,000,000 a class on a lent 16-core machine (section "4x4 on a
  16-core machine", the one part of this page not measured on the 2-core machine: 426 million
  expansions in 162 s, 13 cores busy on average), and leaves the start open after 47.7 million
  expansions top-down there (221 s; its rounds kept 1.35 cores busy, their main search being one
  thread). The sections above give the sizes and times; solver/julgonu/superko/SUPERKO.md, "What is hard",
  what each method found and what would come next (longer runs of the cube's searches on a 16-core
  machine first).
NOTES
} >"$out"
echo "wrote $out" >&2
