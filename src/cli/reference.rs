//! `draughts completions` and `draughts man`: the reference generated from the command line's
//! own definition (clap_complete, clap_mangen), so it can never disagree with `--help`.

use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `draughts completions <shell>`.
#[derive(Args)]
pub(crate) struct CompletionsArgs {
    /// bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

/// `draughts man <dir>`.
#[derive(Args)]
pub(crate) struct ManArgs {
    /// Directory for the pages (created if needed): draughts.1, draughts-club.1, … one per
    /// command.
    dir: PathBuf,
}

/// Writes the completion script for a shell to standard output.
pub(crate) fn completions(mut cmd: clap::Command, args: CompletionsArgs) -> Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "draughts", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Ok(ExitCode::SUCCESS)
}

/// Writes a man page for the program and one for every command under it.
pub(crate) fn man(cmd: clap::Command, args: ManArgs) -> Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    // Built first, so every subcommand knows its full name (draughts-club-member-add).
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut written = 0;
    write_pages(&cmd, &args.dir, &mut written)?;
    outln!("{written} man pages written to {}", args.dir.display());
    Ok(ExitCode::SUCCESS)
}

fn write_pages(cmd: &clap::Command, dir: &Path, written: &mut usize) -> Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub, dir, written)?;
    }
    let page = clap_mangen::Man::new(cmd.clone())
        .source(format!("draughts {}", env!("CARGO_PKG_VERSION")))
        .manual("draughts");
    let mut text = Vec::new();
    page.render(&mut text)?;
    let path = dir.join(page.get_filename());
    // Written beside and renamed, so a reader never sees half a page.
    let partial = dir.join(format!(".{}.partial", page.get_filename()));
    std::fs::write(&partial, &text)
        .and_then(|()| std::fs::rename(&partial, &path))
        .with_context(|| format!("cannot write {}", path.display()))?;
    *written += 1;
    Ok(())
}
