//! The game screen's state: the game, who plays, the cursor and selection, typed input, the
//! record being stepped through, the engines, analysis and the seat at a shared game; and what
//! happens to it as moves are made and time passes.

use crate::clock::Tick;
use crate::config::{Config, write_atomic};
use crate::engine::{Searcher, Thinking};
use crate::hub::client::RemotePlayer;
use crate::play::Offer;
use crate::play::analysis::{Analysis, Analyst};
use crate::play::{LiveGame, Notice, Options};
use crate::rules::board::{Position, Square};
use crate::rules::game::Game;
use crate::rules::moves::Move;
use crate::rules::notation::move_text;
use crate::rules::pdn::write_game;
use crate::rules::piece::Color;
use crate::tablebase::open_if_present;
use crate::tablebase::{Dtw, Wdl};
use crate::tui::board::Cell;
use crate::tui::club::PairingToPlay;
use crate::tui::setup::{GameSetup, PlayerKind};
use ratatui::layout::Rect;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The game screen.
pub struct PlayScreen {
    /// The game.
    pub live: LiveGame,
    /// Who plays White and Black.
    pub players: [PlayerKind; 2],
    /// Cursor (board row and file).
    pub cursor: (u32, u32),
    /// The selected piece.
    pub selected: Option<Square>,
    /// Captures sharing start and end, being stepped through, and the one shown.
    pub choosing: Option<(Vec<Move>, usize)>,
    /// The command or move being typed.
    pub input: String,
    /// The last message for the players.
    pub message: String,
    /// The ply being viewed while stepping through the record (`None`: the live position).
    pub view: Option<usize>,
    /// The board seen from Black's side.
    pub flipped: bool,
    /// The engine's search, while it runs.
    pub thinking: Option<Thinking>,
    /// The built-in engine's searcher for each side, kept between its moves (lent to its search
    /// while it thinks): what one move's search learnt serves the next. A search cut off (a
    /// takeback, the game's end) takes its searcher with it, and the next move starts a new one.
    pub searchers: [Option<Box<Searcher>>; 2],
    /// Whether the engine plays from its opening book (the settings' `book`).
    pub book: bool,
    /// Where the game was last saved.
    pub saved: Option<PathBuf>,
    /// Whether the finished game has been saved automatically.
    pub autosaved: bool,
    /// Where the board was drawn last (for mouse clicks), and its square size.
    pub board_area: Option<(Rect, Cell)>,
    /// Lines the move list is scrolled up by.
    pub scroll: usize,
    /// The result recorded in a loaded file, if any.
    pub recorded_result: Option<String>,
    /// The tournament pairing this game is, if started from the club screen.
    pub pairing: Option<PairingToPlay>,
    /// External Hub engines playing a side, started on their first move.
    pub remote: [Option<RemotePlayer>; 2],
    /// The question put to an external engine, while it thinks.
    pub asking: Option<std::sync::mpsc::Receiver<Result<Move, crate::hub::HubError>>>,
    /// An external engine failed: it is asked no more in this game.
    pub remote_failed: bool,
    /// Whether its result went to the club database.
    pub recorded: bool,
    /// The analysis of the shown position, while it is on.
    pub analysis: Option<Analysis>,
    /// This session's seat at a game on the club server (the game itself lives there).
    pub table: Option<crate::lobby::Seat>,
    /// What the server last said about the game (a player away, the clock waiting).
    pub table_status: Option<String>,
    /// The record's move texts, written once per move.
    pub texts: super::texts::MoveTexts,
    /// The review of the record, running or done.
    pub review: Option<super::review::ReviewPanel>,
}

/// Steps through the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The start position.
    First,
    /// One ply back.
    Prev,
    /// One ply on.
    Next,
    /// The latest position.
    Last,
}

