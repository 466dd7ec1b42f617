//! `draughts` and `draughts play`: the terminal UI, on the home screen or straight into a game.

use anyhow::Result;
use draughts::Variant;
use draughts::clock::TimeControl;
use draughts::config::Config;
use draughts::tablebase::open_if_present;
use draughts::tui::setup::{load_pdn, start_position};
use draughts::tui::{self, App, ColorDepth, GameSetup, PlayerKind};
use std::path::PathBuf;
use std::process::ExitCode;

/// How a game started from the command line is played.
#[derive(clap::Args)]
pub(crate) struct PlayArgs {
    /// international, frisian or english [default: the settings' variant].
    #[arg(long)]
    variant: Option<String>,
    /// Who plays White: human, engine, or engine:<1-10|max>.
    #[arg(long, default_value = "human")]
    white: String,
    /// Who plays Black: human, engine, or engine:<1-10|max>.
    #[arg(long, default_value = "human")]
    black: String,
    /// Time control: 15m, 5m+3s, "5m d3s", "2h/50, 1h/25 repeating", or none
    /// [default: the settings' clock].
    #[arg(long)]
    clock: Option<String>,
    /// Start from this position (FEN, e.g. "W:W31-50:B1-20").
    #[arg(long, conflicts_with = "pdn")]
    fen: Option<String>,
    /// Open a recorded game from this PDN file to step through and continue.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Which game of the PDN file (1 is the first).
    #[arg(long, default_value_t = 1, requires = "pdn")]
    game: usize,
    /// Tablebase directory for adjudication [default: tablebases/<variant> when present].
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Tournament conditions: no takebacks and no pausing the clock.
    #[arg(long)]
    tournament: bool,
}

/// Opens the TUI: on the home screen, or straight into a game.
pub(crate) fn run(
    ascii: bool,
    config: Option<PathBuf>,
    play: Option<PlayArgs>,
) -> Result<ExitCode> {
    let path = config.unwrap_or_else(draughts::config::default_path);
    let (settings, writable, error) = match Config::load(&path) {
        Ok(c) => (c, true, None),
        Err(e) => (Config::default(), false, Some(e.to_string())),
    };
    let depth = ColorDepth::detect(|k| std::env::var(k).ok());
    let mut app = App::new(settings, writable.then_some(path), depth);
    app.config_error = error;
    app.ascii = ascii || !utf8_locale();
    if let Some(args) = play {
        let setup = game_setup(&app, args)?;
        app.direct = true;
        app.start_game(setup, std::time::Duration::ZERO);
    }
    tui::run_local(&mut app).map_err(|e| anyhow::anyhow!("terminal: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the locale says UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is set decides).
fn utf8_locale() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.is_empty())
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// The game the arguments describe, checked before the screen opens.
fn game_setup(app: &App, args: PlayArgs) -> Result<GameSetup> {
    let mut variant: Variant = match &args.variant {
        Some(v) => v.parse()?,
        None => app.config.variant,
    };
    let white: PlayerKind = args
        .white
        .parse()
        .map_err(|e| anyhow::anyhow!("--white: {e}"))?;
    let black: PlayerKind = args
        .black
        .parse()
        .map_err(|e| anyhow::anyhow!("--black: {e}"))?;
    for p in [&white, &black] {
        if matches!(p, PlayerKind::Hub(_)) && variant == Variant::English {
            anyhow::bail!("Hub engines play International and Frisian draughts, not English");
        }
    }
    let mut record = None;
    if let Some(file) = &args.pdn {
        let games = load_pdn(file, variant).map_err(anyhow::Error::msg)?;
        let count = games.len();
        let game = games
            .into_iter()
            .nth(args.game.saturating_sub(1))
            .ok_or_else(|| {
                anyhow::anyhow!("{}: has {count} games, not {}", file.display(), args.game)
            })?;
        variant = game.variant;
        record = Some(game);
    }
    let clock_text = args.clock.unwrap_or_else(|| {
        record
            .as_ref()
            .and_then(|g| g.tag("TimeControl").map(str::to_string))
            .unwrap_or_else(|| app.config.clock.clone())
    });
    let clock =
        TimeControl::parse_optional(&clock_text).map_err(|e| anyhow::anyhow!("--clock: {e}"))?;
    let start = match &args.fen {
        Some(f) => Some(start_position(f, variant).map_err(anyhow::Error::msg)?),
        None => None,
    };
    let tablebase = match &args.tablebases {
        Some(dir) if !dir.is_dir() => {
            anyhow::bail!("--tablebases: {} is not a directory", dir.display())
        }
        Some(dir) => open_if_present(dir, variant).map_err(anyhow::Error::msg)?,
        None => None,
    };
    Ok(GameSetup {
        variant,
        white,
        black,
        clock,
        start,
        record,
        tournament: args.tournament,
        tablebase,
    })
}
