#!/usr/bin/env bash
# What every subcommand prints, in every format, over every rollout of testdata/ and
# ../shared/corpus/real (one file at a time, and each tree whole): stdout, stderr and the
# exit code of each command line, recorded for two builds and compared. `repair` runs
# without a flag that writes, or with `-o -` (the repaired text on stdout; a tree is then a
# usage error in both builds). A refactoring that
# must not change what users see runs this against the commit it started from.
#
#   bash benches/outputs.sh BASE                # BASE (a commit) against the work tree
#   bash benches/outputs.sh BASE HEAD           # two commits
#   BIN_A=path/to/old BIN_B=path/to/new bash benches/outputs.sh   # two binaries
#
# Each commit is built (release) in a worktree under bench-out/outputs/, once per commit;
# the work tree is built as it is. Both binaries run in this checkout, with the same paths,
# CODEX_HOME an empty folder, TZ=UTC, so that the records differ only where the binaries do.
# A command line that one build rejects as a usage error (exit 2, a flag or format it does
# not have) is listed apart: it is new or gone, not changed.
#
# Prints one line per differing case (`DIFF name`) and a count; writes the records to
# bench-out/outputs/<label>/ and the differences to bench-out/outputs/diff.txt. Exits 1
# when a case differs, 0 when none does.
#
# Options (environment): ONLY=REGEX runs only the cases whose name matches; JOBS=N (default
# the number of CPUs).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/bench-out/outputs
mkdir -p "$WORK"
JOBS=${JOBS:-$(nproc)}

# --- the two binaries -------------------------------------------------------------------

build_commit() { # commit -> path of its release binary
    local sha tree
    sha=$(git rev-parse --verify "$1^{commit}")
    tree=$WORK/tree-$sha
    if [ ! -x "$tree/target/release/rollscope" ]; then
        [ -d "$tree" ] || git worktree add --detach "$tree" "$sha" >/dev/null 2>&1
        (cd "$tree" && cargo build --release -q) >&2
    fi
    echo "$tree/target/release/rollscope"
}

if [ -n "${BIN_A:-}" ] && [ -n "${BIN_B:-}" ]; then
    A=$BIN_A B=$BIN_B LABEL_A=a LABEL_B=b
