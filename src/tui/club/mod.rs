//! The club screens: the lists (members, tournaments, recorded games, the club's settings and,
//! for organisers, the audit), a member's profile (`members`), a tournament's rounds with result
//! entry, reports and pairing, its standings and crosstable (`tournament`), the settings and the
//! audit (`admin`), the line and the form the pages ask with (`prompt`), and the review of a
//! whole round (`round_review`).
//!
//! What a page offers follows the acting member's role: the keys a member may not use are not
//! shown, and a key pressed anyway gets the library's refusal, which says who may. The pages
//! only decide what to offer; the library decides what is allowed.

mod admin;
mod members;
mod prompt;
mod round_review;
#[cfg(test)]
mod tests;
mod tournament;

pub use prompt::{Prompt, Purpose, TournamentForm, Typed};
pub use round_review::RoundReview;

use crate::club::access::{self, Actor, Op, Operation, Role};
use crate::club::games::{self, Archived};
use crate::club::members::Member;
use crate::club::tournament::{Outcome, Pairing, Tournament};
use crate::club::{ClubError, Store};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};

/// The lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Members.
    Members,
    /// Tournaments.
    Tournaments,
    /// Recorded games.
    Games,
    /// The club's rating settings.
    Settings,
    /// Every change to the records (organisers and owners).
    Audit,
}

impl Tab {
    fn title(self) -> &'static str {
        match self {
            Tab::Members => "Members",
            Tab::Tournaments => "Tournaments",
            Tab::Games => "Games",
            Tab::Settings => "Settings",
            Tab::Audit => "Audit",
        }
    }
}

/// What the club screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Page {
    /// The list of the current tab.
    List,
    /// A member's profile, with the selected SSH key.
    Member(i64, usize),
    /// A tournament's round, with the selected board.
    Tournament {
        /// Tournament id.
        id: i64,
        /// Round shown.
        round: u32,
        /// Selected board (index into the round's games).
        board: usize,
    },
    /// Standings of a tournament.
    Standings(i64),
    /// Crosstable of a tournament.
    Crosstable(i64),
}

/// A game to start from the club screen: a tournament pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingToPlay {
    /// The tournament's id.
    pub tournament: i64,
    /// Round.
    pub round: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
}

/// What a key on the club screen asks of the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Nothing beyond the screen.
    None,
    /// Back to the home screen.
    Home,
    /// Play this pairing on the game screen.
    Play(PairingToPlay),
    /// Replay a recorded game (its PDN) on the game screen.
    Replay(String),
    /// Show a reviewed game of a round on the game screen with its review.
    ReplayReviewed {
        /// The record, with the review written in.
        record: Box<crate::rules::pdn::PdnGame>,
        /// The review.
        review: Box<crate::play::review::Review>,
        /// The time each position was given.
        time: std::time::Duration,
    },
    /// Review every recorded game of this tournament round (the app gives the tables and
    /// threads, then calls [`ClubScreen::start_round_review`]).
    ReviewRound {
        /// The tournament's id.
        tournament: i64,
        /// The round.
        round: u32,
    },
}

/// The club screen's state.
pub struct ClubScreen {
    /// The database.
    pub store: Store,
    /// Who acts here: the owner locally, the signed-in member on the club server.
    pub actor: Actor,
    /// The tab of the list.
    pub tab: Tab,
    /// The highlighted row of the list.
    pub selected: usize,
    /// The page shown.
    pub page: Page,
    /// The last message.
    pub message: String,
    /// A line of text being typed, when one is asked for.
    pub prompt: Option<Prompt>,
    /// The new-tournament form, while it is open.
    pub form: Option<TournamentForm>,
    /// The review of a round, running or done.
    pub round_review: Option<RoundReview>,
}

impl ClubScreen {
    /// A club screen on a database, used by `actor`.
    pub fn new(store: Store, actor: Actor) -> ClubScreen {
        let mut screen = ClubScreen {
            store,
            actor,
            tab: Tab::Members,
            selected: 0,
            page: Page::List,
            message: String::new(),
            prompt: None,
            form: None,
            round_review: None,
        };
        screen.message = screen.list_hint();
        screen
    }

