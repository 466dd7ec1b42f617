//! A game being played: the rules core's [`Game`] with a clock, draw offers, takebacks,
//! resignation, tablebase adjudication and the PDN record. No terminal, no I/O: the TUI and the
//! club server drive it with moves, requests and the current time.

use crate::clock::{Clock, Tick, TimeControl, parse_pdn_time, pdn_time};
use crate::play::verdict::{Decision, verdict};
use crate::rules::board::Position;
use crate::rules::game::{Game, GameError, Outcome, Reason};
use crate::rules::moves::Move;
use crate::rules::pdn::{GameResult, PdnGame};
use crate::rules::piece::Color;
use crate::tablebase::Tablebase;
use std::sync::Arc;
use std::time::Duration;

/// How a game is played.
#[derive(Clone, Debug)]
pub struct Options {
    /// The time control, if the game is timed.
    pub clock: Option<TimeControl>,
    /// A casual game allows pausing the clock and takebacks by agreement.
    pub casual: bool,
    /// Tablebases for adjudication, if loaded.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Whether tablebase adjudication is on.
    pub adjudicate: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            clock: None,
            casual: true,
            tablebase: None,
            adjudicate: true,
        }
    }
}

/// The clock around one move of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveTime {
    /// The mover's time left after the move (increment included).
    pub left: Option<Duration>,
    /// Time the move took.
    pub spent: Option<Duration>,
    /// The mover's time left before the move (for takebacks).
    before: Option<Duration>,
}

/// A request one side makes of the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// A draw offer; it stands until the opponent moves.
    Draw(Color),
    /// A takeback of the offering side's last move (casual games).
    Takeback(Color),
}

/// What a request led to, for the players to see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The game ended.
    Ended(Outcome, String),
    /// An offer is now standing.
    Offered(Offer),
    /// An offer was declined or lapsed.
    Declined(Offer),
    /// Moves were taken back.
    TookBack(usize),
    /// The tablebase shows a decided position the players may accept as the result.
    Proposal(Outcome, String),
    /// Nothing to do, and why.
    Refused(String),
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct LiveGame {
    game: Game,
    clock: Option<Clock>,
    times: Vec<MoveTime>,
    offer: Option<Offer>,
    proposal: Option<(Outcome, String)>,
    options: Options,
    /// Why the game ended, in words (the reason's description, or the tablebase's finding).
    ending: Option<String>,
    tags: Vec<(String, String)>,
}

impl LiveGame {
    /// A game from `game` (possibly with moves already played) under `options`.
    pub fn new(game: Game, options: Options) -> LiveGame {
        let times = vec![MoveTime::default(); game.moves().len()];
        let mut live = LiveGame {
            clock: options.clock.clone().map(Clock::new),
            game,
            times,
            offer: None,
            proposal: None,
            options,
            ending: None,
            tags: Vec::new(),
        };
        if let Some(o) = live.game.outcome() {
            live.ending = Some(o.to_string());
        } else if live.adjudicate().is_some() {
            live.adjudicated_end(Tick::ZERO);
        }
        live
    }

    /// Continues a recorded game: its moves and, where the record has them, its clock times.
    pub fn from_pdn(pdn: &PdnGame, options: Options) -> LiveGame {
        let mut live = LiveGame::new(pdn.game(), options);
        for (t, m) in live.times.iter_mut().zip(&pdn.line.moves) {
            *t = read_clock_comment(&m.comments);
        }
        for (name, value) in &pdn.tags {
            if ["Event", "Site", "Date", "Round", "White", "Black"].contains(&name.as_str()) {
                live.set_tag(name, value);
            }
        }
        if let Some(clock) = &mut live.clock {
            for side in [Color::White, Color::Black] {
                let mine: Vec<&MoveTime> = live
                    .game
                    .positions()
                    .zip(&live.times)
                    .filter(|(p, _)| p.side_to_move() == side)
                    .map(|(_, t)| t)
                    .collect();
                if let Some(left) = mine.last().and_then(|t| t.left) {
                    clock.set(side, left, mine.len() as u32);
                }
            }
        }
        live
    }

