#!/usr/bin/env bash
# The repaired copies the real Codex is asked about (issue #28, acceptance 2):
#
#   bash testdata/repair/make.sh OUT            # OUT/orig/<case>/<file>, OUT/fixed/<case>/<file>
#
# For every fixture of testdata/ with a fixable finding (a lint fixture's `fires` holding one
# file, and each testdata/broken/*.jsonl), the original and `repair --unsafe-fixes -o` of it.
# Then, from ../shared/corpus-gen (one at a time: the scripts take a lock):
#
#   python3 verdicts.py --files OUT/orig/*/* --key dir --codex-version 0.171.0 --out OUT/v-orig
#   python3 verdicts.py --files OUT/fixed/*/* --key dir --codex-version 0.171.0 --out OUT/v-fixed
#   python3 testdata/repair/collect.py OUT 0.171.0
#
# collect.py writes testdata/repair/verdicts/<case>.json, which tests/cli/repair.rs reads.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: make.sh OUT}
cargo build -q
B=$PWD/target/debug/rollscope
rm -rf "$OUT/orig" "$OUT/fixed"
mkdir -p "$OUT/orig" "$OUT/fixed"
for d in testdata/lint/*/fires testdata/broken/*.jsonl; do
    if [ -d "$d" ]; then
        [ "$(ls "$d" | wc -l)" = 1 ] || continue
        f="$d/$(ls "$d")"
        case=$(basename "$(dirname "$d")")
    else
        f=$d
        case=broken-$(basename "$d" .jsonl)
    fi
    applied=$("$B" repair --unsafe-fixes --format ndjson -q "$f" 2>/dev/null | grep -c '"applied":true' || true)
    [ "$applied" = 0 ] && continue
    mkdir -p "$OUT/orig/$case" "$OUT/fixed/$case"
    cp "$f" "$OUT/orig/$case/"
    printf '%s\n' "$f" > "$OUT/orig/$case.source"
    "$B" repair --unsafe-fixes -q "$f" -o "$OUT/fixed/$case/$(basename "$f")" >/dev/null 2>&1 || true
    echo "$case"
done