    /// Starts reviewing the recorded games of a tournament round in the background (replacing
    /// a review under way); the message says what it does.
    pub fn start_round_review(
        &mut self,
        tournament: i64,
        round: u32,
        tables: Option<std::sync::Arc<crate::tablebase::Tablebase>>,
        time: std::time::Duration,
        threads: usize,
    ) {
        self.round_review = None;
        let games = match games::round_records(&self.store, &tournament.to_string(), round) {
            Ok(g) => g,
            Err(e) => {
                self.message = e.to_string();
                return;
            }
        };
        if games.is_empty() {
            self.message = format!(
                "Round {round} has no recorded games to review (games played here, or \
                 imported with `draughts tournament import`, are recorded)"
            );
            return;
        }
        self.message = format!(
            "Reviewing the {} recorded games of round {round}, {:.1} s a position, \
             {threads} thread(s) · Esc stops",
            games.len(),
            time.as_secs_f64()
        );
        self.round_review = Some(RoundReview::start(
            tournament, round, games, tables, time, threads,
        ));
    }

    /// Takes in the review's finished boards (writing their reviews into the records).
    pub fn tick(&mut self) {
        if let Some(r) = &mut self.round_review
            && let Some(m) = r.poll(&mut self.store, &self.actor)
        {
            self.message = m;
        }
    }

    /// Whether a round's review runs (the screen then redraws for its progress).
    pub fn reviewing(&self) -> bool {
        self.round_review.as_ref().is_some_and(RoundReview::running)
    }

    /// The review shown on this tournament round's page, if any.
    fn review_of(&self, id: i64, round: u32) -> Option<&RoundReview> {
        self.round_review
            .as_ref()
            .filter(|r| r.tournament == id && r.round == round)
    }

    /// Whether the actor may perform an operation now: the library's answer, with its reason.
    fn may(&self, op: Op) -> Result<(), ClubError> {
        access::check(self.store.conn(), &self.actor, &op)
    }

    /// Whether the actor may perform an operation now (what the pages offer).
    fn can(&self, op: Op) -> bool {
        self.may(op).is_ok()
    }

    /// Whether the actor runs the club (an organiser or an owner): the audit is theirs to read.
    fn organises(&self) -> bool {
        access::acting_role(self.store.conn(), &self.actor)
            .ok()
            .flatten()
            .is_some_and(|r| r >= Role::Organiser)
    }

    /// The tabs this actor sees, in order.
    fn tabs(&self) -> Vec<Tab> {
        let mut tabs = vec![Tab::Members, Tab::Tournaments, Tab::Games, Tab::Settings];
        if self.organises() {
            tabs.push(Tab::Audit);
        }
        tabs
    }

    fn members(&self) -> Vec<Member> {
        crate::club::members::list(&self.store, true, None).unwrap_or_default()
    }

    fn tournaments(&self) -> Vec<Tournament> {
        crate::club::tournament::list(&self.store).unwrap_or_default()
    }

    fn archive(&self) -> Vec<Archived> {
        games::archive(&self.store).unwrap_or_default()
    }

    fn report<T>(&mut self, r: Result<T, ClubError>, ok: impl FnOnce(T) -> String) {
        self.message = match r {
            Ok(v) => ok(v),
            Err(e) => e.to_string(),
        };
    }

    /// Opens a prompt when the actor may perform `op`; otherwise says who may.
    fn ask(&mut self, op: Op, prompt: Prompt) {
        match self.may(op) {
            Ok(()) => self.prompt = Some(prompt),
            Err(e) => self.message = e.to_string(),
        }
    }

