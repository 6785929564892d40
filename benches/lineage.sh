#!/usr/bin/env bash
# Lineage at scale (issue #33): every lineage reader beside `stats` on the three shapes of
# `gen-corpus --lineage` (examples/gen-corpus.rs), in rounds (each round runs each command
# once), medians of --runs rounds after one warm-up, with the peak RSS of the worst run
# (GNU time). The shapes: a fan-out (one paginated parent of --parent-mb MB, --forks forks
# of the whole of it, a chain of --chain forks below the first fork), a chain of --depth
# forks, each of the whole of the one before, and a spawn (the same parent, --spawn-forks
# forks of it at cutoffs spread over it, as sub-agents fork their parent).
#
#   bash benches/lineage.sh [--runs 3] [--depth 10000] [--parent-mb 200] [--forks 50]
#                           [--chain 20] [--spawn-forks 20] [--bin PATH]
#                           [--out bench-out/lineage]
#
# Each ratio is the median of the rounds' own ratios (a command's time over `stats`' in the
# same round), the lowest and highest in brackets: a chain's `stats` takes 20 ms, and the
# machine's drift between rounds moved a ratio of medians by a third.
#
# It builds the release binary (unless --bin) and the generator, and makes the three homes
# in OUT/fanout, OUT/chain-DEPTH and OUT/spawn unless they were made with the same numbers
# by the same generator (OUT/*/.args: the arguments and a checksum of
# examples/gen-corpus.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=3
BIN=""
OUT=bench-out/lineage
DEPTH=10000
PARENT_MB=200
FORKS=50
CHAIN=20
SPAWN_FORKS=20
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --depth) DEPTH=$2; shift 2 ;;
        --parent-mb) PARENT_MB=$2; shift 2 ;;
        --forks) FORKS=$2; shift 2 ;;
        --chain) CHAIN=$2; shift 2 ;;
        --spawn-forks) SPAWN_FORKS=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
if [ -z "$BIN" ]; then
    cargo build --release --locked --quiet --bin rollscope --example gen-corpus
    BIN=$TARGET/release/rollscope
else
    cargo build --release --locked --quiet --example gen-corpus
fi
GEN=$TARGET/release/examples/gen-corpus
mkdir -p "$OUT"

gen() { # gen DIR ARGS...: generate unless DIR was made with these args by this generator
    local dir=$1; shift
    local want
    want="$* $(cksum < "$ROOT/examples/gen-corpus.rs" | cut -d' ' -f1)"
    if [ "$(cat "$dir/.args" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    echo "lineage.sh: generating $dir ($want)" >&2
    rm -f "$dir/.args"
    "$GEN" --out "$dir" --force --quiet "$@"
    echo "$want" > "$dir/.args"
}
gen "$OUT/fanout" --lineage fanout --parent-mb "$PARENT_MB" --forks "$FORKS" --chain "$CHAIN"
gen "$OUT/chain-$DEPTH" --lineage chain --depth "$DEPTH"
gen "$OUT/spawn" --lineage spawn --parent-mb "$PARENT_MB" --forks "$SPAWN_FORKS"
COMMANDS=("stats" "check-ordinal" "lint" "replay --view state")
for tree in fanout "chain-$DEPTH" spawn; do
    home="$OUT/$tree"
    declare -A times=() peak=()
    for round in $(seq 0 "$RUNS"); do
        for c in "${COMMANDS[@]}"; do
            # Wall time from the shell's clock in microseconds (GNU time's is in 10 ms,
            # coarser than a chain's `stats`), peak RSS from GNU time.
            t0=$EPOCHREALTIME
            CODEX_HOME="$home" /usr/bin/time -o "$OUT/time" -f "%M" "$BIN" $c --format ndjson -q "$home" >/dev/null 2>&1 || true
            t1=$EPOCHREALTIME
            [ "$round" -eq 0 ] && continue
            times[$c]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }') "
            p=$(tail -1 "$OUT/time")
            [ "${peak[$c]:-0}" -lt "$p" ] && peak[$c]=$p
        done
    done
    median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
    read -r -a stats_times <<< "${times[stats]}"
    echo "== $tree ($(du -sh "$home" | cut -f1), $(find "$home" -name '*.jsonl' | wc -l) files)"
    for c in "${COMMANDS[@]}"; do
        read -r -a own <<< "${times[$c]}"
        m=$(echo "${own[*]}" | median)
        # The rounds' ratios, each against the same round's `stats`.
        ratios=""
        for i in "${!own[@]}"; do
            ratios+="$(awk -v a="${own[$i]}" -v b="${stats_times[$i]}" 'BEGIN { if (b > 0) printf "%.3f", a / b }') "
        done
        ratio=$(echo "$ratios" | median)
        spread=$(echo "$ratios" | tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}')
        # Issue #33's targets: within 2x `stats` on the same tree, peak RSS at most 128 MB.
        verdict=""
        if [ "$c" != stats ]; then
            verdict=$(awk -v r="$ratio" -v p="${peak[$c]}" 'BEGIN {
                printf "(<= 2x: %s; <= 128 MB: %s)", (r <= 2 ? "met" : "missed"), (p <= 128000 ? "met" : "missed") }')
        fi
        printf '%-22s median %7.3f s  %5.2f× stats (%s)  peak %6d KB  %s\n' "$c" "$m" "$ratio" "$spread" "${peak[$c]}" "$verdict"
    done
    unset times peak
done