impl PlayScreen {
    /// The game screen for a new game, a set-up position or a record to step through; the
    /// clock starts unless a record is shown.
    pub fn new(setup: GameSetup, config: &Config, user: &str, now: Tick) -> PlayScreen {
        let tablebase = setup.tablebase.clone().or_else(|| {
            open_if_present(&config.tablebase_dir(setup.variant), setup.variant)
                .ok()
                .flatten()
        });
        let options = Options {
            clock: setup.clock.clone(),
            casual: !setup.tournament,
            tablebase,
            adjudicate: config.adjudicate,
        };
        let (live, view, recorded) = match &setup.record {
            Some(pdn) => {
                let live = LiveGame::from_pdn(pdn, options);
                let recorded = pdn.tag("Result").map(str::to_string);
                (live, Some(0), recorded)
            }
            None => {
                let game = match setup.start {
                    Some(p) => Game::from_position(p),
                    None => Game::new(setup.variant),
                };
                (LiveGame::new(game, options), None, None)
            }
        };
        let players = [setup.white.clone(), setup.black.clone()];
        let humans: Vec<Color> = [Color::White, Color::Black]
            .into_iter()
            .filter(|c| players[c.index()] == PlayerKind::Human)
            .collect();
        // Against the engine the human sits at the bottom; otherwise the configured side.
        let flipped = match humans.as_slice() {
            [only] => *only == Color::Black,
            _ => config.flipped,
        };
        let n = setup.variant.geometry().width * 2;
        let mut screen = PlayScreen {
            book: config.book,
            live,
            players: players.clone(),
            cursor: if flipped { (0, n - 1) } else { (n - 1, 0) },
            selected: None,
            choosing: None,
            input: String::new(),
            message: String::new(),
            view,
            flipped,
            thinking: None,
            searchers: [None, None],
            saved: None,
            autosaved: false,
            board_area: None,
            scroll: 0,
            recorded_result: recorded,
            pairing: None,
            recorded: false,
            remote: [None, None],
            asking: None,
            remote_failed: false,
            analysis: None,
            review: None,
            table: None,
            table_status: None,
            texts: Default::default(),
        };
        if screen.live.tag("White").is_none() {
            let name = |p: &PlayerKind, _side: &str| match p {
                PlayerKind::Human if humans.len() == 1 => user.to_string(),
                PlayerKind::Human => "?".to_string(),
                PlayerKind::Engine(l) => format!("draughts engine (level {l})"),
                PlayerKind::Hub(c) => format!("hub engine ({c})"),
            };
            let event = if setup.tournament {
                "Game"
            } else {
                "Casual game"
            };
            screen.live.set_tag("Event", event);
            screen.live.set_tag("Site", "draughts");
            screen.live.set_tag("Date", &crate::date::today());
            screen.live.set_tag("White", &name(&players[0], "White"));
            screen.live.set_tag("Black", &name(&players[1], "Black"));
        }
        screen.message = match (&screen.view, screen.live.ending()) {
            (Some(_), _) => format!(
                "Loaded {} moves: [ ] step, {{ }} first/last, :continue plays on from the shown position",
                screen.live.game().moves().len()
            ),
            (None, Some(e)) => e.to_string(),
            (None, None) => match screen.live.proposal() {
                Some((_, words)) => format!("{words} — the losing side may :accept"),
                None => "Type a move (32-28) or use the arrow keys; ? for help".into(),
            },
        };
        if view.is_none() {
            screen.live.start_clock(now);
        }
        screen
    }

    /// Whether analysis may be shown: in casual games, and in any game once it is over.
    pub fn analysis_allowed(&self) -> bool {
        // A game between terminals is analysed only once over (a spectator could pass it on).
        let shared = self.table.is_some();
        (self.live.options().casual && !shared) || self.live.outcome().is_some()
    }

    /// Makes a request of the game (offer, accept, resign…): on the club server through the
    /// seat, so both terminals see it; a spectator makes none.
    pub(super) fn request(&mut self, f: impl FnOnce(&mut LiveGame) -> Notice) -> Notice {
        match &mut self.table {
            Some(seat) if seat.color().is_none() => {
                Notice::Refused("spectators watch; they do not play".into())
            }
            Some(seat) => seat.act(&mut self.live, f).unwrap_or_else(Notice::Refused),
            None => f(&mut self.live),
        }
    }

