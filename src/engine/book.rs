//! The opening book: positions of the opening that a body of games reached, with the moves
//! played in them (how often, and how they scored for the mover), each move optionally checked
//! by a search. The engine plays from it while it holds the position, choosing among the moves
//! in proportion to how often they were played, so its openings vary from game to game.
//!
//! A book is text, one position a line, so that it can be read and reviewed:
//!
//! ```text
//! draughts-book 1 international
//! W:W31-50:B1-20<TAB>32-28 412 52% +0.05<TAB>33-28 388 50% -
//! ```
//!
//! the position (FEN), then a tab before each move: the move, the games it was played in, the
//! mover's score in them and the search's value after it in men (`-` when unchecked). Every
//! line is checked when read (the position, each move legal in it, no position twice); one
//! book per variant ships inside the binary ([`builtin`]). `draughts engine book` builds them
//! ([`BookBuilder`], then [`Book::check`]).

use super::search::{Limits, Searcher, is_decisive};
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::notation::{move_text, parse_fen, parse_move, to_fen};
use crate::rules::pdn::{GameResult, PdnGame};
use crate::rules::variant::Variant;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;
use thiserror::Error;

/// The first word of a book's first line, and the format's version.
pub const MAGIC: &str = "draughts-book 1";

/// The longest line a book may have (a position with every move listed is far shorter).
const MAX_LINE: usize = 16 * 1024;

/// A book that cannot be read: where and why.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not `draughts-book 1 <variant>`.
    #[error("line 1: not a draughts opening book (expected `{MAGIC} <variant>`)")]
    Header,
    /// A book of another variant.
    #[error("line 1: a book of {found}, not {wanted}")]
    Variant {
        /// The variant the book is for.
        found: Variant,
        /// The variant asked for.
        wanted: Variant,
    },
    /// A line that does not read.
    #[error("line {line}: {why}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

/// A move of the book in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Games it was played in.
    pub games: u32,
    /// The mover's score in those games, in percent.
    pub percent: u8,
    /// The search's value of the position after it, for the mover, in hundredths of a man.
    pub eval: Option<i32>,
}

/// An opening book of one variant.
#[derive(Clone, Debug)]
pub struct Book {
    variant: Variant,
    /// By the position's hash; the position is kept to rule out a collision.
    positions: HashMap<u64, (Position, Vec<BookMove>)>,
}

impl Book {
    /// An empty book.
    pub fn new(variant: Variant) -> Book {
        Book {
            variant,
            positions: HashMap::new(),
        }
    }

    /// Its variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The positions it holds.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Every position with its moves, in no particular order.
    pub fn positions(&self) -> impl Iterator<Item = (&Position, &[BookMove])> {
        self.positions.values().map(|(p, m)| (p, m.as_slice()))
    }

    /// The moves it has for `pos` (none when it does not hold it).
    pub fn moves(&self, pos: &Position) -> &[BookMove] {
        match self.positions.get(&pos.zobrist()) {
            Some((p, moves)) if p == pos => moves,
            _ => &[],
        }
    }

