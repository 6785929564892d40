
use builtin;
use str;

set edit:completion:arg-completer[rollscope] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'rollscope'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'rollscope'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand stats 'Counts per record type, turns, tool calls and the session''s own token usage'
            cand turns 'One row per turn: status, timing, settings, tool calls and own tokens'
            cand calls 'One row per tool call (and per output without a call): pairing, status, exit code'
            cand check-ordinal 'Prove paginated rollouts'' ordinals sound and predict the ones Codex''s next resume breaks (exit 1 on any error)'
            cand replay 'Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt), the session state with what will break, or what a client is shown'
            cand lint 'Check rollouts against the rule registry: what Codex refuses, loses or misreads, and how to fix it (exit 1 on a finding at or above --fail-on)'
            cand repair 'Apply lint''s fixes to broken rollouts: print what would change, or write repaired copies checked by lint first (exit 1 when something would change, or is left)'
            cand completions 'Print shell completions to stdout'
            cand man 'Print a man page (roff): rollscope(1), or a subcommand''s (`man stats`); or write them all into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'rollscope;stats'= {
            cand --by 'Group rows: one per file (default), or per day, month, model, cwd, or one total'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --format 'Output format; the default is a table whatever stdout is (ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand --color 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)'
            cand --width 'Fit tables to N columns, cutting what must be cut (0: never cut)'
            cand --columns 'Table columns to show, in this order (comma-separated header names)'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand --utc 'Use UTC instead of local time: for --since/--until dates, --by day|month and the times tables show'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;turns'= {
            cand --status 'Only turns with one of these statuses (comma-separated)'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --format 'Output format; the default is a table whatever stdout is (ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand --color 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)'
            cand --width 'Fit tables to N columns, cutting what must be cut (0: never cut)'
            cand --columns 'Table columns to show, in this order (comma-separated header names)'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand --utc 'Use UTC instead of local time: for --since/--until dates and the times tables show'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;calls'= {
            cand --name 'Only calls whose name matches this glob (`*`, `?`, `[...]`, `{a,b}`); a namespaced call also matches as NAMESPACE__NAME. Repeat to match any of several'
            cand --status 'Only calls with one of these statuses (comma-separated)'
            cand --kind 'Only calls of these response item types (comma-separated; an orphan row has its output''s type)'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --format 'Output format; the default is a table whatever stdout is (ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand --color 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)'
            cand --width 'Fit tables to N columns, cutting what must be cut (0: never cut)'
            cand --columns 'Table columns to show, in this order (comma-separated header names)'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand --utc 'Use UTC instead of local time: for --since/--until dates and the times tables show'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;check-ordinal'= {
            cand --deny 'Treat this warning as an error (exit 1): `gap`, `non-monotonic`'
            cand --codex 'Read each file as this Codex version resumes it: a version, `file` or `newest`'
            cand --config 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys'
            cand --codex-home 'Read Codex''s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]'
            cand --codex-home-as 'The path the databases'' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]'
            cand --root 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --format 'Output format (ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand --color 'When to color lines and diagnostics (auto honours NO_COLOR and the terminal)'
            cand --no-config 'Read no config file'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand --utc 'Read --since/--until dates as UTC days instead of local ones'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;replay'= {
            cand --view 'What to show: the model history (one row per item), the session state with its diagnostics (one object per file), or the turns and items a client shows'
            cand --through-turn 'Replay only through the end of this turn: its number as `turns` prints it, or its id'
            cand --before-turn 'Replay only what comes before this turn: its number as `turns` prints it, or its id'
            cand --max-output-lines 'Lines of a tool''s output (and of a command, a patch, instructions) shown before a note of how many more there are; `all` shows them all'
            cand --codex 'Read each file as this Codex version resumes it: a version, `file` or `newest`'
            cand --config 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys'
            cand --codex-home 'Read Codex''s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]'
            cand --codex-home-as 'The path the databases'' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]'
            cand --root 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --format 'Output format; the default is a table whatever stdout is (ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand --color 'When to color tables and diagnostics (auto honours NO_COLOR and the terminal)'
            cand --width 'History and ui views: fit tables to N columns, cutting what must be cut (0: never cut)'
            cand --columns 'History and ui views: table columns to show, in this order (comma-separated header names)'
            cand --for-prompt 'Normalise the history as Codex does before sending it: synthetic "aborted" outputs for calls without one, orphan outputs dropped (history view)'
            cand --redact-secrets 'Replace each credential `content.secret` finds by a marker naming its kind'
            cand --no-config 'Read no config file'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand --utc 'Use UTC instead of local time: for --since/--until dates and the times tables show'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;lint'= {
            cand --format 'Output format: rustc-style diagnostics for people, one line per finding, rows for pipelines, GitHub workflow annotations, or one SARIF 2.1.0 log for code scanning (ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand --select 'Only these rules: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated'
            cand --ignore 'Leave these rules out: slugs or groups, comma-separated (wins over --select)'
            cand --fail-on 'Exit 1 when a finding of this severity or above is reported [default: error]'
            cand --codex 'Read each file as this Codex version resumes it: a version, `file` or `newest`'
            cand --config 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys'
            cand --explain 'Print a rule''s documentation and exit'
            cand --color 'When to color diagnostics (auto honours NO_COLOR and the terminal)'
            cand --root 'Name files in SARIF logs and GitHub annotations relative to DIR [default: the current directory]'
            cand --codex-home 'Read Codex''s state databases (state_5.sqlite, thread_history_1.sqlite) in DIR for every input [default: the Codex home each rollout lies in]'
            cand --codex-home-as 'The path the databases'' rollout paths were written under, for a home copied elsewhere [default: what comes before their last sessions/ or archived_sessions/]'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --no-config 'Read no config file'
            cand --list-rules 'List every rule (a table; {slug, group, severity, summary} objects, as one array with --format json or one a line with ndjson; a SARIF log of the rules and no results with --format sarif) and exit'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand --utc 'Read --since/--until dates as UTC days instead of local ones'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;repair'= {
            cand --format 'Output format: a line per fix for people, or one row per fix for pipelines (one a line with ndjson, one array with json; ndjson with --jq)'
            cand --jq 'Filter the JSON output through a jq program, printed as `jq -rc` prints it (no jq needed)'
            cand -o 'Write the repaired copy of the one input to FILE (- for standard output); a clean file is copied as it is'
            cand --output 'Write the repaired copy of the one input to FILE (- for standard output); a clean file is copied as it is'
            cand --out-dir 'Write a copy of each input under DIR, at its path relative to its Codex home or to the folder it was found in (a file given alone: DIR/<its name>)'
            cand --select 'Only these rules'' fixes: slugs (`ordinal.gap`) or groups (`ordinal`), comma-separated'
            cand --ignore 'Leave these rules'' fixes out: slugs or groups, comma-separated (wins over --select)'
            cand --codex 'Read each file as this Codex version resumes it: a version, `file` or `newest`'
            cand --config 'Read the settings from this TOML file. Without it, the config file is rollscope.toml or .rollscope.toml in the current directory, else in the nearest parent directory that has one (both in one directory is an error). Options given on the command line win over the file''s keys'
            cand --color 'When to color the report (auto honours NO_COLOR and the terminal)'
            cand --since 'Only sessions started on or after this date (YYYY-MM-DD, local time) or RFC 3339 time'
            cand --until 'Only sessions started on or before this date (YYYY-MM-DD, inclusive) or RFC 3339 time'
            cand -j 'Files read in parallel [default: the number of CPUs]'
            cand --jobs 'Files read in parallel [default: the number of CPUs]'
            cand --max-line-bytes 'Skip and report lines longer than this (bytes; K, M, G, KiB, MiB, GiB suffixes)'
            cand --diff 'Show each file''s repair as a unified diff (not with --jq: a diff is no JSON)'
            cand --in-place 'Replace each repaired file, keeping the original as <name>.bak; refused when the file changed since it was read, another process has it open for writing, or the backup exists'
            cand --unsafe-fixes 'Also apply the fixes that drop data or renumber (each is listed)'
            cand --no-config 'Read no config file'
            cand --no-archived 'Leave $CODEX_HOME/archived_sessions out when no PATH is given'
            cand -q 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --quiet 'Do not report skipped lines on stderr, nor show a progress bar (errors are still reported)'
            cand --allow-empty 'Let a PATH that holds no rollout be an empty result (exit 0), not an error'
            cand --utc 'Read --since/--until dates as UTC days instead of local ones'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;completions'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;man'= {
            cand --dir 'Write every page into this directory instead (rollscope.1 and one rollscope-COMMAND.1 per subcommand), creating it if need be'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'rollscope;help'= {
            cand stats 'Counts per record type, turns, tool calls and the session''s own token usage'
            cand turns 'One row per turn: status, timing, settings, tool calls and own tokens'
            cand calls 'One row per tool call (and per output without a call): pairing, status, exit code'
            cand check-ordinal 'Prove paginated rollouts'' ordinals sound and predict the ones Codex''s next resume breaks (exit 1 on any error)'
            cand replay 'Rebuild what Codex rebuilds on resume and fork: the model history (or the prompt), the session state with what will break, or what a client is shown'
            cand lint 'Check rollouts against the rule registry: what Codex refuses, loses or misreads, and how to fix it (exit 1 on a finding at or above --fail-on)'
            cand repair 'Apply lint''s fixes to broken rollouts: print what would change, or write repaired copies checked by lint first (exit 1 when something would change, or is left)'
            cand completions 'Print shell completions to stdout'
            cand man 'Print a man page (roff): rollscope(1), or a subcommand''s (`man stats`); or write them all into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'rollscope;help;stats'= {
        }
        &'rollscope;help;turns'= {
        }
        &'rollscope;help;calls'= {
        }
        &'rollscope;help;check-ordinal'= {
        }
        &'rollscope;help;replay'= {
        }
        &'rollscope;help;lint'= {
        }
        &'rollscope;help;repair'= {
        }
        &'rollscope;help;completions'= {
        }
        &'rollscope;help;man'= {
        }
        &'rollscope;help;help'= {
        }
    ]
    $completions[$command]
}
