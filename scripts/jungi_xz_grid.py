#!/usr/bin/env python3
"""How Jungi table files' value codes compress under other LZMA2 settings and block sizes: the
measurement behind the table format's choice (solver/jungi/table/FORMAT.md, "Format 4").

Each file's blocks (.xz streams, formats 3 and later) are decoded; k consecutive blocks are joined
into one as a block k times larger is laid out (the South-to-move codes of all k, then North's:
FORMAT.md, "Values"), and each joined block is compressed again as one .xz stream (CRC32, the
dictionary the block's size) under each setting, on one core. Prints, per block multiple and
setting, the bytes and the CPU seconds, and their ratios to the first setting at the first
multiple. Python's lzma module is the same liblzma gonu links.

  scripts/jungi_xz_grid.py [--blocks N] [--multiples 1,8] [--settings NAME,...] FILE...

--blocks N takes each file's first N blocks only (default all: with --multiples up to 8, a
multiple of 8 keeps every multiple's blocks whole). Settings (all with the dictionary as above):
"""
import argparse
import lzma
import sys
import time

N = lzma.MODE_NORMAL
# name -> LZMA2 options over preset 6
SETTINGS = {
    "p6": dict(preset=6),  # format 3
    "hc4-32-8": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_HC4, nice_len=32, depth=8),  # format 4 at first
    "hc4-24-8": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_HC4, nice_len=24, depth=8),  # format 4 now
    "hc4-32-4": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_HC4, nice_len=32, depth=4),
    "hc4-16-4": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_HC4, nice_len=16, depth=4),
    "hc4f-32-8": dict(preset=6, lc=0, pb=0, mode=lzma.MODE_FAST, mf=lzma.MF_HC4, nice_len=32, depth=8),
    "bt4-32-8": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_BT4, nice_len=32, depth=8),
    "bt4-16-4": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_BT4, nice_len=16, depth=4),
    "hc4-64-16": dict(preset=6, lc=0, pb=0, mode=N, mf=lzma.MF_HC4, nice_len=64, depth=16),
}
__doc__ += "".join(f"  {name}: {opts}\n" for name, opts in SETTINGS.items())
MAGIC = b"\xfd7zXZ\x00"


def blocks(path):
    """The decoded blocks of a table file, in order: its data section (from the header's
    data_offset, bytes 280-287) is the .xz streams back to back."""
    data = open(path, "rb").read()
    at = int.from_bytes(data[280:288], "little")
    out = []
    while at >= 0 and data.startswith(MAGIC, at):
        d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        out.append(d.decompress(data[at:]))
        at = len(data) - len(d.unused_data)
    return out


def joined(group):
    """Blocks of codes (each its South half, then North's) as one block of them all."""
    south = b"".join(b[:(len(b) + 1) // 2] for b in group)
    north = b"".join(b[(len(b) + 1) // 2:] for b in group)
    return south + north


def compress(block, opts):
    f = {"id": lzma.FILTER_LZMA2, "dict_size": max(4096, len(block))}
    f.update(opts)
    return len(lzma.compress(block, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=[f]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blocks", type=int, default=0)
    ap.add_argument("--multiples", default="1,8")
    ap.add_argument("--settings", default="p6,hc4-32-8")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    names = a.settings.split(",")
    for name in names:
        if name not in SETTINGS:
            sys.exit(f"jungi_xz_grid: unknown setting {name} (known: {', '.join(SETTINGS)})")
    tables = [blocks(f)[:a.blocks] if a.blocks else blocks(f) for f in a.files]
    raw = sum(len(b) for t in tables for b in t)
    print(f"{len(a.files)} files, {sum(map(len, tables))} blocks, {raw:,} bytes of codes")
    print()
    print("| blocks joined | setting | bytes | of the first | CPU seconds | of the first |")
    print("|---:|---|---:|---:|---:|---:|")
    first = None
    for k in (int(x) for x in a.multiples.split(",")):
        data = [joined(t[i:i + k]) for t in tables for i in range(0, len(t), k)]
        for name in names:
            t0 = time.process_time()
            size = sum(compress(b, SETTINGS[name]) for b in data)
            cpu = time.process_time() - t0
            first = first or (size, cpu)
            print(f"| {k} | {name} | {size:,} | {size / first[0]:.3f} | {cpu:.1f} | {cpu / first[1]:.2f} |", flush=True)


if __name__ == "__main__":
    main()
