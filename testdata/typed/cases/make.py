#!/usr/bin/env python3
"""Makes the one-defect fixtures of issue 27's cases (see README.md here): each is a real
rollout of ../../real/ with exactly one line changed (re-serialized compactly, key order and
non-ASCII kept; every other byte identical, so a paginated file keeps its ordinals).

    python3 testdata/typed/cases/make.py            # from the repository root; rewrites the fixtures

Deterministic (Python 3 stdlib only): the images are drawn here (PNG, filter Sub, zlib level 9)
or read from images/ beside this script (the JPEG: see README.md).
"""
import base64, json, os, shutil, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "..", "..", "real")
SHELL171 = "0.171.0/shell/sessions/2026/11/29/rollout-2026-11-29T12-00-30-01a2272d-9d87-7932-b6ae-b428ac561278.jsonl"
SHELL147 = "0.147.0/shell/sessions/2026/11/29/rollout-2026-11-29T12-02-13-01a2272f-3017-77a3-b67a-87a70a36353e.jsonl"


def png(w, h):
    """A w×h RGB gradient PNG (every pixel distinct enough that a resize is visible)."""
    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = bytearray()
    for y in range(h):
        rows.append(1)  # filter Sub: each byte minus the one 3 to its left
        prev = (0, 0, 0)
        for x in range(w):
            px = (x * 255 // max(w - 1, 1), y * 255 // max(h - 1, 1), (x + y) % 256)
            rows.extend((px[i] - prev[i]) % 256 for i in range(3))
            prev = px
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def data_url(mime, raw):
    return "data:%s;base64,%s" % (mime, base64.b64encode(raw).decode())


def dump(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def edit(base, line, change):
    """The base's bytes with line `line` (1-based) replaced by change(record)."""
    with open(os.path.join(REAL, base), "rb") as f:
        lines = f.read().split(b"\n")
    rec = json.loads(lines[line - 1])
    change(rec)
    lines[line - 1] = dump(rec)
    return b"\n".join(lines)


def set_type(t):
    def change(rec):
        rec["payload"]["type"] = t
    return change


def add_image(url, detail=None):
    """The user message gets an input_image after its text."""
    def change(rec):
        img = {"type": "input_image", "image_url": url}
        if detail is not None:
            img["detail"] = detail
        rec["payload"]["content"].append(img)
    return change


def output_image(url):
    """A function output becomes content items: its text, then an image."""
    def change(rec):
        text = rec["payload"]["output"]
        rec["payload"]["output"] = [{"type": "input_text", "text": text},
                                    {"type": "input_image", "image_url": url}]
    return change


def remove(field):
    def change(rec):
        del rec["payload"][field]
    return change


def set_field(field, value):
    def change(rec):
        rec["payload"][field] = value
    return change


def jpeg():
    with open(os.path.join(HERE, "images", "gradient-2200x2000.jpg"), "rb") as f:
        return f.read()


# case: (base, line, change, what)
CASES = {
    "unknown-type": (SHELL171, 42, set_type("frobnicate"),
                     "line 42, the last assistant message: type `message` → `frobnicate`"),
    "unknown-type-legacy": (SHELL147, None, set_type("frobnicate"),
                            "the last assistant message: type `message` → `frobnicate`"),
    "tag-index-0": (SHELL171, 3, set_type(0), "line 3, the developer message: type → 0"),
    "tag-index-7": (SHELL171, 19, set_type(7), "line 19, a function_call_output: type → 7"),
    "tag-index-99": (SHELL171, 42, set_type(99), "line 42, the last assistant message: type → 99"),
    "function-call-no-arguments": (SHELL147, ("response_item", "function_call"), remove("arguments"),
                                   "the first function_call: `arguments` removed"),
    "turn-context-model-mistyped": (SHELL147, ("turn_context", "_"), set_field("model", 5),
                                    "the first turn_context: `model` → 5"),
    "additional-tools": (SHELL171, 42, lambda r: r.update(payload={"type": "additional_tools", "tools": []}),
                         "line 42, the last assistant message: payload → `{type: additional_tools, tools: []}`"),
    "image-3840x2160": (SHELL171, 8, lambda r: add_image(data_url("image/png", png(3840, 2160)))(r),
                        "line 8, the user message: + a 3840×2160 PNG"),
    "image-2200x2000": (SHELL171, 8, lambda r: add_image(data_url("image/png", png(2200, 2000)))(r),
                        "line 8, the user message: + a 2200×2000 PNG"),
    "image-2048x1024": (SHELL171, 8, lambda r: add_image(data_url("image/png", png(2048, 1024)))(r),
                        "line 8, the user message: + a 2048×1024 PNG (2048 patches: within the limits)"),
    "image-jpeg-2200x2000": (SHELL171, 8, lambda r: add_image(data_url("image/jpeg", jpeg()))(r),
                             "line 8, the user message: + a 2200×2000 JPEG"),
    "image-undecodable": (SHELL171, 8,
                          add_image(data_url("image/png", b"\x89PNG\r\n\x1a\n" + b"not an image" * 4)),
                          "line 8, the user message: + a PNG data URL whose bytes are not an image"),
    "image-remote": (SHELL171, 8, add_image("https://example.com/cat.png"),
                     "line 8, the user message: + an https image URL"),
    "image-detail-low": (SHELL171, 8, lambda r: add_image(data_url("image/png", png(64, 32)), "low")(r),
                         "line 8, the user message: + a 64×32 PNG with detail `low`"),
    "image-tool-output": (SHELL171, 19, lambda r: output_image(data_url("image/png", png(3840, 2160)))(r),
                          "line 19, a function_call_output: its text + a 3840×2160 PNG"),
}


def last_assistant(base):
    with open(os.path.join(REAL, base), "rb") as f:
        lines = f.read().split(b"\n")
    found = None
    for i, raw in enumerate(lines):
        if raw.strip():
            r = json.loads(raw)
            p = r.get("payload")
            if r.get("type") == "response_item" and isinstance(p, dict) and p.get("role") == "assistant":
                found = i + 1
    return found


def first(base, rt, pt):
    with open(os.path.join(REAL, base), "rb") as f:
        lines = f.read().split(b"\n")
    for i, raw in enumerate(lines):
        if raw.strip():
            r = json.loads(raw)
            p = r.get("payload")
            t = p.get("type", "_") if isinstance(p, dict) else "_"
            if r.get("type") == rt and t == pt:
                return i + 1


def main():
    for case, (base, line, change, what) in CASES.items():
        if isinstance(line, tuple):
            line = first(base, *line)
        line = line or last_assistant(base)
        out = os.path.join(HERE, case)
        if os.path.isdir(out):
            for f in os.listdir(out):
                if f.endswith(".jsonl"):
                    os.remove(os.path.join(out, f))
        os.makedirs(out, exist_ok=True)
        data = edit(base, line, change)
        with open(os.path.join(out, os.path.basename(base)), "wb") as f:
            f.write(data)
        print("%-22s line %-3d %s (%d bytes)" % (case, line, what, len(data)))


if __name__ == "__main__":
    main()
