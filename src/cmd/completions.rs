//! `completions <shell>` and `man`: generated from the clap definition at run time, so
//! they never drift from the real flags.

use std::io::{self, Write};

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};

pub fn completions(args: &CompletionsArgs) -> io::Result<()> {
    let mut cmd = Cli::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "rollscope", &mut out);
    out.flush()
}

pub fn man() -> io::Result<()> {
    let cmd = Cli::command();
    let mut out = io::stdout().lock();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    out.flush()
}