    /// Turns analysis on with `analyst`, or off; the message for the players.
    pub fn analyse(&mut self, analyst: Option<Analyst>) -> String {
        match analyst {
            None => {
                self.analysis = None;
                "Analysis off".into()
            }
            Some(_) if !self.analysis_allowed() => {
                "Analysis is off in tournament games until the game is over".into()
            }
            Some(a) => {
                let tablebase = self.live.options().tablebase.clone();
                self.analysis = Some(Analysis::start(a, tablebase));
                self.follow_analysis();
                "Analysis on (a or :analyse off to stop)".into()
            }
        }
    }

    /// Starts a review of the record, `time` a position (on one thread over SSH, where other
    /// sessions share the cores), or stops it; the message for the players.
    pub fn start_review(&mut self, time: Option<Duration>, remote: bool) -> String {
        let Some(time) = time else {
            self.review = None;
            return "Review off".into();
        };
        if !self.analysis_allowed() {
            return "Review is off in tournament games until the game is over".into();
        }
        let game = self.live.game();
        if game.moves().is_empty() {
            return "No moves to review".into();
        }
        let threads = if remote {
            1
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        };
        let tables = self.live.options().tablebase.clone();
        self.review = Some(super::review::ReviewPanel::start(
            *game.start(),
            game.moves(),
            tables,
            time,
            threads,
        ));
        format!(
            "Reviewing {} moves, {:.1} s a position ([ and ] step through; :review off stops)",
            game.moves().len(),
            time.as_secs_f64()
        )
    }

    /// Shows a review made elsewhere (a round's review on the club screen) of the game on the
    /// screen.
    pub fn show_review(&mut self, review: crate::play::review::Review, time: Duration) {
        let game = self.live.game();
        self.review = Some(super::review::ReviewPanel::finished(
            *game.start(),
            game.moves(),
            review,
            time,
        ));
        self.message = "The review of this game: [ and ] step through its moves".into();
    }

    /// The review of the game as it stands, if one was made or runs.
    pub fn current_review(&self) -> Option<&super::review::ReviewPanel> {
        let game = self.live.game();
        self.review
            .as_ref()
            .filter(|r| r.covers(game.start(), game.moves()))
    }

    /// Points the analysis at the shown position and takes in its reports.
    fn follow_analysis(&mut self) {
        if !self.analysis_allowed() {
            self.analysis = None;
        }
        let Some(a) = &mut self.analysis else {
            return;
        };
        let game = self.live.game();
        let ply = self.view.unwrap_or(game.moves().len());
        a.set(game.start(), &game.moves()[..ply.min(game.moves().len())]);
        a.poll();
    }

    /// What the tablebases say of the shown position, when they hold it and analysis is on.
    pub fn tablebase_verdict(&self) -> Option<String> {
        self.analysis.as_ref()?;
        let tb = self.live.options().tablebase.as_ref()?;
        let pos = self.shown();
        if pos.variant() != tb.variant() || pos.piece_count() > tb.max_pieces() {
            return None;
        }
        let side = pos.side_to_move();
        Some(match tb.dtw_if_held(&pos) {
            Ok(Some(Dtw::Win(p))) => format!("Tablebase: {side} wins in {p} plies"),
            Ok(Some(Dtw::Loss(p))) => format!("Tablebase: {} wins in {p} plies", side.opposite()),
            Ok(Some(Dtw::Draw)) => "Tablebase: draw".into(),
            // A slice built for results only (`--metric wdl`) has no distances; a distance that
            // cannot be read leaves the result, which may still be.
            Ok(None) | Err(_) => match tb.wdl(&pos).ok()? {
                Wdl::Win => format!("Tablebase: {side} wins (results only)"),
                Wdl::Loss => format!("Tablebase: {} wins (results only)", side.opposite()),
                Wdl::Draw => "Tablebase: draw".into(),
            },
        })
    }