    /// The keys of the current list, as far as the actor may use them.
    fn list_hint(&self) -> String {
        let mut keys = vec!["Tab switches lists", "Enter opens"];
        match self.tab {
            Tab::Members => {
                if self.can(Operation::AddMember.op()) {
                    keys.push("a adds a member");
                }
                if self.can(Operation::SetActive.op()) {
                    keys.push("d (de)activates");
                }
                if self.can(Operation::SetRole.op()) {
                    keys.push("o sets the role");
                }
            }
            Tab::Tournaments if self.can(Operation::CreateTournament.op()) => {
                keys.push("n new tournament");
            }
            Tab::Settings if self.can(Operation::Settings.op()) => keys.push("e changes"),
            _ => {}
        }
        keys.push("Esc back");
        keys.join(" · ")
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) -> Action {
        if let Some(form) = &mut self.form {
            match form.key(key) {
                Typed::Editing => {}
                Typed::Cancelled => self.form = None,
                Typed::Done => self.create_tournament(),
            }
            return Action::None;
        }
        if let Some(p) = &mut self.prompt {
            match p.key(key) {
                Typed::Editing => {}
                Typed::Cancelled => {
                    self.prompt = None;
                    self.message = "Cancelled".into();
                }
                Typed::Done => {
                    if let Some(p) = self.prompt.take() {
                        self.answer(p);
                    }
                }
            }
            return Action::None;
        }
        match self.page.clone() {
            Page::List => return self.list_key(key),
            Page::Member(id, k) => self.member_key(key, id, k),
            Page::Standings(id) | Page::Crosstable(id) => {
                if matches!(key.code, KeyCode::Esc | KeyCode::Char('q')) {
                    self.open_tournament(id);
                }
            }
            Page::Tournament { id, round, board } => {
                return self.tournament_key(key, id, round, board);
            }
        }
        Action::None
    }

    /// Does what a prompt was for, with its text.
    fn answer(&mut self, p: Prompt) {
        let actor = self.actor.clone();
        let text = p.text;
        match p.purpose {
            Purpose::NewMember => {
                let r =
                    crate::club::members::add(&mut self.store, &actor, &text, &Default::default());
                self.report(r, |id| format!("Added #{id} {}", text.trim()));
            }
            Purpose::Setting(key) => {
                let r = crate::club::ratings::change_setting(&mut self.store, &actor, &key, &text);
                self.report(r, |()| {
                    format!("{key} = {}; ratings recomputed", text.trim())
                });
            }
            Purpose::Contact(id) | Purpose::Key(id) | Purpose::Role(id) => {
                self.answer_member(id, p.purpose, &text)
            }
            Purpose::Arbiter(t) => self.answer_arbiter(t, &text),
        }
    }

    fn create_tournament(&mut self) {
        let Some(form) = self.form.take() else {
            return;
        };
        let actor = self.actor.clone();
        let r = form
            .tournament()
            .and_then(|new| crate::club::tournament::create(&mut self.store, &actor, &new));
        match r {
            Ok(id) => self.message = format!("Created #{id} {}", form.values[0].trim()),
            Err(e) => {
                // The form stays open with what was typed, so the mistake can be put right.
                self.message = e.to_string();
                self.form = Some(form);
            }
        }
    }

