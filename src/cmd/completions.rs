//! `completions <shell>`: generated from the clap definition at run time, so they never
//! drift from the real flags. Completion offers values that parsing leaves to the
//! subcommands: the rule registry's names after `lint`'s and `repair`'s `--select` and
//! `--ignore` and after `lint --explain` ([`cli::for_completions`]), and the tables' column
//! names after `--columns` ([`super::every_table`]).
//!
//! clap_complete's scripts complete an option's value as one word, so in a comma-separated
//! list (`--select file,ordinal.g`) only the first item would complete. The bash, zsh and
//! fish scripts get a few lines more for each option whose value is such a list of known
//! names ([`lists`]): the item after the last comma completes as the option's whole value
//! would, the items typed before it are kept in front, and none of them is offered again.
//!
//! - bash: `rollscope` completes through `_rollscope__lists`, which hands clap's function
//!   the last item alone as the word being completed (and the option, also after
//!   `--select=`), then puts the items before it back in front of each answer.
//! - zsh: the option's values are completed by `_sequence`, zsh's own completer of
//!   separated lists, over a function of the script that lists them.
//! - fish: each such option also completes through `__fish_rollscope_list_item`, which asks
//!   fish (`complete -C`) about the command line with the last item alone, then puts the
//!   items before it back in front of each answer.
//!
//! PowerShell and elvish get clap's scripts as they are (they complete no option values).
//! Should clap_complete's scripts ever lack what the lines added hook into, the shell gets
//! clap's script as it is: it completes a list's first item, as before.

use std::collections::HashSet;
use std::io;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap_complete::Shell;

use crate::cli::{self, CompletionsArgs};
use crate::output;

pub fn completions(args: &CompletionsArgs) -> io::Result<()> {
    let cmd = command();
    let script = match args.shell {
        Shell::Bash => bash(&cmd),
        Shell::Zsh => zsh(&cmd),
        Shell::Fish => fish(&cmd),
        _ => None,
    };
    let script = script.unwrap_or_else(|| generate(args.shell, cmd));
    output::raw(script.as_bytes())
}

/// clap_complete's script for `shell`.
fn generate(shell: Shell, mut cmd: clap::Command) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "rollscope", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The command line as completion sees it: [`cli::for_completions`], with the names of the
/// columns of a subcommand's tables as the values of its `--columns` (each with the field
/// it shows where that has another name, or what it draws).
fn command() -> clap::Command {
    let tables = super::every_table();
    // In place: `mut_arg` would move the option last in the scripts.
    cli::for_completions().mut_subcommands(|sub| {
        let mut seen = HashSet::new();
        let values: Vec<PossibleValue> = tables
            .iter()
            .filter(|(line, _)| line.split(' ').next() == Some(sub.get_name()))
            .flat_map(|(_, columns)| columns)
            .filter(|c| seen.insert(c.name))
            .map(|c| match (c.field, c.about) {
                ("", about) => PossibleValue::new(c.name).help(about),
                (field, _) if field != c.name => PossibleValue::new(c.name).help(field),
                _ => PossibleValue::new(c.name),
            })
            .collect();
        if values.is_empty() {
            return sub;
        }
        sub.mut_args(|a| match a.get_id().as_str() {
            "columns" => a.value_parser(PossibleValuesParser::new(values.clone())),
            _ => a,
        })
    })
}

/// An option of a subcommand whose value is a comma-separated list of known names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct List {
    /// The subcommand (`lint`).
    command: String,
    /// The option's long name, without its dashes (`select`).
    long: String,
    /// What the option's help calls its value (`RULES`).
    value_name: String,
    /// The names, each with its help (empty where it has none).
    values: Vec<(String, String)>,
}

/// The options of `cmd`'s subcommands that take a comma-separated list of known names.
fn lists(cmd: &clap::Command) -> Vec<List> {
    let mut out = Vec::new();
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments() {
            let values = arg.get_possible_values();
            let long = arg.get_long();
            let (Some(','), Some(long), false) =
                (arg.get_value_delimiter(), long, values.is_empty())
            else {
                continue;
            };
            let value_name = arg.get_value_names().and_then(|n| n.first());
            out.push(List {
                command: sub.get_name().to_string(),
                long: long.to_string(),
                value_name: value_name.map_or_else(|| long.to_uppercase(), |n| n.to_string()),
                values: values
                    .iter()
                    .filter(|v| !v.is_hide_set())
                    .map(|v| {
                        let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                        (v.get_name().to_string(), help)
                    })
                    .collect(),
            });
        }
    }
    out
}