    /// The arbiter's verdict on the shown position under the rules, with the move counts of the
    /// game up to it (what `draughts adjudicate` says), as a message.
    pub fn verdict_message(&self) -> String {
        let Some(tb) = self.live.options().tablebase.as_ref() else {
            return "No tablebases loaded: a verdict needs them (Settings: tablebases)".into();
        };
        let game = self.live.game();
        let ply = self.view.unwrap_or(game.moves().len());
        let mut shown = Game::from_position(*game.start());
        for mv in &game.moves()[..ply.min(game.moves().len())] {
            if shown.play(mv).is_err() {
                break;
            }
        }
        match crate::play::verdict::verdict(&shown, tb) {
            Ok(Some(v)) => {
                let limits: Vec<String> = v.limits.iter().map(ToString::to_string).collect();
                match limits.is_empty() {
                    true => format!("Verdict: {}", v.decision),
                    false => format!("Verdict: {} — {}", v.decision, limits.join("; ")),
                }
            }
            Ok(None) => format!(
                "No verdict: the tables hold up to {} pieces; this position has {}",
                tb.max_pieces(),
                shown.position().piece_count()
            ),
            Err(e) => format!("No verdict: {e}"),
        }
    }

    /// The side whose requests the keyboard makes: the one human, or the side to move.
    pub fn actor(&self) -> Color {
        if let Some(c) = self.table.as_ref().and_then(|s| s.color()) {
            return c;
        }
        match self.players {
            [
                PlayerKind::Human,
                PlayerKind::Engine(_) | PlayerKind::Hub(_),
            ] => Color::White,
            [
                PlayerKind::Engine(_) | PlayerKind::Hub(_),
                PlayerKind::Human,
            ] => Color::Black,
            _ => self.live.position().side_to_move(),
        }
    }

    /// The position on the board: the viewed one while stepping, else the live one.
    pub fn shown(&self) -> Position {
        match self.view {
            Some(ply) => *self
                .live
                .game()
                .positions()
                .nth(ply)
                .unwrap_or(self.live.position()),
            None => *self.live.position(),
        }
    }

    /// The squares of the move that led to the shown position.
    pub fn last_route(&self) -> Vec<Square> {
        if let Some((moves, i)) = &self.choosing {
            let mv = &moves[*i];
            let mut squares = mv.route();
            squares.extend(mv.captured());
            return squares;
        }
        let ply = self.view.unwrap_or(self.live.game().moves().len());
        match ply.checked_sub(1) {
            Some(i) => self.live.game().moves()[i].route(),
            None => Vec::new(),
        }
    }

    /// The targets of the selected piece.
    pub fn targets(&self) -> Vec<Square> {
        let Some(from) = self.selected else {
            return Vec::new();
        };
        let mut t: Vec<Square> = self
            .live
            .position()
            .legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(Move::to)
            .collect();
        t.sort();
        t.dedup();
        t
    }

    fn human_to_move(&self) -> bool {
        let side = self.live.position().side_to_move();
        match &self.table {
            Some(seat) => seat.color() == Some(side),
            None => self.players[side.index()] == PlayerKind::Human,
        }
    }

    pub(super) fn can_move(&mut self) -> bool {
        if self.view.is_some() {
            self.message =
                "Stepping through the record: :continue to play from here, } to go to the end"
                    .into();
            return false;
        }
        if let Some(o) = self.live.outcome() {
            self.message = format!("The game is over: {o}");
            return false;
        }
        if !self.human_to_move() {
            self.message = match self.table.as_ref().map(|s| s.color()) {
                Some(None) => "You are watching this game".into(),
                Some(Some(_)) => "Your opponent is to move".into(),
                None => "The engine is to move".into(),
            };
            return false;
        }
        true
    }

    pub(super) fn play(&mut self, mv: Move, now: Tick) {
        let pos = *self.live.position();
        let text = move_text(&pos, &mv);
        self.selected = None;
        self.choosing = None;
        let played = match &mut self.table {
            Some(seat) => match seat.act(&mut self.live, |live| live.play(&mv, now)) {
                Ok(r) => r,
                Err(e) => {
                    self.message = e;
                    return;
                }
            },
            None => self.live.play(&mv, now),
        };
        match played {
            Ok(notices) => {
                self.scroll = 0;
                self.message = format!("{} played {text}", pos.side_to_move());
                for n in notices {
                    let m = self.after_notice(n);
                    if !m.is_empty() {
                        self.message = m;
                    }
                }
            }
            Err(e) => self.message = e.to_string(),
        }
    }

