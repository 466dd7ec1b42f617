//! DXP, the DamExchange protocol: two draughts programs play each other over TCP (port 27531 by
//! default). Messages are ASCII strings of at most 127 characters, each ended by a NUL byte; the
//! first character names the message: `R` game request, `A` game accepted, `M` move, `E` game end,
//! `B` back request, `K` back accepted, `C` chat.
//!
//! This module reads and writes the messages; [`session`] plays games over a connection.

pub mod session;

use crate::rules::board::{Position, Square};
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use std::io::{Read, Write};

/// The TCP port DXP programs listen on unless told otherwise.
pub const DEFAULT_PORT: u16 = 27531;

/// The longest message accepted from a peer (the protocol's own limit is 127 characters; some
/// programs pad more generously, so a little slack is allowed before the peer is cut off).
const MAX_MESSAGE: usize = 1024;

/// Why a message could not be read or understood.
#[derive(Debug, thiserror::Error)]
pub enum DxpError {
    /// The connection failed or was closed.
    #[error("connection: {0}")]
    Io(std::io::Error),
    /// The peer closed the connection.
    #[error("the other program closed the connection")]
    Closed,
    /// The other program went silent: no answer, or no move in an untimed game.
    #[error("{0}")]
    Silent(&'static str),
    /// A message that breaks the protocol, with what was wrong.
    #[error("bad message {message:?}: {reason}")]
    Bad {
        /// The message as received (lossily decoded).
        message: String,
        /// What is wrong with it.
        reason: String,
    },
}

// By hand, not `#[from]`: the message carries the I/O error, so it is not also its source (a
// chain printed in full would say it twice).
impl From<std::io::Error> for DxpError {
    fn from(e: std::io::Error) -> DxpError {
        DxpError::Io(e)
    }
}

fn bad(message: &str, reason: impl Into<String>) -> DxpError {
    DxpError::Bad {
        message: message.to_string(),
        reason: reason.into(),
    }
}

/// How the game request sets up the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The initial position, White to move.
    Initial,
    /// This position (its side to move included).
    Position(Position),
}

/// Why the follower answers a game request as it does (the acceptance code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// `0`: the game starts.
    Accepted,
    /// `1`: the protocol version is not the expected one.
    WrongVersion,
    /// `2`: not this game (time, position), but another one is welcome.
    NotThisGame,
    /// `3`: no game at all.
    NoGames,
}

/// Why a program ends a game (informational in the protocol).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (always allowed, and the only one in an acknowledgement).
    Unknown,
    /// `1`: the sender gives up.
    Resign,
    /// `2`: the game is drawn.
    Draw,
    /// `3`: the sender wins.
    Win,
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: the initiator asks for a game.
    GameRequest {
        /// The protocol version (always 1).
        version: u8,
        /// The initiator's name.
        name: String,
        /// The colour the follower is to play.
        follower: Color,
        /// Minutes for each player for the whole game.
        minutes: u16,
        /// Moves in that time (0: no limit).
        moves: u16,
        /// The starting position.
        start: Start,
    },
    /// `A`: the follower's answer.
    GameAccept {
        /// The follower's name.
        name: String,
        /// Whether and why.
        code: Acceptance,
    },
    /// `M`: a move.
    Move {
        /// Seconds the sender used for it.
        seconds: u16,
        /// Square moved from.
        from: u8,
        /// Square moved to.
        to: u8,
        /// Squares of the captured pieces, in any order.
        captured: Vec<u8>,
    },
    /// `E`: the end of a game, or its acknowledgement.
    GameEnd {
        /// Why.
        reason: EndReason,
        /// Whether the sender wants to stop playing altogether.
        stop: bool,
    },
    /// `B`: a request to go back to a move.
    BackRequest {
        /// The move number (the game's first move is 1).
        number: u16,
        /// The side to move at that move.
        side: Color,
    },
    /// `K`: the answer to a back request.
    BackAccept {
        /// `true` when the position was set back.
        accepted: bool,
    },
    /// `C`: free text.
    Chat(String),
}

fn color_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn color_of(text: &str, c: char) -> Result<Color, DxpError> {
    match c {
        'W' => Ok(Color::White),
        'Z' => Ok(Color::Black),
        _ => Err(bad(text, format!("colour {c:?} is not W or Z"))),
    }
}

