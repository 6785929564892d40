#!/usr/bin/env bash
# Times every read mode of read-modes on the 1 GB bench tree and on the single 500 MB
# rollout, on 1 and 2 threads, page cache warm. Each round runs every configuration once,
# in an order rotated by one slot per round, so that no configuration always follows the
# same one; summarize.py prints the medians over the rounds.
#
#   bash benches/read-modes/run.sh [ROUNDS]        (default 11)
#   CORPUS=dir SINGLE=file override the inputs (read in place, never written)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${1:-11}
# The trees benches/run.sh generates, at the checkout's root.
root=$(cd "$here/../.." && pwd)
CORPUS=${CORPUS:-$root/bench-out/corpus-1GB}
SINGLE=${SINGLE:-$(find "$root/bench-out/single-500MB" -name '*.jsonl' | sort | head -n 1)}
MODES=(read mmap populate mmap-seq hybrid-1m hybrid-16m)
THREADS=(1 2)

cargo build --release --quiet --manifest-path "$here/Cargo.toml"
bin=$here/target/release/read-modes
mkdir -p "$here/target/results"
out=$here/target/results/runs-$(date +%Y%m%dT%H%M%S).tsv

configs=()
for data in corpus single; do
    for m in "${MODES[@]}"; do
        for t in "${THREADS[@]}"; do configs+=("$data $m $t"); done
    done
done
n=${#configs[@]}

# Time the hypervisor gave to others (steal, summed over both vCPUs), in seconds.
steal() { awk '/^cpu /{print $9; exit}' /proc/stat; }
path_of() { if [ "$1" = corpus ]; then echo "$CORPUS"; else echo "$SINGLE"; fi; }

# Warm the page cache: one read pass over each input (not recorded), then check that
# fincore sees it all resident.
"$bin" bench read 2 "$CORPUS" >/dev/null
"$bin" bench read 1 "$SINGLE" >/dev/null
if command -v fincore >/dev/null; then
    find "$CORPUS" -type f -print0 | xargs -0 fincore -b -n -o RES,SIZE |
        awk '{r+=$1; s+=$2} END {printf "corpus resident: %d of %d bytes\n", r, s}'
    fincore -b -n -o RES,SIZE "$SINGLE" | awk '{printf "single resident: %d of %d bytes\n", $1, $2}'
fi

printf 'data\tround\tslot\tmode\tthreads\tfiles\tbytes\tnewlines\tmapped\terrors\twall\tuser\tsys\tminflt\tmajflt\tmaxrss_kib\tload1\tsteal_s\n' >"$out"
for ((r = 0; r < ROUNDS; r++)); do
    for ((k = 0; k < n; k++)); do
        read -r data m t <<<"${configs[$(((k + r) % n))]}"
        s0=$(steal)
        line=$("$bin" bench "$m" "$t" "$(path_of "$data")")
        s1=$(steal)
        load=$(cut -d' ' -f1 /proc/loadavg)
        printf '%s\t%d\t%d\t%s\t%s\t%s\n' "$data" "$r" "$k" "$line" "$load" \
            "$(awk -v a="$s0" -v b="$s1" -v hz="$(getconf CLK_TCK)" 'BEGIN{print (b-a)/hz}')" >>"$out"
    done
    echo "round $((r + 1))/$ROUNDS done" >&2
done
echo "$out"
python3 "$here/summarize.py" "$out"
