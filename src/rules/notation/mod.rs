//! Move text as players write it (`32-28`, `28x19`, `47x38x24x13x36`) and FEN.
#![forbid(unsafe_code)]

pub mod fen;

use crate::rules::board::{Position, Square};
use crate::rules::movegen;
use crate::rules::moves::Move;
use crate::rules::variant::with_rules;

pub use fen::{FenError, parse_fen, to_fen};

/// Why a move text does not name exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Not of the form `a-b`, `axb`, `a:b`, `axbxc…`.
    #[error("{0:?} is not a move (expected squares joined by '-', 'x' or ':')")]
    Syntax(String),
    /// A square the board does not have.
    #[error("square {0} is not on the board")]
    NoSuchSquare(u32),
    /// Well formed, but no legal move fits.
    #[error("{text} is not a legal move here{hint}")]
    Illegal {
        /// The text.
        text: String,
        /// A hint such as "a capture is compulsory".
        hint: String,
    },
    /// More than one legal move fits.
    #[error("{text} is ambiguous: it could be {options}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The moves it could mean, in long form.
        options: String,
    },
}

/// The squares of a move text: `32-28`, `28x19`, `47x38x24`, `06-11`, `1- 7`, `28:19`.
pub fn split_move_text(text: &str) -> Result<Vec<u32>, MoveTextError> {
    let bad = || MoveTextError::Syntax(text.to_string());
    let mut squares = Vec::new();
    let mut rest = text.trim();
    loop {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 || digits > 3 {
            return Err(bad());
        }
        squares.push(rest[..digits].parse().map_err(|_| bad())?);
        rest = &rest[digits..];
        if rest.is_empty() {
            break;
        }
        let mut chars = rest.chars();
        match chars.next() {
            Some('-' | 'x' | 'X' | ':') => rest = chars.as_str().trim_start(),
            _ => return Err(bad()),
        }
    }
    if squares.len() < 2 {
        return Err(bad());
    }
    Ok(squares)
}

/// All legal moves of `pos` that `text` fits (none, one, or several when it is ambiguous).
pub fn matching_moves(pos: &Position, text: &str) -> Result<Vec<Move>, MoveTextError> {
    let variant = pos.variant();
    let numbers = split_move_text(text)?;
    let mut squares = Vec::with_capacity(numbers.len());
    for &n in &numbers {
        squares.push(Square::new(n, variant).ok_or(MoveTextError::NoSuchSquare(n))?);
    }
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let g = variant.geometry();
    let stops: Vec<u8> = squares[1..squares.len() - 1]
        .iter()
        .map(|s| g.bit_of[s.number() as usize])
        .collect();
    Ok(pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| {
            stops.is_empty()
                || with_rules!(variant, R => movegen::route_matches::<R>(pos, m, &stops))
        })
        .copied()
        .collect())
}

/// Finds the legal move of `pos` that `text` names. The long form may name any of the squares the
/// piece stops on, in order; the separator does not have to match the kind of move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let fits = matching_moves(pos, text)?;
    match fits.as_slice() {
        [one] => Ok(*one),
        [] => {
            let legal = pos.legal_moves();
            let mut hint = String::new();
            if legal.iter().any(Move::is_capture) {
                hint.push_str("; a capture is compulsory");
            }
            if legal.is_empty() {
                hint.push_str("; there is no legal move");
            } else if legal.len() <= 12 {
                let texts: Vec<String> = legal.iter().map(|m| move_text(pos, m)).collect();
                hint.push_str(&format!(" (legal: {})", texts.join(" ")));
            }
            Err(MoveTextError::Illegal {
                text: text.trim().to_string(),
                hint,
            })
        }
        many => Err(MoveTextError::Ambiguous {
            text: text.trim().to_string(),
            options: many.iter().map(long_text).collect::<Vec<_>>().join(" or "),
        }),
    }
}

fn join(squares: &[Square], sep: &str) -> String {
    squares
        .iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// The long form of a move: every square it stops on.
pub fn long_text(mv: &Move) -> String {
    join(&mv.route(), if mv.is_capture() { "x" } else { "-" })
}

/// The shortest text that names `mv` among the legal moves of `pos`: `from-to` or `fromxto`,
/// or the long form with its landing squares when another capture shares start and end.
pub fn move_text(pos: &Position, mv: &Move) -> String {
    // Only captures can share start and end (a quiet move is its two squares), so only they
    // need the legal moves.
    if mv.is_capture() {
        text_among(pos.legal_moves().as_slice(), mv)
    } else {
        text_among(&[], mv)
    }
}

/// The texts of a line of moves played from `pos`, up to the first move that is not legal where
/// it stands (a line from a table or a search is checked, not trusted).
pub fn line_texts(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::new();
    for mv in line {
        let legal = pos.legal_moves();
        if !legal.iter().any(|m| m == mv) {
            break;
        }
        out.push(text_among(legal.as_slice(), mv));
        pos = pos.play(mv);
    }
    out
}

/// Every legal move of `pos` with its [`move_text`], the moves generated once.
pub fn move_texts(pos: &Position) -> Vec<(Move, String)> {
    let legal = pos.legal_moves();
    legal
        .iter()
        .map(|m| (*m, text_among(legal.as_slice(), m)))
        .collect()
}

/// The short text of `mv` among the moves `legal`.
fn text_among(legal: &[Move], mv: &Move) -> String {
    let ambiguous = legal
        .iter()
        .any(|m| m != mv && m.from() == mv.from() && m.to() == mv.to());
    if ambiguous {
        long_text(mv)
    } else {
        join(
            &[mv.from(), mv.to()],
            if mv.is_capture() { "x" } else { "-" },
        )
    }
}