/// clap's bash script, `rollscope` completed through `_rollscope__lists` (the module's
/// notes).
fn bash(cmd: &clap::Command) -> Option<String> {
    let lists = lists(cmd);
    let script = generate(Shell::Bash, cmd.clone());
    let register = "complete -F _rollscope ";
    if lists.is_empty() || !script.contains(register) {
        return None;
    }
    let script = script.replace(register, "complete -F _rollscope__lists ");
    let cases: Vec<String> = lists
        .iter()
        .map(|l| format!("\"{} --{}\"", l.command, l.long))
        .collect();
    Some(script + &BASH_LISTS.replace("CASES", &cases.join("|")))
}

/// Appended to clap's bash script; `CASES` becomes the lists' patterns, `"lint --select"`.
const BASH_LISTS: &str = r#"
# An option whose value is a comma-separated list (`--select file,ordinal.g`): the item after
# the last comma is completed as clap's function completes a whole value, after the items
# typed before it, which are not offered again. Other words go to clap's function as they are.
_rollscope__lists() {
    local cur="$2" opt="$3"
    if [[ $opt == = && $COMP_CWORD -ge 2 ]]; then
        opt="${COMP_WORDS[COMP_CWORD-2]}"
    fi
    case "${COMP_WORDS[1]} $opt" in
        CASES)
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
"#;

/// clap's zsh script, each list's values completed by `_sequence` over a function that
/// lists them (the module's notes).
fn zsh(cmd: &clap::Command) -> Option<String> {
    let lists = lists(cmd);
    if lists.is_empty() {
        return None;
    }
    // Without their values, clap gives the lists' options the action `_default`, on the
    // line of their spec: `'*--select=[help]:RULES:_default' \`.
    let plain = cmd.clone().mut_subcommands(|sub| {
        let name = sub.get_name().to_string();
        sub.mut_args(|a| {
            let long = a.get_long().map(str::to_string);
            let listed = |l: &&List| l.command == name && Some(&l.long) == long.as_ref();
            match lists.iter().find(listed) {
                Some(_) => a.value_parser(clap::builder::NonEmptyStringValueParser::new()),
                None => a,
            }
        })
    });
    let script = generate(Shell::Zsh, plain);
    // The lines of the specs, in the block of their subcommand (`(lint)` to `;;`).
    let mut done = vec![false; lists.len()];
    let mut block = "";
    let mut lines = Vec::new();
    for line in script.lines() {
        let label = line.trim();
        if label == ";;" {
            block = "";
        } else if let Some(name) = label.strip_prefix('(').and_then(|l| l.strip_suffix(')')) {
            block = name;
        }
        let mut line = line.to_string();
        for (l, done) in lists.iter().zip(done.iter_mut()) {
            let spec = format!("--{}=[", l.long);
            let end = format!("]:{}:_default' \\", l.value_name);
            if block == l.command && line.contains(&spec) && line.ends_with(&end) && !*done {
                let kept = line.len() - "_default' \\".len();
                line = format!("{}_sequence {}' \\", line.get(..kept)?, zsh_function(l));
                *done = true;
            }
        }
        lines.push(line);
    }
    let call = "if [ \"$funcstack[1]\" = \"_rollscope\" ]; then";
    let at = lines.iter().position(|l| l == call)?;
    if done.contains(&false) {
        return None;
    }
    let functions: Vec<String> = lists.iter().map(zsh_lister).collect();
    lines.splice(at..at, functions);
    Some(lines.join("\n") + "\n")
}

/// The name of the zsh function that lists `list`'s names: `_rollscope__lint__select`.
fn zsh_function(list: &List) -> String {
    let name = format!("_rollscope__{}__{}", list.command, list.long);
    name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
}

/// The zsh function that offers `list`'s names, each with its help, passing on the options
/// `_sequence` gives it.
fn zsh_lister(list: &List) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let items: Vec<String> = list
        .values
        .iter()
        .map(|(name, help)| {
            let name = name.replace('\\', r"\\").replace(':', r"\:");
            let help = help.replace(['\n', '\r'], " ");
            let item = if help.is_empty() {
                name
            } else {
                format!("{name}:{help}")
            };
            format!("        {}\n", quote(&item))
        })
        .collect();
    let name = zsh_function(list);
    format!(
        "(( $+functions[{name}] )) ||\n\
         {name}() {{\n    \
             local -a items=(\n{}    )\n    \
             _describe -t values {} items \"$@\"\n\
         }}\n",
        items.concat(),
        quote(&list.value_name)
    )
}

