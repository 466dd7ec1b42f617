//! Games over a DXP connection: the initiator asks for games (`draughts dxp --connect`), the
//! follower accepts them (`draughts dxp --listen`); both play with the engine under a clock and
//! keep every game as PDN.
//!
//! The protocol leaves the result to the programs: whoever is to move when the game is over (by
//! the rules, a flag fall, or an illegal move) sends the end message with its view, the other
//! acknowledges it. Our record follows our rules; a game the other program ends early is
//! recorded as it says (resignation, draw, or a claimed win), or unfinished when it gives no
//! reason.

use super::{Acceptance, Channel, DxpError, EndReason, Message, Start, find_move, move_message};
use crate::clock::TimeControl;
use crate::engine::{self, Level, Limits, Searcher};
use crate::play::{LiveGame, Options};
use crate::rules::board::Position;
use crate::rules::game::{Game, Outcome, Reason};
use crate::rules::pdn::PdnGame;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::tablebase::Tablebase;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long to wait for the other program beyond its clock (or for an acknowledgement).
const GRACE: Duration = Duration::from_secs(30);

/// How long an untimed game waits for the other program's move.
const UNTIMED_WAIT: Duration = Duration::from_secs(3600);

/// How this program plays.
pub struct Player {
    /// The variant both programs play (DXP does not say; International unless agreed otherwise).
    pub variant: Variant,
    /// The name sent to the other program.
    pub name: String,
    /// The engine's level.
    pub level: Level,
    /// A fixed thinking time per move instead of the clock's budget.
    pub move_time: Option<Duration>,
    /// Tablebases for the engine.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Search threads.
    pub threads: usize,
    /// Whether the engine plays from its opening book.
    pub book: bool,
    /// Whether the engine thinks on the other program's time (about the position the other
    /// program has, so that its table is ready whatever the reply).
    pub ponder: bool,
}

/// What the initiator asks for.
#[derive(Clone, Debug)]
pub struct Request {
    /// Games to play; the colours alternate.
    pub games: usize,
    /// Our colour in the first game.
    pub color: Color,
    /// Minutes each for the whole game (0: no clock).
    pub minutes: u16,
    /// Moves in that time (0: the whole game).
    pub moves: u16,
    /// The starting positions, one per pair of games (each played with both colours), in turn.
    pub starts: Vec<Start>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The record.
    pub pdn: PdnGame,
    /// Our colour.
    pub color: Color,
}

/// The report's line for one of our moves: the time it took and, when searched, the depth, the
/// score and the nodes (`White 34-30 (0.3 s, depth 12, +0.05, 806399 nodes)`).
fn move_line(side: Color, text: &str, spent: Duration, seen: Option<engine::Seen>) -> String {
    let secs = spent.as_secs_f64();
    match seen {
        Some(s) => format!(
            "{side} {text} ({secs:.1} s, depth {}, {}, {} nodes)",
            s.depth,
            engine::score_words(s.score),
            s.nodes
        ),
        None => format!("{side} {text} ({secs:.1} s)"),
    }
}

/// The time control a game request sets: the minutes for the moves, then whatever is left.
fn time_control(minutes: u16, moves: u16) -> Option<TimeControl> {
    if minutes == 0 {
        return None;
    }
    let text = if moves == 0 {
        format!("{minutes}m")
    } else {
        format!("{minutes}m/{moves}")
    };
    TimeControl::parse(&text).ok()
}

struct Table<'a> {
    channel: &'a mut Channel<TcpStream>,
    player: &'a Player,
    /// The searcher, away in the pondering thread while it ponders.
    searcher: Option<Searcher>,
    pondering: Option<(JoinHandle<Searcher>, Arc<AtomicBool>)>,
    report: &'a mut dyn FnMut(&str),
}

