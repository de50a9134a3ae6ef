#!/usr/bin/env python3
"""The plan table of results/mpi.md: memory, messages and time of `gonu solve --mpi` on the boards
past one machine, from the ids and expected states that gonu's own estimate gives and the rates
measured here (results/mpi.md says where each constant comes from).

usage: mpi_plan.py GONU RATE
  GONU  the gonu binary (its estimate line gives each row's ids and expected states)
  RATE  states solved a second on this 2-core machine, MPI on one process (results/mpi.md)
Called by `scripts/mpi.sh --plan`.
"""
import re
import subprocess
import sys

# (board, rules, nodes): one process of 16 cores per node.
ROWS = [("6x5", "free", 16), ("5x6", "free", 128), ("6x6", "free", 1024),
        ("4x5", "encyclopedia", 16), ("5x5", "encyclopedia", 256)]

BITMAP = 64 / 448          # bytes an id: RankedBits, 448 ids a 64-byte line
CELLS_MIRRORED = 1.5       # untagged: 3 bytes a canonical state, about half the states
CELLS_TAGGED = 3.0         # tagged: 3 bytes a reached state
BOARD_ID = 12.0            # tagged: slot base and list mark a board id, on its owner only (assumed:
                           # today every process holds every board's, results/mpi.md "Not done")
LEVEL_SHARE = 0.12         # the largest level's share of the states
LEVEL_LISTS = 16.0         # a level's list and the next one's, bytes a state of the level
BATCHES = 128 * 2**20      # a batch's words in flight (solver/julgonu/mpi/memory_mpi.cpp)
MESSAGES = 23.0            # bytes sent a state of a level (the reach's, 5x5 free, 8 processes)
STREAMED = 3.5             # read-off besides the images, bytes a state of a range
NODE_SPEEDUP = 8           # a 16-core node does 8 times this 2-core machine's work
GIB = 2**30


def estimate(gonu, board, rules):
    """(ids, expected states) from gonu's memory estimate, refused at once by a tiny limit."""
    p = subprocess.run([gonu, "solve", "--board", board, "--rules", rules, "--engine", "compact",
                        "--max-memory", "1M", "--quiet"], capture_output=True, text=True)
    m = re.search(r"; (\d+) (dense ids|tag slots), about (\d+) reachable states", p.stderr)
    if not m:
        sys.exit(f"mpi_plan: no estimate for {board} {rules}: {p.stderr.strip()}")
    return int(m.group(1)), int(m.group(3))


def gib(x):
    return f"{x / GIB:,.1f} GiB" if x < 1024 * GIB else f"{x / GIB / 1024:,.1f} TiB"


def row(gonu, rate, board, rules, nodes):
    ids, states = estimate(gonu, board, rules)
    tagged = rules != "free"
    held = BITMAP * ids + (CELLS_TAGGED if tagged else CELLS_MIRRORED) * states
    today = ""
    if tagged:
        boards = BOARD_ID * estimate(gonu, board, "free")[0]  # the board ids are the untagged ids
        held += boards
        today = f"; today + {gib(boards - boards / nodes)} a node, every board's bases held"
    level = LEVEL_SHARE * states
    per_node_level = LEVEL_LISTS * level / nodes + BATCHES
    images = 0.0 if nodes <= 2 else 8 * 0.5 * (1 - 2 / nodes)  # other nodes' mirror images, 8 bytes
    per_node_readoff = (STREAMED + images) * states / nodes
    messages = MESSAGES * level
    seconds = states / (rate * NODE_SPEEDUP * nodes)
    return (f"| {board} {rules} | {ids:,} | {states:,} | {gib(held)} | {nodes} | {gib(held / nodes)} "
            f"(+ {gib(per_node_level)}; read-off + {gib(per_node_readoff)}{today}) | {gib(messages)} in all, "
            f"{gib(messages / nodes)} a node | {max(1, round(seconds / 60))} min |")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gonu, rate = sys.argv[1], float(sys.argv[2])
    print("| board, rules | ids | expected states | held in all | nodes | per node (+ largest level; "
          "read-off) | largest level's messages | time (16-core nodes) |")
    print("|---|---|---|---|---|---|---|---|")
    for board, rules, nodes in ROWS:
        print(row(gonu, rate, board, rules, nodes))


if __name__ == "__main__":
    main()
