#!/usr/bin/env bash
# Fill the fuzz corpora from testdata/: every line for `scanner`, every file (behind the
# five bytes that choose a line limit and a read schedule) for `decoder`. `commands` starts
# from nothing: its input is a structure, not a file. Then run, for example:
#   cargo +nightly fuzz run scanner -- -max_total_time=1200 -max_len=16384
# (see docs/robustness.md for the commands and options used).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/scanner corpus/decoder corpus/commands
python3 - <<'PY'
import glob, hashlib, os
for f in sorted(glob.glob("../testdata/**/*.jsonl", recursive=True)):
    data = open(f, "rb").read()
    for head in (b"\0\0\0\1\2", b"\1\2\7\0\xfa"):
        entry = head + data
        open("corpus/decoder/" + hashlib.sha1(entry).hexdigest(), "wb").write(entry)
    for line in data.split(b"\n"):
        if line and len(line) <= 16384:
            open("corpus/scanner/" + hashlib.sha1(line).hexdigest(), "wb").write(line)
PY
echo "scanner: $(ls corpus/scanner | wc -l) inputs; decoder: $(ls corpus/decoder | wc -l)"