/// clap's fish script, each list option completed also by `__fish_rollscope_list_item`
/// (the module's notes).
fn fish(cmd: &clap::Command) -> Option<String> {
    let lists = lists(cmd);
    let script = generate(Shell::Fish, cmd.clone());
    let condition = "__fish_rollscope_using_subcommand";
    if lists.is_empty() || !script.contains(&format!("function {condition}\n")) {
        return None;
    }
    let lines: Vec<String> = lists
        .iter()
        .map(|l| {
            format!(
                "complete -c rollscope -n \"{condition} {}\" -l {} -r -f -a \"(__fish_rollscope_list_item)\"\n",
                l.command, l.long
            )
        })
        .collect();
    Some(script + FISH_LISTS + &lines.concat())
}

/// Appended to clap's fish script, before a line for each list option.
const FISH_LISTS: &str = r#"
# An option whose value is a comma-separated list (`--select file,ordinal.g`): the item after
# the last comma is completed as fish completes a whole value, after the items typed before
# it, which are not offered again.
function __fish_rollscope_list_item
    set -l token (commandline -ct)
    string match -q -- '*,*' $token
    or return
    # `--select=` of `--select=file,ord`: fish completes what follows it.
    set -l opt (string match -r -- '^--[^=]*=' $token)
    set -l value (string sub -s (math (string length -- "$opt") + 1) -- $token)
    set -l head (string replace -r -- '[^,]*$' '' $value)
    set -l typed (string split -- , $head)
    set -l line (commandline -cp)
    set line (string sub -l (math (string length -- "$line") - (string length -- $token)) -- "$line")
    for c in (complete -C "$line$opt"(string replace -r -- '^.*,' '' $value))
        set c (string sub -s (math (string length -- "$opt") + 1) -- $c)
        contains -- (string split -m 1 \t -- $c)[1] $typed
        or printf '%s%s\n' $head $c
    end
end
"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option clap splits at commas, and that has names to offer, is a list.
    #[test]
    fn every_comma_list_has_its_names() {
        let lists = lists(&command());
        let found: Vec<String> = lists
            .iter()
            .map(|l| format!("{} --{}", l.command, l.long))
            .collect();
        let want = [
            "stats --columns",
            "turns --status",
            "turns --columns",
            "calls --status",
            "calls --kind",
            "calls --columns",
            "lint --select",
            "lint --ignore",
            "repair --select",
            "repair --ignore",
            "replay --columns",
        ];
        for w in want {
            assert!(found.iter().any(|f| f == w), "{w}: {found:?}");
        }
        for l in &lists {
            assert!(l.values.len() > 1, "{l:?}");
        }
    }

    /// Each shell's script hooks into clap's for every list; `tests/cli/completion.rs`
    /// tries each in its shell.
    #[test]
    fn bash_zsh_and_fish_complete_lists_item_by_item() {
        let cmd = command();
        let bash = bash(&cmd).unwrap();
        assert!(bash.contains("\"lint --select\"|"), "{bash}");
        assert!(!bash.contains("complete -F _rollscope "), "{bash}");
        let zsh = zsh(&cmd).unwrap();
        let sequences = zsh.matches(":_sequence _rollscope__").count();
        assert_eq!(sequences, lists(&cmd).len(), "{zsh}");
        let fish = fish(&cmd).unwrap();
        let items = fish.matches("(__fish_rollscope_list_item)").count();
        assert_eq!(items, lists(&cmd).len(), "{fish}");
    }

    /// Every column of every table, `stats --by cwd`'s own too, is offered after its
    /// subcommand's `--columns`; parsing still takes any name (the table reports an unknown
    /// one, with its columns).
    #[test]
    fn columns_complete_the_names_of_the_subcommand_s_columns() {
        let (completed, parsed) = (command(), <cli::Cli as clap::CommandFactory>::command());
        let offered = |c: &clap::Command, sub: &str| -> Vec<String> {
            let sub = c.find_subcommand(sub).unwrap();
            let arg = sub.get_arguments().find(|a| a.get_id() == "columns");
            let values = arg.unwrap().get_possible_values();
            values.iter().map(|v| v.get_name().to_string()).collect()
        };
        for (line, columns) in super::super::every_table() {
            let sub = line.split(' ').next().unwrap();
            for c in columns {
                assert!(
                    offered(&completed, sub).iter().any(|n| n == c.name),
                    "{line}"
                );
            }
            assert!(offered(&parsed, sub).is_empty(), "{sub}");
        }
        assert!(offered(&completed, "stats").iter().any(|n| n == "cwd"));
    }
}