else
    [ $# -ge 1 ] || { echo "usage: benches/outputs.sh BASE [HEAD]" >&2; exit 2; }
    A=$(build_commit "$1")
    LABEL_A=$(git rev-parse --short "$1")
    if [ $# -ge 2 ]; then
        B=$(build_commit "$2")
        LABEL_B=$(git rev-parse --short "$2")
    else
        cargo build --release -q
        B=$ROOT/target/release/rollscope
        LABEL_B=worktree
    fi
fi

# --- the inputs and the command lines -----------------------------------------------------

CORPUS=../shared/corpus/real
TREES=(testdata/real testdata/broken testdata/replay testdata/lint)
[ -d "$CORPUS" ] && TREES+=("$CORPUS")
FILES=()
while IFS= read -r f; do FILES+=("$f"); done < <(
    find "${TREES[@]}" -type f \( -name '*.jsonl' -o -name '*.jsonl.zst' \) | LC_ALL=C sort
)

# One command line per entry: `name<TAB>args` (the input is appended). Every format of
# every subcommand; tables piped (never cut) and fitted to 80 columns.
COMMANDS=$(cat <<'EOF'
stats	stats
stats.ndjson	stats --format ndjson
stats.json	stats --format json
stats.day	stats --by day --format ndjson
stats.model	stats --by model
turns	turns
turns.ndjson	turns --format ndjson
turns.json	turns --format json
turns.w80	turns --width 80
calls	calls
calls.ndjson	calls --format ndjson
calls.json	calls --format json
check-ordinal	check-ordinal
check-ordinal.color	check-ordinal --color always
check-ordinal.ndjson	check-ordinal --format ndjson
check-ordinal.json	check-ordinal --format json
check-ordinal.deny	check-ordinal --deny gap --format ndjson
check-ordinal.human	check-ordinal --format human --color never
check-ordinal.concise	check-ordinal --format concise --color never
check-ordinal.github	check-ordinal --format github
check-ordinal.sarif	check-ordinal --format sarif
replay	replay
replay.ndjson	replay --format ndjson
replay.json	replay --format json
replay.prompt	replay --for-prompt --format ndjson
replay.prompt-table	replay --for-prompt
replay.through1	replay --through-turn 1 --format ndjson
replay.state	replay --view state
replay.state-color	replay --view state --color always
replay.state-ndjson	replay --view state --format ndjson
replay.state-json	replay --view state --format json
replay.state-human	replay --view state --format human --color never
replay.state-concise	replay --view state --format concise --color never
replay.state-github	replay --view state --format github
replay.state-sarif	replay --view state --format sarif
replay.ui	replay --view ui
replay.ui-ndjson	replay --view ui --format ndjson
lint	lint --color never
lint.color	lint --color always
lint.concise	lint --format concise --color never
lint.ndjson	lint --format ndjson
lint.json	lint --format json
lint.github	lint --format github
lint.sarif	lint --format sarif
lint.fail-warning	lint --format concise --fail-on warning
lint.select	lint --format ndjson --select ordinal,history_base,meta
repair	repair --color never
repair.ndjson	repair --format ndjson
repair.unsafe	repair --unsafe-fixes --format ndjson
repair.diff	repair --diff --unsafe-fixes --color never
repair.stdout	repair --unsafe-fixes -o -
EOF
)

# Command lines that take no input.
FIXED=$(cat <<'EOF'
list-rules	lint --list-rules
list-rules.ndjson	lint --list-rules --format ndjson
list-rules.json	lint --list-rules --format json
list-rules.sarif	lint --list-rules --format sarif
help.lint	lint --help
help.check-ordinal	check-ordinal --help
help.replay	replay --help
EOF
)

CASES=$WORK/cases.tsv
: >"$CASES"
add() { # name, command line (space-separated words; inputs have no spaces)
    if [ -z "${ONLY:-}" ] || [[ $1 =~ $ONLY ]]; then
        printf '%s\t%s\n' "$1" "$2" >>"$CASES"
    fi
}
while IFS=$'\t' read -r name args; do
    for f in "${FILES[@]}"; do add "$name@${f//\//+}" "$args $f"; done
    for t in "${TREES[@]}"; do add "$name@tree:${t//\//+}" "$args $t"; done
done <<<"$COMMANDS"
while IFS=$'\t' read -r name args; do add "$name" "$args"; done <<<"$FIXED"
# Every rule's documentation, as the base build lists them.
for slug in $("$A" lint --list-rules --format ndjson | sed 's/.*"slug":"\([^"]*\)".*/\1/'); do
    add "explain@$slug" "lint --explain $slug"
done
# Standard input.
for f in testdata/broken/ordinal-line-duplicated.jsonl testdata/replay/output-deleted.jsonl; do
    add "stdin-lint@${f//\//+}" "lint --format ndjson - <$f"
    add "stdin-state@${f//\//+}" "replay --view state - <$f"
done

# --- running them ----------------------------------------------------------------------------

HOME_EMPTY=$(mktemp -d)
trap 'rm -rf "$HOME_EMPTY"' EXIT

run_all() { # binary, label
    local bin=$1 dir=$WORK/$2
    rm -rf "$dir"
    mkdir -p "$dir"
    export BIN=$bin DIR=$dir
    export CODEX_HOME=$HOME_EMPTY TZ=UTC COLUMNS=100
    unset NO_COLOR CLICOLOR_FORCE
    # shellcheck disable=SC2016
    tr '\n' '\0' <"$CASES" | xargs -0 -P "$JOBS" -n 64 bash -c '
        for c in "$@"; do
            name=${c%%$'"'"'\t'"'"'*}
            args=${c#*$'"'"'\t'"'"'}
            eval "\"\$BIN\" $args" >"$DIR/$name.out" 2>"$DIR/$name.err" </dev/null
            echo $? >"$DIR/$name.code"
        done' _
}

echo "outputs.sh: $(wc -l <"$CASES") command lines, $LABEL_A against $LABEL_B" >&2
run_all "$A" "$LABEL_A"
run_all "$B" "$LABEL_B"

# --- comparing ---------------------------------------------------------------------------------

DIFF=$WORK/diff.txt
: >"$DIFF"
same=0 differ=0 new=0
while IFS=$'\t' read -r name _; do
    a=$WORK/$LABEL_A/$name b=$WORK/$LABEL_B/$name
    if cmp -s "$a.out" "$b.out" && cmp -s "$a.err" "$b.err" && cmp -s "$a.code" "$b.code"; then
        same=$((same + 1))
    elif [ "$(cat "$a.code")" = 2 ] && grep -q "^error: \|^Usage:" "$a.err"; then
        # The base build has no such flag or format: a new command line, not a change.
        new=$((new + 1))
    else
        differ=$((differ + 1))
        echo "DIFF $name"
        {
            echo "=== $name"
            diff <(cat "$a.code" "$a.err") <(cat "$b.code" "$b.err") | sed 's/^/  err /' | head -20 || true
            diff "$a.out" "$b.out" | sed 's/^/  out /' | head -40 || true
        } >>"$DIFF"
    fi
done <"$CASES"
echo "outputs.sh: $same identical, $differ different, $new new in $LABEL_B (usage errors in $LABEL_A); differences in $DIFF" >&2
[ "$differ" -eq 0 ]
