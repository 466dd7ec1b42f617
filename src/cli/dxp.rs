//! `draughts dxp`: games against other programs over DXP, as follower (`--listen`) or initiator
//! (`--connect`).

use super::MAX_MOVE_SECONDS;
use anyhow::Result;
use draughts::Variant;
use draughts::rules::pdn;
use draughts::tablebase;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `draughts dxp`.
#[derive(clap::Args)]
pub(crate) struct DxpArgs {
    /// Wait for a program to connect here (`host:port`, `:port`) and follow its requests.
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    listen: Option<String>,
    /// Connect to a program here (`host`, `host:port`) and ask it for games.
    #[arg(long)]
    connect: Option<String>,
    /// The engine's level: 1-10 or max.
    #[arg(long, default_value = "max")]
    level: String,
    /// Think this many seconds a move instead of budgeting the clock.
    #[arg(long)]
    move_time: Option<f64>,
    /// international or frisian (both programs must agree; DXP does not say).
    #[arg(long, default_value = "international")]
    variant: String,
    /// The name sent to the other program.
    #[arg(long, default_value = concat!("draughts ", env!("CARGO_PKG_VERSION")))]
    name: String,
    /// Games to ask for (with --connect); the colours alternate.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Our colour in the first game (with --connect): white or black.
    #[arg(long, default_value = "white")]
    color: String,
    /// Minutes each for the game (with --connect; 0: no clock).
    #[arg(long, default_value_t = 5)]
    time: u16,
    /// Moves in that time (with --connect; 0: the whole game).
    #[arg(long, default_value_t = 0)]
    moves: u16,
    /// Start from this position (with --connect).
    #[arg(long, conflicts_with_all = ["openings", "two_ply"])]
    fen: Option<String>,
    /// Openings file, one a line, in moves or FEN: each pair of games starts from the next opening.
    #[arg(long, conflicts_with = "two_ply")]
    openings: Option<PathBuf>,
    /// Each pair of games starts from the next two-ply opening of the variant.
    #[arg(long)]
    two_ply: bool,
    /// Write the games to this PDN file (replaced after each session).
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Tablebase directory [default: tablebases/<variant> when present].
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Think from the first move instead of playing the opening book's moves.
    #[arg(long)]
    no_book: bool,
    /// Think on the other program's time too.
    #[arg(long)]
    ponder: bool,
}

/// Plays the session's games, writes their records and prints the score.
pub(crate) fn run(args: DxpArgs) -> Result<ExitCode> {
    let DxpArgs {
        listen,
        connect,
        level,
        move_time,
        variant,
        name,
        games,
        color,
        time,
        moves,
        fen,
        openings,
        two_ply,
        pdn: out,
        tablebases,
        threads,
        no_book,
        ponder,
    } = args;
    use draughts::dxp::{Start, session};
    let variant: Variant = variant.parse()?;
    if variant == Variant::English {
        anyhow::bail!("DXP carries 50-square boards: international or frisian");
    }
    let level: draughts::engine::Level = level.parse().map_err(anyhow::Error::msg)?;
    let move_time = match move_time {
        Some(t) if !(t > 0.0 && t < MAX_MOVE_SECONDS) => {
            anyhow::bail!("--move-time {t}: expected seconds above 0")
        }
        t => t.map(std::time::Duration::from_secs_f64),
    };
    let dir = tablebases.unwrap_or_else(|| tablebase::default_dir(variant));
    let player = session::Player {
        variant,
        name,
        level,
        move_time,
        tablebase: tablebase::open_if_present(&dir, variant).map_err(anyhow::Error::msg)?,
        threads,
        book: !no_book,
        ponder,
    };
    let mut report = |line: &str| outln!("{line}");
    let played = if let Some(addr) = listen {
        let listener = std::net::TcpListener::bind(session::address(&addr, true))
            .map_err(|e| anyhow::anyhow!("--listen {addr}: {e}"))?;
        outln!("listening on {}", listener.local_addr()?);
        session::listen(&listener, &player, &mut report)?
    } else {
        let addr = session::address(connect.as_deref().unwrap_or_default(), false);
        let color = match color.to_ascii_lowercase().as_str() {
            "white" | "w" => draughts::Color::White,
            "black" | "b" => draughts::Color::Black,
            other => anyhow::bail!("--color {other:?}: expected white or black"),
        };
        let lines = match (&openings, two_ply) {
            (Some(f), _) => {
                let text = draughts::bounded::read_text(
                    f,
                    draughts::bounded::MAX_TEXT_FILE,
                    "openings file",
                )?;
                draughts::arena::read_openings(&text, variant)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?
                    .iter()
                    .map(draughts::arena::Opening::position)
                    .collect()
            }
            (None, true) => draughts::arena::two_ply_openings(variant)
                .iter()
                .map(draughts::arena::Opening::position)
                .collect(),
            (None, false) => Vec::new(),
        };
        let starts = match fen {
            Some(f) => vec![Start::Position(draughts::rules::notation::parse_fen(
                &f, variant,
            )?)],
            None if lines.is_empty() => vec![Start::Initial],
            None => lines.into_iter().map(Start::Position).collect(),
        };
        let request = session::Request {
            games,
            color,
            minutes: time,
            moves,
            starts,
        };
        session::connect(&addr, &player, &request, &mut report)?
    };
    if let Some(path) = &out {
        let text = pdn::write_games(played.iter().map(|p| &p.pdn));
        draughts::config::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    let scored: Vec<draughts::arena::Played> = played
        .iter()
        .map(|p| draughts::arena::Played {
            score_a: match p.pdn.result {
                pdn::GameResult::Win(c) if c == p.color => 1.0,
                pdn::GameResult::Win(_) => 0.0,
                _ => 0.5,
            },
            pdn: p.pdn.clone(),
            adjudicated: false,
        })
        .collect();
    outln!("{}: {}", player.name, draughts::arena::summarise(&scored));
    Ok(ExitCode::SUCCESS)
}
