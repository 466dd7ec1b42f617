//! How listings are printed: a table for people, JSON or CSV for machines.

/// How a listing is printed.
#[derive(clap::Args)]
pub(crate) struct OutputArgs {
    /// JSON for machines.
    #[arg(long, conflicts_with = "csv")]
    pub(crate) json: bool,
    /// CSV for spreadsheets.
    #[arg(long)]
    pub(crate) csv: bool,
}
