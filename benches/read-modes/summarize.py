#!/usr/bin/env python3
"""Medians of read-modes runs (the TSVs run.sh writes; several files are pooled): wall, user, sys, user+sys and
minor faults per input, mode and thread count, with the ratio of wall and CPU to `read`
on the same input and threads. Checks that every mode counted the same bytes and
newlines."""
import csv
import statistics
import sys
from collections import defaultdict

rows = [r for path in sys.argv[1:] for r in csv.DictReader(open(path), delimiter="\t")]
groups = defaultdict(list)
counts = defaultdict(set)
for r in rows:
    groups[(r["data"], r["mode"], int(r["threads"]))].append(r)
    counts[r["data"]].add((r["files"], r["bytes"], r["newlines"], r["errors"]))
for data, c in counts.items():
    if len(c) != 1:
        sys.exit(f"{data}: modes disagree on files/bytes/newlines/errors: {c}")
    f, b, nl, e = c.pop()
    print(f"{data}: {f} files, {int(b)/1e6:.1f} MB, {nl} newlines, {e} errors")

order = ["read", "mmap", "populate", "mmap-seq", "hybrid-1m", "hybrid-16m"]
med = {}
for k, rs in groups.items():
    def m(col):
        return statistics.median(float(r[col]) for r in rs)
    walls = sorted(float(r["wall"]) for r in rs)
    med[k] = dict(
        n=len(rs), wall=m("wall"), user=m("user"), sys=m("sys"),
        cpu=statistics.median(float(r["user"]) + float(r["sys"]) for r in rs),
        minflt=m("minflt"), mapped=rs[0]["mapped"],
        lo=walls[len(walls) // 4], hi=walls[(3 * len(walls)) // 4],
    )

print()
print("| input | threads | mode | files mapped | wall s | (IQR) | user s | sys s | user+sys s | wall vs read | cpu vs read | minor faults |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for data in ["corpus", "single"]:
    for t in sorted({k[2] for k in med}):
        base = med.get((data, "read", t))
        for mode in order:
            v = med.get((data, mode, t))
            if v is None or base is None:
                continue
            print(
                f"| {data} | {t} | {mode} | {v['mapped']} | {v['wall']:.3f} | {v['lo']:.3f}-{v['hi']:.3f} "
                f"| {v['user']:.3f} | {v['sys']:.3f} | {v['cpu']:.3f} "
                f"| {v['wall'] / base['wall']:.2f} | {v['cpu'] / base['cpu']:.2f} | {v['minflt']:.0f} |"
            )
print()
print(f"runs per configuration: {sorted({v['n'] for v in med.values()})}")
loads = [float(r["load1"]) for r in rows]
print(f"load average (1 min) during the runs: median {statistics.median(loads):.2f}, max {max(loads):.2f}")
if rows and "steal_s" in rows[0]:
    st = [float(r["steal_s"]) for r in rows]
    print(f"steal time per run (both vCPUs): median {statistics.median(st):.3f} s, max {max(st):.3f} s")
