#!/usr/bin/env python3
"""sweep.py: mutation sweep over the payload variants of a clean rollout (issue 27).

Python 3 standard library only. Deterministic: the same base gives the same mutants, byte for
byte, in the same order.

  sweep.py list BASE                      the variants and the mutants that would be made
  sweep.py make BASE WORKDIR              write every mutant, each alone in a folder:
                                          WORKDIR/<mutant>/<mutant>.jsonl, plus
                                          WORKDIR/clean/clean.jsonl (a copy of BASE, the control)
                                          and WORKDIR/manifest.json
  sweep.py ask WORKDIR RAWDIR [--verdicts PATH] [--chunk N] [--home-layout DIR]
                                          ask the real Codex 0.171 about each folder of WORKDIR:
                                          runs corpus-gen/verdicts.py in files mode
                                          (--codex-version 0.171.0 --key dir --home-layout DIR),
                                          ONE invocation at a time, N files per invocation
                                          (the clean control first, in the first chunk), results
                                          in RAWDIR/chunk-NN/
  sweep.py collect WORKDIR RAWDIR DEST [--keep warned|history]
                                          DEST/verdicts.ndjson (one object per mutant, compared
                                          with the clean control) and DEST/mutants/<mutant>.jsonl
                                          for every mutant whose outcome differs from the clean
                                          base's (history, refusal, a WARN/ERROR line, next
                                          ordinal; --keep history: history or refusal only)
  sweep.py report [--grouped] DEST...     the counts and the table of differing mutants

Mutants. The base's records are enumerated by (record type, payload type); payload type is the
payload's "type" when it has one (event_msg, response_item), else "_" (world_state,
turn_context, token_usage_record, compacted, ...). For the FIRST record of each distinct variant
and each top-level payload field except the tag "type" itself, two mutants:
  removed    the field deleted from the payload
  mistyped   the field given a wrong JSON type: string -> 5, number -> "5", object -> "x",
             array -> "x", bool -> "true" (a string); a null field gets no mistyped mutant
             (null has no type to get wrong; a null-valued field is only removed)
session_meta is skipped (its refusal cases are known: testdata/replay, testdata/broken).
Name: <record_type>.<payload_type>.<field>.<removed|mistyped>; the mutant is the base with
exactly that one line re-serialized (compact JSON, key order kept, non-ASCII kept); every other
byte is identical, so paginated bases keep their ordinals.
"""
from __future__ import annotations

import argparse
import difflib
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_VERDICTS = os.environ.get("VERDICTS_PY", "/work/shared/corpus-gen/verdicts.py")
CODEX_VERSION = "0.171.0"
SKIP_RECORDS = ("session_meta",)


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    # keep the exact bytes: lines[i] has no "\n"; a final "" means the file ended with one
    return lines


