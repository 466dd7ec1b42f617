//! Reading PDN: the parser over the lexer's tokens, with per-game recovery and located errors.
#![forbid(unsafe_code)]

use super::lex::{Tok, Token, decode, tokenize};
use super::record::{GameResult, Line, PdnGame, PdnMove};
use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::notation::MoveTextError;
use crate::rules::notation::{matching_moves, parse_fen, parse_move};
use crate::rules::variant::Variant;

/// The deepest variations may nest: each level is a frame of the reader's stack (and of the
/// writer's), so the limit keeps a hostile file from exhausting it.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// A located problem in a PDN file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {reason}")]
pub struct PdnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads every game of a PDN file. Each entry is a game or the first error found in it; an error
/// ends only its own game, so the other games are still returned.
pub fn read_games(text: &str, default_variant: Variant) -> Vec<Result<PdnGame, PdnError>> {
    let tokens = tokenize(text);
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        default_variant,
        in_tags: false,
    };
    let mut games = Vec::new();
    while parser.at < tokens.len() {
        games.push(parser.game());
    }
    games
}

/// Reads a PDN file's bytes (UTF-8 or Latin-1). See [`read_games`].
pub fn read_bytes(bytes: &[u8], default_variant: Variant) -> Vec<Result<PdnGame, PdnError>> {
    read_games(&decode(bytes), default_variant)
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    default_variant: Variant,
    /// Inside a game's tag section (so recovery skips the rest of it too).
    in_tags: bool,
}

