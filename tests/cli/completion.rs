//! Completion, tried in the shell that runs it: bash sources what `rollscope completions
//! bash` prints and completes subcommand names, and the rule registry's names after `lint
//! --select`, `--ignore` and `--explain`. (Skipped, with a note, where bash is absent.) The
//! registry's names are completion's only: parsing and `--help` are as they were.

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
