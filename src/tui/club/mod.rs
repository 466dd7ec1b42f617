//! The club screens: members (with a rating chart), tournaments, a tournament's rounds with
//! result entry and pairing, standings and crosstable, "play this pairing", and the review of a
//! whole round (`round_review`).

mod round_review;

pub use round_review::RoundReview;

use crate::club::access::Actor;
use crate::club::games::{self, Archived};
use crate::club::members::{self, Member};
use crate::club::ratings;
use crate::club::tournament::{self, Outcome, Pairing, Tournament};
use crate::club::{ClubError, Store};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph};

/// The two lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Members.
    Members,
    /// Tournaments.
    Tournaments,
    /// Recorded games.
    Games,
}

/// What the club screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Page {
    /// The list of the current tab.
    List,
    /// A member's profile.
    Member(i64),
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
    /// The name being typed for a new member, while adding one.
    pub new_member: Option<String>,
    /// The review of a round, running or done.
    pub round_review: Option<RoundReview>,
}

impl ClubScreen {
    /// A club screen on a database, used by `actor`.
    pub fn new(store: Store, actor: Actor) -> ClubScreen {
        ClubScreen {
            store,
            actor,
            tab: Tab::Members,
            selected: 0,
            page: Page::List,
            message:
                "Tab switches lists · Enter opens · a adds a member · d (de)activates · Esc back"
                    .into(),
            new_member: None,
            round_review: None,
        }
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

    fn members(&self) -> Vec<Member> {
        members::list(&self.store, true, None).unwrap_or_default()
    }

    fn tournaments(&self) -> Vec<Tournament> {
        tournament::list(&self.store).unwrap_or_default()
    }

    fn archive(&self) -> Vec<Archived> {
        games::archive(&self.store).unwrap_or_default()
    }

    fn round_games(&self, id: i64, round: u32) -> Vec<Pairing> {
        tournament::pairings(&self.store, &id.to_string(), Some(round)).unwrap_or_default()
    }

    fn rounds_paired(&self, id: i64) -> u32 {
        tournament::pairings(&self.store, &id.to_string(), None)
            .unwrap_or_default()
            .iter()
            .map(|p| p.round)
            .max()
            .unwrap_or(0)
    }

    fn report<T>(&mut self, r: Result<T, ClubError>, ok: impl FnOnce(T) -> String) {
        self.message = match r {
            Ok(v) => ok(v),
            Err(e) => e.to_string(),
        };
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) -> Action {
        if let Some(name) = &mut self.new_member {
            match key.code {
                KeyCode::Esc => self.new_member = None,
                KeyCode::Backspace => {
                    name.pop();
                }
                KeyCode::Char(c) => name.push(c),
                KeyCode::Enter => {
                    let name = self.new_member.take().unwrap_or_default();
                    let r = members::add(&mut self.store, &self.actor, &name, &Default::default());
                    self.report(r, |id| format!("Added #{id} {}", name.trim()));
                }
                _ => {}
            }
            return Action::None;
        }
        match self.page.clone() {
            Page::List => {
                let len = match self.tab {
                    Tab::Members => self.members().len(),
                    Tab::Tournaments => self.tournaments().len(),
                    Tab::Games => self.archive().len(),
                };
                match key.code {
                    KeyCode::Esc | KeyCode::Char('q') => return Action::Home,
                    KeyCode::Tab | KeyCode::Left | KeyCode::Right => {
                        let forward = key.code != KeyCode::Left;
                        self.tab = match (self.tab, forward) {
                            (Tab::Members, true) | (Tab::Games, false) => Tab::Tournaments,
                            (Tab::Tournaments, true) | (Tab::Members, false) => Tab::Games,
                            (Tab::Games, true) | (Tab::Tournaments, false) => Tab::Members,
                        };
                        self.selected = 0;
                    }
                    KeyCode::Up | KeyCode::Char('k') => {
                        self.selected = self.selected.saturating_sub(1)
                    }
                    KeyCode::Down | KeyCode::Char('j') => {
                        self.selected = (self.selected + 1).min(len.saturating_sub(1))
                    }
                    KeyCode::Char('a') if self.tab == Tab::Members => {
                        self.new_member = Some(String::new());
                    }
                    KeyCode::Char('d') if self.tab == Tab::Members && len > 0 => {
                        let m = self.members()[self.selected].clone();
                        let r = members::set_active(
                            &mut self.store,
                            &self.actor,
                            &m.id.to_string(),
                            !m.active,
                        );
                        self.report(r, |m| {
                            format!(
                                "{} is {}",
                                m.name,
                                if m.active { "active" } else { "inactive" }
                            )
                        });
                    }
                    KeyCode::Enter if len > 0 && self.tab == Tab::Games => {
                        return Action::Replay(self.archive()[self.selected].pdn.clone());
                    }
                    KeyCode::Enter if len > 0 => {
                        self.page = match self.tab {
                            Tab::Members => Page::Member(self.members()[self.selected].id),
                            Tab::Tournaments => {
                                let id = self.tournaments()[self.selected].id;
                                Page::Tournament {
                                    id,
                                    round: self.rounds_paired(id).max(1),
                                    board: 0,
                                }
                            }
                            Tab::Games => Page::List,
                        };
                    }
                    _ => {}
                }
            }
            Page::Member(_) => {
                if matches!(key.code, KeyCode::Esc | KeyCode::Char('q')) {
                    self.page = Page::List;
                }
            }
            Page::Standings(id) | Page::Crosstable(id) => {
                if matches!(key.code, KeyCode::Esc | KeyCode::Char('q')) {
                    self.page = Page::Tournament {
                        id,
                        round: self.rounds_paired(id).max(1),
                        board: 0,
                    };
                }
            }
            Page::Tournament { id, round, board } => {
                return self.tournament_key(key, id, round, board);
            }
        }
        Action::None
    }

    fn tournament_key(&mut self, key: KeyEvent, id: i64, round: u32, board: usize) -> Action {
        let which = id.to_string();
        let games = self.round_games(id, round);
        let last = self.rounds_paired(id);
        match key.code {
            KeyCode::Esc if self.review_of(id, round).is_some_and(RoundReview::running) => {
                self.round_review = None;
                self.message =
                    "Review stopped; the boards already reviewed keep their reviews".into();
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                self.page = Page::List;
            }
            KeyCode::Char('r') => {
                return Action::ReviewRound {
                    tournament: id,
                    round,
                };
            }
            KeyCode::Enter => {
                let Some(g) = games.get(board) else {
                    return Action::None;
                };
                if let Some(r) = self.review_of(id, round)
                    && let Some((record, review)) = r.of_game(g.id)
                {
                    return Action::ReplayReviewed {
                        record: Box::new(record.clone()),
                        review: Box::new(review.clone()),
                        time: r.time(),
                    };
                }
                match tournament::game_pdn(&self.store, g.id) {
                    Ok(Some(text)) => return Action::Replay(text),
                    Ok(None) => self.message = "This board has no recorded game".into(),
                    Err(e) => self.message = e.to_string(),
                }
            }
            KeyCode::Left | KeyCode::Char('h') => {
                self.page = Page::Tournament {
                    id,
                    round: round.saturating_sub(1).max(1),
                    board: 0,
                };
            }
            KeyCode::Right | KeyCode::Char('l') => {
                self.page = Page::Tournament {
                    id,
                    round: (round + 1).min(last.max(1)),
                    board: 0,
                };
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.page = Page::Tournament {
                    id,
                    round,
                    board: board.saturating_sub(1),
                };
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.page = Page::Tournament {
                    id,
                    round,
                    board: (board + 1).min(games.len().saturating_sub(1)),
                };
            }
            KeyCode::Char('s') => {
                self.page = Page::Standings(id);
            }
            KeyCode::Char('x') => {
                self.page = Page::Crosstable(id);
            }
            KeyCode::Char('p') => {
                let r = tournament::pair_next(&mut self.store, &self.actor, &which);
                if let Ok(n) = r {
                    self.page = Page::Tournament {
                        id,
                        round: n,
                        board: 0,
                    };
                }
                self.report(r, |n| format!("Round {n} paired"));
            }
            KeyCode::Char(c @ ('1' | '=' | '0')) => {
                let Some(g) = games.get(board) else {
                    return Action::None;
                };
                let Some(black) = g.black.clone() else {
                    self.message = "A bye has no result to enter".into();
                    return Action::None;
                };
                let outcome = match c {
                    '1' => Outcome::WhiteWins,
                    '=' => Outcome::Draw,
                    _ => Outcome::BlackWins,
                };
                let r = tournament::record_result(
                    &mut self.store,
                    &self.actor,
                    &which,
                    round,
                    &g.white,
                    &black,
                    outcome,
                );
                self.report(r, |p| format!("Recorded {} – {}", p.white, black_name(&p)));
            }
            KeyCode::Char('g') => {
                if let Some(g) = games.get(board)
                    && let Some(black) = &g.black
                {
                    return Action::Play(PairingToPlay {
                        tournament: id,
                        round,
                        white: g.white.clone(),
                        black: black.clone(),
                    });
                }
            }
            _ => {}
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
            Page::Member(id) => self.draw_member(frame, body, *id),
            Page::Tournament { id, round, board } => {
                self.draw_tournament(frame, body, *id, *round, *board, ascii)
            }
            Page::Standings(id) => self.draw_standings(frame, body, *id),
            Page::Crosstable(id) => self.draw_crosstable(frame, body, *id),
        }
        frame.render_widget(
            Paragraph::new(self.message.clone())
                .style(Style::default().add_modifier(Modifier::BOLD)),
            message,
        );
    }

    fn draw_list(&self, frame: &mut Frame, area: Rect) {
        let mut lines = Vec::new();
        let (title, rows): (&str, Vec<String>) = match self.tab {
            Tab::Members => (
                " Club: Members  (Tab: Tournaments, Games) ",
                self.members()
                    .iter()
                    .map(|m| {
                        let r = |v: &str| {
                            m.ratings
                                .get(v)
                                .map_or("    ".to_string(), |r| format!("{r:>4.0}"))
                        };
                        format!(
                            "{:<28} {}  {}  {}  {}",
                            m.name,
                            r("international"),
                            r("frisian"),
                            r("english"),
                            if m.active { "" } else { "inactive" }
                        )
                    })
                    .collect(),
            ),
            Tab::Tournaments => (
                " Club: Tournaments  (Tab: Games, Members) ",
                self.tournaments()
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
            ),
            Tab::Games => (
                " Club: Games  (Tab: Members, Tournaments; Enter replays) ",
                self.archive()
                    .iter()
                    .map(|g| {
                        format!(
                            "{:<20} round {:>2}: {} – {}",
                            g.tournament, g.round, g.white, g.black
                        )
                    })
                    .collect(),
            ),
        };
        if self.tab == Tab::Members {
            lines.push(Line::from(format!("{:<28} intl  fris  engl", "name")));
        }
        if rows.is_empty() {
            lines.push(Line::from(
                "(none yet — `a` adds a member here; `draughts club member import` adds many)",
            ));
        }
        for (i, row) in rows.into_iter().enumerate() {
            lines.push(selectable(row, i == self.selected));
        }
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(title)),
            area,
        );
    }

    fn draw_member(&self, frame: &mut Frame, area: Rect, id: i64) {
        let Ok(m) = members::find(&self.store, &id.to_string()) else {
            return;
        };
        let [info, chart_rect] =
            Layout::vertical([Constraint::Length(6), Constraint::Min(3)]).areas(area);
        let ratings: Vec<String> = m
            .ratings
            .iter()
            .map(|(v, r)| format!("{v} {r:.0}"))
            .collect();
        let lines = vec![
            Line::from(m.name.clone()),
            Line::from(format!(
                "federation id: {}",
                m.federation_id.as_deref().unwrap_or("-")
            )),
            Line::from(format!("contact: {}", m.contact.as_deref().unwrap_or("-"))),
            Line::from(format!("ratings: {}", ratings.join(", "))),
        ];
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(" Member ")),
            info,
        );
        let variant = m
            .ratings
            .keys()
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_default();
        let history = ratings::history(&self.store, id, variant).unwrap_or_default();
        let mut points: Vec<(f64, f64)> = Vec::new();
        if let Some(first) = history.first() {
            points.push((0.0, first.before));
        }
        points.extend(
            history
                .iter()
                .enumerate()
                .map(|(i, h)| ((i + 1) as f64, h.after)),
        );
        let (lo, hi) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            (lo.min(p.1), hi.max(p.1))
        });
        let (lo, hi) = if points.is_empty() {
            (1000.0, 1400.0)
        } else {
            (lo - 20.0, hi + 20.0)
        };
        let data = [Dataset::default()
            .name(variant.name())
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .data(&points)];
        let chart = Chart::new(data.to_vec())
            .block(Block::bordered().title(format!(
                " Rating history ({}, {} games) ",
                variant.name(),
                history.len()
            )))
            .x_axis(
                Axis::default()
                    .title("games")
                    .bounds([0.0, (points.len().max(2) - 1) as f64]),
            )
            .y_axis(
                Axis::default()
                    .bounds([lo, hi])
                    .labels([format!("{lo:.0}"), format!("{hi:.0}")]),
            );
        frame.render_widget(chart, chart_rect);
    }

    fn draw_tournament(
        &self,
        frame: &mut Frame,
        area: Rect,
        id: i64,
        round: u32,
        board: usize,
        ascii: bool,
    ) {
        let Ok(t) = tournament::find(&self.store, &id.to_string()) else {
            return;
        };
        let games = self.round_games(id, round);
        let paired = self.rounds_paired(id);
        let mut lines = vec![
            Line::from(format!(
                "{} · {} · {} · round {round} of {paired} paired",
                t.variant.name(),
                t.time_control.as_deref().unwrap_or("no clock"),
                if t.rated { "rated" } else { "unrated" }
            )),
            Line::from(""),
        ];
        if games.is_empty() {
            lines.push(Line::from("No round paired yet: press p to pair round 1."));
        }
        for (i, g) in games.iter().enumerate() {
            let row = format!(
                "{:>2}. {:<24} – {:<24} {}",
                g.board,
                g.white,
                g.black.as_deref().unwrap_or("(bye)"),
                result_text(g)
            );
            lines.push(selectable(row, i == board));
        }
        lines.push(Line::from(""));
        lines.push(Line::from(
            "←→ round · ↑↓ board · 1 = 0 result · p pair next · g play · Enter open · r review the round · s standings · x crosstable · Esc",
        ));
        let list = Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(Block::bordered().title(format!(" {} ", t.name)));
        match self.review_of(id, round) {
            Some(review) => {
                // The round's list as tall as it needs (its rows, the heading and the keys), the
                // review below it with the rest.
                let rows = u16::try_from(games.len()).unwrap_or(u16::MAX);
                let [top, bottom] = Layout::vertical([
                    Constraint::Length(rows.saturating_add(7).min(area.height / 2)),
                    Constraint::Min(5),
                ])
                .areas(area);
                frame.render_widget(list, top);
                review.draw(frame, bottom, ascii);
            }
            None => frame.render_widget(list, area),
        }
    }

    fn draw_standings(&self, frame: &mut Frame, area: Rect, id: i64) {
        let which = id.to_string();
        let (Ok(t), Ok(table)) = (
            tournament::find(&self.store, &which),
            tournament::standings(&self.store, &which),
        ) else {
            return;
        };
        let names: String = t
            .tiebreaks
            .iter()
            .map(|b| format!(" {:>8}", b.name()))
            .collect();
        let mut lines = vec![Line::from(format!(
            "{:>3}  {:<24} {:>6} {:>5}{names}",
            "#", "name", "points", "games"
        ))];
        for r in table {
            let tb: String = r.tiebreaks.iter().map(|v| format!(" {v:>8}")).collect();
            lines.push(Line::from(format!(
                "{:>3}  {:<24} {:>6} {:>5}{tb}",
                r.place, r.name, r.points, r.played
            )));
        }
        frame.render_widget(
            Paragraph::new(lines)
                .block(Block::bordered().title(format!(" {} — standings ", t.name))),
            area,
        );
    }

    fn draw_crosstable(&self, frame: &mut Frame, area: Rect, id: i64) {
        let which = id.to_string();
        let (Ok(t), Ok(x)) = (
            tournament::find(&self.store, &which),
            tournament::crosstable(&self.store, &which),
        ) else {
            return;
        };
        let heads: String = (1..=x.standings.len())
            .map(|i| format!(" {i:>3}"))
            .collect();
        let mut lines = vec![Line::from(format!("{:>3}  {:<20}{heads}  points", "", ""))];
        for (i, r) in x.standings.iter().enumerate() {
            let cells: String = x.cells[i]
                .iter()
                .enumerate()
                .map(|(j, v)| {
                    let c = if i == j {
                        "×".to_string()
                    } else {
                        v.iter()
                            .map(|p| {
                                if *p == 0.5 {
                                    "½".into()
                                } else {
                                    p.to_string()
                                }
                            })
                            .collect::<String>()
                    };
                    format!(" {c:>3}")
                })
                .collect();
            lines.push(Line::from(format!(
                "{:>3}  {:<20}{cells}  {:>6}",
                i + 1,
                r.name,
                r.points
            )));
        }
        frame.render_widget(
            Paragraph::new(lines)
                .block(Block::bordered().title(format!(" {} — crosstable ", t.name))),
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