    fn list_key(&mut self, key: KeyEvent) -> Action {
        let len = match self.tab {
            Tab::Members => self.members().len(),
            Tab::Tournaments => self.tournaments().len(),
            Tab::Games => self.archive().len(),
            Tab::Settings => admin::settings_len(),
            Tab::Audit => self.audit_len(),
        };
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return Action::Home,
            KeyCode::Tab | KeyCode::Left | KeyCode::Right | KeyCode::BackTab => {
                let tabs = self.tabs();
                let at = tabs.iter().position(|t| *t == self.tab).unwrap_or(0);
                let back = matches!(key.code, KeyCode::Left | KeyCode::BackTab);
                let next = if back {
                    (at + tabs.len() - 1) % tabs.len()
                } else {
                    (at + 1) % tabs.len()
                };
                self.tab = tabs[next];
                self.selected = 0;
                self.message = self.list_hint();
            }
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(len.saturating_sub(1))
            }
            _ => match self.tab {
                Tab::Members => self.members_key(key, len),
                Tab::Tournaments => match key.code {
                    KeyCode::Char('n') => match self.may(Operation::CreateTournament.op()) {
                        Ok(()) => {
                            self.form = Some(TournamentForm::default());
                            self.message = "A new tournament: fill in the form".into();
                        }
                        Err(e) => self.message = e.to_string(),
                    },
                    KeyCode::Enter if len > 0 => {
                        let id = self.tournaments()[self.selected].id;
                        self.open_tournament(id);
                    }
                    _ => {}
                },
                Tab::Games => {
                    if key.code == KeyCode::Enter && len > 0 {
                        return Action::Replay(self.archive()[self.selected].pdn.clone());
                    }
                }
                Tab::Settings => self.settings_key(key),
                Tab::Audit => {}
            },
        }
        Action::None
    }

    /// Draws the club screen (`ascii`: plain characters for bars, for terminals without box
    /// drawing).
    pub fn draw(&self, frame: &mut Frame, area: Rect, ascii: bool) {
        let [body, message] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(area);
        match &self.page {
            Page::List => self.draw_list(frame, body),
            Page::Member(id, key) => self.draw_member(frame, body, *id, *key),
            Page::Tournament { id, round, board } => {
                self.draw_tournament(frame, body, *id, *round, *board, ascii)
            }
            Page::Standings(id) => self.draw_standings(frame, body, *id),
            Page::Crosstable(id) => self.draw_crosstable(frame, body, *id),
        }
        if let Some(form) = &self.form {
            form.draw(frame, body);
        }
        let line = match &self.prompt {
            Some(p) => p.line(usize::from(message.width)),
            None => self.message.clone(),
        };
        frame.render_widget(
            Paragraph::new(line).style(Style::default().add_modifier(Modifier::BOLD)),
            message,
        );
    }

    fn draw_list(&self, frame: &mut Frame, area: Rect) {
        let tabs: Vec<&str> = self.tabs().iter().map(|t| t.title()).collect();
        let title = format!(" Club: {}  (Tab: {}) ", self.tab.title(), tabs.join(", "));
        let mut lines = Vec::new();
        let rows: Vec<String> = match self.tab {
            Tab::Members => {
                lines.push(Line::from(format!("{:<28} intl  fris  engl", "name")));
                self.members().iter().map(members::row).collect()
            }
            Tab::Tournaments => self
                .tournaments()
                .iter()
                .map(|t| {
                    format!(
                        "{:<28} {} · {}",
                        t.name,
                        t.variant.name(),
                        t.time_control.as_deref().unwrap_or("no clock")
                    )
                })
                .collect(),
            Tab::Games => self
                .archive()
                .iter()
                .map(|g| {
                    format!(
                        "{:<20} round {:>2}: {} – {}",
                        g.tournament, g.round, g.white, g.black
                    )
                })
                .collect(),
            Tab::Settings => self.settings_rows(),
            Tab::Audit => self.audit_rows(),
        };
        if rows.is_empty() {
            lines.push(Line::from(match self.tab {
                Tab::Members => {
                    "(none yet — `a` adds a member here; `draughts club member import` adds many)"
                }
                _ => "(none yet)",
            }));
        }
        for (i, row) in rows.into_iter().enumerate() {
            lines.push(selectable(row, i == self.selected));
        }
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(title)),
            area,
        );
    }
}

fn black_name(p: &Pairing) -> &str {
    p.black.as_deref().unwrap_or("(bye)")
}

fn result_text(p: &Pairing) -> &'static str {
    match (p.black.as_ref(), p.result, p.forfeit) {
        (None, _, _) => "bye",
        (_, Some(Outcome::WhiteWins), true) => "+ -",
        (_, Some(Outcome::BlackWins), true) => "- +",
        (_, Some(Outcome::WhiteWins), false) => "1-0",
        (_, Some(Outcome::Draw), _) => "½-½",
        (_, Some(Outcome::BlackWins), false) => "0-1",
        (_, None, _) => "",
    }
}

fn selectable(text: String, selected: bool) -> Line<'static> {
    if selected {
        Line::from(ratatui::text::Span::styled(
            format!("▸ {text}"),
            Style::default().add_modifier(Modifier::REVERSED),
        ))
    } else {
        Line::from(format!("  {text}"))
    }
}