    /// Sets a PDN tag (Event, Site, Date, Round, White, Black…) for the record.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The clock, if the game is timed.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// Clock readings per move.
    pub fn times(&self) -> &[MoveTime] {
        &self.times
    }

    /// The standing offer.
    pub fn offer(&self) -> Option<Offer> {
        self.offer
    }

    /// The tablebase's decided result offered to the players, if any.
    pub fn proposal(&self) -> Option<&(Outcome, String)> {
        self.proposal.as_ref()
    }

    /// The options the game is played under.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The outcome, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// Why the game ended, in words.
    pub fn ending(&self) -> Option<&str> {
        self.ending.as_deref()
    }

    fn finish(&mut self, outcome: Outcome, words: String, now: Tick) -> Notice {
        self.game.end(outcome);
        if let Some(c) = &mut self.clock {
            c.stop(now);
        }
        self.offer = None;
        self.proposal = None;
        self.ending = Some(words.clone());
        Notice::Ended(outcome, words)
    }

    /// Checks the clock at `now`: a fallen flag ends the game as a loss for that side
    /// (FMJD Rules for Competitions, Frisian Art. 20e, WCDF 2.20).
    pub fn tick(&mut self, now: Tick) -> Option<Notice> {
        if self.game.outcome().is_some() {
            return None;
        }
        let flagged = self.clock.as_mut()?.flag(now)?;
        let outcome = Outcome {
            winner: Some(flagged.opposite()),
            reason: Reason::TimeForfeit,
        };
        Some(self.finish(
            outcome,
            format!("{outcome}: {flagged} ran out of time"),
            now,
        ))
    }

    /// Plays a move for the side to move at `now`.
    pub fn play(&mut self, mv: &Move, now: Tick) -> Result<Vec<Notice>, GameError> {
        if let Some(n) = self.tick(now) {
            let Notice::Ended(o, _) = n else {
                unreachable!("tick only ends games")
            };
            return Err(GameError::Over(o));
        }
        let mover = self.position().side_to_move();
        self.game.play(mv)?;
        let mut notices = Vec::new();
        let mut time = MoveTime::default();
        if let Some(clock) = &mut self.clock {
            if clock.running().is_none() && !clock.is_paused() {
                // The first move starts the clocks: the mover's thinking time is not charged.
                clock.start(mover, now);
            }
            time.before = Some(clock.remaining(mover, now));
            time.spent = clock.press(now);
            time.left = Some(clock.remaining(mover, now));
        }
        self.times.push(time);
        match self.offer {
            Some(offer @ (Offer::Draw(by) | Offer::Takeback(by))) if by != mover => {
                self.offer = None;
                notices.push(Notice::Declined(offer));
            }
            _ => {}
        }
        self.proposal = None;
        if let Some(o) = self.game.outcome() {
            notices.push(self.finish(o, o.to_string(), now));
        } else if let Some(n) = self.adjudicate() {
            notices.push(n);
            notices.extend(self.adjudicated_end(now));
        }
        Ok(notices)
    }

    /// Ends the game now if the last adjudication decided a draw.
    fn adjudicated_end(&mut self, now: Tick) -> Option<Notice> {
        let (o, words) = self.proposal.clone()?;
        if o.winner.is_none() {
            return Some(self.finish(o, words, now));
        }
        None
    }

    /// Probes the tablebase for the current position: a draw (by the tables, or a win the move
    /// limits forbid) ends the game; a decided win is proposed.
    fn adjudicate(&mut self) -> Option<Notice> {
        if !self.options.adjudicate || self.game.outcome().is_some() {
            return None;
        }
        let tb = self.options.tablebase.as_ref()?;
        let verdict = verdict(&self.game, tb).ok()??;
        let draw = Outcome {
            winner: None,
            reason: Reason::Adjudication,
        };
        let (outcome, words) = match verdict.decision {
            Decision::Over(_) | Decision::Undecided { .. } => return None,
            Decision::Draw => (draw, "draw by tablebase: no win with best play".to_string()),
            Decision::DrawByLimit { plies, rule, .. } => (
                draw,
                format!(
                    "draw by tablebase: the shortest win takes {plies} plies, more than the move limit allows ({})",
                    rule.describe()
                ),
            ),
            Decision::Win { winner, plies } => (
                Outcome {
                    winner: Some(winner),
                    reason: Reason::Adjudication,
                },
                format!("tablebase: {winner} wins in {plies} plies"),
            ),
            Decision::WinByResult { winner } => (
                Outcome {
                    winner: Some(winner),
                    reason: Reason::Adjudication,
                },
                format!("tablebase: {winner} wins with best play (results only)"),
            ),
        };
        self.proposal = Some((outcome, words.clone()));
        Some(Notice::Proposal(outcome, words))
    }

