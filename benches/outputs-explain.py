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
ap.add_argument("--account-field", action="append", default=[],
                help="FIELD=WHY: a row that differs only by FIELD (anywhere in it) is accounted for by WHY")
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


account_fields = [tuple(a.split("=", 1)) for a in args.account_field]


def without(line, field):
    """A JSON line with `field` taken out of every object in it (itself when not JSON)."""
    def drop(v):
        if isinstance(v, dict):
            return {k: drop(x) for k, x in v.items() if k != field}
        if isinstance(v, list):
            return [drop(x) for x in v]
        return v
    body = line[line.index("{"):] if "{" in line else line
    try:
        return line[: len(line) - len(body)] + json.dumps(drop(json.loads(body)), sort_keys=True)
    except ValueError:
        return line


def unmatched(lines, matched, field):
    """The lines of the multiset `lines` left once `matched` (lines without `field`) are taken
    out, one for one."""
    left, out = matched.copy(), []
    for x in lines.elements():
        k = without(x, field)
        if left[k] > 0:
            left[k] -= 1
        else:
            out.append(x)
    return out


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
        # The lines one side has more often than the other (order aside: a difference in
        # order alone shows as none; the records name their lines).
        ca, cb = collections.Counter(la), collections.Counter(lb)
        only_a, only_b = ca - cb, cb - ca
        # What the base printed that the change replaced is accounted for by what replaced
        # it: its lines count with the case's; the change's own lines must each be accounted.
        before = set(only_a)
        changed = list(only_a.elements()) + list(only_b.elements())
        # Rows that differ only by an accounted field.
        for field, reason in account_fields:
            sa = collections.Counter(without(x, field) for x in only_a.elements())
            sb = collections.Counter(without(x, field) for x in only_b.elements())
            same = sa & sb
            if same:
                n = sum(same.values())
                why[reason] += 2 * n
                case_accounted = True
                changed = unmatched(only_a, same, field) + unmatched(only_b, same, field)
        if True:
            for line in changed:
                if case_rule in accounted:
                    why[accounted[case_rule] + " (the rule's documentation)"] += 1
                    continue
                if name.startswith("help."):
                    why["--help: the flags added (--codex, --config, --no-config, --deny non-monotonic)"] += 1
                    continue
                # A fixture's folder (`testdata/lint/<slug>/`) names a rule, not the finding.
                bare = re.sub(r"lint[/+][a-z_]+\.[a-z-]+[/+]", "lint/-/", line)
                named = set(slug_re.findall(bare)) & (known | set(accounted))
                named |= {m for m in accounted if not slug_re.fullmatch(m) and m in line}
                hit = named & set(accounted)
                if hit:
                    for s in hit:
                        why[accounted[s]] += 1
                    case_accounted = True
                elif named and line not in before:
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
