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
