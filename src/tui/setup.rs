//! What a game starts from: who plays each side, the variant, clock, position or record, and the
//! tablebases; and reading those from files and FEN for the home screen and `draughts play`.

use crate::bounded;
use crate::clock::TimeControl;
use crate::engine::Level;
use crate::rules::board::Position;
use crate::rules::notation::parse_fen;
use crate::rules::pdn::{PdnGame, read_bytes};
use crate::rules::variant::Variant;
use crate::tablebase::Tablebase;
use std::path::Path;
use std::sync::Arc;

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Someone at the keyboard.
    Human,
    /// The built-in engine at a level.
    Engine(Level),
    /// An external Hub engine, started with this command (e.g. `/opt/scan/scan hub`).
    Hub(String),
}

impl std::str::FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerKind, String> {
        match s.split_once(':') {
            None if s == "human" => Ok(PlayerKind::Human),
            None if s == "engine" => Ok(PlayerKind::Engine(Level::default())),
            Some(("engine", level)) => level.parse().map(PlayerKind::Engine),
            Some(("hub", command)) if !command.trim().is_empty() => {
                Ok(PlayerKind::Hub(crate::hub::client::command_line(command)))
            }
            _ => Err(format!(
                "{s:?} is not a player (human, engine, engine:<1-10|max>, or hub:<engine command>)"
            )),
        }
    }
}

impl std::fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerKind::Human => f.write_str("human"),
            PlayerKind::Engine(l) => write!(f, "engine:{l}"),
            PlayerKind::Hub(c) => write!(f, "hub:{c}"),
        }
    }
}

/// Everything needed to start a game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The variant.
    pub variant: Variant,
    /// White's player.
    pub white: PlayerKind,
    /// Black's player.
    pub black: PlayerKind,
    /// The time control, if timed.
    pub clock: Option<TimeControl>,
    /// A start position other than the initial one.
    pub start: Option<Position>,
    /// A recorded game to step through and continue.
    pub record: Option<PdnGame>,
    /// Tournament conditions: no takebacks, no pausing.
    pub tournament: bool,
    /// Tablebases to adjudicate with.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl GameSetup {
    /// A two-player game of `variant` with no clock.
    pub fn new(variant: Variant) -> GameSetup {
        GameSetup {
            variant,
            white: PlayerKind::Human,
            black: PlayerKind::Human,
            clock: None,
            start: None,
            record: None,
            tournament: false,
            tablebase: None,
        }
    }
}

/// Reads every game of a PDN file; the first bad game is reported with its place.
pub fn load_pdn(path: &Path, variant: Variant) -> Result<Vec<PdnGame>, String> {
    let bytes =
        bounded::read_file(path, bounded::MAX_PDN_FILE, "PDN file").map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    for (i, g) in read_bytes(&bytes, variant).into_iter().enumerate() {
        match g {
            Ok(g) => games.push(g),
            Err(e) => return Err(format!("{}: game {}: {e}", path.display(), i + 1)),
        }
    }
    if games.is_empty() {
        return Err(format!("{}: no games in the file", path.display()));
    }
    Ok(games)
}

/// Reads a FEN for a variant, for `draughts play --fen`.
pub fn start_position(fen: &str, variant: Variant) -> Result<Position, String> {
    parse_fen(fen, variant).map_err(|e| format!("--fen: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse() {
        assert_eq!("human".parse(), Ok(PlayerKind::Human));
        assert_eq!(
            "engine:3".parse(),
            Ok(PlayerKind::Engine(Level::new(3).unwrap()))
        );
        assert_eq!("engine".parse(), Ok(PlayerKind::Engine(Level::default())));
        assert_eq!("engine:max".parse(), Ok(PlayerKind::Engine(Level::MAX)));
        assert!("robot".parse::<PlayerKind>().is_err());
        assert!("engine:11".parse::<PlayerKind>().is_err());
    }
}