fn err(t: &Token, reason: impl Into<String>) -> PdnError {
    PdnError {
        line: t.line,
        column: t.column,
        reason: reason.into(),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    /// An error "at the end of the file", located just after the last token.
    fn eof_error(&self, reason: &str) -> PdnError {
        let last = self.tokens.last();
        PdnError {
            line: last.map_or(1, |t| t.line),
            column: last.map_or(1, |t| t.column),
            reason: reason.to_string(),
        }
    }

    /// Skips the rest of a broken game: up to its result, or to the next tag section.
    fn recover(&mut self) {
        while let Some(t) = self.peek() {
            match t.tok {
                Tok::Result(_) => {
                    self.at += 1;
                    return;
                }
                Tok::TagOpen if self.at > 0 => {
                    if matches!(
                        self.tokens.get(self.at + 1).map(|t| &t.tok),
                        Some(Tok::Symbol(_))
                    ) {
                        return;
                    }
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
    }

    fn game(&mut self) -> Result<PdnGame, PdnError> {
        let start_at = self.at;
        let result = self.game_inner();
        if result.is_err() {
            if self.at == start_at {
                self.at += 1;
            }
            if self.in_tags {
                while let Some(t) = self.peek() {
                    match t.tok {
                        Tok::TagOpen
                        | Tok::TagClose
                        | Tok::Symbol(_)
                        | Tok::Str(_)
                        | Tok::Bad(_) => self.at += 1,
                        _ => break,
                    }
                }
            }
            self.in_tags = false;
            self.recover();
        }
        result
    }

    fn tags(&mut self) -> Result<Vec<(String, String, Token)>, PdnError> {
        self.in_tags = true;
        let mut tags: Vec<(String, String, Token)> = Vec::new();
        let mut last_line = None;
        while let Some(open) = self.peek() {
            if open.tok != Tok::TagOpen {
                break;
            }
            // A blank line or a repeated tag name ends a tag section that has no moves.
            let repeated = match self.tokens.get(self.at + 1) {
                Some(Token {
                    tok: Tok::Symbol(s),
                    ..
                }) => tags.iter().any(|t| &t.0 == s),
                _ => false,
            };
            if repeated || last_line.is_some_and(|l: usize| open.line > l + 1) {
                break;
            }
            self.at += 1;
            let name = match self.peek() {
                Some(Token {
                    tok: Tok::Symbol(s),
                    ..
                }) => s.clone(),
                Some(
                    t @ Token {
                        tok: Tok::Bad(reason),
                        ..
                    },
                ) => return Err(err(t, reason.clone())),
                Some(t) => return Err(err(t, "expected a tag name after '['")),
                None => return Err(self.eof_error("file ends inside a tag")),
            };
            self.at += 1;
            let value = match self.peek() {
                Some(Token {
                    tok: Tok::Str(s), ..
                }) => s.clone(),
                Some(
                    t @ Token {
                        tok: Tok::Bad(reason),
                        ..
                    },
                ) => return Err(err(t, reason.clone())),
                Some(t) => return Err(err(t, format!("expected a quoted value for tag {name}"))),
                None => return Err(self.eof_error("file ends inside a tag")),
            };
            let value_token = self.tokens[self.at].clone();
            self.at += 1;
            match self.peek() {
                Some(Token {
                    tok: Tok::TagClose,
                    line,
                    ..
                }) => {
                    last_line = Some(*line);
                    self.at += 1
                }
                Some(t) => return Err(err(t, format!("expected ']' to close tag {name}"))),
                None => return Err(self.eof_error("file ends inside a tag")),
            }
            tags.push((name, value, value_token));
        }
        self.in_tags = false;
        Ok(tags)
    }

    fn game_inner(&mut self) -> Result<PdnGame, PdnError> {
        let tags = self.tags()?;
        let mut variant = self.default_variant;
        for (name, value, at) in &tags {
            if name.eq_ignore_ascii_case("GameType") {
                let number = value.split(',').next().unwrap_or("").trim();
                variant = number
                    .parse()
                    .ok()
                    .and_then(Variant::from_game_type)
                    .ok_or_else(|| {
                        err(
                            at,
                            format!(
                                "unknown GameType {value:?} (20 International, 21 English, 40 Frisian)"
                            ),
                        )
                    })?;
            }
        }
        let mut start = Position::start(variant);
        for (name, value, at) in &tags {
            if name.eq_ignore_ascii_case("FEN") {
                start = parse_fen(value, variant).map_err(|e| err(at, format!("bad FEN: {e}")))?;
            }
        }
        let has_tags = !tags.is_empty();
        let tags: Vec<(String, String)> = tags.into_iter().map(|(k, v, _)| (k, v)).collect();
        let (line, ended) = self.line(&start, 0)?;
        let marked = matches!(ended, End::Result(..));
        let result = match ended {
            End::Result(text, at) => GameResult::parse(&text, variant)
                .ok_or_else(|| err(&at, format!("{text:?} is not a result")))?,
            End::Eof => GameResult::Unfinished,
            End::NextGame(at) => {
                if !line.moves.is_empty() || !line.intro.is_empty() || !has_tags {
                    return Err(err(
                        &at,
                        "the game before this has no result (2-0, 1-1, 0-2, *)",
                    ));
                }
                GameResult::Unfinished
            }
        };
        let tag_result = tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Result"))
            .and_then(|(_, v)| GameResult::parse(v, variant));
        Ok(PdnGame {
            tags,
            variant,
            start,
            line,
            // A game that stops without a marker keeps the result its tag states.
            result: match (result, tag_result) {
                (GameResult::Unfinished, Some(t)) if !marked => t,
                (r, _) => r,
            },
        })
    }

    /// The move `text` names in `pos`. A short capture that fits several moves (some programs
    /// write `36x16` where two routes exist) is settled by the moves that follow it in the same
    /// line: the one candidate after which they all replay.
    fn resolve(&self, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        let fits = matching_moves(pos, text)?;
        if fits.len() <= 1 {
            return parse_move(pos, text);
        }
        let mut following = Vec::new();
        let mut depth = 0usize;
        for t in &self.tokens[self.at + 1..] {
            match &t.tok {
                Tok::VariationOpen => depth += 1,
                Tok::VariationClose if depth == 0 => break,
                Tok::VariationClose => depth -= 1,
                Tok::Result(_) | Tok::TagOpen | Tok::Bad(_) | Tok::Symbol(_) => break,
                Tok::Move(m) if depth == 0 => following.push(m.as_str()),
                _ => {}
            }
        }
        let replays = |first: &Move| {
            let mut p = pos.play(first);
            for m in &following {
                match matching_moves(&p, m).as_deref() {
                    Ok([one]) => p = p.play(one),
                    Ok([first, ..]) => p = p.play(first),
                    _ => return false,
                }
            }
            true
        };
        let survivors: Vec<&Move> = fits.iter().filter(|m| replays(m)).collect();
        match survivors.as_slice() {
            [one] => Ok(**one),
            _ => parse_move(pos, text),
        }
    }

    /// Reads moves from `pos` until the end of the line: `)` in a variation (depth > 0), a result,
    /// the next game's tags, or the end of the file.
    fn line(&mut self, start: &Position, depth: usize) -> Result<(Line, End), PdnError> {
        let mut line = Line::default();
        let mut pos = *start;
        let mut before = *start;
        let mut pending_number: Option<Token> = None;
        loop {
            let Some(t) = self.peek().cloned() else {
                if depth > 0 {
                    return Err(self.eof_error("file ends inside a variation"));
                }
                if let Some(n) = pending_number {
                    return Err(err(&n, "move number without a move"));
                }
                return Ok((line, End::Eof));
            };
            if matches!(
                t.tok,
                Tok::Result(_)
                    | Tok::TagOpen
                    | Tok::VariationOpen
                    | Tok::VariationClose
                    | Tok::MoveNumber
            ) && let Some(n) = pending_number.take()
            {
                return Err(err(&n, "move number without a move"));
            }
            match &t.tok {
                Tok::TagOpen => {
                    if depth > 0 {
                        return Err(err(&t, "'[' inside a variation"));
                    }
                    return Ok((line, End::NextGame(t)));
                }
                Tok::Result(text) => {
                    if depth > 0 {
                        return Err(err(&t, "result inside a variation"));
                    }
                    self.at += 1;
                    return Ok((line, End::Result(text.clone(), t)));
                }
                Tok::VariationClose => {
                    if depth == 0 {
                        return Err(err(&t, "')' without a variation to close"));
                    }
                    self.at += 1;
                    return Ok((line, End::Eof));
                }
                Tok::VariationOpen => {
                    if depth >= MAX_VARIATION_DEPTH {
                        return Err(err(
                            &t,
                            format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
                        ));
                    }
                    self.at += 1;
                    let (variation, _) = self.line(&before, depth + 1)?;
                    match line.moves.last_mut() {
                        Some(m) => m.variations.push(variation),
                        None => return Err(err(&t, "a variation before the first move")),
                    }
                }
                Tok::Comment(c) => {
                    self.at += 1;
                    match line.moves.last_mut() {
                        Some(m) => m.comments.push(c.clone()),
                        None => line.intro.push(c.clone()),
                    }
                }
                Tok::MoveNumber => {
                    self.at += 1;
                    pending_number = Some(t);
                }
                Tok::Ellipsis => {
                    pending_number = None;
                    self.at += 1;
                }
                Tok::Annotation(a) | Tok::Nag(a) => {
                    let text = if matches!(t.tok, Tok::Nag(_)) {
                        format!("${a}")
                    } else {
                        a.clone()
                    };
                    self.at += 1;
                    match line.moves.last_mut() {
                        Some(m) => m.annotations.push(text),
                        None => return Err(err(&t, format!("{text} before the first move"))),
                    }
                }
                Tok::Move(text) => {
                    pending_number = None;
                    let mv = self
                        .resolve(&pos, text)
                        .map_err(|e| err(&t, e.to_string()))?;
                    self.at += 1;
                    before = pos;
                    pos = pos.play(&mv);
                    line.moves.push(PdnMove {
                        mv,
                        annotations: Vec::new(),
                        comments: Vec::new(),
                        variations: Vec::new(),
                    });
                }
                Tok::Symbol(s) => {
                    return Err(err(
                        &t,
                        format!("{s:?} is not a move (only numeric notation is supported)"),
                    ));
                }
                Tok::Str(_) | Tok::TagClose => {
                    return Err(err(&t, "tag text outside a tag"));
                }
                Tok::Bad(reason) => return Err(err(&t, reason.clone())),
            }
        }
    }
}

/// How a line of moves ended.
enum End {
    Result(String, Token),
    NextGame(Token),
    Eof,
}
