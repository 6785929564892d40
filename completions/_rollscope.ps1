
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'rollscope' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'rollscope'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'rollscope' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Counts per record type, turns, tool calls and the session''s own token usage')
            [CompletionResult]::new('turns', 'turns', [CompletionResultType]::ParameterValue, 'One row per turn: status, timing, settings, tool calls and own tokens')
            [CompletionResult]::new('calls', 'calls', [CompletionResultType]::ParameterValue, 'One row per tool call (and per output without a call): pairing, status, exit code')
            [CompletionResult]::new('check-ordinal', 'check-ordinal', [CompletionResultType]::ParameterValue, 'Prove paginated rollouts'' ordinals sound and predict the ones Codex''s next resume breaks (exit 1 on any error)')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt), the session state with what will break, or what a client is shown')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check rollouts against the rule registry: what Codex refuses, loses or misreads, and how to fix it (exit 1 on a finding at or above --fail-on)')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Apply lint''s fixes to broken rollouts: print what would change, or write repaired copies checked by lint first (exit 1 when something would change, or is left)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions to stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page (roff): rollscope(1), or a subcommand''s (`man stats`); or write them all into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rollscope;stats' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Group rows: one per file (default), or per day, month, model, cwd, or one total')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format; the default is a table whatever stdout is (ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--width', '--width', [CompletionResultType]::ParameterName, 'Fit tables to N columns, cutting what must be cut (0: never cut)')
            [CompletionResult]::new('--columns', '--columns', [CompletionResultType]::ParameterName, 'Table columns to show, in this order (comma-separated header names)')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Use UTC instead of local time: for --since/--until dates, --by day|month and the times tables show')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;turns' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only turns with one of these statuses (comma-separated)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format; the default is a table whatever stdout is (ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--width', '--width', [CompletionResultType]::ParameterName, 'Fit tables to N columns, cutting what must be cut (0: never cut)')
            [CompletionResult]::new('--columns', '--columns', [CompletionResultType]::ParameterName, 'Table columns to show, in this order (comma-separated header names)')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Use UTC instead of local time: for --since/--until dates and the times tables show')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;calls' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only calls whose name matches this glob (`*`, `?`, `[...]`, `{a,b}`); a namespaced call also matches as NAMESPACE__NAME. Repeat to match any of several')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only calls with one of these statuses (comma-separated)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only calls of these response item types (comma-separated; an orphan row has its output''s type)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format; the default is a table whatever stdout is (ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--width', '--width', [CompletionResultType]::ParameterName, 'Fit tables to N columns, cutting what must be cut (0: never cut)')
            [CompletionResult]::new('--columns', '--columns', [CompletionResultType]::ParameterName, 'Table columns to show, in this order (comma-separated header names)')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Use UTC instead of local time: for --since/--until dates and the times tables show')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;check-ordinal' {
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Treat this warning as an error (exit 1): `gap`, `non-monotonic`')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Read each file as this Codex version resumes it: a version, `file` or `newest`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys')
            [CompletionResult]::new('--codex-home', '--codex-home', [CompletionResultType]::ParameterName, 'Read Codex''s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]')
            [CompletionResult]::new('--codex-home-as', '--codex-home-as', [CompletionResultType]::ParameterName, 'The path the databases'' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color lines and diagnostics (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Read --since/--until dates as UTC days instead of local ones')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;replay' {
            [CompletionResult]::new('--view', '--view', [CompletionResultType]::ParameterName, 'What to show: the model history (one row per item), the session state with its diagnostics (one object per file), or the turns and items a client shows')
            [CompletionResult]::new('--through-turn', '--through-turn', [CompletionResultType]::ParameterName, 'Replay only through the end of this turn: its number as `turns` prints it, or its id')
            [CompletionResult]::new('--before-turn', '--before-turn', [CompletionResultType]::ParameterName, 'Replay only what comes before this turn: its number as `turns` prints it, or its id')
            [CompletionResult]::new('--max-output-lines', '--max-output-lines', [CompletionResultType]::ParameterName, 'Lines of a tool''s output (and of a command, a patch, instructions) shown before a note of how many more there are; `all` shows them all')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Read each file as this Codex version resumes it: a version, `file` or `newest`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys')
            [CompletionResult]::new('--codex-home', '--codex-home', [CompletionResultType]::ParameterName, 'Read Codex''s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]')
            [CompletionResult]::new('--codex-home-as', '--codex-home-as', [CompletionResultType]::ParameterName, 'The path the databases'' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format; the default is a table whatever stdout is (ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--width', '--width', [CompletionResultType]::ParameterName, 'History and ui views: fit tables to N columns, cutting what must be cut (0: never cut)')
            [CompletionResult]::new('--columns', '--columns', [CompletionResultType]::ParameterName, 'History and ui views: table columns to show, in this order (comma-separated header names)')
            [CompletionResult]::new('--for-prompt', '--for-prompt', [CompletionResultType]::ParameterName, 'Normalise the history as Codex does before sending it: synthetic "aborted" outputs for calls without one, orphan outputs dropped (history view)')
            [CompletionResult]::new('--redact-secrets', '--redact-secrets', [CompletionResultType]::ParameterName, 'Replace each credential `content.secret` finds by a marker naming its kind')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Use UTC instead of local time: for --since/--until dates and the times tables show')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: rustc-style diagnostics for people, one line per finding, rows for pipelines, GitHub workflow annotations, or one SARIF 2.1.0 log for code scanning (ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('--select', '--select', [CompletionResultType]::ParameterName, 'Only these rules: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Leave these rules out: slugs or groups, comma-separated (wins over --select)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding of this severity or above is reported [default: error]')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Read each file as this Codex version resumes it: a version, `file` or `newest`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Print a rule''s documentation and exit')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color diagnostics (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]')
            [CompletionResult]::new('--codex-home', '--codex-home', [CompletionResultType]::ParameterName, 'Read Codex''s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]')
            [CompletionResult]::new('--codex-home-as', '--codex-home-as', [CompletionResultType]::ParameterName, 'The path the databases'' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--list-rules', '--list-rules', [CompletionResultType]::ParameterName, 'List every rule (a table; {slug, group, severity, summary} objects, as one array with --format json or one a line with ndjson; a SARIF log of the rules and no results with --format sarif) and exit')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Read --since/--until dates as UTC days instead of local ones')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;repair' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: a line per fix for people, or one row per fix for pipelines (one a line with ndjson, one array with json; ndjson with --jq)')
            [CompletionResult]::new('--jq', '--jq', [CompletionResultType]::ParameterName, 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the repaired copy of the one input to FILE (- for standard output); a clean file is copied as it is')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the repaired copy of the one input to FILE (- for standard output); a clean file is copied as it is')
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write a copy of each input under DIR, at its path relative to its Codex home or to the folder it was found in (a file given alone: DIR/<its name>)')
            [CompletionResult]::new('--select', '--select', [CompletionResultType]::ParameterName, 'Only these rules'' fixes: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Leave these rules'' fixes out: slugs or groups, comma-separated (wins over --select)')
            [CompletionResult]::new('--codex', '--codex', [CompletionResultType]::ParameterName, 'Read each file as this Codex version resumes it: a version, `file` or `newest`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to color the report (auto honours NO_COLOR and the terminal)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files read in parallel [default: the number of CPUs]')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Show each file''s repair as a unified diff (not with --jq: a diff is no JSON)')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Replace each repaired file, keeping the original as <name>.bak; refused when the file changed since it was read, another process has it open for writing, or the backup exists')
            [CompletionResult]::new('--unsafe-fixes', '--unsafe-fixes', [CompletionResultType]::ParameterName, 'Also apply the fixes that drop data or renumber (each is listed)')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Read no config file')
            [CompletionResult]::new('--no-archived', '--no-archived', [CompletionResultType]::ParameterName, 'Leave $CODEX_HOME/archived_sessions out when no PATH is given')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Let a PATH that holds no rollout be an empty result (exit 0), not an error')
            [CompletionResult]::new('--utc', '--utc', [CompletionResultType]::ParameterName, 'Read --since/--until dates as UTC days instead of local ones')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;man' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write every page into this directory instead (rollscope.1 and one rollscope-COMMAND.1 per subcommand), creating it if need be')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'rollscope;help' {
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Counts per record type, turns, tool calls and the session''s own token usage')
            [CompletionResult]::new('turns', 'turns', [CompletionResultType]::ParameterValue, 'One row per turn: status, timing, settings, tool calls and own tokens')
            [CompletionResult]::new('calls', 'calls', [CompletionResultType]::ParameterValue, 'One row per tool call (and per output without a call): pairing, status, exit code')
            [CompletionResult]::new('check-ordinal', 'check-ordinal', [CompletionResultType]::ParameterValue, 'Prove paginated rollouts'' ordinals sound and predict the ones Codex''s next resume breaks (exit 1 on any error)')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt), the session state with what will break, or what a client is shown')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check rollouts against the rule registry: what Codex refuses, loses or misreads, and how to fix it (exit 1 on a finding at or above --fail-on)')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Apply lint''s fixes to broken rollouts: print what would change, or write repaired copies checked by lint first (exit 1 when something would change, or is left)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions to stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page (roff): rollscope(1), or a subcommand''s (`man stats`); or write them all into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rollscope;help;stats' {
            break
        }
        'rollscope;help;turns' {
            break
        }
        'rollscope;help;calls' {
            break
        }
        'rollscope;help;check-ordinal' {
            break
        }
        'rollscope;help;replay' {
            break
        }
        'rollscope;help;lint' {
            break
        }
        'rollscope;help;repair' {
            break
        }
        'rollscope;help;completions' {
            break
        }
        'rollscope;help;man' {
            break
        }
        'rollscope;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