    /// What the other terminal did, in words, from the game before it changed: (moves, outcome,
    /// standing offer).
    fn shared_news(
        &mut self,
        (moves, outcome, offer): (usize, Option<crate::rules::game::Outcome>, Option<Offer>),
    ) -> Option<String> {
        if self.live.outcome().is_some() && outcome.is_none() {
            return self.live.ending().map(str::to_string);
        }
        if let Some(o) = self.live.offer()
            && offer != Some(o)
        {
            return Some(self.after_notice(Notice::Offered(o)));
        }
        let now = self.live.game().moves().len();
        if now > moves
            && let Some((_, words)) = self.live.proposal()
        {
            return Some(format!("{words} — the losing side may :accept"));
        }
        if now > moves {
            let game = self.live.game();
            let before = game.positions().nth(now - 1)?;
            let mv = game.moves().last()?;
            return Some(format!(
                "{} played {}",
                before.side_to_move(),
                move_text(before, mv)
            ));
        }
        if now < moves {
            return Some(format!("{} moves taken back", moves - now));
        }
        match offer {
            Some(o) if self.live.offer().is_none() => Some(self.after_notice(Notice::Declined(o))),
            _ => None,
        }
    }

    /// Words for a notice; a takeback also resets the selection.
    pub(super) fn after_notice(&mut self, n: Notice) -> String {
        let player = |c: Color| match self.players[c.index()] {
            PlayerKind::Human => c.to_string(),
            PlayerKind::Engine(_) | PlayerKind::Hub(_) => format!("{c} (engine)"),
        };
        match n {
            Notice::Ended(_, words) => words,
            Notice::Offered(Offer::Draw(by)) => {
                format!(
                    "{} offers a draw: {} may :accept or :decline (moving declines)",
                    player(by),
                    by.opposite()
                )
            }
            Notice::Offered(Offer::Takeback(by)) => format!(
                "{} asks to take back a move: {} may :accept or :decline",
                player(by),
                by.opposite()
            ),
            Notice::Declined(Offer::Draw(by)) => format!("{}'s draw offer declined", player(by)),
            Notice::Declined(Offer::Takeback(by)) => {
                format!("{}'s takeback declined", player(by))
            }
            Notice::TookBack(n) => {
                self.selected = None;
                self.choosing = None;
                self.thinking = None;
                format!("Took back {n} ply(s)")
            }
            Notice::Proposal(_, words) => format!("{words} — the losing side may :accept"),
            Notice::Refused(why) => why,
        }
    }

    pub(super) fn step(&mut self, step: Step) {
        let m = self.step_message(step);
        self.message = m;
    }

    pub(super) fn step_message(&mut self, step: Step) -> String {
        let total = self.live.game().moves().len();
        let current = self.view.unwrap_or(total);
        let next = match step {
            Step::First => 0,
            Step::Prev => current.saturating_sub(1),
            Step::Next => (current + 1).min(total),
            Step::Last => total,
        };
        self.selected = None;
        self.choosing = None;
        self.view = (next < total || self.recorded_result.is_some()).then_some(next);
        if self.view == Some(total) && self.recorded_result.is_none() {
            self.view = None;
        }
        match self.view {
            Some(ply) => format!("Ply {ply} of {total}: [ ] step, :continue plays on from here"),
            None => "Back at the live position".into(),
        }
    }

    /// Leaves stepping mode and plays on from the shown position (later moves are dropped from
    /// the game, not from any file).
    pub(super) fn continue_here(&mut self, now: Tick) -> String {
        let Some(ply) = self.view else {
            return "Already at the live position".into();
        };
        let record = self.live.pdn();
        let mut pdn = record.clone();
        pdn.line.moves.truncate(ply);
        pdn.result = crate::rules::pdn::GameResult::Unfinished;
        let mut live = LiveGame::from_pdn(&pdn, self.live.options().clone());
        for (k, v) in ["Event", "Site", "Date", "Round", "White", "Black"]
            .iter()
            .filter_map(|k| record.tag(k).map(|v| (*k, v.to_string())))
        {
            live.set_tag(k, &v);
        }
        live.start_clock(now);
        self.live = live;
        self.view = None;
        self.recorded_result = None;
        self.saved = None;
        self.autosaved = false;
        match self.live.ending() {
            Some(e) => e.to_string(),
            None => format!(
                "Playing on from ply {ply}; {} to move",
                self.live.position().side_to_move()
            ),
        }
    }

