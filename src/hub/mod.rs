//! The Hub protocol (version 2, as Scan 3.x and the Hub GUI speak it): a line protocol over
//! standard input and output between a GUI and an engine.
//!
//! Positions are written `W` or `B` (side to move) followed by one letter per square (`w`, `b`,
//! `W`, `B` for men and kings, `e` for empty); moves `32-28`, and captures as the start, the end
//! and every captured square, `28x19x23`. [`server`] is the engine side (`draughts hub`);
//! [`client`] drives an external engine for the TUI and the match harness.

pub mod client;
pub mod server;

use crate::rules::board::{Position, Setup, Square};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::variant::Variant;
use std::collections::HashMap;

/// Why a Hub line could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct HubError(pub String);

/// The Hub name of a variant.
pub fn variant_name(v: Variant) -> Option<&'static str> {
    match v {
        Variant::International => Some("normal"),
        Variant::Frisian => Some("frisian"),
        Variant::English => None,
    }
}

/// The variant of a Hub name.
pub fn variant_of(name: &str) -> Option<Variant> {
    match name {
        "normal" => Some(Variant::International),
        "frisian" => Some(Variant::Frisian),
        _ => None,
    }
}

/// A position in Hub form.
pub fn position_text(pos: &Position) -> String {
    let squares = pos.variant().geometry().squares;
    let mut s = String::with_capacity(squares as usize + 1);
    s.push(if pos.side_to_move() == Color::White {
        'W'
    } else {
        'B'
    });
    for n in 1..=squares {
        let sq =
            Square::new(n, pos.variant()).expect("numbers up to the board's count are squares");
        s.push(pos.piece_at(sq).map_or('e', Piece::letter));
    }
    s
}

/// Reads a Hub position of a variant.
pub fn parse_position(text: &str, variant: Variant) -> Result<Position, HubError> {
    let squares = variant.geometry().squares as usize;
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != squares + 1 {
        return Err(HubError(format!(
            "position {text:?}: expected a side to move and {squares} squares"
        )));
    }
    let side = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => {
            return Err(HubError(format!(
                "position: side to move {c:?} is not W or B"
            )));
        }
    };
    let mut setup = Setup {
        variant,
        side_to_move: side,
        pieces: Vec::new(),
    };
    for (i, c) in chars[1..].iter().enumerate() {
        let piece = match c {
            'e' | '.' => continue,
            'w' => (Color::White, Kind::Man),
            'b' => (Color::Black, Kind::Man),
            'W' => (Color::White, Kind::King),
            'B' => (Color::Black, Kind::King),
            other => {
                return Err(HubError(format!(
                    "position: square {} holds {other:?} (expected w, b, W, B or e)",
                    i + 1
                )));
            }
        };
        setup.pieces.push((
            i as u32 + 1,
            Piece {
                color: piece.0,
                kind: piece.1,
            },
        ));
    }
    setup
        .into_position()
        .map_err(|e| HubError(format!("position: {e}")))
}

/// A move in Hub form: `from-to`, or `fromxto` followed by every captured square in order of
/// square number.
pub fn move_text(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut parts = vec![mv.from().to_string(), mv.to().to_string()];
    let mut taken: Vec<Square> = mv.captured();
    taken.sort();
    parts.extend(taken.iter().map(Square::to_string));
    parts.join("x")
}

/// The legal move of `pos` a Hub move names (captured squares in any order).
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, HubError> {
    let t = text.trim();
    let bad = || HubError(format!("move {t:?} is not a legal move here"));
    let capture = t.contains('x');
    let numbers: Vec<u32> = t
        .split(['-', 'x'])
        .map(|p| {
            p.parse::<u32>()
                .map_err(|_| HubError(format!("move {t:?}: {p:?} is not a square")))
        })
        .collect::<Result<_, _>>()?;
    if numbers.len() < 2 {
        return Err(HubError(format!(
            "move {t:?}: expected from-to or fromxto…"
        )));
    }
    let mut taken = numbers[2..].to_vec();
    taken.sort_unstable();
    pos.legal_moves()
        .iter()
        .find(|m| {
            u32::from(m.from().number()) == numbers[0]
                && u32::from(m.to().number()) == numbers[1]
                && m.is_capture() == capture
                && {
                    let mut c: Vec<u32> =
                        m.captured().iter().map(|s| u32::from(s.number())).collect();
                    c.sort_unstable();
                    !capture || c == taken
                }
        })
        .copied()
        .ok_or_else(bad)
}

/// A Hub line: the command and its `name=value` arguments (values may be quoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first word.
    pub command: String,
    /// Words without `=`, in order (e.g. `think` in `go think`).
    pub words: Vec<String>,
    /// `name=value` arguments.
    pub args: HashMap<String, String>,
}

