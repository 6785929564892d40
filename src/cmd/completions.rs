//! `completions <shell>` and `man`: generated from the clap definition at run time, so
//! they never drift from the real flags.

use std::io;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::output;

pub fn completions(args: &CompletionsArgs) -> io::Result<()> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rollscope", &mut buf);
    output::raw(&buf)
}

pub fn man() -> io::Result<()> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
    output::raw(&buf)
}