    /// Starts the clock of the side to move (the start of the game, WCDF 2.22); the first move
    /// starts it otherwise.
    pub fn start_clock(&mut self, now: Tick) {
        let side = self.position().side_to_move();
        if self.game.outcome().is_none()
            && let Some(clock) = &mut self.clock
            && clock.running().is_none()
            && !clock.is_paused()
        {
            clock.start(side, now);
        }
    }

    /// `by` accepts the tablebase's proposed result (the losing side concedes).
    pub fn accept_proposal(&mut self, by: Color, now: Tick) -> Notice {
        match self.proposal.clone() {
            Some((o, words)) if o.winner != Some(by) => self.finish(o, words, now),
            Some(_) => Notice::Refused("the proposed result is for your opponent to accept".into()),
            None => Notice::Refused("there is no proposed result".into()),
        }
    }

    fn over(&self) -> Option<Notice> {
        self.game
            .outcome()
            .map(|o| Notice::Refused(format!("the game is over: {o}")))
    }

    /// `by` offers a draw; if the opponent's offer is standing, it is accepted.
    pub fn offer_draw(&mut self, by: Color, now: Tick) -> Notice {
        if let Some(n) = self.over() {
            return n;
        }
        match self.offer {
            Some(Offer::Draw(other)) if other != by => self.accept(by, now),
            Some(Offer::Draw(_)) => Notice::Refused("your draw offer is already standing".into()),
            _ => {
                self.offer = Some(Offer::Draw(by));
                Notice::Offered(Offer::Draw(by))
            }
        }
    }

    /// `by` asks to take back their last move (casual games only).
    pub fn request_takeback(&mut self, by: Color) -> Notice {
        if let Some(n) = self.over() {
            return n;
        }
        if !self.options.casual {
            return Notice::Refused("takebacks are only allowed in casual games".into());
        }
        if self.takeback_plies(by) == 0 {
            return Notice::Refused("you have no move to take back".into());
        }
        self.offer = Some(Offer::Takeback(by));
        Notice::Offered(Offer::Takeback(by))
    }

    /// Plies to undo so that `by` is to move again before their last move.
    fn takeback_plies(&self, by: Color) -> usize {
        let n = self.game.moves().len();
        let to_move = self.position().side_to_move();
        let plies = if to_move == by { 2 } else { 1 };
        if plies <= n { plies } else { 0 }
    }

    /// `by` accepts the opponent's standing offer.
    pub fn accept(&mut self, by: Color, now: Tick) -> Notice {
        if let Some(n) = self.over() {
            return n;
        }
        match self.offer {
            Some(Offer::Draw(other)) if other != by => {
                let o = Outcome {
                    winner: None,
                    reason: Reason::Agreement,
                };
                self.finish(o, "draw by agreement".into(), now)
            }
            Some(Offer::Takeback(other)) if other != by => {
                let plies = self.takeback_plies(other);
                let keep = self.game.moves().len() - plies;
                self.take_back_to(keep, now);
                Notice::TookBack(plies)
            }
            _ => Notice::Refused("there is no offer from your opponent".into()),
        }
    }

    /// Takes the game back to its first `plies` moves, each mover's clock back to what it showed
    /// before the moves taken back (a program's back request; an accepted takeback). Returns the
    /// plies taken back; nothing happens to a finished game.
    pub fn take_back_to(&mut self, plies: usize, now: Tick) -> usize {
        if self.over().is_some() {
            return 0;
        }
        let mut undone = 0;
        while self.game.moves().len() > plies && self.game.undo().is_some() {
            undone += 1;
            let t = self.times.pop().unwrap_or_default();
            let side = self.position().side_to_move();
            if let (Some(clock), Some(before)) = (&mut self.clock, t.before) {
                clock.take_back(side, before, now);
            }
        }
        self.offer = None;
        self.proposal = None;
        self.adjudicate();
        undone
    }

