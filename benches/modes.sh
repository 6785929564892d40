#!/usr/bin/env bash
# How the machine's state moves the `stats` / ccusage, `calls` / `stats` and `-j` ratios
# (docs/performance.md, "The machine"). On a VM that hands free memory back to its host, a
# process pays more for memory that nobody touched in the last few seconds, and how much
# depends on what ran just before. This times `rollscope stats` (default `-j`, `-j 1`,
# `-j 4`), `rollscope calls` and `ccusage codex daily --json --offline` (when installed) on
# the bench tree in three protocols, --runs times each. Beside them, `halves`: two
# `stats -j 1` processes at once, each on half the files (alternated by size), the most two
# cores of the machine give in that state with nothing shared; `-j1/halves` is the speedup
# the default `-j` could at best reach:
#
#   rounds   one run of each in turn, as benches/run.sh times them;
#   idle     every run after --idle seconds of nothing (a tool run once, as a user or a
#            CI job runs it);
#   repeat   each tool's runs back to back (each run reuses the memory and the cache its
#            own previous run just left).
#
# It prints the median wall and system time of each tool in each protocol, and the ratios.
# Run benches/run.sh first: it builds the binary, generates the tree and installs ccusage.
#
#   bash benches/modes.sh [--runs N] [--idle SECONDS] [--out DIR] [--size SIZE]
#   (ROLLSCOPE=path/to/binary times another build than target/release/rollscope)
set -euo pipefail

cd "$(dirname "$0")/.."

RUNS=5
IDLE=6
OUT=bench-out
SIZE=1GB
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift 2 ;;
        --idle) IDLE=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --size) SIZE=$2; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "modes.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

TREE=$OUT/corpus-$SIZE
BIN=${ROLLSCOPE:-target/release/rollscope}
CCUSAGE=$OUT/tools/ccusage/node_modules/@ccusage/ccusage-linux-x64/bin/ccusage
for need in "$TREE" "$BIN" /usr/bin/time; do
    if [ ! -e "$need" ]; then
        echo "modes.sh: $need is missing; run bash benches/run.sh first" >&2
        exit 2
    fi
done

# One timed run of a tool: appends "wall sys" to the file named after tool and protocol.
run() {
    local tool=$1 protocol=$2
    local log=$OUT/modes-$protocol-$tool.txt
    case "$tool" in
        stats | calls) /usr/bin/time -f "%e %S" -a -o "$log" "$BIN" "$tool" --format ndjson -q "$TREE" >/dev/null ;;
        halves) /usr/bin/time -f "%e %S" -a -o "$log" bash -c '
            xargs -0 -a "$1" "$3" stats -j 1 --format ndjson -q >/dev/null &
            xargs -0 -a "$2" "$3" stats -j 1 --format ndjson -q >/dev/null
            wait' halves "$OUT/halves-1" "$OUT/halves-2" "$BIN" ;;
        stats-j*) /usr/bin/time -f "%e %S" -a -o "$log" "$BIN" stats -j "${tool#stats-j}" --format ndjson -q "$TREE" >/dev/null ;;
        ccusage) CODEX_HOME=$TREE /usr/bin/time -f "%e %S" -a -o "$log" "$CCUSAGE" codex daily --json --offline >/dev/null ;;
    esac
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

rm -f "$OUT"/modes-*.txt
# The tree's rollouts by size, largest first, dealt to two halves in turn.
find "$TREE" -type f \( -name '*.jsonl' -o -name '*.jsonl.zst' \) -printf '%s %p\0' |
    sort -z -rn | awk -v RS='\0' -v ORS='\0' -v a="$OUT/halves-1" -v b="$OUT/halves-2" '
        { sub(/^[0-9]+ /, ""); if (NR % 2) print > a; else print > b }'
TOOLS=(stats stats-j1 stats-j4 halves calls)
if [ -e "$CCUSAGE" ]; then
    TOOLS+=(ccusage)
else
    echo "modes.sh: ccusage is not installed (benches/run.sh installs it): its column is left out" >&2
fi
# Warm the page cache and the binaries.
for tool in "${TOOLS[@]}"; do
    run "$tool" warmup
done

for _ in $(seq "$RUNS"); do
    for tool in "${TOOLS[@]}"; do
        run "$tool" rounds
    done
done
for _ in $(seq "$RUNS"); do
    for tool in "${TOOLS[@]}"; do
        sleep "$IDLE"
        run "$tool" idle
    done
done
for tool in "${TOOLS[@]}"; do
    run "$tool" warmup
    for _ in $(seq "$RUNS"); do
        run "$tool" repeat
    done
done

field() { [ -e "$OUT/modes-$2-$3.txt" ] && cut -d' ' -f"$1" "$OUT/modes-$2-$3.txt" | median || echo -; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
cell() { echo "$(field 1 "$1" "$2") ($(field 2 "$1" "$2"))"; }
printf '%-8s %-13s %-13s %-13s %-13s %-13s %-13s %-8s %-10s %-8s %-7s %s\n' protocol "stats" \
    "stats -j 1" "stats -j 4" "halves" "calls" "ccusage" "-j1/def" "-j1/halves" "-j4/def" \
    "st/ccu" "calls/st"
for protocol in rounds idle repeat; do
    sw=$(field 1 "$protocol" stats)
    j1=$(field 1 "$protocol" stats-j1)
    printf '%-8s %-13s %-13s %-13s %-13s %-13s %-13s %-8s %-10s %-8s %-7s %s\n' "$protocol" \
        "$(cell "$protocol" stats)" "$(cell "$protocol" stats-j1)" "$(cell "$protocol" stats-j4)" \
        "$(cell "$protocol" halves)" "$(cell "$protocol" calls)" "$(cell "$protocol" ccusage)" \
        "$(ratio "$j1" "$sw")" "$(ratio "$j1" "$(field 1 "$protocol" halves)")" \
        "$(ratio "$(field 1 "$protocol" stats-j4)" "$sw")" \
        "$(ratio "$sw" "$(field 1 "$protocol" ccusage)")" "$(ratio "$(field 1 "$protocol" calls)" "$sw")"
done