    /// A move for `pos`, drawn in proportion to the games each was played in (`random` is any
    /// random number: the same number gives the same move).
    pub fn pick(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|m| u64::from(m.games)).sum();
        if total == 0 {
            return None;
        }
        let mut at = random % total;
        for m in moves {
            if at < u64::from(m.games) {
                return Some(m.mv);
            }
            at -= u64::from(m.games);
        }
        None
    }

    /// Reads a book of `variant`, checking every line.
    pub fn parse(text: &str, variant: Variant) -> Result<Book, BookError> {
        let mut lines = text.lines().enumerate();
        let header = lines.next().map_or("", |(_, l)| l);
        let found: Variant = header
            .strip_prefix(MAGIC)
            .map(str::trim)
            .and_then(|v| v.parse().ok())
            .ok_or(BookError::Header)?;
        if found != variant {
            return Err(BookError::Variant {
                found,
                wanted: variant,
            });
        }
        let mut book = Book::new(variant);
        for (i, line) in lines {
            let at = |why: String| BookError::Line { line: i + 1, why };
            if line.len() > MAX_LINE {
                return Err(at(format!("longer than {MAX_LINE} bytes")));
            }
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split('\t');
            let fen = fields.next().unwrap_or_default();
            let pos = parse_fen(fen, variant).map_err(|e| at(format!("{fen}: {e}")))?;
            let mut moves: Vec<BookMove> = Vec::new();
            for field in fields {
                let m =
                    parse_book_move(&pos, field).map_err(|why| at(format!("{field:?}: {why}")))?;
                if moves.iter().any(|b| b.mv == m.mv) {
                    return Err(at(format!("{field:?}: the move is listed twice")));
                }
                moves.push(m);
            }
            if moves.is_empty() {
                return Err(at(format!("{fen}: no move")));
            }
            if book.positions.insert(pos.zobrist(), (pos, moves)).is_some() {
                return Err(at(format!("{fen}: the position is listed twice")));
            }
        }
        Ok(book)
    }

    /// The book as text, positions in the order of their FEN (so the same book is the same
    /// file), moves most played first.
    pub fn to_text(&self) -> String {
        let mut lines: Vec<String> = self
            .positions
            .values()
            .map(|(pos, moves)| {
                let mut line = to_fen(pos);
                for m in moves {
                    let eval = m
                        .eval
                        .map_or("-".to_string(), |e| format!("{:+.2}", f64::from(e) / 100.0));
                    let _ = write!(
                        line,
                        "\t{} {} {}% {eval}",
                        move_text(pos, &m.mv),
                        m.games,
                        m.percent
                    );
                }
                line
            })
            .collect();
        lines.sort();
        let mut text = format!("{MAGIC} {}\n", self.variant.name());
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// Checks every move by a search of `depth` plies from the position after it, records its
    /// value, and drops the moves valued more than `margin` (hundredths of a man) below the
    /// best of their position, the book's moves or any other (a search of the position itself
    /// one ply deeper), and the positions left without a move; `done` is called after each
    /// position. Searches run on rayon's threads.
    pub fn check(&mut self, depth: u32, margin: i32, done: &(dyn Fn() + Sync)) {
        let limits = Limits {
            depth: Some(depth.max(1)),
            ..Limits::default()
        };
        self.positions.par_iter_mut().for_each_init(
            || Searcher::new(16, None),
            |searcher, (_, (pos, moves))| {
                for m in moves.iter_mut() {
                    // A clear table for each search: a value does not depend on which positions
                    // this thread happened to search before, so the book is the same every run.
                    searcher.clear();
                    let after = pos.play(&m.mv);
                    let path = [pos.zobrist()];
                    let reply = searcher.search(&after, &path, limits, &mut |_| {});
                    m.eval = Some(-reply.score);
                }
                searcher.clear();
                let whole = Limits {
                    depth: Some(depth.max(1) + 1),
                    ..Limits::default()
                };
                let any = searcher.search(pos, &[], whole, &mut |_| {}).score;
                let best = moves
                    .iter()
                    .filter_map(|m| m.eval)
                    .max()
                    .unwrap_or(any)
                    .max(any);
                moves.retain(|m| {
                    let e = m.eval.unwrap_or(best);
                    // A proven result is kept only when it is the best one.
                    e >= best - margin && (!is_decisive(best) || e == best)
                });
                done();
            },
        );
        self.positions.retain(|_, (_, moves)| !moves.is_empty());
    }
}

