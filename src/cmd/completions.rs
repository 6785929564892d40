//! `completions <shell>`: generated from the clap definition at run time, so they never
//! drift from the real flags. Completion offers values that parsing leaves to the
//! subcommands: the rule registry's names after `lint`'s and `repair`'s `--select` and
//! `--ignore` and after `lint --explain` ([`cli::for_completions`]), and the tables' column
//! names after `--columns` ([`super::every_table`]).

use std::collections::HashSet;
use std::io;

use clap::builder::{PossibleValue, PossibleValuesParser};

use crate::cli::{self, CompletionsArgs};
use crate::output;

pub fn completions(args: &CompletionsArgs) -> io::Result<()> {
    let mut cmd = command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rollscope", &mut buf);
    output::raw(&buf)
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

#[cfg(test)]
mod tests {
    use super::*;

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
