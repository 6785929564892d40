#!/usr/bin/env bash
# Lineage at scale (issue #33): every lineage reader beside `stats` on the two shapes of
# benches/lineage-trees.py, in rounds (each round runs each command once), medians of
# --runs rounds after one warm-up, with the peak RSS of the worst run (GNU time).
#
#   bash benches/lineage.sh [--runs 3] [--depth 2000] [--bin PATH] [--out bench-out/lineage]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=3
BIN=""
OUT=bench-out/lineage
DEPTH=2000
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --depth) DEPTH=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "$BIN" ]; then
    cargo build --release --locked -q
    BIN=target/release/rollscope
fi
mkdir -p "$OUT"
[ -d "$OUT/fanout" ] || python3 benches/lineage-trees.py fanout "$OUT/fanout"
[ -d "$OUT/chain-$DEPTH" ] || python3 benches/lineage-trees.py chain "$OUT/chain-$DEPTH" --depth "$DEPTH"
COMMANDS=("stats" "check-ordinal" "lint" "replay --view state")
for tree in fanout "chain-$DEPTH"; do
    home="$OUT/$tree"
    declare -A times=() peak=()
    for round in $(seq 0 "$RUNS"); do
        for c in "${COMMANDS[@]}"; do
            CODEX_HOME="$home" /usr/bin/time -o "$OUT/time" -f "%e %M" "$BIN" $c --format ndjson -q "$home" >/dev/null 2>&1 || true
            line=$(tail -1 "$OUT/time")
            [ "$round" -eq 0 ] && continue
            times[$c]+="${line% *} "
            p=${line#* }
            [ "${peak[$c]:-0}" -lt "$p" ] && peak[$c]=$p
        done
    done
    stats_median=$(echo ${times[stats]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "== $tree ($(du -sh "$home" | cut -f1), $(find "$home" -name '*.jsonl' | wc -l) files)"
    for c in "${COMMANDS[@]}"; do
        m=$(echo ${times[$c]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        ratio=$(awk -v a="$m" -v b="$stats_median" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
        printf '%-22s median %6.2f s  %5s× stats  peak %6d KB\n' "$c" "$m" "$ratio" "${peak[$c]}"
    done
    unset times peak
done
