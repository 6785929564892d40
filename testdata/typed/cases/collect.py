#!/usr/bin/env python3
"""Stores what verdicts.py recorded for the fixtures here, reduced to what the tests read:

    python3 testdata/typed/cases/collect.py RAWDIR VERSION

RAWDIR is verdicts.py's --out (files mode, --key dir: one <case>.json per fixture folder).
Writes <case>/verdicts/<VERSION>.json: fixture, codex_version, outcome, reason, history (the
items Codex sent, input[lo:hi] of its first request), next_on_resume, stderr_tail. A data URL
longer than 1 KiB in the history is replaced by its head and an `image` object beside it:
media_type, width, height, bytes and sha256 of the decoded bytes (the PNG/JPEG header says the
size), so a 3 MB resized image is checked without being kept; any other string over 64 KiB is kept as
its length and SHA-256.
"""
import base64, hashlib, json, os, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def size(raw):
    if raw[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", raw[16:24])
    if raw[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(raw) and raw[i] == 0xFF:
            m = raw[i + 1]
            n = struct.unpack(">H", raw[i + 2:i + 4])[0]
            if m in (0xC0, 0xC1, 0xC2):
                h, w = struct.unpack(">HH", raw[i + 5:i + 9])
                return w, h
            i += 2 + n
    return None


def reduce_images(v):
    if isinstance(v, str) and len(v) > 65536:
        return "<%d chars, sha256 %s>" % (len(v), hashlib.sha256(v.encode()).hexdigest())
    if isinstance(v, list):
        return [reduce_images(x) for x in v]
    if not isinstance(v, dict):
        return v
    out = {}
    for k, x in v.items():
        if k == "image_url" and isinstance(x, str) and x.startswith("data:") and len(x) > 1024:
            head, b64 = x.split(",", 1)
            raw = base64.b64decode(b64)
            wh = size(raw)
            out[k] = head + ",…"
            out["image"] = {"media_type": head[5:].split(";")[0],
                            "width": wh[0] if wh else None, "height": wh[1] if wh else None,
                            "bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
        else:
            out[k] = reduce_images(x)
    return out


def main():
    raw_dir, version = sys.argv[1], sys.argv[2]
    for name in sorted(os.listdir(raw_dir)):
        if not name.endswith(".json") or name == "index.json":
            continue
        case = name[:-5]
        d = json.load(open(os.path.join(raw_dir, name)))
        lo, hi = d.get("history_slice") or (0, 0)
        history = (d.get("first_request_input") or [])[lo:hi]
        os.makedirs(os.path.join(HERE, case), exist_ok=True)
        made = [f for f in os.listdir(os.path.join(HERE, case)) if f.endswith(".jsonl")]
        # A fixture too large to keep is made by the test that reads the verdict.
        fixture = made[0] if made else "(made by tests/cli/typed.rs)"
        out = {"fixture": "%s/%s" % (case, fixture), "codex_version": version,
               "outcome": d.get("verdict"), "reason": d.get("reason"),
               "history": reduce_images(history), "next_on_resume": d.get("next_on_resume"),
               "stderr_tail": d.get("stderr_tail")}
        os.makedirs(os.path.join(HERE, case, "verdicts"), exist_ok=True)
        with open(os.path.join(HERE, case, "verdicts", version + ".json"), "w") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(case, version, out["outcome"], len(history))


if __name__ == "__main__":
    main()
