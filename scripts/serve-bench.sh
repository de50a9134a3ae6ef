#!/usr/bin/env bash
# Load test of the web explorer (results/serve-bench.md): `gonu serve` on the 4x4 free table, on
# loopback, against wrk (Debian's) with 1, 16 and 64 connections (64: as many as the server lets one
# client address hold, each on a thread of its own; tools/serve/guarded_server.hpp). Every request is a position
# query (/api/query with a history), walking a list of a few thousand different ones: the prefixes
# of seeded random games from the start, made first through the server itself. Each run is bounded
# by time (GONU_BENCH_SECONDS, default 10) and by count (GONU_BENCH_REQUESTS a connection, default
# 200000). The machine may be shared: the load average is printed before and after each run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh gonu
gonu=$PWD/build/bin/gonu
seconds=${GONU_BENCH_SECONDS:-10}
per_connection=${GONU_BENCH_REQUESTS:-200000}
work=$(mktemp -d /tmp/gonu-serve-bench-XXXXXX)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
table=tables/4x4-free.gonu
[ -f "$table" ] || { mkdir -p tables; $gonu solve --rules free --quiet --out "$table" >/dev/null; }

"$gonu" serve "$table" --port 0 2>"$work/serve.err" &
server=$!
for _ in $(seq 50); do grep -q listening "$work/serve.err" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/serve.err")
[ -n "$port" ] || { cat "$work/serve.err" >&2; exit 1; }

# The request paths: every prefix of 100 seeded random games of up to 60 plies.
python3 - "$port" "$work/paths.txt" <<'PY'
import json, random, sys, urllib.parse, urllib.request
port, out = int(sys.argv[1]), sys.argv[2]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
rng = random.Random(2024)
paths = set()
for game in range(100):
    history = []
    for ply in range(60):
        path = "/api/query?table=4x4-free&history=" + urllib.parse.quote(" ".join(history))
        paths.add(path)
        answer = json.load(opener.open(f"http://127.0.0.1:{port}{path}"))
        if not answer["moves"]:
            break
        history.append(rng.choice(answer["moves"])["move"])
with open(out, "w") as f:
    f.write("\n".join(sorted(paths)) + "\n")
print(f"{len(paths)} distinct position queries", file=sys.stderr)
PY