    /// Saves the game as PDN (to `path`, or a new file in the games directory).
    pub fn save(&mut self, path: Option<PathBuf>, games_dir: &Path) -> Result<PathBuf, String> {
        let path = match path.or_else(|| self.saved.clone()) {
            Some(p) => p,
            None => games_dir.join(self.file_name()),
        };
        let mut pdn = self.live.pdn();
        // A finished review of this game goes into the record: comments, signs, better moves.
        if let Some(panel) = self.current_review()
            && let Some(r) = panel.review()
        {
            pdn = crate::play::review::annotate(&pdn, r, &panel.annotator());
        }
        let text = write_game(&pdn);
        write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("could not save {}: {e}", path.display()))?;
        self.saved = Some(path.clone());
        Ok(path)
    }

    fn file_name(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>()
                .split('-')
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("-")
        };
        let (date, time) = crate::date::now_utc();
        format!(
            "{date}-{time}-{}-{}-{}.pdn",
            self.live.game().variant().name(),
            clean(self.live.tag("White").unwrap_or("white")),
            clean(self.live.tag("Black").unwrap_or("black")),
        )
    }

    /// How soon the screen may change by itself: at once while an engine searches or an
    /// analysis runs, else when the running clock's reading changes; `None` when nothing on it
    /// moves without input.
    pub(crate) fn changes_within(&self, now: Tick) -> Option<Duration> {
        if self.thinking.is_some() || self.analysis.is_some() || self.asking.is_some() {
            return Some(Duration::ZERO);
        }
        if self.review.as_ref().is_some_and(|r| r.running()) {
            // Its count of positions done.
            return Some(Duration::from_millis(250));
        }
        if self.live.outcome().is_some() {
            return None;
        }
        let clock = self.live.clock()?;
        let side = clock.running()?;
        if !clock.delay_left(side, now).is_zero() {
            return Some(Duration::ZERO);
        }
        Some(crate::clock::display_changes_in(clock.remaining(side, now)))
    }

    pub(crate) fn tick(&mut self, now: Tick, games_dir: &Path) {
        // What the server says about the room first; news of the game itself wins over it.
        if self.table.is_some() {
            let status = self.table.as_ref().and_then(|s| s.status());
            if status != self.table_status {
                match &status {
                    Some(s) => self.message = s.clone(),
                    None if self.live.outcome().is_none() => {
                        self.message = match self.table.as_ref().and_then(|s| s.color()) {
                            Some(c) => format!(
                                "Both players are at the board — you play {c}: type a move or use the arrow keys; :draw, :resign"
                            ),
                            None => "Both players are at the board".into(),
                        };
                    }
                    None => {}
                }
                self.table_status = status;
            }
        }
        if let Some(seat) = &mut self.table {
            let before = (
                self.live.game().moves().len(),
                self.live.outcome(),
                self.live.offer(),
            );
            if seat.pull(&mut self.live) {
                self.selected = None;
                self.choosing = None;
                if let Some(m) = self.shared_news(before) {
                    self.message = m;
                }
            }
            // The server keeps the record; the finished game is not saved again here.
            self.autosaved = true;
        }
        self.follow_analysis();
        if let Some(m) = self.review.as_mut().and_then(|r| r.poll()) {
            self.message = m;
        }
        if let Some(n) = self.live.tick(now) {
            let m = self.after_notice(n);
            self.message = m;
            self.thinking = None;
        }
        self.engine_turn(now);
        if self.live.outcome().is_some() && !self.autosaved && self.view.is_none() {
            self.autosaved = true;
            if !self.live.game().moves().is_empty() || self.saved.is_some() {
                match self.save(None, games_dir) {
                    Ok(p) => self.message = format!("{} — saved to {}", self.message, p.display()),
                    Err(e) => self.message = e,
                }
            }
        }
    }
}
