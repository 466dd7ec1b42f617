//! `draughts club publish`: the club's results as a static web site in a folder.

use anyhow::Result;
use draughts::club::Store;
use draughts::tablebase::progress::{Progress, Report};
use draughts::web;
use std::path::PathBuf;

/// Arguments of `draughts club publish`.
#[derive(clap::Args)]
pub(crate) struct PublishArgs {
    /// The folder to write the site to (replaced as a whole; created when missing).
    #[arg(long)]
    out: PathBuf,
    /// Only these tournaments (name or id; repeatable); all when none is given.
    #[arg(long = "tournament", value_name = "T")]
    tournaments: Vec<String>,
    /// The address the site will be read at, for the pages' canonical links.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The site's title: the club's name.
    #[arg(long, default_value = "Club results")]
    title: String,
}

/// Publishes the site of `store`.
pub(crate) fn run(store: &Store, args: PublishArgs) -> Result<()> {
    let options = web::Options {
        title: args.title,
        tournaments: args.tournaments,
        base_url: args.base_url,
        live: false,
    };
    let mut progress: Option<Progress> = None;
    let published = web::publish(store, &options, &args.out, |_, total| {
        progress
            .get_or_insert_with(|| Progress::start(Report::for_stdout(), "publish", total as u64))
            .inc(1);
    })?;
    if let Some(p) = progress {
        p.finish(&format!("{} files", published.files));
    }
    outln!(
        "published {} files ({} KiB) to {}",
        published.files,
        published.bytes.div_ceil(1024),
        args.out.display()
    );
    Ok(())
}
