#!/usr/bin/env bash
# Issue #26's output comparison: every difference between BASE and the work tree, read as
# the default Codex version and as each version the table names (docs/codex-versions.md),
# must be accounted for by a row of the table (or follow from the findings such a row
# changes). For each version, benches/outputs.sh runs both builds (the work tree's through a
# wrapper that adds `--codex V` to lint, replay and check-ordinal), then
# benches/outputs-explain.py sorts every differing line under the row that accounts for it.
#
#   bash benches/outputs-codex.sh BASE        # e.g. 681f69d
#
# Prints, per version, the lines each row accounts for and the unaccounted ones (exit 1
# when any version has some). Records stay in bench-out/outputs/b-<version>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASE=${1:?usage: benches/outputs-codex.sh BASE}
WORK=$ROOT/bench-out/outputs
cargo build --release -q
NEW=$WORK/new/rollscope
mkdir -p "$WORK/new"
cp target/release/rollscope "$NEW"
SHA=$(git rev-parse --verify "$BASE^{commit}")
TREE=$WORK/tree-$SHA
if [ ! -x "$TREE/target/release/rollscope" ]; then
    [ -d "$TREE" ] || git worktree add --detach "$TREE" "$SHA" >/dev/null 2>&1
    (cd "$TREE" && cargo build --release -q)
fi
OLD=$TREE/target/release/rollscope
"$NEW" lint --list-rules --format ndjson | sed 's/.*"slug":"\([^"]*\)".*/\1/' >"$WORK/slugs.txt"
VERSIONS=$(sed -n 's/^The versions the table names: //p' docs/codex-versions.md |
    tr -d '`' | tr ',' '\n' | sed 's/ //g; s/\.$//')
status=0
for V in default $VERSIONS; do
    bin=$NEW only=""
    if [ "$V" != default ]; then
        mkdir -p "$WORK/w-$V"
        printf '#!/bin/sh\ncase "$1" in lint|replay|check-ordinal) s=$1; shift; exec %s "$s" --codex %s "$@";; esac\nexec %s "$@"\n' \
            "$NEW" "$V" "$NEW" >"$WORK/w-$V/rollscope"
        chmod +x "$WORK/w-$V/rollscope"
        bin=$WORK/w-$V/rollscope only='^(check-ordinal|replay|lint|list-rules|stdin)'
    fi
    ONLY=$only BIN_A=$OLD BIN_B=$bin bash benches/outputs.sh >/dev/null || true
    rm -rf "$WORK/b-$V"
    mv "$WORK/b" "$WORK/b-$V"
    echo "=== as $V"
    python3 benches/outputs-explain.py "$WORK" a "b-$V" --slugs "$WORK/slugs.txt" \
        --account-field "id=HistoryItemIds" \
        --drop-field codex_version --drop-field codex_version_source --drop-field effect \
        --drop-field outcome --drop-field outcome_reason --drop-field client_view \
        --drop-field properties --drop-field ruleIndex \
        --drop-re ', as Codex [0-9.]+(-pre)? reads it' \
        --drop-re ' \(Codex [0-9.]+(-pre)?\)(?=::)' \
        --drop-re ', read as Codex [0-9.]+(-pre)? \([^)]*\)$' \
        --drop-re ', each read as its own cli_version.s Codex$' \
        --drop-re '  (resumes cleanly|resumes, with [0-9]+ warnings?|[0-9]+ errors?: the resume fails or loses history)(?=\x1b|$)' \
        --drop-re '  (resumes|resumes_with_loss|refused)(, client view [a-z]+)?, as Codex [^:]* reads it: .*?(?=\x1b|$)' \
        --drop-re ' {2,}' --drop-re '[─┬┼┴]+' \
        "ordinal.non-monotonic=OrdinalOutOfOrder" ": duplicate: =OrdinalOutOfOrder" \
        ": decrease: =OrdinalOutOfOrder" '"kind": "duplicate"=OrdinalOutOfOrder' \
        '"kind": "decrease"=OrdinalOutOfOrder' \
        "ordinal.gap=OrdinalGap" ": gap: =OrdinalGap" '"kind": "gap"=OrdinalGap' \
        "ordinal.missing=TailWithoutOrdinal" ": missing: =TailWithoutOrdinal" \
        '"kind": "missing"=TailWithoutOrdinal' \
        "history_base.ignored=HistoryBase" "history_base.byte-offset=HistoryBase" \
        "history_base.shape=HistoryBase" "fork.boundary=HistoryBase" ": base: =HistoryBase" \
        '"kind": "base"=HistoryBase' "history_base.resolve=HistoryBaseMissing" \
        "compact.metadata-len=CompactionMetadataMismatch" "meta.id-vs-filename=MetaIdDiffers" \
        "meta.first=MetaNotFirst" "file.zst-unsupported=Compressed" \
        "file.zst-corrupt=CompressedCorrupt" "file.name=NameUnrecognised" \
        "meta.paginated-unsupported=PaginatedAppend" \
        "configuration_update=ConfigurationUpdate" "configuration-update.jsonl=ConfigurationUpdate" \
        "delivered_assistant_message=DeliveredAssistantMessage" \
        "delivered-assistant-message.jsonl=DeliveredAssistantMessage" || status=1
done
exit $status
