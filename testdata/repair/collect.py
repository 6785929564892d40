#!/usr/bin/env python3
"""What the real Codex made of each original and its repaired copy, kept as a fixture:

    python3 testdata/repair/collect.py OUT VERSION

OUT is make.sh's folder, with verdicts.py's results in OUT/v-orig and OUT/v-fixed. Writes
testdata/repair/verdicts/<case>.json: the fixture repaired, the sha256 of the repaired bytes
Codex judged, each side's outcome, reason and history (the items Codex sent: input[lo:hi] of
its first request, each item kept as its sha256 and type), and which items the repaired
copy's history lacks or adds.
"""
import hashlib, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def history(d):
    lo, hi = d.get("history_slice") or (0, 0)
    return (d.get("first_request_input") or [])[lo:hi]


def digest(item):
    return hashlib.sha256(json.dumps(item, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def side(d):
    h = history(d)
    return {"outcome": d.get("verdict"), "reason": d.get("reason"),
            "history": [{"type": i.get("type"), "sha256": digest(i)} for i in h]}


def main():
    out_dir, version = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(HERE, "verdicts"), exist_ok=True)
    for name in sorted(os.listdir(os.path.join(out_dir, "v-orig"))):
        if not name.endswith(".json") or name == "index.json":
            continue
        case = name[:-5]
        a = json.load(open(os.path.join(out_dir, "v-orig", name)))
        b = json.load(open(os.path.join(out_dir, "v-fixed", name)))
        fixed_dir = os.path.join(out_dir, "fixed", case)
        fixed = os.path.join(fixed_dir, os.listdir(fixed_dir)[0])
        source = open(os.path.join(out_dir, "orig", case + ".source")).read().strip()
        before, after = side(a), side(b)
        da = [i["sha256"] for i in before["history"]]
        db = [i["sha256"] for i in after["history"]]
        rec = {"case": case, "fixture": source, "repair": ["--unsafe-fixes"],
               "codex_version": version,
               "repaired_sha256": hashlib.sha256(open(fixed, "rb").read()).hexdigest(),
               "original": before, "repaired": after,
               "history_equal": da == db,
               "only_in_original": [i for i, h in enumerate(da) if h not in db],
               "only_in_repaired": [i for i, h in enumerate(db) if h not in da]}
        with open(os.path.join(HERE, "verdicts", case + ".json"), "w") as f:
            json.dump(rec, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(case, before["outcome"], "->", after["outcome"], "same" if rec["history_equal"] else "differs")


if __name__ == "__main__":
    main()
