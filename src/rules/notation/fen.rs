//! FEN as PDN uses it: `W:W31-50:B1-20`, `B:W18,24,K10:B12,K22`.
#![forbid(unsafe_code)]

use crate::rules::board::{Position, Setup, SetupError};
use crate::rules::piece::{Color, Kind, Piece};
use crate::rules::variant::Variant;
use std::fmt::Write;

/// Why a FEN string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN: `column` is 1-based, in characters.
    #[error("column {column}: {reason}")]
    Syntax {
        /// Where the problem starts.
        column: usize,
        /// What is wrong.
        reason: String,
    },
    /// The text is FEN but not a position of the variant.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

fn syntax(column: usize, reason: impl Into<String>) -> FenError {
    FenError::Syntax {
        column,
        reason: reason.into(),
    }
}

/// A cursor over the FEN text that knows its column.
struct Cursor {
    chars: Vec<char>,
    at: usize,
}

impl Cursor {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn column(&self) -> usize {
        self.at + 1
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.peek().is_some_and(|p| p.eq_ignore_ascii_case(&c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Result<u32, FenError> {
        self.skip_spaces();
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if start == self.at {
            return Err(syntax(
                start + 1,
                match self.peek() {
                    Some(c) => format!("expected a square number, found {c:?}"),
                    None => "expected a square number, found the end".to_string(),
                },
            ));
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        digits
            .parse()
            .ok()
            .filter(|&n| n <= 99)
            .ok_or_else(|| syntax(start + 1, format!("square number {digits} is too large")))
    }
}

/// Reads a FEN position for `variant`. Both colour sections may come in either order; `K` marks
/// kings; `a-b` is a range of squares; a trailing `.` and lidraughts' `:H…`/`:F…` counters are
/// accepted. A side to move of `?` (unknown, used in problem collections) is read as White.
pub fn parse_fen(text: &str, variant: Variant) -> Result<Position, FenError> {
    let mut c = Cursor {
        chars: text.chars().collect(),
        at: 0,
    };
    c.skip_spaces();
    let side = match c.peek().map(|ch| ch.to_ascii_uppercase()) {
        Some('W') | Some('?') => Color::White,
        Some('B') => Color::Black,
        Some(_) => {
            let found = c.peek().unwrap_or_default();
            return Err(syntax(
                c.column(),
                format!("expected the side to move (W or B), found {found:?}"),
            ));
        }
        None => return Err(syntax(1, "empty FEN")),
    };
    c.at += 1;
    let mut pieces = Vec::new();
    let mut seen = [false; 2];
    while c.eat(':') {
        c.skip_spaces();
        let column = c.column();
        let color = match c.peek().map(|ch| ch.to_ascii_uppercase()) {
            Some('W') => Color::White,
            Some('B') => Color::Black,
            Some('H') | Some('F') => {
                c.at += 1;
                c.number()?;
                continue;
            }
            // An empty section (`W::.` in problem collections): no pieces.
            Some(':') | Some('.') | None => continue,
            Some(_) => {
                let found = c.peek().unwrap_or_default();
                return Err(syntax(column, format!("expected W or B, found {found:?}")));
            }
        };
        if seen[color.index()] {
            return Err(syntax(column, format!("{color} is given twice")));
        }
        seen[color.index()] = true;
        c.at += 1;
        c.skip_spaces();
        if matches!(c.peek(), None | Some(':') | Some('.')) {
            continue;
        }
        loop {
            let king = c.eat('K');
            let first = c.number()?;
            let last = if c.eat('-') {
                c.eat('K');
                let column = c.column();
                let last = c.number()?;
                if last < first {
                    return Err(syntax(
                        column,
                        format!("range {first}-{last} runs backwards"),
                    ));
                }
                last
            } else {
                first
            };
            let kind = if king { Kind::King } else { Kind::Man };
            pieces.extend((first..=last).map(|n| (n, Piece { color, kind })));
            if !c.eat(',') {
                break;
            }
        }
    }
    c.eat('.');
    c.skip_spaces();
    if let Some(ch) = c.peek() {
        return Err(syntax(c.column(), format!("unexpected {ch:?}")));
    }
    Ok(Setup {
        variant,
        side_to_move: side,
        pieces,
    }
    .into_position()?)
}

/// Writes a position as FEN: side to move, White's pieces then Black's, men first with runs of
/// three or more as ranges, then kings.
pub fn to_fen(pos: &Position) -> String {
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut items: Vec<String> = Vec::new();
        let men: Vec<u8> = pos
            .pieces()
            .filter(|(_, p)| p.color == color && p.kind == Kind::Man)
            .map(|(s, _)| s.number())
            .collect();
        let mut i = 0;
        while i < men.len() {
            let mut j = i;
            while j + 1 < men.len() && men[j + 1] == men[j] + 1 {
                j += 1;
            }
            if j >= i + 2 {
                items.push(format!("{}-{}", men[i], men[j]));
            } else {
                items.extend(men[i..=j].iter().map(u8::to_string));
            }
            i = j + 1;
        }
        for (square, _) in pos
            .pieces()
            .filter(|(_, p)| p.color == color && p.kind == Kind::King)
        {
            items.push(format!("K{square}"));
        }
        let _ = write!(out, "{}", items.join(","));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Square;

    #[test]
    fn start_positions_read_and_write() {
        for v in Variant::ALL {
            let pos = parse_fen(v.start_fen(), v).unwrap();
            assert_eq!(pos, Position::start(v));
            assert_eq!(to_fen(&pos), v.start_fen());
        }
    }

    #[test]
    fn sections_in_either_order_with_kings() {
        let a = parse_fen("B:W18,24,K10:B12,K22", Variant::International).unwrap();
        let b = parse_fen("B:B12,K22:W18,24,K10", Variant::International).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.side_to_move(), Color::Black);
        let sq = |n| Square::new(n, Variant::International).unwrap();
        assert_eq!(
            a.piece_at(sq(10)),
            Some(Piece {
                color: Color::White,
                kind: Kind::King
            })
        );
        assert_eq!(
            a.piece_at(sq(12)),
            Some(Piece {
                color: Color::Black,
                kind: Kind::Man
            })
        );
        assert_eq!(to_fen(&a), "B:W18,24,K10:B12,K22");
    }

    #[test]
    fn lenient_forms_are_read() {
        let v = Variant::English;
        let a = parse_fen("W:WK27,K23:BK28,12.", v).unwrap();
        assert_eq!(to_fen(&a), "W:WK23,K27:B12,K28");
        let b = parse_fen("W:W31-50:B1-20:H0:F1", Variant::International).unwrap();
        assert_eq!(b, Position::start(Variant::International));
        let c = parse_fen("?:W29,13,11:B22,4,2", Variant::International).unwrap();
        assert_eq!(c.side_to_move(), Color::White);
        let e = parse_fen("W::.", Variant::English).unwrap();
        assert_eq!(e.pieces().count(), 0);
        let d = parse_fen(" w : w 05 , 6 : b k1 ", Variant::International).unwrap();
        assert_eq!(to_fen(&d), "W:W5,6:BK1");
    }

    #[test]
    fn errors_say_where_and_why() {
        let v = Variant::International;
        let err = |t| parse_fen(t, v).unwrap_err().to_string();
        assert_eq!(
            err("garbage"),
            "column 1: expected the side to move (W or B), found 'g'"
        );
        assert_eq!(err("W:W31-50:X1"), "column 10: expected W or B, found 'X'");
        assert_eq!(
            err("W:W31,:B1"),
            "column 7: expected a square number, found ':'"
        );
        assert_eq!(
            err("W:W51:B1"),
            "square 51 is not on the international board (1-50)"
        );
        assert_eq!(err("W:W5:B5"), "square 5 is given twice");
        assert_eq!(err("W:W9-3"), "column 6: range 9-3 runs backwards");
        assert_eq!(
            err("W:W1-21"),
            "White has 21 pieces, more than the 20 of the game"
        );
        assert_eq!(err("W:W1:W2"), "column 6: White is given twice");
        assert_eq!(err(""), "column 1: empty FEN");
        assert_eq!(err("W:W1 x"), "column 6: unexpected 'x'");
        assert!(parse_fen("B:W33:B1", Variant::English).is_err());
    }
}