cat > "$work/bench.lua" <<LUA
-- Each connection walks the list from its own offset; it stops after $per_connection answers.
local paths = {}
for line in io.lines("$work/paths.txt") do paths[#paths + 1] = line end
local count = 0
function setup(thread) thread:set("id", count); count = count + 1 end
local i, answered = 0, 0
function init(args) i = id * 997 end
function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
function response(status, headers, body)
  answered = answered + 1
  if answered >= $per_connection then wrk.thread:stop() end
end
function done(summary, latency, requests)
  local e = summary.errors
  print(string.format("RESULT requests=%d seconds=%.2f rps=%.0f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f errors=%d",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.status + e.connect + e.read + e.write + e.timeout))
end
LUA

echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before"
for c in 1 16 64; do
  t=$((c < 2 ? 1 : 2))
  echo "== $c connection(s): wrk -t$t -c$c -d${seconds}s -s bench.lua (gonu serve $table) =="
  wrk -t"$t" -c"$c" -d"${seconds}s" -s "$work/bench.lua" "http://127.0.0.1:$port/" | grep -E "RESULT|Non-2xx|Socket errors" || true
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after"
done

# The Jungi part: `gonu serve DIR` on a directory of Jungi tables (GONU_BENCH_JUNGI_DIR, else
# KRvKO's closure, 35 tables, solved into build/bench-tables/KRvKO once), its start-up timed,
# then 16 connections asking random positions of its 4-piece tables (/api/query?table=jungi),
# each made by placing the pieces on random squares and kept if the rules accept it (checked with
# the Python module, not the server: the server starts cold). Default --max-memory (1 GiB).
jdir=${GONU_BENCH_JUNGI_DIR:-build/bench-tables/KRvKO}
if [ ! -d "$jdir" ]; then
  mkdir -p "$jdir"
  "$gonu" solve --game jungi --material KRvKO --quiet --dir "$jdir" >/dev/null
fi
scripts/build.sh gonu_python
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true
# Start-up on a directory of 1,743 table names, those of every material of up to four pieces
# (`gonu solve --game jungi --all 4 --plan`), each a hard link to one table's file: what a start
# reads of a directory (names, not files) is what the full set costs it.
mkdir "$work/all4"
"$gonu" solve --game jungi --all 4 --plan | tail -n +2 | cut -f2 | while read -r m; do
  ln "$jdir/KvK.nohobble-compulsory-stalemate-loss-lancer-standard.gonu" "$work/all4/$m.nohobble-compulsory-stalemate-loss-lancer-standard.gonu"
done
all4_ms=()
for _ in 1 2 3; do
  start=$(date +%s%N)
  "$gonu" serve "$work/all4" --port 0 2>"$work/all4.err" &
  pid=$!
  for _ in $(seq 500); do grep -q listening "$work/all4.err" 2>/dev/null && break; sleep 0.005; done
  all4_ms+=($(( ($(date +%s%N) - start) / 1000000 )))
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
echo "== Jungi: gonu serve on $(ls "$work/all4" | wc -l) table names: listening after ${all4_ms[*]} ms (three starts) =="
server=
start=$(date +%s%N)
"$gonu" serve "$jdir" --port 0 2>"$work/jserve.err" &
server=$!
for _ in $(seq 200); do grep -q listening "$work/jserve.err" 2>/dev/null && break; sleep 0.01; done
startup_ms=$(( ($(date +%s%N) - start) / 1000000 ))
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/jserve.err")
[ -n "$port" ] || { cat "$work/jserve.err" >&2; exit 1; }
PYTHONPATH=build/python python3 - "$jdir" "$work/jpaths.txt" <<'PY'
import random, sys, urllib.parse
import gonu
tables = gonu.Tables(sys.argv[1])
four = [m["material"] for m in tables.materials if sum(c.isalpha() and c != "v" for c in m["material"]) == 4]
rng = random.Random(2026)
def pieces(material):
    south, north = material.split("v")
    out = []
    for side, text in ((0, south), (1, north)):
        i = 0
        while i < len(text):
            promoted = text[i] == "+"
            letter = text[i + 1] if promoted else text[i]
            out.append(("+" if promoted else "") + (letter.upper() if side == 0 else letter.lower()))
            i += 2 if promoted else 1
    return out
def position(placed, to_move):
    rows = []
    for rank in range(9, 0, -1):
        row, empty = "", 0
        for file in range(9):
            p = placed.get((file, rank))
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + to_move + " -"
paths = []
while len(paths) < 2000:
    material = rng.choice(four)
    squares = rng.sample([(f, r) for f in range(9) for r in range(1, 10)], 4)
    text = position(dict(zip(squares, pieces(material))), rng.choice("sn"))
    try:
        if gonu.moves(text, game="jungi"):
            paths.append("/api/query?table=jungi&position=" + urllib.parse.quote(text))
    except gonu.Error:
        pass
open(sys.argv[2], "w").write("\n".join(paths) + "\n")
print(f"{len(paths)} random 4-piece positions of {len(four)} tables", file=sys.stderr)
PY
sed -i "s|$work/paths.txt|$work/jpaths.txt|" "$work/bench.lua"
echo "== Jungi: gonu serve $jdir ($(ls "$jdir" | wc -l) files) started in ${startup_ms} ms; 16 connections: wrk -t2 -c16 -d${seconds}s -s bench.lua =="
wrk -t2 -c16 -d"${seconds}s" -s "$work/bench.lua" "http://127.0.0.1:$port/" | grep -E "RESULT|Non-2xx|Socket errors" || true
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after"