impl Line {
    /// Splits a line; quotes keep spaces inside a value.
    pub fn parse(text: &str) -> Result<Line, HubError> {
        let mut tokens = Vec::new();
        let mut current = String::new();
        let mut quoted = false;
        for c in text.trim().chars() {
            match c {
                '"' => quoted = !quoted,
                c if c.is_whitespace() && !quoted => {
                    if !current.is_empty() {
                        tokens.push(std::mem::take(&mut current));
                    }
                }
                c => current.push(c),
            }
        }
        if quoted {
            return Err(HubError(format!("unbalanced quote in {text:?}")));
        }
        if !current.is_empty() {
            tokens.push(current);
        }
        let mut iter = tokens.into_iter();
        let command = iter.next().ok_or_else(|| HubError("empty line".into()))?;
        let mut words = Vec::new();
        let mut args = HashMap::new();
        for t in iter {
            match t.split_once('=') {
                Some((k, v)) => {
                    args.insert(k.to_string(), v.to_string());
                }
                None => words.push(t),
            }
        }
        Ok(Line {
            command,
            words,
            args,
        })
    }

    /// A numeric argument, if present; an error if present but not a number.
    pub fn number(&self, name: &str) -> Result<Option<f64>, HubError> {
        self.args
            .get(name)
            .map(|v| {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| HubError(format!("{name}={v:?} is not a number")))
            })
            .transpose()
    }
}

/// Quotes a value for a Hub line when it holds spaces.
pub fn quote(value: &str) -> String {
    if value.contains(' ') || value.is_empty() {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;

    #[test]
    fn level_lines_give_the_clock_of_the_side_to_move() {
        use crate::clock::{Clock, TimeControl};
        use crate::rules::piece::Color;
        use std::time::Duration;
        let mut clock = Clock::new(TimeControl::parse("2m/1+10s, 1m+2s").unwrap());
        clock.start(Color::White, Duration::ZERO);
        assert_eq!(
            client::level_line(&clock, Color::White, Duration::from_secs(20)),
            "level time=100.0 inc=10.0 moves=1"
        );
        clock.press(Duration::from_secs(20));
        // White's first stage is done: a minute more, its increment 2 s, no moves counted.
        assert_eq!(
            client::level_line(&clock, Color::White, Duration::from_secs(20)),
            "level time=170.0 inc=2.0"
        );
        assert_eq!(
            client::move_time_line(Duration::from_millis(300)),
            "level move-time=0.300"
        );
    }

    #[test]
    fn positions_round_trip() {
        for v in [Variant::International, Variant::Frisian] {
            let start = Position::start(v);
            let text = position_text(&start);
            assert_eq!(text.len(), 51);
            assert!(
                text.starts_with("Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeew"),
                "{text}"
            );
            assert_eq!(parse_position(&text, v).unwrap(), start);
        }
        let pos = parse_fen("B:WK1,33:B12,K45", Variant::International).unwrap();
        assert_eq!(
            parse_position(&position_text(&pos), pos.variant()).unwrap(),
            pos
        );
        for bad in ["", "W", "Xeee", &format!("W{}", "x".repeat(50))] {
            assert!(
                parse_position(bad, Variant::International).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn moves_name_captured_squares_in_any_order() {
        // A double capture: from, to, then both captured squares.
        let pos = parse_fen("W:W48:B42,43,32,33", Variant::International).unwrap();
        let mv = *pos
            .legal_moves()
            .iter()
            .find(|m| m.capture_count() >= 2)
            .expect("a multiple capture");
        let taken: Vec<String> = mv.captured().iter().map(|s| s.to_string()).collect();
        let text = move_text(&mv);
        assert_eq!(
            text,
            format!("{}x{}x{}", mv.from(), mv.to(), taken.join("x"))
        );
        let reversed: Vec<&str> = taken.iter().rev().map(String::as_str).collect();
        let shuffled = format!("{}x{}x{}", mv.from(), mv.to(), reversed.join("x"));
        assert_eq!(parse_move(&pos, &shuffled).unwrap(), mv);
        assert!(parse_move(&pos, &format!("{}x{}", mv.from(), mv.to())).is_err());
        let start = Position::start(Variant::International);
        assert_eq!(move_text(&parse_move(&start, "32-28").unwrap()), "32-28");
        for bad in ["", "32", "32-29", "a-b", "32x28"] {
            assert!(parse_move(&start, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lines_split_with_quotes() {
        let l = Line::parse("pos pos=Wbbb moves=\"32-28 19-23\"").unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.args["moves"], "32-28 19-23");
        let l = Line::parse("go think").unwrap();
        assert_eq!(l.words, ["think"]);
        assert!(Line::parse("").is_err());
        assert!(Line::parse("pos moves=\"32-28").is_err());
        assert!(
            Line::parse("level time=abc")
                .unwrap()
                .number("time")
                .is_err()
        );
    }
}