/// Pads or cuts a program name to the protocol's 32 characters (ASCII only).
fn name_field(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { ' ' })
        .collect();
    format!("{:<32.32}", clean.trim())
}

/// The 50-character board field: `e` empty, `w`/`z` men, `W`/`Z` kings.
fn board_field(pos: &Position) -> String {
    let squares = pos.variant().geometry().squares;
    (1..=squares)
        .map(|n| {
            let sq =
                Square::new(n, pos.variant()).expect("numbers up to the board's count are squares");
            match pos.piece_at(sq) {
                None => 'e',
                Some(p) => match (p.color, p.kind) {
                    (Color::White, crate::rules::piece::Kind::Man) => 'w',
                    (Color::Black, crate::rules::piece::Kind::Man) => 'z',
                    (Color::White, crate::rules::piece::Kind::King) => 'W',
                    (Color::Black, crate::rules::piece::Kind::King) => 'Z',
                },
            }
        })
        .collect()
}

fn digits(text: &str, field: &str, what: &str) -> Result<u16, DxpError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(text, format!("{what} {field:?} is not a number")));
    }
    field
        .parse()
        .map_err(|_| bad(text, format!("{what} {field:?} is too large")))
}

impl Message {
    /// The message as sent, without its NUL.
    pub fn encode(&self) -> String {
        match self {
            Message::GameRequest {
                version,
                name,
                follower,
                minutes,
                moves,
                start,
            } => {
                let mut s = format!(
                    "R{version:02}{}{}{:03}{:03}",
                    name_field(name),
                    color_letter(*follower),
                    minutes.min(&999),
                    moves.min(&999)
                );
                match start {
                    Start::Initial => s.push('A'),
                    Start::Position(p) => {
                        s.push('B');
                        s.push(color_letter(p.side_to_move()));
                        s.push_str(&board_field(p));
                    }
                }
                s
            }
            Message::GameAccept { name, code } => {
                let c = match code {
                    Acceptance::Accepted => '0',
                    Acceptance::WrongVersion => '1',
                    Acceptance::NotThisGame => '2',
                    Acceptance::NoGames => '3',
                };
                format!("A{}{c}", name_field(name))
            }
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{from:02}{to:02}{:02}",
                    seconds.min(&9999),
                    captured.len()
                );
                for c in captured {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => {
                let r = match reason {
                    EndReason::Unknown => '0',
                    EndReason::Resign => '1',
                    EndReason::Draw => '2',
                    EndReason::Win => '3',
                };
                format!("E{r}{}", u8::from(*stop))
            }
            Message::BackRequest { number, side } => {
                format!("B{:03}{}", number.min(&999), color_letter(*side))
            }
            Message::BackAccept { accepted } => format!("K{}", if *accepted { '0' } else { '1' }),
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .filter(|c| c.is_ascii() && *c != '\0')
                    .take(126)
                    .collect();
                format!("C{clean}")
            }
        }
    }

    /// Reads a message (without its NUL) for a game of `variant`.
    pub fn parse(text: &str, variant: Variant) -> Result<Message, DxpError> {
        let t = text;
        let field = |from: usize, len: usize, what: &str| -> Result<&str, DxpError> {
            t.get(from..from + len)
                .ok_or_else(|| bad(t, format!("too short: the {what} is missing")))
        };
        let Some(kind) = t.chars().next() else {
            return Err(bad(t, "empty message"));
        };
        if !t.is_ascii() {
            return Err(bad(t, "not ASCII"));
        }
        match kind {
            'R' => {
                let version = digits(t, field(1, 2, "version")?, "version")? as u8;
                let name = field(3, 32, "initiator's name")?.trim().to_string();
                let follower =
                    color_of(t, field(35, 1, "follower's colour")?.as_bytes()[0] as char)?;
                let minutes = digits(t, field(36, 3, "thinking time")?, "thinking time")?;
                let moves = digits(t, field(39, 3, "number of moves")?, "number of moves")?;
                let start = match field(42, 1, "starting position")? {
                    "A" => Start::Initial,
                    "B" => {
                        let side =
                            color_of(t, field(43, 1, "colour to move")?.as_bytes()[0] as char)?;
                        let squares = variant.geometry().squares as usize;
                        let board = field(44, squares, "position")?;
                        Start::Position(parse_board(t, side, board, variant)?)
                    }
                    other => {
                        return Err(bad(t, format!("starting position {other:?} is not A or B")));
                    }
                };
                Ok(Message::GameRequest {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    start,
                })
            }
            'A' => {
                let name = field(1, 32, "follower's name")?.trim().to_string();
                let code = match field(33, 1, "acceptance code")? {
                    "0" => Acceptance::Accepted,
                    "1" => Acceptance::WrongVersion,
                    "2" => Acceptance::NotThisGame,
                    "3" => Acceptance::NoGames,
                    other => return Err(bad(t, format!("acceptance code {other:?} is not 0-3"))),
                };
                Ok(Message::GameAccept { name, code })
            }
            'M' => {
                let seconds = digits(t, field(1, 4, "time")?, "time")?;
                let from = digits(t, field(5, 2, "from field")?, "from field")? as u8;
                let to = digits(t, field(7, 2, "to field")?, "to field")? as u8;
                let count = digits(t, field(9, 2, "number captured")?, "number captured")? as usize;
                let captured = (0..count)
                    .map(|i| {
                        field(11 + 2 * i, 2, "captured piece")
                            .and_then(|f| digits(t, f, "captured piece"))
                            .map(|n| n as u8)
                    })
                    .collect::<Result<Vec<u8>, DxpError>>()?;
                Ok(Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            'E' => {
                let reason = match field(1, 1, "reason")? {
                    "0" => EndReason::Unknown,
                    "1" => EndReason::Resign,
                    "2" => EndReason::Draw,
                    "3" => EndReason::Win,
                    other => return Err(bad(t, format!("reason {other:?} is not 0-3"))),
                };
                let stop = match field(2, 1, "stop code")? {
                    "0" => false,
                    "1" => true,
                    other => return Err(bad(t, format!("stop code {other:?} is not 0 or 1"))),
                };
                Ok(Message::GameEnd { reason, stop })
            }
            'B' => {
                let number = digits(t, field(1, 3, "move number")?, "move number")?;
                let side = color_of(t, field(4, 1, "colour to move")?.as_bytes()[0] as char)?;
                Ok(Message::BackRequest { number, side })
            }
            'K' => match field(1, 1, "acceptance code")? {
                "0" => Ok(Message::BackAccept { accepted: true }),
                "1" | "2" => Ok(Message::BackAccept { accepted: false }),
                other => Err(bad(t, format!("acceptance code {other:?} is not 0-2"))),
            },
            'C' => Ok(Message::Chat(t[1..].to_string())),
            other => Err(bad(t, format!("unknown message type {other:?}"))),
        }
    }
}

fn parse_board(
    text: &str,
    side: Color,
    board: &str,
    variant: Variant,
) -> Result<Position, DxpError> {
    // The Hub reader knows the board; DXP differs only in its letters for Black.
    let mut hub = String::with_capacity(board.len() + 1);
    hub.push(side.letter());
    for (i, c) in board.chars().enumerate() {
        hub.push(match c {
            'e' | 'w' | 'W' => c,
            'z' => 'b',
            'Z' => 'B',
            other => {
                return Err(bad(
                    text,
                    format!(
                        "square {} holds {other:?} (expected e, w, z, W or Z)",
                        i + 1
                    ),
                ));
            }
        });
    }
    crate::hub::parse_position(&hub, variant).map_err(|e| bad(text, e.0))
}

/// The DXP move message for a move.
pub fn move_message(mv: &Move, seconds: u64) -> Message {
    Message::Move {
        seconds: seconds.min(9999) as u16,
        from: mv.from().number(),
        to: mv.to().number(),
        captured: mv.captured().iter().map(|s| s.number()).collect(),
    }
}

/// The legal move of `pos` that a DXP move names. The captured squares settle which of several
/// captures between the same squares is meant; a program that leaves them out is understood
/// when only one capture fits.
pub fn find_move(pos: &Position, from: u8, to: u8, captured: &[u8]) -> Result<Move, String> {
    let mut taken = captured.to_vec();
    taken.sort_unstable();
    let fits: Vec<Move> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from().number() == from && m.to().number() == to)
        .filter(|m| {
            let mut c: Vec<u8> = m.captured().iter().map(|s| s.number()).collect();
            c.sort_unstable();
            taken.is_empty() || c == taken
        })
        .copied()
        .collect();
    match fits.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "{from}-{to}{} is not a legal move here",
            if taken.is_empty() {
                String::new()
            } else {
                format!(" capturing {taken:?}")
            }
        )),
        _ => Err(format!(
            "{from}-{to} fits {} captures; the captured pieces must be given",
            fits.len()
        )),
    }
}