    /// `by` declines the opponent's standing offer.
    pub fn decline(&mut self, by: Color) -> Notice {
        match self.offer {
            Some(offer @ (Offer::Draw(other) | Offer::Takeback(other))) if other != by => {
                self.offer = None;
                Notice::Declined(offer)
            }
            _ => Notice::Refused("there is no offer from your opponent".into()),
        }
    }

    /// Ends the game by an arbiter's decision (a match's move limit, say), with the reason.
    pub fn end_by_adjudication(&mut self, outcome: Outcome, words: &str, now: Tick) -> Notice {
        if let Some(n) = self.over() {
            return n;
        }
        self.finish(outcome, words.to_string(), now)
    }

    /// `by` resigns.
    pub fn resign(&mut self, by: Color, now: Tick) -> Notice {
        self.lose(by, Reason::Resignation, "resigned", now)
    }

    /// `absent` left the game and did not return in time: they lose by forfeit.
    pub fn forfeit(&mut self, absent: Color, now: Tick) -> Notice {
        self.lose(absent, Reason::Forfeit, "left and did not return", now)
    }

    /// `side` loses for `reason` (unless the game is already over).
    fn lose(&mut self, side: Color, reason: Reason, why: &str, now: Tick) -> Notice {
        if let Some(n) = self.over() {
            return n;
        }
        let o = Outcome {
            winner: Some(side.opposite()),
            reason,
        };
        self.finish(o, format!("{o}: {side} {why}"), now)
    }

    /// Pauses or resumes the clock (casual games only).
    pub fn toggle_pause(&mut self, now: Tick) -> Result<bool, String> {
        if !self.options.casual {
            return Err("the clock can only be paused in casual games".into());
        }
        if self.game.outcome().is_some() {
            return Err("the game is over".into());
        }
        let Some(clock) = &mut self.clock else {
            return Err("the game has no clock".into());
        };
        if clock.is_paused() {
            clock.resume(now);
            Ok(false)
        } else if clock.running().is_some() {
            clock.pause(now);
            Ok(true)
        } else {
            Err("the clock has not started yet".into())
        }
    }

    /// The game as PDN: tags, moves with clock comments, and the result.
    pub fn pdn(&self) -> PdnGame {
        let mut tags: Vec<(&str, &str)> = self
            .tags
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let tc = self.clock.as_ref().map(|c| c.control().to_string());
        if let Some(tc) = &tc {
            tags.push(("TimeControl", tc));
        }
        let ending = self.ending.clone().unwrap_or_default();
        if self.outcome().is_some() {
            tags.push(("Termination", &ending));
        }
        let mut pdn = PdnGame::from_game(&self.game, &tags);
        for (m, t) in pdn.line.moves.iter_mut().zip(&self.times) {
            if let Some(c) = clock_comment(t) {
                m.comments.push(c);
            }
        }
        if let Some(o) = self.outcome() {
            pdn.set_result(o.winner.map_or(GameResult::Draw, GameResult::Win));
        }
        pdn
    }
}

fn clock_comment(t: &MoveTime) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(left) = t.left {
        parts.push(format!("[%clock {}]", pdn_time(left)));
    }
    if let Some(spent) = t.spent {
        parts.push(format!("[%emt {}]", pdn_time(spent)));
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Reads `[%clock h:mm:ss]` and `[%emt h:mm:ss]` (elapsed move time) from a move's comments.
pub fn read_clock_comment(comments: &[String]) -> MoveTime {
    let mut t = MoveTime::default();
    for c in comments {
        for (key, slot) in [("[%clock", &mut t.left), ("[%emt", &mut t.spent)] {
            if let Some(i) = c.find(key) {
                let rest = &c[i + key.len()..];
                if let Some(end) = rest.find(']') {
                    *slot = parse_pdn_time(&rest[..end]);
                }
            }
        }
    }
    t
}

#[cfg(test)]
mod tests;