/// A session that ends by an error mid-game must not leave its pondering search running.
impl Drop for Table<'_> {
    fn drop(&mut self) {
        if let Some((_, stop)) = &self.pondering {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

impl<'a> Table<'a> {
    fn new(
        channel: &'a mut Channel<TcpStream>,
        player: &'a Player,
        report: &'a mut dyn FnMut(&str),
    ) -> Table<'a> {
        Table {
            channel,
            player,
            searcher: None,
            pondering: None,
            report,
        }
    }

    /// The searcher (made on first use), once a pondering search has stopped.
    fn searcher(&mut self) -> &mut Searcher {
        if let Some((handle, stop)) = self.pondering.take() {
            stop.store(true, Ordering::Relaxed);
            // A pondering thread that panicked loses its searcher: a fresh one takes its place.
            self.searcher = handle.join().ok();
            if let Some(s) = &self.searcher {
                s.reset_stop();
            }
        }
        self.searcher.get_or_insert_with(|| {
            let mut s = Searcher::new(engine::DEFAULT_TABLE_MB, self.player.tablebase.clone());
            s.set_threads(self.player.threads);
            s
        })
    }

    /// Thinks about `pos` (the other program to move) until our turn comes, when pondering is
    /// on: the search fills the table the next search of ours reads.
    fn ponder(&mut self, pos: Position, history: Vec<u64>) {
        if !self.player.ponder || pos.legal_moves().is_empty() {
            return;
        }
        self.searcher();
        let Some(mut s) = self.searcher.take() else {
            return;
        };
        s.reset_stop();
        let stop = s.stop_flag();
        let handle = std::thread::spawn(move || {
            s.search(&pos, &history, Limits::default(), &mut |_| {});
            s
        });
        self.pondering = Some((handle, stop));
    }

    /// The next message within `wait`, chat reported on the way; `None` when the time passed.
    fn next(&mut self, wait: Duration) -> Result<Option<Message>, DxpError> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            self.channel
                .stream()
                .set_read_timeout(Some(left.min(Duration::from_millis(200))))?;
            let Some(text) = self.channel.receive()? else {
                continue;
            };
            match Message::parse(&text, self.player.variant) {
                Ok(Message::Chat(words)) => (self.report)(&format!("chat: {words}")),
                Ok(m) => return Ok(Some(m)),
                Err(e) => (self.report)(&format!("ignored: {e}")),
            }
        }
    }

    /// Plays one game from `start` with our `color`; `last` tells the other program that no game
    /// follows. Returns the record and whether the other program wants to stop.
    fn play(
        &mut self,
        start: Position,
        color: Color,
        clock: Option<TimeControl>,
        names: (&str, &str),
        last: bool,
    ) -> Result<(LiveGame, bool), DxpError> {
        let options = Options {
            clock,
            casual: false,
            tablebase: self.player.tablebase.clone(),
            // Both programs play by the rules to the end; neither may stop early on tables.
            adjudicate: false,
        };
        let mut live = LiveGame::new(Game::from_position(start), options);
        let (white, black) = if color == Color::White {
            (names.0, names.1)
        } else {
            (names.1, names.0)
        };
        live.set_tag("Event", "DXP");
        live.set_tag("White", white);
        live.set_tag("Black", black);
        self.searcher().clear();
        let epoch = Instant::now();
        live.start_clock(epoch.elapsed());
        let mut moved_at = Instant::now();
        // The other program's last move was refused (illegal, or in after the game was over on
        // our board): it waits for our reply although the board still shows its turn.
        let mut refused = false;
        while live.outcome().is_none() {
            let side = live.position().side_to_move();
            if side == color {
                let history: Vec<u64> = live.game().positions().map(Position::zobrist).collect();
                let budget = match (self.player.move_time, live.clock()) {
                    (Some(t), _) => engine::Budget::Fixed(t),
                    (None, Some(c)) => {
                        engine::Budget::Clock(engine::budget(c, side, epoch.elapsed()))
                    }
                    (None, None) => engine::Budget::Untimed,
                };
                let stop = AtomicBool::new(false);
                let thinking = Instant::now();
                let player = self.player;
                let book = player.book.then(|| engine::book::builtin(player.variant));
                let Some(choice) = engine::choose(
                    self.searcher(),
                    live.position(),
                    &history,
                    player.level,
                    budget,
                    book,
                    &stop,
                ) else {
                    break;
                };
                let spent = thinking.elapsed();
                let mv = choice.mv;
                let text = crate::rules::notation::move_text(live.position(), &mv);
                if live.play(&mv, epoch.elapsed()).is_err() {
                    break;
                }
                self.channel.send(&move_message(&mv, spent.as_secs()))?;
                (self.report)(&move_line(side, &text, spent, choice.seen));
                moved_at = Instant::now();
                if live.outcome().is_none() {
                    let history = live.game().positions().map(Position::zobrist).collect();
                    self.ponder(*live.position(), history);
                }
                continue;
            }
            let message = self.next(Duration::from_millis(200))?;
            // A timed game ends on the flag (the loop stops); an untimed one waits an hour.
            live.tick(epoch.elapsed());
            let Some(message) = message else {
                if live.clock().is_none() && moved_at.elapsed() > UNTIMED_WAIT {
                    return Err(DxpError::Silent(
                        "the other program did not move in an hour",
                    ));
                }
                continue;
            };
            match message {
                Message::Move {
                    from, to, captured, ..
                } => match find_move(live.position(), from, to, &captured) {
                    Ok(mv) => {
                        let text = crate::rules::notation::move_text(live.position(), &mv);
                        if live.play(&mv, epoch.elapsed()).is_ok() {
                            (self.report)(&format!("{side} {text}"));
                        } else {
                            // The move came after the game ended on our board (its flag fell
                            // while it was on the way): the other program now waits for our
                            // move, so the end is ours to send.
                            refused = true;
                        }
                    }
                    Err(why) => {
                        live.end_by_adjudication(
                            Outcome {
                                winner: Some(color),
                                reason: Reason::Adjudication,
                            },
                            &format!("{color} wins: the other program played {why}"),
                            epoch.elapsed(),
                        );
                        (self.report)(&format!("illegal move from the other program: {why}"));
                        refused = true;
                    }
                },
                Message::GameEnd { reason, stop } => {
                    self.channel.send(&Message::GameEnd {
                        reason: EndReason::Unknown,
                        stop: last,
                    })?;
                    let now = epoch.elapsed();
                    match reason {
                        EndReason::Resign => {
                            live.resign(side, now);
                        }
                        EndReason::Draw => {
                            live.end_by_adjudication(
                                Outcome {
                                    winner: None,
                                    reason: Reason::Adjudication,
                                },
                                "draw claimed by the other program",
                                now,
                            );
                        }
                        EndReason::Win => {
                            live.end_by_adjudication(
                                Outcome {
                                    winner: Some(side),
                                    reason: Reason::Adjudication,
                                },
                                &format!("{side} wins: claimed by the other program"),
                                now,
                            );
                        }
                        EndReason::Unknown => {
                            live.set_tag("Termination", "ended by the other program");
                        }
                    }
                    return Ok((live, stop));
                }
                Message::BackRequest { number, side: at } => {
                    // Move `number` with `at` to move: plies from the start of the game.
                    let first = live.game().start().side_to_move();
                    let plies = (usize::from(number.max(1)) - 1) * 2 + usize::from(at != first);
                    let ok = plies <= live.game().moves().len();
                    if ok {
                        live.take_back_to(plies, epoch.elapsed());
                        (self.report)(&format!("back to move {number} ({at} to move)"));
                    }
                    self.channel.send(&Message::BackAccept { accepted: ok })?;
                    moved_at = Instant::now();
                }
                other => (self.report)(&format!("ignored out of turn: {}", other.encode())),
            }
        }
        // No thinking beyond the game.
        self.searcher();
        self.finish(live, color, last, refused)
    }

    /// Plays the next game of the session against `peer` and keeps it; `Ok(true)` when the other
    /// program wants to stop.
    fn round(
        &mut self,
        played: &mut Vec<Played>,
        start: &Start,
        color: Color,
        clock: Option<TimeControl>,
        peer: &str,
        last: bool,
    ) -> Result<bool, DxpError> {
        let round = played.len() + 1;
        let name = self.player.name.clone();
        (self.report)(&format!("game {round}: {name} ({color}) against {peer}"));
        let start = match start {
            Start::Initial => Position::start(self.player.variant),
            Start::Position(p) => *p,
        };
        let (mut live, stop) = self.play(start, color, clock, (&name, peer), last)?;
        let result = crate::rules::pdn::result_text(live.pdn().result, live.game().variant());
        let why = live
            .ending()
            .or(live.tag("Termination"))
            .unwrap_or("unfinished")
            .to_string();
        (self.report)(&format!("game {round}: {result} ({why})"));
        live.set_tag("Round", &round.to_string());
        played.push(Played {
            pdn: live.pdn(),
            color,
        });
        Ok(stop)
    }

    /// The game is over on our board: the side to move says so, the other acknowledges.
    fn finish(
        &mut self,
        live: LiveGame,
        color: Color,
        last: bool,
        our_turn: bool,
    ) -> Result<(LiveGame, bool), DxpError> {
        let ours = match live.outcome().and_then(|o| o.winner) {
            Some(c) if c == color => EndReason::Win,
            Some(_) => EndReason::Resign,
            None => EndReason::Draw,
        };
        let claim = Message::GameEnd {
            reason: ours,
            stop: last,
        };
        if !our_turn && live.position().side_to_move() != color {
            // The other program is to move: it should end the game itself.
            match self.next(GRACE * 2)? {
                Some(Message::GameEnd { stop, .. }) => {
                    self.channel.send(&Message::GameEnd {
                        reason: EndReason::Unknown,
                        stop: last,
                    })?;
                    return Ok((live, stop));
                }
                Some(_) => self.channel.send(&claim)?,
                None => return Ok((live, true)),
            }
        } else {
            self.channel.send(&claim)?;
        }
        // Our end message waits for its acknowledgement; anything else is too late to matter.
        let until = Instant::now() + GRACE;
        while Instant::now() < until {
            match self.next(until.saturating_duration_since(Instant::now()))? {
                Some(Message::GameEnd { stop, .. }) => return Ok((live, stop)),
                Some(_) => {}
                None => break,
            }
        }
        Ok((live, true))
    }
}

