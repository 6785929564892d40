#!/usr/bin/env python3
"""Make fuzz/templates.jsonl: the record shapes the `commands` target builds rollouts from.

One line per distinct shape (envelope type, payload type, role, and the set of payload keys)
from the real rollouts of testdata/ and, when present, ../shared/corpus/real, at most four
per type, with long strings cut to 120 characters. Rerun after new record types appear:
    python3 fuzz/templates.py
"""
import glob, json, os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
files = sorted(glob.glob(os.path.join(root, "testdata/**/*.jsonl"), recursive=True))
files += sorted(glob.glob(os.path.join(root, "../shared/corpus/real/**/*.jsonl"), recursive=True))

def cut(v):
    if isinstance(v, str):
        return v[:120]
    if isinstance(v, list):
        return [cut(x) for x in v[:6]]
    if isinstance(v, dict):
        return {k: cut(x) for k, x in v.items()}
    return v

seen, per_type, out = set(), {}, []
for f in files:
    for line in open(f, encoding="utf-8", errors="replace"):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if not isinstance(o, dict) or not isinstance(o.get("payload"), dict):
            continue
        p = o["payload"]
        kind = (o.get("type"), p.get("type"), p.get("role") if isinstance(p.get("role"), str) else None)
        shape = (kind, tuple(sorted(p)))
        if shape in seen or per_type.get(kind, 0) >= 4:
            continue
        try:
            # No NaN or Infinity (a number beyond f64 reads as one): not JSON.
            text = json.dumps(cut(o), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        except ValueError:
            continue
        seen.add(shape)
        per_type[kind] = per_type.get(kind, 0) + 1
        out.append(text)

with open(os.path.join(root, "fuzz/templates.jsonl"), "w", encoding="utf-8") as w:
    w.write("\n".join(out) + "\n")
print(f"{len(out)} templates, {len(per_type)} types", file=sys.stderr)
