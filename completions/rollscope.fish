# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_rollscope_global_optspecs
    string join \n h/help V/version
end

function __fish_rollscope_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_rollscope_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_rollscope_using_subcommand
    set -l cmd (__fish_rollscope_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c rollscope -n "__fish_rollscope_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_needs_command" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "stats" -d 'Counts per record type, turns, tool calls and the session\'s own token usage'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "turns" -d 'One row per turn: status, timing, settings, tool calls and own tokens'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "calls" -d 'One row per tool call (and per output without a call): pairing, status, exit code'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "check-ordinal" -d 'Prove paginated rollouts\' ordinals sound and predict the ones Codex\'s next resume breaks (exit 1 on any error)'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "replay" -d 'Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt), the session state with what will break, or what a client is shown'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "lint" -d 'Check rollouts against the rule registry: what Codex refuses, loses or misreads, and how to fix it (exit 1 on a finding at or above --fail-on)'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "repair" -d 'Apply lint\'s fixes to broken rollouts: print what would change, or write repaired copies checked by lint first (exit 1 when something would change, or is left)'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "completions" -d 'Print shell completions to stdout'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "man" -d 'Print a man page (roff): rollscope(1), or a subcommand\'s (`man stats`); or write them all into a directory'
complete -c rollscope -n "__fish_rollscope_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l by -d 'Group rows: one per file (default), or per day, month, model, cwd, or one total' -r -f -a "file\t''
day\t''
month\t''
model\t''
cwd\t''
total\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l format -d 'Output format; the default is a table whatever stdout is' -r -f -a "table\t''
ndjson\t''
json\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l color -d 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l width -d 'Fit tables to N columns, cutting what must be cut (0: never cut)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l columns -d 'Table columns to show, in this order (comma-separated header names)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -l utc -d 'Use UTC instead of local time: for --since/--until dates, --by day|month and the times tables show'
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand stats" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l status -d 'Only turns with one of these statuses (comma-separated)' -r -f -a "completed\t''
failed\t''
aborted\t''
rolled_back\t''
stale\t''
open\t''
unknown\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l format -d 'Output format; the default is a table whatever stdout is' -r -f -a "table\t''
ndjson\t''
json\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l color -d 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l width -d 'Fit tables to N columns, cutting what must be cut (0: never cut)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l columns -d 'Table columns to show, in this order (comma-separated header names)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l utc -d 'Use UTC instead of local time: for --since/--until dates and the times tables show'
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand turns" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l name -d 'Only calls whose name matches this glob (`*`, `?`, `[...]`, `{a,b}`); a namespaced call also matches as NAMESPACE__NAME. Repeat to match any of several' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l status -d 'Only calls with one of these statuses (comma-separated)' -r -f -a "ok\t''
error\t''
unknown\t''
orphan\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l kind -d 'Only calls of these response item types (comma-separated; an orphan row has its output\'s type)' -r -f -a "function_call\t''
custom_tool_call\t''
local_shell_call\t''
tool_search_call\t''
web_search_call\t''
image_generation_call\t''
function_call_output\t''
custom_tool_call_output\t''
tool_search_output\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l format -d 'Output format; the default is a table whatever stdout is' -r -f -a "table\t''
ndjson\t''
json\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l color -d 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l width -d 'Fit tables to N columns, cutting what must be cut (0: never cut)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l columns -d 'Table columns to show, in this order (comma-separated header names)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l utc -d 'Use UTC instead of local time: for --since/--until dates and the times tables show'
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand calls" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l deny -d 'Treat this warning as an error (exit 1): `gap`, `non-monotonic`' -r -f -a "gap\t''
non-monotonic\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l codex -d 'Read each file as this Codex version resumes it: a version, `file` or `newest`' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l config -d 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file\'s keys' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l codex-home -d 'Read Codex\'s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l codex-home-as -d 'The path the databases\' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l root -d 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l format -d 'Output format' -r -f -a "text\t'A line per problem and per file, then the run\'s total'
ndjson\t'One JSON row per file'
json\t'One JSON array of the rows'
human\t'rustc-style diagnostics, each with the start of its line'
concise\t'One line per finding'
github\t'GitHub workflow annotations'
sarif\t'One SARIF 2.1.0 log, for code scanning'"
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l color -d 'When to color lines and diagnostics (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l no-config -d 'Read no config file'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -l utc -d 'Read --since/--until dates as UTC days instead of local ones'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand check-ordinal" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l view -d 'What to show: the model history (one row per item), the session state with its diagnostics (one object per file), or the turns and items a client shows' -r -f -a "history\t''
state\t''
ui\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l through-turn -d 'Replay only through the end of this turn: its number as `turns` prints it, or its id' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l before-turn -d 'Replay only what comes before this turn: its number as `turns` prints it, or its id' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l codex -d 'Read each file as this Codex version resumes it: a version, `file` or `newest`' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l config -d 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file\'s keys' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l codex-home -d 'Read Codex\'s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l codex-home-as -d 'The path the databases\' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l root -d 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l format -d 'Output format; the default is a table whatever stdout is' -r -f -a "table\t'The history and ui views: a table. The state view: a line per finding and per file'
ndjson\t'One JSON row per line'
json\t'One JSON array of the rows'
human\t'The state view: rustc-style diagnostics, each with the start of its line'
concise\t'The state view: one line per finding'
github\t'The state view: GitHub workflow annotations'
sarif\t'The state view: one SARIF 2.1.0 log, for code scanning'"
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l color -d 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l width -d 'History and ui views: fit tables to N columns, cutting what must be cut (0: never cut)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l columns -d 'History and ui views: table columns to show, in this order (comma-separated header names)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l for-prompt -d 'Normalise the history as Codex does before sending it: synthetic "aborted" outputs for calls without one, orphan outputs dropped (history view)'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l no-config -d 'Read no config file'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l utc -d 'Use UTC instead of local time: for --since/--until dates and the times tables show'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand replay" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l format -d 'Output format: rustc-style diagnostics for people, one line per finding, rows for pipelines, GitHub workflow annotations, or one SARIF 2.1.0 log for code scanning' -r -f -a "human\t''
concise\t''
ndjson\t''
json\t''
github\t''
sarif\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l select -d 'Only these rules: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated' -r -f -a "file\t'every file.* rule'
file.bom\t'the file starts with a UTF-8 byte order mark'
file.empty\t'the file is empty'
file.no-final-newline\t'the last line has no final newline'
file.name\t'the file name is not a rollout name'
file.location\t'a rollout outside the folder Codex looks in'
file.zst-shadowed\t'a .jsonl.zst shadowed by its plain twin'
file.zst-corrupt\t'a compressed rollout that cannot be decompressed'
file.zst-unsupported\t'a compressed rollout this Codex version cannot read'
meta\t'every meta.* rule'
meta.first\t'the first record is not a decodable session_meta'
meta.missing\t'no session_meta in the file'
meta.history-mode\t'history_mode is not legacy or paginated'
meta.multiple\t'more than one session_meta'
meta.id-vs-filename\t'the session_meta id differs from the file name'
meta.model-provider\t'session_meta.model_provider is null or empty'
meta.paginated-unsupported\t'a paginated rollout this Codex version appends to without ordinals'
line\t'every line.* rule'
line.json\t'a line that is not valid JSON or UTF-8'
line.not-object\t'a line that is not a JSON object'
line.timestamp\t'a record without a string timestamp'
line.timestamp-format\t'a timestamp that is not RFC 3339 UTC'
line.type\t'a record without a string type'
line.ordinal\t'an ordinal that is not an unsigned integer'
line.payload\t'a payload Codex cannot decode into its record type'
line.item-type\t'a response item of a type Codex does not know: never sent'
line.unknown-type\t'a record of a type Codex does not know'
line.oversized\t'a record over 16 MiB: Codex will not compress or migrate the file'
line.blank\t'a blank line, which Codex never writes'
ordinal\t'every ordinal.* rule'
ordinal.in-legacy\t'an ordinal in a legacy rollout'
ordinal.missing\t'a paginated record without ordinal'
ordinal.start\t'the first ordinal is not where the file must start'
ordinal.non-monotonic\t'a duplicate or decreasing ordinal'
ordinal.gap\t'ordinals that never appear'
ordinal.tail-unparseable\t'an unparseable tail line whose ordinal the next resume reuses'
ordinal.subagent-prefix\t'a sub-agent\'s inherited prefix is incomplete'
history_base\t'every history_base.* rule'
history_base.in-legacy\t'a history_base in a legacy rollout'
history_base.shape\t'a malformed history_base'
history_base.resolve\t'the history_base source is missing or unusable'
history_base.byte-offset\t'end_byte_offset is not the source\'s ordinal boundary'
history_base.ignored\t'a fork whose source this Codex version does not read'
fork\t'every fork.* rule'
fork.boundary\t'the fork point and the history base disagree'
policy\t'every policy.* rule'
policy.transient-event\t'an event Codex never persists'
policy.legacy-event-in-paginated\t'a legacy-only event in a paginated rollout'
policy.paginated-in-legacy\t'a paginated-only event in a legacy rollout'
policy.response-item\t'a response item Codex never persists'
policy.rollback-in-paginated\t'a rollback marker in a paginated rollout'
compact\t'every compact.* rule'
compact.metadata-len\t'replacement_history_metadata does not match replacement_history'
compact.legacy\t'a compaction without replacement history'
compact.window\t'a compaction without window_number'
world_state\t'every world_state.* rule'
world_state.patch-before-full\t'a world_state patch before any full snapshot'
pair\t'every pair.* rule'
pair.missing-output\t'a tool call without output'
pair.orphan-output\t'a tool output without its call'
pair.duplicate\t'a tool output written twice'
rollback\t'every rollback.* rule'
rollback.overflow\t'a rollback larger than the history'
tokens\t'every tokens.* rule'
tokens.none\t'no token usage recorded'
turn\t'every turn.* rule'
turn.unterminated\t'a turn that never ended'
turn.id-mismatch\t'an event names another turn than its own'
turn.no-context\t'a user turn without a turn_context'
content\t'every content.* rule'
content.inline-media\t'inline base64 media where Codex strips it'
content.secret\t'a string that looks like a credential'
image\t'every image.* rule'
image.replaced\t'an image Codex replaces by a text: the model never sees it'
image.resized\t'an image Codex sends resized to fit its limits'
size\t'every size.* rule'
size.large\t'a file over 100 MB or a record over 2 MB'
listing\t'every listing.* rule'
listing.no-preview\t'no listing preview in the file\'s head'
state\t'every state.* rule'
state.rollout-missing\t'a thread row whose rollout is not there'
state.unreadable\t'a state database that could not be read'
state.checkpoint-past-end\t'a projection checkpoint past the end of its rollout'
state.checkpoint-misplaced\t'a projection checkpoint inside a line or before an ordinal it does not expect'
state.checkpoint-at-duplicate\t'a projection that has a duplicate or decreasing ordinal still to read'
state.projection-behind\t'a projection that has not read the end of its rollout'
state.projection-missing\t'a paginated thread with no projection'
state.turn-bounds\t'a stored turn whose bounds are not the lines they name'"
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l ignore -d 'Leave these rules out: slugs or groups, comma-separated (wins over --select)' -r -f -a "file\t'every file.* rule'
file.bom\t'the file starts with a UTF-8 byte order mark'
file.empty\t'the file is empty'
file.no-final-newline\t'the last line has no final newline'
file.name\t'the file name is not a rollout name'
file.location\t'a rollout outside the folder Codex looks in'
file.zst-shadowed\t'a .jsonl.zst shadowed by its plain twin'
file.zst-corrupt\t'a compressed rollout that cannot be decompressed'
file.zst-unsupported\t'a compressed rollout this Codex version cannot read'
meta\t'every meta.* rule'
meta.first\t'the first record is not a decodable session_meta'
meta.missing\t'no session_meta in the file'
meta.history-mode\t'history_mode is not legacy or paginated'
meta.multiple\t'more than one session_meta'
meta.id-vs-filename\t'the session_meta id differs from the file name'
meta.model-provider\t'session_meta.model_provider is null or empty'
meta.paginated-unsupported\t'a paginated rollout this Codex version appends to without ordinals'
line\t'every line.* rule'
line.json\t'a line that is not valid JSON or UTF-8'
line.not-object\t'a line that is not a JSON object'
line.timestamp\t'a record without a string timestamp'
line.timestamp-format\t'a timestamp that is not RFC 3339 UTC'
line.type\t'a record without a string type'
line.ordinal\t'an ordinal that is not an unsigned integer'
line.payload\t'a payload Codex cannot decode into its record type'
line.item-type\t'a response item of a type Codex does not know: never sent'
line.unknown-type\t'a record of a type Codex does not know'
line.oversized\t'a record over 16 MiB: Codex will not compress or migrate the file'
line.blank\t'a blank line, which Codex never writes'
ordinal\t'every ordinal.* rule'
ordinal.in-legacy\t'an ordinal in a legacy rollout'
ordinal.missing\t'a paginated record without ordinal'
ordinal.start\t'the first ordinal is not where the file must start'
ordinal.non-monotonic\t'a duplicate or decreasing ordinal'
ordinal.gap\t'ordinals that never appear'
ordinal.tail-unparseable\t'an unparseable tail line whose ordinal the next resume reuses'
ordinal.subagent-prefix\t'a sub-agent\'s inherited prefix is incomplete'
history_base\t'every history_base.* rule'
history_base.in-legacy\t'a history_base in a legacy rollout'
history_base.shape\t'a malformed history_base'
history_base.resolve\t'the history_base source is missing or unusable'
history_base.byte-offset\t'end_byte_offset is not the source\'s ordinal boundary'
history_base.ignored\t'a fork whose source this Codex version does not read'
fork\t'every fork.* rule'
fork.boundary\t'the fork point and the history base disagree'
policy\t'every policy.* rule'
policy.transient-event\t'an event Codex never persists'
policy.legacy-event-in-paginated\t'a legacy-only event in a paginated rollout'
policy.paginated-in-legacy\t'a paginated-only event in a legacy rollout'
policy.response-item\t'a response item Codex never persists'
policy.rollback-in-paginated\t'a rollback marker in a paginated rollout'
compact\t'every compact.* rule'
compact.metadata-len\t'replacement_history_metadata does not match replacement_history'
compact.legacy\t'a compaction without replacement history'
compact.window\t'a compaction without window_number'
world_state\t'every world_state.* rule'
world_state.patch-before-full\t'a world_state patch before any full snapshot'
pair\t'every pair.* rule'
pair.missing-output\t'a tool call without output'
pair.orphan-output\t'a tool output without its call'
pair.duplicate\t'a tool output written twice'
rollback\t'every rollback.* rule'
rollback.overflow\t'a rollback larger than the history'
tokens\t'every tokens.* rule'
tokens.none\t'no token usage recorded'
turn\t'every turn.* rule'
turn.unterminated\t'a turn that never ended'
turn.id-mismatch\t'an event names another turn than its own'
turn.no-context\t'a user turn without a turn_context'
content\t'every content.* rule'
content.inline-media\t'inline base64 media where Codex strips it'
content.secret\t'a string that looks like a credential'
image\t'every image.* rule'
image.replaced\t'an image Codex replaces by a text: the model never sees it'
image.resized\t'an image Codex sends resized to fit its limits'
size\t'every size.* rule'
size.large\t'a file over 100 MB or a record over 2 MB'
listing\t'every listing.* rule'
listing.no-preview\t'no listing preview in the file\'s head'
state\t'every state.* rule'
state.rollout-missing\t'a thread row whose rollout is not there'
state.unreadable\t'a state database that could not be read'
state.checkpoint-past-end\t'a projection checkpoint past the end of its rollout'
state.checkpoint-misplaced\t'a projection checkpoint inside a line or before an ordinal it does not expect'
state.checkpoint-at-duplicate\t'a projection that has a duplicate or decreasing ordinal still to read'
state.projection-behind\t'a projection that has not read the end of its rollout'
state.projection-missing\t'a paginated thread with no projection'
state.turn-bounds\t'a stored turn whose bounds are not the lines they name'"
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l fail-on -d 'Exit 1 when a finding of this severity or above is reported [default: error]' -r -f -a "error\t''
warning\t''
info\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l codex -d 'Read each file as this Codex version resumes it: a version, `file` or `newest`' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l config -d 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file\'s keys' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l explain -d 'Print a rule\'s documentation and exit' -r -f -a "file.bom\t'the file starts with a UTF-8 byte order mark'
file.empty\t'the file is empty'
file.no-final-newline\t'the last line has no final newline'
file.name\t'the file name is not a rollout name'
file.location\t'a rollout outside the folder Codex looks in'
file.zst-shadowed\t'a .jsonl.zst shadowed by its plain twin'
file.zst-corrupt\t'a compressed rollout that cannot be decompressed'
file.zst-unsupported\t'a compressed rollout this Codex version cannot read'
meta.first\t'the first record is not a decodable session_meta'
meta.missing\t'no session_meta in the file'
meta.history-mode\t'history_mode is not legacy or paginated'
meta.multiple\t'more than one session_meta'
meta.id-vs-filename\t'the session_meta id differs from the file name'
meta.model-provider\t'session_meta.model_provider is null or empty'
meta.paginated-unsupported\t'a paginated rollout this Codex version appends to without ordinals'
line.json\t'a line that is not valid JSON or UTF-8'
line.not-object\t'a line that is not a JSON object'
line.timestamp\t'a record without a string timestamp'
line.timestamp-format\t'a timestamp that is not RFC 3339 UTC'
line.type\t'a record without a string type'
line.ordinal\t'an ordinal that is not an unsigned integer'
line.payload\t'a payload Codex cannot decode into its record type'
line.item-type\t'a response item of a type Codex does not know: never sent'
line.unknown-type\t'a record of a type Codex does not know'
line.oversized\t'a record over 16 MiB: Codex will not compress or migrate the file'
line.blank\t'a blank line, which Codex never writes'
ordinal.in-legacy\t'an ordinal in a legacy rollout'
ordinal.missing\t'a paginated record without ordinal'
ordinal.start\t'the first ordinal is not where the file must start'
ordinal.non-monotonic\t'a duplicate or decreasing ordinal'
ordinal.gap\t'ordinals that never appear'
ordinal.tail-unparseable\t'an unparseable tail line whose ordinal the next resume reuses'
ordinal.subagent-prefix\t'a sub-agent\'s inherited prefix is incomplete'
history_base.in-legacy\t'a history_base in a legacy rollout'
history_base.shape\t'a malformed history_base'
history_base.resolve\t'the history_base source is missing or unusable'
history_base.byte-offset\t'end_byte_offset is not the source\'s ordinal boundary'
history_base.ignored\t'a fork whose source this Codex version does not read'
fork.boundary\t'the fork point and the history base disagree'
policy.transient-event\t'an event Codex never persists'
policy.legacy-event-in-paginated\t'a legacy-only event in a paginated rollout'
policy.paginated-in-legacy\t'a paginated-only event in a legacy rollout'
policy.response-item\t'a response item Codex never persists'
policy.rollback-in-paginated\t'a rollback marker in a paginated rollout'
compact.metadata-len\t'replacement_history_metadata does not match replacement_history'
compact.legacy\t'a compaction without replacement history'
compact.window\t'a compaction without window_number'
world_state.patch-before-full\t'a world_state patch before any full snapshot'
pair.missing-output\t'a tool call without output'
pair.orphan-output\t'a tool output without its call'
pair.duplicate\t'a tool output written twice'
rollback.overflow\t'a rollback larger than the history'
tokens.none\t'no token usage recorded'
turn.unterminated\t'a turn that never ended'
turn.id-mismatch\t'an event names another turn than its own'
turn.no-context\t'a user turn without a turn_context'
content.inline-media\t'inline base64 media where Codex strips it'
content.secret\t'a string that looks like a credential'
image.replaced\t'an image Codex replaces by a text: the model never sees it'
image.resized\t'an image Codex sends resized to fit its limits'
size.large\t'a file over 100 MB or a record over 2 MB'
listing.no-preview\t'no listing preview in the file\'s head'
state.rollout-missing\t'a thread row whose rollout is not there'
state.unreadable\t'a state database that could not be read'
state.checkpoint-past-end\t'a projection checkpoint past the end of its rollout'
state.checkpoint-misplaced\t'a projection checkpoint inside a line or before an ordinal it does not expect'
state.checkpoint-at-duplicate\t'a projection that has a duplicate or decreasing ordinal still to read'
state.projection-behind\t'a projection that has not read the end of its rollout'
state.projection-missing\t'a paginated thread with no projection'
state.turn-bounds\t'a stored turn whose bounds are not the lines they name'"
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l color -d 'When to color diagnostics (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l root -d 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l codex-home -d 'Read Codex\'s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l codex-home-as -d 'The path the databases\' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l no-config -d 'Read no config file'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l list-rules -d 'List every rule (a table; {slug, group, severity, summary} objects, as one array with --format json or one a line with ndjson; a SARIF log of the rules and no results with --format sarif) and exit'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -l utc -d 'Read --since/--until dates as UTC days instead of local ones'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand lint" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l format -d 'Output format: a line per fix for people, or one row per fix for pipelines (one a line with ndjson, one array with json)' -r -f -a "human\t''
ndjson\t''
json\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -s o -l output -d 'Write the repaired copy of the one input to FILE (- for standard output); a clean file is copied as it is' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l out-dir -d 'Write a copy of each input under DIR, at its path relative to its Codex home or to the folder it was found in (a file given alone: DIR/<its name>)' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l select -d 'Only these rules\' fixes: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l ignore -d 'Leave these rules\' fixes out: slugs or groups, comma-separated (wins over --select)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l codex -d 'Read each file as this Codex version resumes it: a version, `file` or `newest`' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l config -d 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file\'s keys' -r -F
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l color -d 'When to color the report (auto honours NO_COLOR and the terminal)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l since -d 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l until -d 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -s j -l jobs -d 'Files read in parallel [default: the number of CPUs]' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l max-line-bytes -d 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)' -r
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l diff -d 'Show each file\'s repair as a unified diff'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l in-place -d 'Replace each repaired file, keeping the original as <name>.bak; refused when the file changed since it was read, another process has it open for writing, or the backup exists'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l unsafe-fixes -d 'Also apply the fixes that drop data or renumber (each is listed)'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l no-config -d 'Read no config file'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l no-archived -d 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -s q -l quiet -d 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l allow-empty -d 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -l utc -d 'Read --since/--until dates as UTC days instead of local ones'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand repair" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand completions" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand man" -l dir -d 'Write every page into this directory instead (rollscope.1 and one rollscope-COMMAND.1 per subcommand), creating it if need be' -r -f -a "(__fish_complete_directories)"
complete -c rollscope -n "__fish_rollscope_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rollscope -n "__fish_rollscope_using_subcommand man" -s V -l version -d 'Print version'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "stats" -d 'Counts per record type, turns, tool calls and the session\'s own token usage'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "turns" -d 'One row per turn: status, timing, settings, tool calls and own tokens'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "calls" -d 'One row per tool call (and per output without a call): pairing, status, exit code'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "check-ordinal" -d 'Prove paginated rollouts\' ordinals sound and predict the ones Codex\'s next resume breaks (exit 1 on any error)'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "replay" -d 'Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt), the session state with what will break, or what a client is shown'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "lint" -d 'Check rollouts against the rule registry: what Codex refuses, loses or misreads, and how to fix it (exit 1 on a finding at or above --fail-on)'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "repair" -d 'Apply lint\'s fixes to broken rollouts: print what would change, or write repaired copies checked by lint first (exit 1 when something would change, or is left)'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "completions" -d 'Print shell completions to stdout'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "man" -d 'Print a man page (roff): rollscope(1), or a subcommand\'s (`man stats`); or write them all into a directory'
complete -c rollscope -n "__fish_rollscope_using_subcommand help; and not __fish_seen_subcommand_from stats turns calls check-ordinal replay lint repair completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
