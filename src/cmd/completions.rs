//! `completions <shell>`: generated from the clap definition at run time, so they never
//! drift from the real flags; `lint --select`, `--ignore` and `--explain` offer the rule
//! registry's names ([`cli::for_completions`]).

use std::io;

use crate::cli::{self, CompletionsArgs};
use crate::output;

pub fn completions(args: &CompletionsArgs) -> io::Result<()> {
    let mut cmd = cli::for_completions();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rollscope", &mut buf);
    output::raw(&buf)
}