/// A connection that carries NUL-ended messages.
pub struct Channel<S> {
    stream: S,
    buffer: Vec<u8>,
}

impl<S: Read + Write> Channel<S> {
    /// Wraps a connected stream.
    pub fn new(stream: S) -> Channel<S> {
        Channel {
            stream,
            buffer: Vec::new(),
        }
    }

    /// The stream (to set time-outs on it).
    pub fn stream(&self) -> &S {
        &self.stream
    }

    /// Sends a message with its NUL.
    pub fn send(&mut self, message: &Message) -> Result<(), DxpError> {
        let mut bytes = message.encode().into_bytes();
        bytes.push(0);
        self.stream.write_all(&bytes)?;
        self.stream.flush()?;
        Ok(())
    }

    /// The next message's text; `Ok(None)` when a read time-out passed first (the partial
    /// message is kept for the next call).
    pub fn receive(&mut self) -> Result<Option<String>, DxpError> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == 0) {
                let raw: Vec<u8> = self.buffer.drain(..=end).collect();
                // Some programs end lines with CR/LF as well; they are not part of a message.
                let text = String::from_utf8_lossy(&raw[..end])
                    .trim_matches(['\r', '\n'])
                    .to_string();
                if text.is_empty() {
                    continue;
                }
                return Ok(Some(text));
            }
            if self.buffer.len() > MAX_MESSAGE {
                let start = String::from_utf8_lossy(&self.buffer[..40]).to_string();
                return Err(bad(
                    &start,
                    format!("longer than {MAX_MESSAGE} bytes without an end (NUL)"),
                ));
            }
            let mut chunk = [0u8; 512];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(DxpError::Closed),
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(None);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(DxpError::Io(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;

    const V: Variant = Variant::International;

    #[test]
    fn messages_of_the_protocol_text_are_read() {
        // The examples of the protocol description.
        assert_eq!(
            Message::parse("M0012061100", V).unwrap(),
            Message::Move {
                seconds: 12,
                from: 6,
                to: 11,
                captured: vec![]
            }
        );
        assert_eq!(
            Message::parse("M001205250422122320", V).unwrap(),
            Message::Move {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20]
            }
        );
        assert_eq!(
            Message::parse("ATornado voor Windows 4.0        0", V).unwrap(),
            Message::GameAccept {
                name: "Tornado voor Windows 4.0".into(),
                code: Acceptance::Accepted
            }
        );
        assert_eq!(
            Message::parse("E00", V).unwrap(),
            Message::GameEnd {
                reason: EndReason::Unknown,
                stop: false
            }
        );
        assert_eq!(
            Message::parse("B005Z", V).unwrap(),
            Message::BackRequest {
                number: 5,
                side: Color::Black
            }
        );
        assert_eq!(
            Message::parse("CWhat do you think about move 35?", V).unwrap(),
            Message::Chat("What do you think about move 35?".into())
        );
    }

    #[test]
    fn every_message_round_trips() {
        let pos = parse_fen("B:WK46,31,32:B5,K19,20", V).unwrap();
        let all = [
            Message::GameRequest {
                version: 1,
                name: "draughts".into(),
                follower: Color::Black,
                minutes: 5,
                moves: 75,
                start: Start::Initial,
            },
            Message::GameRequest {
                version: 1,
                name: "draughts".into(),
                follower: Color::White,
                minutes: 120,
                moves: 0,
                start: Start::Position(pos),
            },
            Message::GameAccept {
                name: "Moby Dam".into(),
                code: Acceptance::NotThisGame,
            },
            Message::Move {
                seconds: 3,
                from: 32,
                to: 28,
                captured: vec![],
            },
            Message::GameEnd {
                reason: EndReason::Win,
                stop: true,
            },
            Message::BackRequest {
                number: 12,
                side: Color::White,
            },
            Message::BackAccept { accepted: true },
            Message::Chat("good luck".into()),
        ];
        for m in all {
            let text = m.encode();
            assert!(text.len() <= 127 && text.is_ascii(), "{text}");
            assert_eq!(Message::parse(&text, V).unwrap(), m, "{text}");
        }
        let r = Message::GameRequest {
            version: 1,
            name: "x".into(),
            follower: Color::White,
            minutes: 5,
            moves: 75,
            start: Start::Position(pos),
        }
        .encode();
        assert_eq!(r.len(), 1 + 2 + 32 + 1 + 3 + 3 + 1 + 1 + 50);
        assert_eq!(&r[42..44], "BZ");
        assert_eq!(&r[44 + 45..44 + 46], "W", "{r}");
        assert_eq!(&r[44 + 18..44 + 19], "Z", "{r}");
    }

    #[test]
    fn bad_messages_say_what_is_wrong() {
        for (text, words) in [
            ("", "empty"),
            ("X12", "unknown message type"),
            ("M00120611", "number captured is missing"),
            ("M0012061102", "captured piece is missing"),
            ("M00a2061100", "time"),
            ("E4", "reason"),
            ("E05", "stop code"),
            ("B005Q", "colour"),
            ("R01short", "missing"),
            ("A", "follower's name"),
        ] {
            let e = Message::parse(text, V).unwrap_err().to_string();
            assert!(e.contains(words), "{text:?}: {e}");
        }
        let board: String = std::iter::repeat_n('e', 49).chain(['x']).collect();
        let r = format!("R01{:<32}W005075BW{board}", "x");
        assert!(
            Message::parse(&r, V)
                .unwrap_err()
                .to_string()
                .contains("square 50")
        );
    }

    #[test]
    fn moves_are_found_by_their_captured_pieces() {
        // A king on 46 can take 41 and 37 or 28 and 37... two routes to one square are told
        // apart by the pieces they take.
        let pos = parse_fen("W:WK46:B41,37,28,19", V).unwrap();
        assert!(find_move(&pos, 46, 99, &[]).is_err());
        let all = pos.legal_moves();
        for m in all.iter() {
            let taken: Vec<u8> = m.captured().iter().map(|s| s.number()).collect();
            assert_eq!(
                find_move(&pos, m.from().number(), m.to().number(), &taken),
                Ok(*m)
            );
        }
        let start = Position::start(V);
        let mv = find_move(&start, 32, 28, &[]).unwrap();
        assert_eq!(move_message(&mv, 2).encode(), "M0002322800");
        assert!(
            find_move(&start, 32, 26, &[])
                .unwrap_err()
                .contains("not a legal move")
        );
    }

    #[test]
    fn the_channel_splits_at_nul_and_keeps_partial_messages() {
        struct Script(std::collections::VecDeque<Vec<u8>>, Vec<u8>);
        impl Read for Script {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match self.0.pop_front() {
                    None => Ok(0),
                    Some(c) if c.is_empty() => Err(std::io::ErrorKind::WouldBlock.into()),
                    Some(mut c) => {
                        let n = c.len().min(buf.len());
                        buf[..n].copy_from_slice(&c[..n]);
                        if n < c.len() {
                            self.0.push_front(c.split_off(n));
                        }
                        Ok(n)
                    }
                }
            }
        }
        impl Write for Script {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.1.extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let chunks = [&b"M00023228"[..], b"", b"00\0E0", b"0\0\r\n\0"];
        let mut ch = Channel::new(Script(chunks.iter().map(|c| c.to_vec()).collect(), vec![]));
        assert_eq!(ch.receive().unwrap(), None);
        assert_eq!(ch.receive().unwrap().as_deref(), Some("M0002322800"));
        assert_eq!(ch.receive().unwrap().as_deref(), Some("E00"));
        assert!(matches!(ch.receive(), Err(DxpError::Closed)));
        ch.send(&Message::Chat("hi".into())).unwrap();
        assert_eq!(ch.stream().1, b"Chi\0");
        let long = vec![b'C'; 2000];
        let mut ch = Channel::new(Script([long].into_iter().collect(), vec![]));
        assert!(
            ch.receive()
                .unwrap_err()
                .to_string()
                .contains("without an end")
        );
    }
}
