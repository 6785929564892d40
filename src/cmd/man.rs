//! `man [COMMAND] [--dir DIR]`: the man pages, rendered from the clap definition at run time
//! (clap_mangen), so they never drift from the real flags: rollscope(1), and one page per
//! subcommand, named as rollscope(1) lists them (`rollscope-stats(1)`).

use std::fs;
use std::io;

use clap::CommandFactory;
use clap_mangen::Man;

use crate::cli::{Cli, ManArgs};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::output;

/// One man page: its file name (`rollscope-stats.1`) and its roff.
pub struct Page {
    pub file: String,
    pub roff: Vec<u8>,
}

pub fn run(args: &ManArgs) -> Result<ExitStatus, Error> {
    let Some(dir) = &args.dir else {
        output::raw(&page(args.command.as_deref())?.roff)?;
        return Ok(ExitStatus::Clean);
    };
    let failed = |e: io::Error| Error::Usage(format!("{}: {e}", dir.display()));
    fs::create_dir_all(dir).map_err(failed)?;
    for page in pages()? {
        let path = dir.join(&page.file);
        fs::write(&path, &page.roff)
            .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
    }
    Ok(ExitStatus::Clean)
}

/// Every page: rollscope(1), then one per subcommand in `--help`'s order.
pub fn pages() -> io::Result<Vec<Page>> {
    let subcommands: Vec<String> = top()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    let mut pages = vec![page(None)?];
    for name in subcommands {
        pages.push(page(Some(&name))?);
    }
    Ok(pages)
}

/// rollscope(1), or the page of the subcommand `name`.
///
/// Each subcommand's display name is `rollscope` (so `rollscope stats -V` says `rollscope
/// 0.1.0`), which clap_mangen would take as its page's title and name: the page is given
/// the name the top page lists instead.
fn page(name: Option<&str>) -> io::Result<Page> {
    let top = top();
    let man = match name {
        None => Man::new(top),
        Some(name) => {
            let Some(sub) = top.find_subcommand(name) else {
                return Err(io::Error::other(format!("no subcommand `{name}`")));
            };
            let title = format!("{}-{}", top.get_name(), sub.get_name());
            let source = format!(
                "{} {}",
                top.get_name(),
                top.get_version().unwrap_or_default()
            );
            Man::new(sub.clone().display_name(title)).source(source)
        }
    };
    let mut roff = Vec::new();
    man.render(&mut roff)?;
    Ok(Page {
        file: man.get_filename(),
        roff,
    })
}

/// The command line, built (every subcommand's usage says `rollscope stats`), without the
/// `help` subcommand, which has no page.
fn top() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}