/// Asks the other program for games as the initiator, and plays them.
pub fn initiate(
    channel: &mut Channel<TcpStream>,
    player: &Player,
    request: &Request,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<Played>, DxpError> {
    let mut table = Table::new(channel, player, report);
    let mut played = Vec::new();
    for round in 1..=request.games {
        let color = if round % 2 == 1 {
            request.color
        } else {
            request.color.opposite()
        };
        let start = request
            .starts
            .get((round - 1) / 2 % request.starts.len().max(1))
            .cloned()
            .unwrap_or(Start::Initial);
        table.channel.send(&Message::GameRequest {
            version: 1,
            name: player.name.clone(),
            follower: color.opposite(),
            minutes: request.minutes,
            moves: request.moves,
            start: start.clone(),
        })?;
        let answer = loop {
            match table.next(GRACE * 2)? {
                Some(Message::GameAccept { name, code }) => break (name, code),
                Some(other) => (table.report)(&format!("ignored: {}", other.encode())),
                None => {
                    return Err(DxpError::Silent("no answer to the game request"));
                }
            }
        };
        let (peer, code) = answer;
        if code != Acceptance::Accepted {
            (table.report)(&format!("{peer} declined the game ({code:?})"));
            break;
        }
        let clock = time_control(request.minutes, request.moves);
        let last = round == request.games;
        if table.round(&mut played, &start, color, clock, &peer, last)? {
            break;
        }
    }
    Ok(played)
}

/// Answers the other program's game requests as the follower and plays the games, until it
/// stops or closes the connection.
pub fn follow(
    channel: &mut Channel<TcpStream>,
    player: &Player,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<Played>, DxpError> {
    let mut table = Table::new(channel, player, report);
    let mut played = Vec::new();
    loop {
        let message = match table.next(Duration::from_secs(24 * 3600)) {
            Ok(Some(m)) => m,
            Ok(None) | Err(DxpError::Closed) => break,
            Err(e) => return Err(e),
        };
        let (name, color, minutes, moves, start) = match message {
            Message::GameRequest {
                version,
                name,
                follower,
                minutes,
                moves,
                start,
            } => {
                if version != 1 {
                    table.channel.send(&Message::GameAccept {
                        name: player.name.clone(),
                        code: Acceptance::WrongVersion,
                    })?;
                    continue;
                }
                (name, follower, minutes, moves, start)
            }
            Message::GameEnd { stop: true, .. } => break,
            other => {
                (table.report)(&format!("ignored: {}", other.encode()));
                continue;
            }
        };
        let playable = match &start {
            Start::Initial => true,
            Start::Position(p) => !p.legal_moves().is_empty(),
        };
        table.channel.send(&Message::GameAccept {
            name: player.name.clone(),
            code: if playable {
                Acceptance::Accepted
            } else {
                Acceptance::NotThisGame
            },
        })?;
        if !playable {
            continue;
        }
        if table.round(
            &mut played,
            &start,
            color,
            time_control(minutes, moves),
            &name,
            false,
        )? {
            break;
        }
    }
    Ok(played)
}

/// `host`, `host:port` or `:port` as a socket address text, with DXP's port by default.
pub fn address(text: &str, listening: bool) -> String {
    let text = text.trim();
    if let Some(port) = text.strip_prefix(':') {
        let host = if listening { "0.0.0.0" } else { "127.0.0.1" };
        return format!("{host}:{port}");
    }
    if text
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        text.to_string()
    } else {
        format!("{text}:{}", super::DEFAULT_PORT)
    }
}

/// Waits for one program to connect to `listener` and follows its game requests.
pub fn listen(
    listener: &std::net::TcpListener,
    player: &Player,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<Played>, DxpError> {
    let (stream, peer) = listener.accept()?;
    stream.set_nodelay(true)?;
    report(&format!("connected: {peer}"));
    follow(&mut Channel::new(stream), player, report)
}

/// Connects to a program at `addr` and asks it for games.
pub fn connect(
    addr: &str,
    player: &Player,
    request: &Request,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<Played>, DxpError> {
    let stream = TcpStream::connect(addr)?;
    stream.set_nodelay(true)?;
    report(&format!("connected: {addr}"));
    initiate(&mut Channel::new(stream), player, request, report)
}

#[cfg(test)]
mod tests;