def dump(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def wrong_value(v):
    if isinstance(v, bool):
        return "true"
    if isinstance(v, str):
        return 5
    if isinstance(v, (int, float)):
        return "5"
    if isinstance(v, (dict, list)):
        return "x"
    return None            # null: no mistyped mutant


def variants(lines, occurrence="first"):
    """[(record_type, payload_type, line_index, record)]: the first (or last) record of each
    variant, in the order the variants first appear."""
    seen, out, where = set(), [], {}
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(rec, dict):
            continue
        rt = rec.get("type")
        p = rec.get("payload")
        pt = p.get("type") if isinstance(p, dict) and isinstance(p.get("type"), str) else "_"
        key = (rt, pt)
        if key in seen:
            if occurrence == "last":
                out[where[key]] = (rt, pt, i, rec)
            continue
        seen.add(key)
        where[key] = len(out)
        out.append((rt, pt, i, rec))
    return out


def mutants(lines, occurrence="first", only=None, fields=None):
    """[(name, meta, new_lines)] for every mutant, deterministic order. fields: these payload
    fields only (the only way to mutate the tag "type", which is left out otherwise)."""
    out = []
    for rt, pt, i, rec in variants(lines, occurrence):
        if rt in SKIP_RECORDS or not isinstance(rec.get("payload"), dict):
            continue
        if only and rt not in only and "%s.%s" % (rt, pt) not in only:
            continue
        payload = rec["payload"]
        for field in payload:
            if (fields and field not in fields) or (not fields and field == "type"):
                continue
            for how in ("removed", "mistyped"):
                if how == "removed":
                    newp = {k: v for k, v in payload.items() if k != field}
                else:
                    w = wrong_value(payload[field])
                    if w is None:
                        continue
                    newp = {k: (w if k == field else v) for k, v in payload.items()}
                newrec = {k: (newp if k == "payload" else v) for k, v in rec.items()}
                new = list(lines)
                new[i] = dump(newrec)
                name = "%s.%s.%s.%s" % (rt, pt, field, how)
                meta = {"mutant": name, "record_type": rt, "payload_type": pt, "field": field,
                        "mutation": how, "line": i + 1, "ordinal": rec.get("ordinal"),
                        "original_type": type(payload[field]).__name__
                        if payload[field] is not None else "null",
                        "new_value": None if how == "removed" else newp[field]}
                out.append((name, meta, new))
    return out


def cmd_list(a):
    lines = read_lines(a.base)
    for rt, pt, i, rec in variants(lines, a.occurrence):
        p = rec.get("payload")
        print("%-20s %-26s line %-4d fields=%s" % (rt, pt, i + 1,
                                                   ",".join(p) if isinstance(p, dict) else "-"))
    ms = mutants(lines, a.occurrence, a.only, a.fields)
    for name, _, _ in ms:
        print(name)
    print("%d mutants" % len(ms))


def cmd_make(a):
    lines = read_lines(a.base)
    os.makedirs(a.workdir, exist_ok=True)
    man = {"base": os.path.basename(a.base), "occurrence": a.occurrence,
           "only": a.only, "fields": a.fields, "mutants": []}
    d = os.path.join(a.workdir, "clean")
    os.makedirs(d, exist_ok=True)
    shutil.copyfile(a.base, os.path.join(d, "clean.jsonl"))
    for name, meta, new in mutants(lines, a.occurrence, a.only, a.fields):
        d = os.path.join(a.workdir, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name + ".jsonl"), "wb") as f:
            f.write(b"\n".join(new))
        # check: exactly one line differs
        diff = [j for j, (x, y) in enumerate(zip(lines, new)) if x != y]
        assert len(new) == len(lines) and diff == [meta["line"] - 1], name
        man["mutants"].append(meta)
    with open(os.path.join(a.workdir, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(man, f, indent=1, ensure_ascii=False)
    print("%d mutants in %s" % (len(man["mutants"]), a.workdir))


def cmd_ask(a):
    man = json.load(open(os.path.join(a.workdir, "manifest.json"), encoding="utf-8"))
    names = ["clean"] + [m["mutant"] for m in man["mutants"]]
    files = [os.path.join(os.path.abspath(a.workdir), n, n + ".jsonl") for n in names]
    hl = os.path.abspath(a.home_layout)
    os.makedirs(hl, exist_ok=True)
    if os.listdir(hl):
        raise SystemExit("--home-layout %s must be an empty folder" % hl)
    chunks = [files[i:i + a.chunk] for i in range(0, len(files), a.chunk)]
    for k, ch in enumerate(chunks):
        out = os.path.join(os.path.abspath(a.rawdir), "chunk-%02d" % k)
        if a.resume and os.path.exists(os.path.join(out, "index.json")):
            print("chunk %d done already" % k, flush=True)
            continue
        cmd = [sys.executable, a.verdicts, "--files"] + ch + [
            "--key", "dir", "--codex-version", CODEX_VERSION, "--home-layout", hl,
            "--out", out, "--logs", out + "-logs"]
        print("chunk %d/%d: %d files" % (k + 1, len(chunks), len(ch)), flush=True)
        subprocess.run(cmd, cwd=os.path.dirname(os.path.dirname(a.verdicts)), check=False)


TS_RE = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z\s+")
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
# per-run detail left out of the stored WARN lines (the ids, the placed path, byte offsets)
NOISE_RE = re.compile(r" (?:thread_id|rollout_path|line_start_byte_offset|line_end_byte_offset)=\S+")
ITEM_RE = re.compile(r'item_id="([^"]*)"$')
# a shutdown race, not about the mutant: seen in 5 of ~600 runs (compaction base), and not again
# when those 5 mutants were resumed twice more; kept apart as flaky_warn, not counted as a warning
FLAKY_RE = re.compile(r"failed to flush rollout after emitting terminal turn event")


def warn_lines(r):
    att = (r.get("attempts") or [{}])[0]
    out = []
    for ln in att.get("stderr_warnings") or []:
        ln = TS_RE.sub("", ANSI_RE.sub("", ln)).strip()
        ln = NOISE_RE.sub("", ln)
        m = ITEM_RE.search(ln)
        if m and out and ITEM_RE.sub("", out[-1]) == ITEM_RE.sub("", ln):
            # consecutive lines that differ only in item_id: one line, the ids joined
            out[-1] = out[-1][:-1] + "," + m.group(1) + '"'
            continue
        out.append(ln)
    out = [x if len(x) <= 400 else x[:397] + "..." for x in out]
    if r.get("verdict") != "resumed" and not out:
        out.append(TS_RE.sub("", ANSI_RE.sub("", r.get("reason") or "")).strip()[:300])
    return out


def history(r):
    h = r.get("history_slice")
    inp = r.get("first_request_input")
    if not h or not isinstance(inp, list):
        return None
    return [json.dumps(x, sort_keys=True, ensure_ascii=False) for x in inp[h[0]:h[1]]]


def cmd_collect(a):
    man = json.load(open(os.path.join(a.workdir, "manifest.json"), encoding="utf-8"))
    res = {}
    for p in sorted(glob.glob(os.path.join(a.rawdir, "chunk-*", "*.json"))):
        if os.path.basename(p) == "index.json":
            continue
        r = json.load(open(p, encoding="utf-8"))
        res[r["name"]] = r
    clean = res.get("clean")
    if not clean or clean.get("verdict") != "resumed":
        raise SystemExit("no resumed clean control in %s" % a.rawdir)
    ch = history(clean)
    with open(os.path.join(a.workdir, "clean", "clean.jsonl"), encoding="utf-8") as f:
        clean_text = f.read()
    clean_warn = set(warn_lines(clean))
    os.makedirs(a.dest, exist_ok=True)
    mdir = os.path.join(a.dest, "mutants")
    if os.path.isdir(mdir):
        shutil.rmtree(mdir)
    rows, kept = [], 0
    ctl = {"mutant": "clean", "outcome": clean["verdict"], "items": len(ch),
           "warn": sorted(clean_warn), "next_on_resume": nor(clean),
           "history": [describe(x) for x in ch]}
    for m in man["mutants"]:
        r = res.get(m["mutant"])
        row = {k: m[k] for k in ("mutant", "record_type", "payload_type", "field", "mutation")}
        if r is None:
            row.update({"outcome": "not_run"})
            rows.append(row)
            continue
        h = history(r)
        row["outcome"] = r["verdict"]
        row["items"] = len(h) if h is not None else None
        row["same_as_clean"] = h == ch if h is not None else False
        row["dropped"] = []
        if h is not None and h != ch:
            row.update(diff_history(ch, h, m["field"], clean_text))
        allw = warn_lines(r)
        w = [x for x in allw if x not in clean_warn]
        # a warning of the clean control that this mutant did not print (e.g. the legacy
        # bases' "resuming session with different model", gone when turn_context is skipped)
        gone = sorted(x for x in clean_warn if x not in allw)
        flaky = [x for x in w if FLAKY_RE.search(x)]
        w = [x for x in w if not FLAKY_RE.search(x)]
        row["warn"] = w
        if flaky:
            row["flaky_warn"] = flaky
        if gone:
            row["clean_warn_missing"] = gone
        row["next_on_resume"] = nor(r)
        differs = (row["outcome"] != "resumed" or not row["same_as_clean"] or bool(w)
                   or bool(gone) or row["next_on_resume"] != ctl["next_on_resume"])
        row["differs"] = differs
        keep = differs if a.keep == "warned" else (row["outcome"] != "resumed" or
                                                   not row["same_as_clean"])
        if keep:
            os.makedirs(mdir, exist_ok=True)
            shutil.copyfile(os.path.join(a.workdir, m["mutant"], m["mutant"] + ".jsonl"),
                            os.path.join(mdir, m["mutant"] + ".jsonl"))
            kept += 1
        rows.append(row)
    with open(os.path.join(a.dest, "verdicts.ndjson"), "w", encoding="utf-8") as f:
        f.write(json.dumps(dict(ctl, control=True), ensure_ascii=False) + "\n")
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    n = len(rows)
    same = sum(1 for r in rows if r.get("outcome") == "resumed" and r.get("same_as_clean"))
    diff = sum(1 for r in rows if r.get("outcome") == "resumed" and not r.get("same_as_clean"))
    other = {}
    for r in rows:
        if r.get("outcome") != "resumed":
            other[r.get("outcome")] = other.get(r.get("outcome"), 0) + 1
    warned_same = sum(1 for r in rows if r.get("outcome") == "resumed" and r.get("same_as_clean")
                      and (r.get("warn") or r.get("clean_warn_missing")))
    print("%d mutants: resumed same as clean %d (of them with a new WARN/ERROR or a clean one "
          "missing %d), resumed "
          "different %d, other %s; %d kept in mutants/; clean items %d"
          % (n, same, warned_same, diff, other, kept, len(ch)))


def ident(item):
    d = json.loads(item)
    return (d.get("type"), d.get("id") or d.get("call_id")) if isinstance(d, dict) else None


def describe(item, file_text=None):
    """type role=.. id=.. call_id=..; with file_text, an item whose id is not in the file is
    marked synthetic (Codex made it)."""
    d = json.loads(item)
    if not isinstance(d, dict):
        return type(d).__name__
    s = str(d.get("type"))
    for k in ("role", "id", "call_id"):
        if d.get(k):
            s += " %s=%s" % (k, d[k])
    if d.get("output") == "aborted":
        s += ' output="aborted"'
    if file_text is not None and isinstance(d.get("id"), str) and d["id"] not in file_text:
        s += " (synthetic: id not in the file)"
    return s


def diff_history(ch, h, field=None, file_text=None):
    """dropped: clean indices whose item is not sent; changed: [clean, mutant, keys that differ]
    for an item sent altered (same type and id/call_id); added: mutant items with no clean
    counterpart, described."""
    sm = difflib.SequenceMatcher(a=ch, b=h, autojunk=False)
    dropped, added = [], []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag in ("delete", "replace"):
            dropped += list(range(i1, i2))
        if tag in ("insert", "replace"):
            added += list(range(j1, j2))
    changed = []
    for j in list(added):
        for i in dropped:
            a, b = json.loads(ch[i]), json.loads(h[j])
            if not (isinstance(a, dict) and isinstance(b, dict)) or a.get("type") != b.get("type"):
                continue
            keys = sorted(k for k in set(a) | set(b) if a.get(k, KeyError) != b.get(k, KeyError))
            # the same item altered: same type, and the same id/call_id, or only the mutated
            # field differs
            if (ident(ch[i]) == ident(h[j]) and ident(h[j])[1]) or keys == [field]:
                changed.append([i, j, keys])
                dropped.remove(i)
                added.remove(j)
                break
    out = {"dropped": dropped}
    if changed:
        out["changed"] = changed
    if added:
        out["added"] = [[j, describe(h[j], file_text)] for j in added]
    return out


def nor(r):
    n = r.get("next_on_resume") or {}
    return {"file_max_ordinal": n.get("file_max_ordinal"),
            "codex_first_appended": n.get("codex_first_appended")} if n else None


SKIP_ERR_RE = re.compile(r"skipping unknown rollout line during projection .*?error=(.*)$")


def what_codex_did(row, ctl):
    """One cell of the README table, from a verdicts.ndjson row and the control row."""
    if row.get("outcome") != "resumed":
        return "%s: %s" % (row.get("outcome"), "; ".join(row.get("warn") or [])[:200])
    parts, rest = [], []
    for w in row.get("warn") or []:
        m = SKIP_ERR_RE.search(w)
        if m:
            parts.append("line skipped (`%s`)" % m.group(1).replace("`", "'").replace("|", "/")[:90])
        elif "skipping missing rollout ordinal range" in w:
            continue
        elif "dropping turn-scoped item" in w:
            ids = ITEM_RE.search(w)
            rest.append("app-server thread history drops the turn's items (`dropping "
                        "turn-scoped item for unknown turn id`: %s)" % (ids.group(1) if ids else "?"))
        else:
            rest.append("`%s`" % w.replace("`", "'").replace("|", "/")[:120])
    hist = ctl.get("history") or []
    if row.get("same_as_clean"):
        parts.append("history as clean (%d)" % row["items"])
    else:
        d = ["#%d %s" % (i, hist[i] if i < len(hist) else "?") for i in row.get("dropped") or []]
        h = "%d items" % row["items"]
        if d:
            h += "; dropped " + ", ".join(d)
        for i, j, keys in row.get("changed") or []:
            if keys == [row["field"]] and row["mutation"] == "removed":
                h += "; #%d %s sent without `%s`" % (i, hist[i] if i < len(hist) else "", keys[0])
            else:
                h += "; #%d %s sent with `%s` altered" % (i, hist[i] if i < len(hist) else "",
                                                          ",".join(keys))
        for j, desc in row.get("added") or []:
            h += "; added at %d: %s" % (j, desc)
        parts.append(h)
    parts += rest
    for x in row.get("clean_warn_missing") or []:
        parts.append("the clean file's `%s` not printed" % x.replace("`", "'")[:110])
    n, c = row.get("next_on_resume") or {}, ctl.get("next_on_resume") or {}
    if n.get("codex_first_appended") != c.get("codex_first_appended"):
        parts.append("appended from ordinal %s (file max %s: reused)" % (
            n.get("codex_first_appended"), n.get("file_max_ordinal")))
    return "; ".join(parts)


def cmd_report(a):
    for dest in a.dests:
        rows = [json.loads(l) for l in open(os.path.join(dest, "verdicts.ndjson"), encoding="utf-8")]
        ctl, rows = rows[0], rows[1:]
        res = [r for r in rows if r.get("outcome") == "resumed"]
        same = [r for r in res if r.get("same_as_clean")]
        print("### %s\n" % os.path.basename(os.path.normpath(dest)))
        print("mutants %d; resumed with the clean history %d (%d of them with a new WARN/ERROR "
              "or a clean one missing); resumed with another history %d; refused %d; other %d; "
              "clean control: %d items\n"
              % (len(rows), len(same),
                 sum(1 for r in same if r.get("warn") or r.get("clean_warn_missing")),
                 len(res) - len(same), sum(1 for r in rows if r.get("outcome") == "refused"),
                 sum(1 for r in rows if r.get("outcome") not in ("resumed", "refused")),
                 ctl["items"]))
        diff = [r for r in rows if r.get("differs") or r.get("outcome") != "resumed"]
        if not a.grouped:
            print("| variant | field | mutation | what Codex 0.171 did |")
            print("|---|---|---|---|")
            for r in diff:
                print("| %s.%s | %s | %s | %s |" % (r["record_type"], r["payload_type"], r["field"],
                                                   r["mutation"], what_codex_did(r, ctl)))
            print()
            continue
        # grouped: one row per variant and effect; every differing mutant is named in it
        groups = []
        for r in diff:
            text = what_codex_did(r, ctl)
            m = re.match(r"line skipped \(`(.*?)`\); (.*)$", text)
            err, effect = (m.group(1), "line skipped; " + m.group(2)) if m else (None, text)
            variant = "%s.%s" % (r["record_type"], r["payload_type"])
            name = "`%s` %s" % (r["field"], r["mutation"])
            if err and not re.match(r"(missing field|invalid type)", err):
                name += " (`%s`)" % err
            if groups and groups[-1][0] == variant and groups[-1][1] == effect:
                groups[-1][2].append(name)
            else:
                groups.append([variant, effect, [name]])
        print("| variant | field, mutation | what Codex 0.171 did |")
        print("|---|---|---|")
        for variant, effect, names in groups:
            print("| %s | %s | %s |" % (variant, ", ".join(names), effect))
        print()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name, fn in (("list", cmd_list), ("make", cmd_make)):
        p = sub.add_parser(name)
        p.add_argument("base")
        if name == "make":
            p.add_argument("workdir")
        p.add_argument("--occurrence", choices=("first", "last"), default="first",
                       help="mutate the first (default) or the last record of each variant")
        p.add_argument("--only", type=lambda x: x.split(","), default=None,
                       help="these record types or record_type.payload_type only")
        p.add_argument("--fields", type=lambda x: x.split(","), default=None,
                       help="these payload fields only; 'type' (the tag) only when named here")
        p.set_defaults(fn=fn)
    p = sub.add_parser("ask")
    p.add_argument("workdir")
    p.add_argument("rawdir")
    p.add_argument("--verdicts", default=DEFAULT_VERDICTS)
    p.add_argument("--chunk", type=int, default=40)
    p.add_argument("--home-layout", required=True, help="an empty folder")
    p.add_argument("--resume", action="store_true", help="skip chunks already answered")
    p.set_defaults(fn=cmd_ask)
    p = sub.add_parser("collect")
    p.add_argument("workdir")
    p.add_argument("rawdir")
    p.add_argument("dest")
    p.add_argument("--keep", choices=("warned", "history"), default="warned",
                   help="which mutant files go to DEST/mutants/: every mutant that differs from "
                        "the clean base in outcome, history, WARN/ERROR lines or next ordinal "
                        "(warned, the default), or only those not resumed with the clean "
                        "history (history)")
    p.set_defaults(fn=cmd_collect)
    p = sub.add_parser("report", help="counts and the table of differing mutants (markdown)")
    p.add_argument("dests", nargs="+")
    p.add_argument("--grouped", action="store_true",
                   help="one row per variant and effect (the mutants named in it)")
    p.set_defaults(fn=cmd_report)
    a = ap.parse_args(argv)
    a.fn(a)


if __name__ == "__main__":
    main()
