#!/usr/bin/env python3
"""Account for every difference `benches/outputs.sh` found between two builds, for a change
that names its output changes (issue #26: each must be a row of the Codex version table).

    python3 benches/outputs-explain.py bench-out/outputs A_LABEL B_LABEL RULES=BEHAVIOUR...

It reads the records of both labels, takes out of B what every output gained on purpose
(fields and phrases given with --drop-field / --drop-re), and sorts each line that still
differs under the rule slugs it names: a slug given as RULE=WHY is accounted for (WHY, a
table row); a line naming no accounted slug is listed as unaccounted. Exits 1 when any is.
"""
import argparse
import collections
import difflib
import json
import os
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("work")
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("accounted", nargs="*", help="SLUG=WHY")
ap.add_argument("--drop-field", action="append", default=[])
ap.add_argument("--drop-re", action="append", default=[])
ap.add_argument("--show", type=int, default=3)
ap.add_argument("--slugs", help="a file of every rule slug, one a line (a line naming one not accounted for is unaccounted)")
args = ap.parse_intermixed_args()

accounted = dict(a.split("=", 1) for a in args.accounted)
drop_fields = set(args.drop_field)
drop_res = [re.compile(r) for r in args.drop_re]
slug_re = re.compile(r"\b([a-z_]+\.[a-z][a-z-]+)\b")
known = set(open(args.slugs).read().split()) if args.slugs else set()


def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in drop_fields}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def norm_text(text):
    lines = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("{") or s.startswith("["):
            try:
                line = json.dumps(strip(json.loads(s)), sort_keys=True)
            except ValueError:
                pass
        for r in drop_res:
            line = r.sub("", line)
        lines.append(line)
    return lines


def load(label, name, ext):
    p = os.path.join(args.work, label, name + ext)
    try:
        with open(p, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def whole_json(text):
    """A pretty-printed document (SARIF, json arrays): one line per row, normalised."""
    try:
        v = json.loads(text)
    except ValueError:
        return None
    v = strip(v)
    if isinstance(v, list):
        return [json.dumps(x, sort_keys=True) for x in v]
    if isinstance(v, dict) and "runs" in v:
        out = []
        for run in v["runs"]:
            for r in run.get("tool", {}).get("driver", {}).get("rules", []):
                out.append("rule " + json.dumps(r, sort_keys=True))
            for r in run.get("results", []):
                out.append("result " + json.dumps(r, sort_keys=True))
            out.append("run " + json.dumps({k: x for k, x in run.items() if k not in ("tool", "results")}, sort_keys=True))
        return out
    return [json.dumps(v, sort_keys=True)]


names = sorted(
    f[:-5] for f in os.listdir(os.path.join(args.work, args.b)) if f.endswith(".code")
)
why = collections.Counter()
unaccounted = collections.defaultdict(list)
cases_left = set()
inputs_accounted = set()
deferred = []
for name in names:
    # A rule's own page (`lint --explain SLUG`) is its rule's; `--help` pages show the flags
    # the change adds.
    case_rule = name.split("@", 1)[1] if name.startswith("explain@") else None
    pending = []
    case_accounted = False
    for ext in (".out", ".err", ".code"):
        ta, tb = load(args.a, name, ext), load(args.b, name, ext)
        if ta == tb:
            continue
        ja, jb = whole_json(ta), whole_json(tb)
        la, lb = (ja, jb) if ja is not None and jb is not None else (norm_text(ta), norm_text(tb))
        if ext == ".code":
            la, lb = [ta.strip()], [tb.strip()]
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            for line in la[i1:i2] + lb[j1:j2]:
                if case_rule in accounted:
                    why[accounted[case_rule] + " (the rule's documentation)"] += 1
                    continue
                if name.startswith("help."):
                    why["--help: the flags added (--codex, --config, --no-config, --deny non-monotonic)"] += 1
                    continue
                named = set(slug_re.findall(line)) & (known | set(accounted))
                named |= {m for m in accounted if not slug_re.fullmatch(m) and m in line}
                hit = named & set(accounted)
                if hit:
                    for s in hit:
                        why[accounted[s]] += 1
                    case_accounted = True
                elif named:
                    unaccounted[name + ext].append(line)
                    cases_left.add(name)
                else:
                    pending.append((ext, line))
    # A line naming no rule (a count, a summary, an exit code) follows the findings of the
    # same command line, or of the same input under another command line.
    if case_accounted:
        inputs_accounted.add(name.split("@", 1)[-1])
    if pending:
        deferred.append((name, pending))

for name, pending in deferred:
    if name.split("@", 1)[-1] in inputs_accounted:
        why["counts, summaries and exit codes that follow those findings"] += len(pending)
    else:
        for ext, line in pending:
            unaccounted[name + ext].append(line)
            cases_left.add(name)

for w, n in why.most_common():
    print(f"{n:6d} lines  {w}")
print(f"{sum(len(v) for v in unaccounted.values())} unaccounted lines in {len(cases_left)} cases")
for k in sorted(unaccounted)[: args.show]:
    print("---", k)
    for line in unaccounted[k][:6]:
        print("   ", line[:300])
sys.exit(1 if unaccounted else 0)
