_rollscope() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="rollscope"
                ;;
            rollscope,calls)
                cmd="rollscope__subcmd__calls"
                ;;
            rollscope,check-ordinal)
                cmd="rollscope__subcmd__check__subcmd__ordinal"
                ;;
            rollscope,completions)
                cmd="rollscope__subcmd__completions"
                ;;
            rollscope,help)
                cmd="rollscope__subcmd__help"
                ;;
            rollscope,lint)
                cmd="rollscope__subcmd__lint"
                ;;
            rollscope,man)
                cmd="rollscope__subcmd__man"
                ;;
            rollscope,repair)
                cmd="rollscope__subcmd__repair"
                ;;
            rollscope,replay)
                cmd="rollscope__subcmd__replay"
                ;;
            rollscope,stats)
                cmd="rollscope__subcmd__stats"
                ;;
            rollscope,turns)
                cmd="rollscope__subcmd__turns"
                ;;
            rollscope__subcmd__help,calls)
                cmd="rollscope__subcmd__help__subcmd__calls"
                ;;
            rollscope__subcmd__help,check-ordinal)
                cmd="rollscope__subcmd__help__subcmd__check__subcmd__ordinal"
                ;;
            rollscope__subcmd__help,completions)
                cmd="rollscope__subcmd__help__subcmd__completions"
                ;;
            rollscope__subcmd__help,help)
                cmd="rollscope__subcmd__help__subcmd__help"
                ;;
            rollscope__subcmd__help,lint)
                cmd="rollscope__subcmd__help__subcmd__lint"
                ;;
            rollscope__subcmd__help,man)
                cmd="rollscope__subcmd__help__subcmd__man"
                ;;
            rollscope__subcmd__help,repair)
                cmd="rollscope__subcmd__help__subcmd__repair"
                ;;
            rollscope__subcmd__help,replay)
                cmd="rollscope__subcmd__help__subcmd__replay"
                ;;
            rollscope__subcmd__help,stats)
                cmd="rollscope__subcmd__help__subcmd__stats"
                ;;
            rollscope__subcmd__help,turns)
                cmd="rollscope__subcmd__help__subcmd__turns"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        rollscope)
            opts="-h -V --help --version stats turns calls check-ordinal replay lint repair completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__calls)
            opts="-j -q -h -V --name --status --kind --no-archived --since --until --utc --jobs --max-line-bytes --quiet --allow-empty --format --jq --color --width --columns --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --status)
                    COMPREPLY=($(compgen -W "ok error unknown orphan" -- "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "function_call custom_tool_call local_shell_call tool_search_call web_search_call image_generation_call function_call_output custom_tool_call_output tool_search_output" -- "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table ndjson json" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -W "session started path turn_index line status name exit_code duration called_at arguments output call_id kind" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__check__subcmd__ordinal)
            opts="-j -q -h -V --deny --codex --config --no-config --codex-home --codex-home-as --root --no-archived --since --until --jobs --max-line-bytes --quiet --allow-empty --format --jq --color --utc --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --deny)
                    COMPREPLY=($(compgen -W "gap non-monotonic" -- "${cur}"))
                    return 0
                    ;;
                --codex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home-as)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text ndjson json human concise github sarif" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__completions)
            opts="-h -V --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help)
            opts="stats turns calls check-ordinal replay lint repair completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__calls)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__check__subcmd__ordinal)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__lint)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__repair)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__replay)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__stats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__help__subcmd__turns)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__lint)
            opts="-j -q -h -V --format --jq --select --ignore --fail-on --codex --config --no-config --explain --list-rules --color --root --codex-home --codex-home-as --no-archived --since --until --jobs --max-line-bytes --quiet --allow-empty --utc --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "human concise ndjson json github sarif" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --select)
                    COMPREPLY=($(compgen -W "file file.bom file.empty file.no-final-newline file.name file.location file.zst-shadowed file.zst-corrupt file.zst-unsupported meta meta.first meta.missing meta.history-mode meta.multiple meta.id-vs-filename meta.model-provider meta.paginated-unsupported line line.json line.not-object line.timestamp line.timestamp-format line.type line.ordinal line.payload line.item-type line.unknown-type line.oversized line.blank ordinal ordinal.in-legacy ordinal.missing ordinal.start ordinal.non-monotonic ordinal.gap ordinal.tail-unparseable ordinal.subagent-prefix history_base history_base.in-legacy history_base.shape history_base.resolve history_base.byte-offset history_base.ignored fork fork.boundary policy policy.transient-event policy.legacy-event-in-paginated policy.paginated-in-legacy policy.response-item policy.rollback-in-paginated compact compact.metadata-len compact.legacy compact.window world_state world_state.patch-before-full pair pair.missing-output pair.orphan-output pair.duplicate rollback rollback.overflow tokens tokens.none turn turn.unterminated turn.id-mismatch turn.no-context content content.inline-media content.secret image image.replaced image.resized size size.large listing listing.no-preview state state.rollout-missing state.unreadable state.checkpoint-past-end state.checkpoint-misplaced state.checkpoint-at-duplicate state.projection-behind state.projection-missing state.turn-bounds" -- "${cur}"))
                    return 0
                    ;;
                --ignore)
                    COMPREPLY=($(compgen -W "file file.bom file.empty file.no-final-newline file.name file.location file.zst-shadowed file.zst-corrupt file.zst-unsupported meta meta.first meta.missing meta.history-mode meta.multiple meta.id-vs-filename meta.model-provider meta.paginated-unsupported line line.json line.not-object line.timestamp line.timestamp-format line.type line.ordinal line.payload line.item-type line.unknown-type line.oversized line.blank ordinal ordinal.in-legacy ordinal.missing ordinal.start ordinal.non-monotonic ordinal.gap ordinal.tail-unparseable ordinal.subagent-prefix history_base history_base.in-legacy history_base.shape history_base.resolve history_base.byte-offset history_base.ignored fork fork.boundary policy policy.transient-event policy.legacy-event-in-paginated policy.paginated-in-legacy policy.response-item policy.rollback-in-paginated compact compact.metadata-len compact.legacy compact.window world_state world_state.patch-before-full pair pair.missing-output pair.orphan-output pair.duplicate rollback rollback.overflow tokens tokens.none turn turn.unterminated turn.id-mismatch turn.no-context content content.inline-media content.secret image image.replaced image.resized size size.large listing listing.no-preview state state.rollout-missing state.unreadable state.checkpoint-past-end state.checkpoint-misplaced state.checkpoint-at-duplicate state.projection-behind state.projection-missing state.turn-bounds" -- "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "error warning info" -- "${cur}"))
                    return 0
                    ;;
                --codex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --explain)
                    COMPREPLY=($(compgen -W "file.bom file.empty file.no-final-newline file.name file.location file.zst-shadowed file.zst-corrupt file.zst-unsupported meta.first meta.missing meta.history-mode meta.multiple meta.id-vs-filename meta.model-provider meta.paginated-unsupported line.json line.not-object line.timestamp line.timestamp-format line.type line.ordinal line.payload line.item-type line.unknown-type line.oversized line.blank ordinal.in-legacy ordinal.missing ordinal.start ordinal.non-monotonic ordinal.gap ordinal.tail-unparseable ordinal.subagent-prefix history_base.in-legacy history_base.shape history_base.resolve history_base.byte-offset history_base.ignored fork.boundary policy.transient-event policy.legacy-event-in-paginated policy.paginated-in-legacy policy.response-item policy.rollback-in-paginated compact.metadata-len compact.legacy compact.window world_state.patch-before-full pair.missing-output pair.orphan-output pair.duplicate rollback.overflow tokens.none turn.unterminated turn.id-mismatch turn.no-context content.inline-media content.secret image.replaced image.resized size.large listing.no-preview state.rollout-missing state.unreadable state.checkpoint-past-end state.checkpoint-misplaced state.checkpoint-at-duplicate state.projection-behind state.projection-missing state.turn-bounds" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home-as)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__man)
            opts="-h -V --dir --help --version stats turns calls check-ordinal replay lint repair completions man"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=()
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o plusdirs
                    fi
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__repair)
            opts="-o -j -q -h -V --format --jq --diff --output --out-dir --in-place --unsafe-fixes --select --ignore --codex --config --no-config --color --no-archived --since --until --jobs --max-line-bytes --quiet --allow-empty --utc --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "human ndjson json" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --select)
                    COMPREPLY=($(compgen -W "file file.bom file.empty file.no-final-newline file.name file.location file.zst-shadowed file.zst-corrupt file.zst-unsupported meta meta.first meta.missing meta.history-mode meta.multiple meta.id-vs-filename meta.model-provider meta.paginated-unsupported line line.json line.not-object line.timestamp line.timestamp-format line.type line.ordinal line.payload line.item-type line.unknown-type line.oversized line.blank ordinal ordinal.in-legacy ordinal.missing ordinal.start ordinal.non-monotonic ordinal.gap ordinal.tail-unparseable ordinal.subagent-prefix history_base history_base.in-legacy history_base.shape history_base.resolve history_base.byte-offset history_base.ignored fork fork.boundary policy policy.transient-event policy.legacy-event-in-paginated policy.paginated-in-legacy policy.response-item policy.rollback-in-paginated compact compact.metadata-len compact.legacy compact.window world_state world_state.patch-before-full pair pair.missing-output pair.orphan-output pair.duplicate rollback rollback.overflow tokens tokens.none turn turn.unterminated turn.id-mismatch turn.no-context content content.inline-media content.secret image image.replaced image.resized size size.large listing listing.no-preview state state.rollout-missing state.unreadable state.checkpoint-past-end state.checkpoint-misplaced state.checkpoint-at-duplicate state.projection-behind state.projection-missing state.turn-bounds" -- "${cur}"))
                    return 0
                    ;;
                --ignore)
                    COMPREPLY=($(compgen -W "file file.bom file.empty file.no-final-newline file.name file.location file.zst-shadowed file.zst-corrupt file.zst-unsupported meta meta.first meta.missing meta.history-mode meta.multiple meta.id-vs-filename meta.model-provider meta.paginated-unsupported line line.json line.not-object line.timestamp line.timestamp-format line.type line.ordinal line.payload line.item-type line.unknown-type line.oversized line.blank ordinal ordinal.in-legacy ordinal.missing ordinal.start ordinal.non-monotonic ordinal.gap ordinal.tail-unparseable ordinal.subagent-prefix history_base history_base.in-legacy history_base.shape history_base.resolve history_base.byte-offset history_base.ignored fork fork.boundary policy policy.transient-event policy.legacy-event-in-paginated policy.paginated-in-legacy policy.response-item policy.rollback-in-paginated compact compact.metadata-len compact.legacy compact.window world_state world_state.patch-before-full pair pair.missing-output pair.orphan-output pair.duplicate rollback rollback.overflow tokens tokens.none turn turn.unterminated turn.id-mismatch turn.no-context content content.inline-media content.secret image image.replaced image.resized size size.large listing listing.no-preview state state.rollout-missing state.unreadable state.checkpoint-past-end state.checkpoint-misplaced state.checkpoint-at-duplicate state.projection-behind state.projection-missing state.turn-bounds" -- "${cur}"))
                    return 0
                    ;;
                --codex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__replay)
            opts="-j -q -h -V --view --for-prompt --through-turn --before-turn --max-output-lines --redact-secrets --codex --config --no-config --codex-home --codex-home-as --root --no-archived --since --until --utc --jobs --max-line-bytes --quiet --allow-empty --format --jq --color --width --columns --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --view)
                    COMPREPLY=($(compgen -W "history state ui" -- "${cur}"))
                    return 0
                    ;;
                --through-turn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --before-turn)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-output-lines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --codex-home-as)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table ndjson json markdown human concise github sarif" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -W "session started path index time line origin who text result turn_index kind" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__stats)
            opts="-j -q -h -V --by --no-archived --since --until --jobs --max-line-bytes --quiet --allow-empty --format --jq --color --width --columns --utc --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --by)
                    COMPREPLY=($(compgen -W "file day month model cwd total" -- "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table ndjson json" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -W "path started_at cli_version history_mode lines parse_errors turns tool_calls input cached output reasoning total day sessions bar model month cwd" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        rollscope__subcmd__turns)
            opts="-j -q -h -V --status --no-archived --since --until --utc --jobs --max-line-bytes --quiet --allow-empty --format --jq --color --width --columns --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --status)
                    COMPREPLY=($(compgen -W "completed failed aborted rolled_back stale open unknown" -- "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --until)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table ndjson json" -- "${cur}"))
                    return 0
                    ;;
                --jq)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -W "session started path index status started_at duration bar model effort tool_calls tokens user_message turn_id" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _rollscope__lists -o nosort -o bashdefault -o default rollscope
else
    complete -F _rollscope__lists -o bashdefault -o default rollscope
fi

# An option whose value is a comma-separated list (`--select file,ordinal.g`): the item after
# the last comma is completed as clap's function completes a whole value, after the items
# typed before it, which are not offered again. Other words go to clap's function as they are.
_rollscope__lists() {
    local cur="$2" opt="$3"
    if [[ $opt == = && $COMP_CWORD -ge 2 ]]; then
        opt="${COMP_WORDS[COMP_CWORD-2]}"
    fi
    case "${COMP_WORDS[1]} $opt" in
        "stats --columns"|"turns --status"|"turns --columns"|"calls --status"|"calls --kind"|"calls --columns"|"replay --columns"|"lint --select"|"lint --ignore"|"repair --select"|"repair --ignore")
            ;;
        *)
            _rollscope "$@"
            return
            ;;
    esac
    local head="" c
    if [[ $cur == *,* ]]; then
        head="${cur%,*},"
    fi
    _rollscope "$1" "${cur##*,}" "$opt"
    local -a offered=()
    for c in "${COMPREPLY[@]}"; do
        [[ ",$head" == *",$c,"* ]] || offered+=("$head$c")
    done
    COMPREPLY=("${offered[@]}")
}
