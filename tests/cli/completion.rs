//! Completion, tried in the shell that runs it: bash, fish and zsh each load what
//! `rollscope completions SHELL` prints and complete subcommand names, the rule registry's
//! names after `lint --select`, `--ignore` and `--explain`, and the item after the last comma
//! of every comma-separated list ([`list_cases`]). (Skipped, with a note, where the shell is
//! absent; a failure under CI: `util::tool`.) The registry's names are completion's only:
//! parsing and `--help` are as they were.

use std::process::Command as StdCommand;

use clap::CommandFactory;
use serde_json::Value;

use crate::util::*;

/// What bash offers (`COMPREPLY`) when TAB is pressed at the end of `words`, the last of
/// which is the word being completed; `None` where there is no bash to ask.
fn bash_completes(words: &[&str]) -> Option<Vec<String>> {
    let bash = tool("bash", "the bash completion was not tried")?;
    // The function `complete -p` names is called as readline calls it: the command, the
    // word being completed, the word before it.
    let script = r#"
        source <("$ROLLSCOPE" completions bash) || exit 3
        spec=$(complete -p rollscope) || exit 4
        fn=${spec#*-F }; fn=${fn%% *}
        COMP_WORDS=("$@")
        COMP_CWORD=$(( $# - 1 ))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        "$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\n' "${COMPREPLY[@]}"
    "#;
    let out = StdCommand::new(bash)
        .args(["--norc", "--noprofile", "-c", script, "bash"])
        .args(words)
        .env("ROLLSCOPE", assert_cmd::cargo::cargo_bin("rollscope"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{words:?}: {stderr}");
    assert!(stderr.is_empty(), "{words:?}: {stderr}");
    let offered = String::from_utf8(out.stdout).unwrap();
    Some(
        offered
            .lines()
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect(),
    )
}

/// The rule registry as `lint --list-rules` prints it: each rule's (slug, group).
fn registry() -> Vec<(String, String)> {
    let out = output(&["lint", "--list-rules", "--format", "json"], 0);
    let rules: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(rules.len() > 10, "{rules:?}");
    let field = |r: &Value, k: &str| r[k].as_str().unwrap().to_string();
    rules
        .iter()
        .map(|r| (field(r, "slug"), field(r, "group")))
        .collect()
}

/// The registry's slugs, and with `groups` its groups, that start with `prefix`, sorted.
fn names_starting(prefix: &str, groups: bool) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (slug, group) in registry() {
        if groups && !names.contains(&group) {
            names.push(group);
        }
        names.push(slug);
    }
    let mut v: Vec<String> = names
        .into_iter()
        .filter(|n| n.starts_with(prefix))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// A comma-separated list being typed: the command line before it, the list so far, and
/// the items that complete its last one.
struct ListCase {
    before: &'static str,
    typed: &'static str,
    items: Vec<String>,
}

impl ListCase {
    /// What a shell offers: the list typed before its last comma, then each item; sorted.
    fn offered(&self) -> Vec<String> {
        let head = self.typed.rsplit_once(',').map_or("", |(head, _)| head);
        sorted(self.items.iter().map(|i| format!("{head},{i}")).collect())
    }
}

/// Every option that takes a comma-separated list of known values, with a list whose last
/// item is being typed. The items typed before it are not offered again (`ordinal` below).
fn list_cases() -> Vec<ListCase> {
    let case = |before, typed, items: &[&str]| ListCase {
        before,
        typed,
        items: items.iter().map(|i| i.to_string()).collect(),
    };
    let mut ignored = names_starting("ord", true);
    ignored.retain(|n| n != "ordinal");
    assert!(ignored.contains(&"ordinal.gap".to_string()), "{ignored:?}");
    assert_eq!(names_starting("ordinal.g", false), ["ordinal.gap"]);
    vec![
        case(
            "rollscope lint --select",
            "file,ordinal.g",
            &["ordinal.gap"],
        ),
        ListCase {
            before: "rollscope lint --ignore",
            typed: "ordinal,ord",
            items: ignored,
        },
        case(
            "rollscope repair --select",
            "file.bom,ordinal.g",
            &["ordinal.gap"],
        ),
        case(
            "rollscope repair --ignore",
            "ordinal.gap,file.b",
            &["file.bom"],
        ),
        case("rollscope turns --status", "failed,ab", &["aborted"]),
        case(
            "rollscope calls --status",
            "ok,",
            &["error", "unknown", "orphan"],
        ),
        case(
            "rollscope calls --kind",
            "function_call,custom",
            &["custom_tool_call", "custom_tool_call_output"],
        ),
        case("rollscope stats --columns", "day,tot", &["total"]),
        case("rollscope turns --columns", "index,stat", &["status"]),
        case("rollscope calls --columns", "name,exit", &["exit_code"]),
        // Both views' columns: `time` is the history's, `turn_index` the ui's.
        case(
            "rollscope replay --columns",
            "who,t",
            &["text", "time", "turn_index"],
        ),
    ]
}

#[test]
fn bash_completes_li_to_lint() {
    let Some(offered) = bash_completes(&["rollscope", "li"]) else {
        return;
    };
    assert_eq!(offered, ["lint"]);
}

#[test]
fn bash_completes_subcommand_names_at_the_top_after_help_and_after_man() {
    let Some(all) = bash_completes(&["rollscope", ""]) else {
        return;
    };
    let mut cli = rollscope::cli::Cli::command();
    cli.build();
    for sub in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        assert!(all.iter().any(|w| w == sub.get_name()), "{sub:?}: {all:?}");
    }
    assert_eq!(
        bash_completes(&["rollscope", "help", "li"]).unwrap(),
        ["lint"]
    );
    assert_eq!(
        bash_completes(&["rollscope", "man", "sta"]).unwrap(),
        ["stats"]
    );
}

#[test]
fn bash_completes_lint_select_and_ignore_with_the_registry_s_groups_and_slugs() {
    let want = names_starting("ord", true);
    assert!(want.contains(&"ordinal".to_string()), "{want:?}");
    assert!(want.len() > 2, "{want:?}");
    for flag in ["--select", "--ignore"] {
        let Some(offered) = bash_completes(&["rollscope", "lint", flag, "ord"]) else {
            return;
        };
        assert_eq!(sorted(offered), want, "{flag}");
    }
    // After a path too, and every slug of a group once its dot is typed.
    let offered = bash_completes(&["rollscope", "lint", "some/dir", "--select", "ordinal."]);
    assert_eq!(sorted(offered.unwrap()), names_starting("ordinal.", false));
}

#[test]
fn bash_completes_lint_explain_with_slugs_only() {
    let Some(offered) = bash_completes(&["rollscope", "lint", "--explain", "ord"]) else {
        return;
    };
    assert_eq!(sorted(offered), names_starting("ord", false));
    assert!(!names_starting("ord", false).contains(&"ordinal".to_string()));
}

/// `--select file,ordinal.g<TAB>` completes `file,ordinal.gap`, in every comma list; after
/// a path too, and after `--select=`, which bash splits into `--select`, `=` and the list.
#[test]
fn bash_completes_the_item_after_the_last_comma_of_every_list() {
    for case in list_cases() {
        let mut words: Vec<&str> = case.before.split(' ').collect();
        words.push(case.typed);
        let Some(offered) = bash_completes(&words) else {
            return;
        };
        assert_eq!(sorted(offered), case.offered(), "{words:?}");
    }
    let words = [
        "rollscope",
        "lint",
        "some/dir",
        "--ignore",
        "meta,ordinal.g",
    ];
    assert_eq!(bash_completes(&words).unwrap(), ["meta,ordinal.gap"]);
    let words = ["rollscope", "lint", "--select", "=", "meta,ordinal.g"];
    assert_eq!(bash_completes(&words).unwrap(), ["meta,ordinal.gap"]);
}

/// zsh and fish complete option values from the same definition (clap_complete's static
/// PowerShell and elvish scripts complete no option values at all).
#[test]
fn zsh_and_fish_scripts_offer_every_rule() {
    let rules = registry();
    for shell in ["zsh", "fish"] {
        let script = String::from_utf8(output(&["completions", shell], 0).stdout).unwrap();
        for (slug, _) in &rules {
            assert!(script.contains(slug.as_str()), "{shell}: {slug}");
        }
    }
}

/// A shell run with a home of its own (fish writes its settings there) and `$ROLLSCOPE`
/// naming the binary.
fn shell(program: &std::path::Path, home: &std::path::Path) -> StdCommand {
    let mut c = StdCommand::new(program);
    c.env("HOME", home)
        .env("ROLLSCOPE", assert_cmd::cargo::cargo_bin("rollscope"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("ZDOTDIR");
    c
}

/// What fish offers for the command line `line` (whose last word, maybe empty, is the one
/// being completed): `complete -C`, in `fish --no-config` that sourced `rollscope
/// completions fish`; `None` where there is no fish to ask.
fn fish_completes(line: &str) -> Option<Vec<String>> {
    let fish = tool("fish", "the fish completion was not tried")?;
    let home = tempfile::tempdir().unwrap();
    let script = r#"
        $ROLLSCOPE completions fish | source; or exit 3
        complete -C $argv[1]
    "#;
    let out = shell(&fish, home.path())
        .args(["--no-config", "-c", script, line])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{line:?}: {stderr}");
    assert!(stderr.is_empty(), "{line:?}: {stderr}");
    // A candidate, a tab and its description.
    let offered = String::from_utf8(out.stdout).unwrap();
    Some(
        offered
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect(),
    )
}

#[test]
fn fish_completes_subcommand_names() {
    let Some(offered) = fish_completes("rollscope ch") else {
        return;
    };
    assert_eq!(offered, ["check-ordinal"]);
    let all = fish_completes("rollscope ").unwrap();
    let mut cli = rollscope::cli::Cli::command();
    cli.build();
    for sub in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        assert!(all.iter().any(|w| w == sub.get_name()), "{sub:?}: {all:?}");
    }
}

#[test]
fn fish_completes_lint_select_ignore_and_explain_from_the_registry() {
    let Some(offered) = fish_completes("rollscope lint --select ") else {
        return;
    };
    assert_eq!(sorted(offered), names_starting("", true));
    let offered = fish_completes("rollscope lint some/dir --ignore ord").unwrap();
    assert_eq!(sorted(offered), names_starting("ord", true));
    let offered = fish_completes("rollscope lint --explain ord").unwrap();
    assert_eq!(sorted(offered), names_starting("ord", false));
}

/// `--select file,ordinal.g<TAB>` completes `file,ordinal.gap`, in every comma list; after
/// a path too, and in `--select=file,ordinal.g`.
#[test]
fn fish_completes_the_item_after_the_last_comma_of_every_list() {
    for case in list_cases() {
        let line = format!("{} {}", case.before, case.typed);
        let Some(offered) = fish_completes(&line) else {
            return;
        };
        assert_eq!(sorted(offered), case.offered(), "{line:?}");
    }
    let offered = fish_completes("rollscope lint some/dir --ignore meta,ordinal.g").unwrap();
    assert_eq!(offered, ["meta,ordinal.gap"]);
    let offered = fish_completes("rollscope lint --select=meta,ordinal.g").unwrap();
    assert_eq!(offered, ["--select=meta,ordinal.gap"]);
}

/// `rollscope completions zsh`, written where `zsh` can load it: `DIR/_rollscope`.
fn zsh_script(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("_rollscope");
    std::fs::write(&path, output(&["completions", "zsh"], 0).stdout).unwrap();
    path
}

/// The script parses (`zsh -n`), and sourced after `compinit` in `zsh -f` it defines
/// `_rollscope` and makes it `rollscope`'s completion, without a word on stderr.
#[test]
fn zsh_loads_the_script_and_makes_rollscope_complete_with_it() {
    let Some(zsh) = tool("zsh", "the zsh completion was not loaded") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let script = zsh_script(home.path());
    let out = shell(&zsh, home.path())
        .args(["-f", "-n"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(out.status.success(), "zsh -n: {out:?}");
    assert!(out.stderr.is_empty(), "zsh -n: {out:?}");
    let load = r#"
        autoload -U compinit && compinit -u -D || exit 3
        source $1 || exit 4
        (( $+functions[_rollscope] )) || exit 5
        [[ $_comps[rollscope] == _rollscope ]] || exit 6
    "#;
    let out = shell(&zsh, home.path())
        .args(["-f", "-c", load, "zsh"])
        .arg(&script)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

/// Sourced in the interactive `zsh -f` that [`zsh_completes`] types into: completion from
/// `fpath`'s `_rollscope`, TAB bound to it, and every match it adds printed, one a line
/// between two marks, after the start of the word that stays as typed (`$IPREFIX`: the
/// `--select=` of `--select=ord`, the `file,` of a list's `file,ord`); the shell exits once
/// the completion is done.
const ZSH_CAPTURE: &str = r#"
PROMPT= RPROMPT= PS2=
fpath=($COMPLETIONS $fpath)
autoload -U compinit && compinit -u -D
bindkey '^I' complete-word
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
# The calls with -O, -A or -D only filter words; the others add matches.
compadd() {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return
    fi
    local -a hits
    builtin compadd -A hits "$@"
    local h
    for h in $hits; do print -r -- "match:$IPREFIX$h"; done
    builtin compadd "$@"
}
begin-capture() { print -r -- '<<begin>>' }
end-capture() { print -r -- '<<end>>' }
compprefuncs=(begin-capture)
comppostfuncs=(end-capture exit)
print -r -- '<<ready>>'
"#;

/// Drives an interactive `zsh -f` through `zpty`: sources [`ZSH_CAPTURE`] (`$1`), types the
/// line `$2` and a TAB, and prints what the shell writes until the completion ends.
const ZSH_DRIVER: &str = r#"
zmodload zsh/zpty || exit 3
zpty z zsh -f -i || exit 4
zpty -w z "source ${(q)1}"
local line
while zpty -r z line; do
    [[ $line == *'<<ready>>'* ]] && break
done
zpty -w -n z "$2"$'\t'
while zpty -r z line; do
    print -r -- "${line%$'\r'}"
    [[ $line == *'<<end>>'* ]] && break
done
zpty -d z
"#;

/// What zsh offers when TAB is pressed at the end of `line`: the matches the completion
/// system adds, typed into a real interactive `zsh -f` (in a pseudo-terminal, through its
/// `zpty` module) that loaded `_rollscope` from `fpath`; `None` where there is no zsh.
fn zsh_completes(line: &str) -> Option<Vec<String>> {
    let zsh = tool("zsh", "the zsh completion was not tried")?;
    let home = tempfile::tempdir().unwrap();
    zsh_script(home.path());
    let capture = home.path().join("capture.zsh");
    std::fs::write(&capture, ZSH_CAPTURE).unwrap();
    let mut c = assert_cmd::Command::from_std(shell(&zsh, home.path()));
    let out = c
        .args(["-f", "-c", ZSH_DRIVER, "zsh"])
        .arg(&capture)
        .arg(line)
        .env("COMPLETIONS", home.path())
        .env("TERM", "xterm")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{line:?}: {stderr}\n{stdout}");
    let (_, after) = stdout
        .split_once("<<begin>>")
        .unwrap_or_else(|| panic!("{line:?}: no completion ran: {stderr}\n{stdout}"));
    let (during, _) = after
        .split_once("<<end>>")
        .unwrap_or_else(|| panic!("{line:?}: the completion did not end: {stderr}\n{stdout}"));
    let mut offered: Vec<String> = during
        .lines()
        .filter_map(|l| l.strip_prefix("match:"))
        .map(String::from)
        .collect();
    offered.sort();
    offered.dedup();
    Some(offered)
}

#[test]
fn zsh_completes_subcommand_names() {
    let Some(offered) = zsh_completes("rollscope ch") else {
        return;
    };
    assert_eq!(offered, ["check-ordinal"]);
}

#[test]
fn zsh_completes_lint_select_and_explain_from_the_registry() {
    let Some(offered) = zsh_completes("rollscope lint --select ord") else {
        return;
    };
    assert_eq!(offered, names_starting("ord", true));
    let offered = zsh_completes("rollscope lint --explain ord").unwrap();
    assert_eq!(offered, names_starting("ord", false));
}

/// `--select file,ordinal.g<TAB>` completes `file,ordinal.gap`, in every comma list; and
/// in `--select=file,ordinal.g`. (Not after a path: clap's zsh script completes no option
/// there, not even a list's first item.)
#[test]
fn zsh_completes_the_item_after_the_last_comma_of_every_list() {
    for case in list_cases() {
        let line = format!("{} {}", case.before, case.typed);
        let Some(offered) = zsh_completes(&line) else {
            return;
        };
        assert_eq!(offered, case.offered(), "{line:?}");
    }
    let offered = zsh_completes("rollscope lint --select=meta,ordinal.g").unwrap();
    assert_eq!(offered, ["--select=meta,ordinal.gap"]);
}

/// The names are completion's: `lint` still takes any name and says itself which is no
/// rule, and neither `--help` nor clap's errors list the registry.
#[test]
fn rule_names_for_completion_change_neither_parsing_nor_help() {
    let dir = testdata("replay/meta-missing");
    let dir = dir.to_str().unwrap();
    let out = output(&["lint", "--select", "ordinal.gapp", dir], 2);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "rollscope: unknown rule or group `ordinal.gapp`; did you mean `ordinal.gap`? \
         (`rollscope lint --list-rules` lists them)\n"
    );
    let out = output(&["lint", "--explain", "ordinal"], 2);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown rule or group `ordinal`"), "{err}");
    let rules = registry();
    let (first, last) = (&rules[0].0, &rules[rules.len() - 1].0);
    let out = output(&["lint", "--select"], 2);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains(first) && !err.contains(last), "{err}");
    for help in ["-h", "--help"] {
        let text = String::from_utf8(output(&["lint", help], 0).stdout).unwrap();
        assert!(!text.contains(first), "lint {help}: {text}");
        assert!(!text.contains(last), "lint {help}: {text}");
    }
}