fn parse_book_move(pos: &Position, field: &str) -> Result<BookMove, String> {
    let words: Vec<&str> = field.split_whitespace().collect();
    let [mv, games, percent, eval] = words[..] else {
        return Err("expected `move games percent% value`".to_string());
    };
    let mv = parse_move(pos, mv).map_err(|e| e.to_string())?;
    let games: u32 = games
        .parse()
        .ok()
        .filter(|&g| g > 0)
        .ok_or_else(|| format!("{games}: not a number of games"))?;
    let percent: u8 = percent
        .strip_suffix('%')
        .and_then(|p| p.parse().ok())
        .filter(|&p| p <= 100)
        .ok_or_else(|| format!("{percent}: not a score in percent"))?;
    let eval = match eval {
        "-" => None,
        e => Some(
            e.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && v.abs() < 400.0)
                .map(|v| (v * 100.0).round() as i32)
                .ok_or_else(|| format!("{e}: not a value in men"))?,
        ),
    };
    Ok(BookMove {
        mv,
        games,
        percent,
        eval,
    })
}

/// The moves seen in a position: each with the games it was played in and the mover's points
/// (two for a win, one for a draw).
type Seen = (Position, Vec<(Move, u32, u32)>);

/// Gathers the opening moves of games, position by position.
pub struct BookBuilder {
    variant: Variant,
    plies: usize,
    /// By the position's hash.
    seen: HashMap<u64, Seen>,
    games: usize,
}

impl BookBuilder {
    /// A builder for `variant` that reads the first `plies` plies of each game.
    pub fn new(variant: Variant, plies: usize) -> BookBuilder {
        BookBuilder {
            variant,
            plies,
            seen: HashMap::new(),
            games: 0,
        }
    }

    /// The games added so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds the opening of a game; games of another variant or without a result add nothing.
    pub fn add_game(&mut self, game: &PdnGame) {
        if game.variant != self.variant {
            return;
        }
        let winner = match game.result {
            GameResult::Win(c) => Some(c),
            GameResult::Draw => None,
            GameResult::BothLost | GameResult::Unfinished => return,
        };
        self.games += 1;
        let mut pos = game.start;
        for m in game.line.moves.iter().take(self.plies) {
            let points = match winner {
                Some(c) if c == pos.side_to_move() => 2,
                Some(_) => 0,
                None => 1,
            };
            let (_, moves) = self
                .seen
                .entry(pos.zobrist())
                .or_insert_with(|| (pos, Vec::new()));
            match moves.iter_mut().find(|(mv, _, _)| *mv == m.mv) {
                Some((_, n, p)) => {
                    *n += 1;
                    *p += points;
                }
                None => moves.push((m.mv, 1, points)),
            }
            pos = pos.play(&m.mv);
        }
    }

    /// The book: the moves played in at least `min_games` games, in the positions that keep
    /// one and have a choice.
    pub fn build(self, min_games: u32) -> Book {
        let mut book = Book::new(self.variant);
        for (key, (pos, moves)) in self.seen {
            let mut kept: Vec<BookMove> = moves
                .into_iter()
                .filter(|&(_, n, _)| n >= min_games.max(1))
                .map(|(mv, n, points)| BookMove {
                    mv,
                    games: n,
                    percent: (u64::from(points) * 50 / u64::from(n)) as u8,
                    eval: None,
                })
                .collect();
            // A forced move needs no book.
            if kept.is_empty() || pos.legal_moves().len() < 2 {
                continue;
            }
            kept.sort_by(|a, b| b.games.cmp(&a.games).then(b.percent.cmp(&a.percent)));
            book.positions.insert(key, (pos, kept));
        }
        book
    }
}

/// The book shipped with the program for a variant (`scripts/book.sh` makes it).
pub fn builtin(variant: Variant) -> &'static Book {
    static BOOKS: [OnceLock<Book>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (i, text): (usize, &str) = match variant {
        Variant::International => (0, include_str!("book/international.book")),
        Variant::Frisian => (1, include_str!("book/frisian.book")),
        Variant::English => (2, include_str!("book/english.book")),
    };
    BOOKS[i].get_or_init(|| {
        Book::parse(text, variant)
            .expect("the shipped books are checked by the tests before release")
    })
}

#[cfg(test)]
mod tests;
