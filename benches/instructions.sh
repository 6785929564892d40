#!/usr/bin/env bash
# Instruction counts of rollscope subcommands on a slice of the bench tree, with valgrind's
# callgrind: unlike wall time, they do not swing with the machine's load, so a change of a
# few percent can be seen at once. Kernel time (the page-cache copy every command pays
# alike) is not counted, so a ratio here is a little above the wall-time ratio.
#
#   bash benches/instructions.sh                       # stats and lint, -j 1
#   bash benches/instructions.sh stats lint turns      # any subcommands
#   SLICE="sessions/2025/07 sessions/2025/10" bash benches/instructions.sh
#
# It needs bench-out/corpus-1GB (made by benches/run.sh) and valgrind; without either it
# says so and exits 0. The default slice is two months of the tree (about 70 MB).
set -euo pipefail

cd "$(dirname "$0")/.."
TREE=bench-out/corpus-1GB
SLICE=${SLICE:-"sessions/2025/07 sessions/2025/10"}
COMMANDS=("$@")
[ ${#COMMANDS[@]} -eq 0 ] && COMMANDS=(stats lint)

if ! command -v valgrind >/dev/null 2>&1; then
    echo "instructions.sh: valgrind is not installed; skipped" >&2
    exit 0
fi
if [ ! -d "$TREE" ]; then
    echo "instructions.sh: $TREE is missing (bash benches/run.sh makes it); skipped" >&2
    exit 0
fi
cargo build --release -q
BIN=target/release/rollscope
INPUTS=()
for s in $SLICE; do INPUTS+=("$TREE/$s"); done

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
first=""
for c in "${COMMANDS[@]}"; do
    valgrind --tool=callgrind --cache-sim=no --callgrind-out-file="$OUT/$c.out" \
        "$BIN" "$c" --format ndjson -q -j 1 "${INPUTS[@]}" >/dev/null 2>"$OUT/$c.err" || true
    n=$(grep -o 'Collected : [0-9]*' "$OUT/$c.err" | awk '{print $3}')
    if [ -z "$first" ]; then first=$n; fi
    awk -v c="$c" -v n="$n" -v f="$first" \
        'BEGIN { printf "%-14s %8.1f M instructions  %5.2f x %s\n", c, n / 1e6, n / f, "'"${COMMANDS[0]}"'" }'
done
