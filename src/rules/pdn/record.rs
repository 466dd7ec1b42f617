//! A game as PDN records it: tags, the start position, the moves with their comments,
//! annotations and variations, and the result.
#![forbid(unsafe_code)]

use crate::rules::board::Position;
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;

/// The result of a game as PDN records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A side won.
    Win(Color),
    /// A draw.
    Draw,
    /// Both sides lost (`0-0`, e.g. both absent).
    BothLost,
    /// Unknown or unfinished (`*`).
    Unfinished,
}

impl GameResult {
    /// Reads a result string. The left score is the first mover's: White in International and
    /// Frisian, Black in English.
    pub fn parse(text: &str, variant: Variant) -> Option<GameResult> {
        let first = variant.rules().first_player;
        Some(match text.trim() {
            "2-0" | "1-0" => GameResult::Win(first),
            "0-2" | "0-1" => GameResult::Win(first.opposite()),
            "1-1" | "1/2-1/2" => GameResult::Draw,
            "0-0" => GameResult::BothLost,
            "*" => GameResult::Unfinished,
            _ => return None,
        })
    }

    /// `side`'s score in a finished game: 1 for a win, ½ for a draw, 0 for a loss; `None` when
    /// the game is unfinished or both lost (no score to learn from or count).
    pub fn score(self, side: Color) -> Option<f32> {
        match self {
            GameResult::Win(c) if c == side => Some(1.0),
            GameResult::Win(_) => Some(0.0),
            GameResult::Draw => Some(0.5),
            GameResult::BothLost | GameResult::Unfinished => None,
        }
    }
}

/// A move of a PDN game with what was written around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnMove {
    /// The move.
    pub mv: Move,
    /// Move strength signs (`!`, `?!`, …) and NAGs (`$3`), in order.
    pub annotations: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move, each played from the position before it.
    pub variations: Vec<Line>,
}

impl PdnMove {
    /// A move with nothing written around it.
    pub fn new(mv: Move) -> PdnMove {
        PdnMove {
            mv,
            annotations: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves with the comments before its first move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The moves.
    pub moves: Vec<PdnMove>,
}

/// A game read from or to be written to PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order, unknown tags included.
    pub tags: Vec<(String, String)>,
    /// The variant (from GameType, or the reader's default).
    pub variant: Variant,
    /// The start position (from FEN, or the variant's initial position).
    pub start: Position,
    /// The main line.
    pub line: Line,
    /// The game termination marker.
    pub result: GameResult,
}

/// The result as written for the variant: `2-0 1-1 0-2` in International, `1-0 1/2-1/2 0-1` in
/// English and Frisian (the left score is the first mover's).
pub fn result_text(result: GameResult, variant: Variant) -> &'static str {
    let first = variant.rules().first_player;
    let international = variant == Variant::International;
    match result {
        GameResult::Win(c) if c == first => {
            if international {
                "2-0"
            } else {
                "1-0"
            }
        }
        GameResult::Win(_) => {
            if international {
                "0-2"
            } else {
                "0-1"
            }
        }
        GameResult::Draw => {
            if international {
                "1-1"
            } else {
                "1/2-1/2"
            }
        }
        GameResult::BothLost => "0-0",
        GameResult::Unfinished => "*",
    }
}

impl PdnGame {
    /// An empty game of a variant from a position, with GameType and (for a set-up position)
    /// SetUp and FEN tags.
    pub fn new(start: Position) -> PdnGame {
        let variant = start.variant();
        let mut tags = Vec::new();
        if variant != Variant::International {
            tags.push(("GameType".to_string(), variant.game_type().to_string()));
        }
        if start != Position::start(variant) {
            tags.push(("SetUp".to_string(), "1".to_string()));
            tags.push(("FEN".to_string(), crate::rules::notation::to_fen(&start)));
        }
        PdnGame {
            tags,
            variant,
            start,
            line: Line::default(),
            result: GameResult::Unfinished,
        }
    }

    /// A record of a played game, with the given tags first.
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> PdnGame {
        let mut pdn = PdnGame::new(*game.start());
        let mut all: Vec<(String, String)> = tags
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        all.append(&mut pdn.tags);
        pdn.tags = all;
        pdn.line.moves = game.moves().iter().map(|&mv| PdnMove::new(mv)).collect();
        pdn.set_result(match game.outcome() {
            Some(o) => o.winner.map_or(GameResult::Draw, GameResult::Win),
            None => GameResult::Unfinished,
        });
        pdn
    }

    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets the result and the Result tag.
    pub fn set_result(&mut self, result: GameResult) {
        self.result = result;
        let text = result_text(result, self.variant).to_string();
        match self.tags.iter_mut().find(|(k, _)| k == "Result") {
            Some(tag) => tag.1 = text,
            None => self.tags.push(("Result".to_string(), text)),
        }
    }

    /// The main line replayed as a [`Game`] (which knows the outcome the rules give).
    pub fn game(&self) -> Game {
        let mut game = Game::from_position(self.start);
        for m in &self.line.moves {
            if game.play(&m.mv).is_err() {
                break;
            }
        }
        game
    }
}
