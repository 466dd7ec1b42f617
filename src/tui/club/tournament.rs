//! A tournament's pages: its rounds (←→ round, ↑↓ board) with result entry, results reported by
//! players and their confirmation, pairing, arbiters, "play this pairing here" and the review of
//! the round; its standings and its crosstable.

use super::prompt::{Prompt, Purpose};
use super::selectable;
use super::{Action, ClubScreen, Page, PairingToPlay, RoundReview, black_name, result_text};
use crate::club::access::Operation;
use crate::club::members;
use crate::club::tournament::{self, Outcome, Pairing};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};

impl ClubScreen {
    pub(super) fn round_games(&self, id: i64, round: u32) -> Vec<Pairing> {
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

    /// Opens a tournament on its last paired round.
    pub(super) fn open_tournament(&mut self, id: i64) {
        self.page = Page::Tournament {
            id,
            round: self.rounds_paired(id).max(1),
            board: 0,
        };
        // The page lists its own keys; the message line is for what they do.
        self.message.clear();
    }

    /// Whether the actor plays in a game (then `1 = 0` report its result rather than record it).
    fn plays(&self, g: &Pairing) -> bool {
        let Some(me) = self.actor.member_id() else {
            return false;
        };
        [Some(&g.white), g.black.as_ref()]
            .into_iter()
            .flatten()
            .any(|n| members::find(&self.store, n).is_ok_and(|m| m.id == me))
    }

    /// The keys of a tournament's round page, as far as the actor may use them.
    pub(super) fn tournament_hint(&self, id: i64) -> String {
        let op = |o: Operation| o.op().tournament(id);
        let mut keys = vec!["←→ round · ↑↓ board"];
        if self.can(op(Operation::Result)) {
            keys.push("1 = 0 result · c confirms a report · g play here");
        } else if self.actor.member_id().is_some() {
            keys.push("1 = 0 reports your own game's result");
        }
        if self.can(op(Operation::Pair)) {
            keys.push("p pair next");
        }
        if self.can(op(Operation::Arbiter)) {
            keys.push("A arbiters");
        }
        keys.extend([
            "Enter open",
            "r review the round",
            "s standings · x crosstable",
            "Esc",
        ]);
        keys.join(" · ")
    }

    pub(super) fn tournament_key(
        &mut self,
        key: KeyEvent,
        id: i64,
        round: u32,
        board: usize,
    ) -> Action {
        let which = id.to_string();
        let games = self.round_games(id, round);
        let last = self.rounds_paired(id);
        let actor = self.actor.clone();
        let at = |round: u32, board: usize| Page::Tournament { id, round, board };
        match key.code {
            KeyCode::Esc if self.review_of(id, round).is_some_and(RoundReview::running) => {
                self.round_review = None;
                self.message =
                    "Review stopped; the boards already reviewed keep their reviews".into();
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                self.page = Page::List;
                self.message = self.list_hint();
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
                self.page = at(round.saturating_sub(1).max(1), 0);
            }
            KeyCode::Right | KeyCode::Char('l') => {
                self.page = at((round + 1).min(last.max(1)), 0);
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.page = at(round, board.saturating_sub(1));
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.page = at(round, (board + 1).min(games.len().saturating_sub(1)));
            }
            KeyCode::Char('s') => self.page = Page::Standings(id),
            KeyCode::Char('x') => self.page = Page::Crosstable(id),
            KeyCode::Char('p') => {
                let r = tournament::pair_next(&mut self.store, &actor, &which);
                if let Ok(n) = r {
                    self.page = at(n, 0);
                }
                self.report(r, |n| format!("Round {n} paired"));
            }
            KeyCode::Char('A') => {
                let names = tournament::arbiters(&self.store, &which)
                    .unwrap_or_default()
                    .join(", ");
                self.ask(
                    Operation::Arbiter.op().tournament(id),
                    Prompt::new(
                        Purpose::Arbiter(id),
                        format!(
                            "Arbiters: {} · appoint (name), or -name to remove",
                            if names.is_empty() { "none" } else { &names }
                        ),
                        "",
                    ),
                );
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
                let pair = [g.white.as_str(), black.as_str()];
                // A player without the right to record reports their own game's result; anyone
                // else asks the library to record it, and is told who may when they may not.
                if self.plays(g) && !self.can(Operation::Result.op().tournament(id)) {
                    let r = tournament::report_result(
                        &mut self.store,
                        &actor,
                        &which,
                        round,
                        &pair,
                        outcome,
                    );
                    self.report(r, |p| {
                        format!(
                            "Reported {} – {}: it counts once the arbiter confirms it",
                            p.white,
                            black_name(&p)
                        )
                    });
                } else {
                    let r = tournament::record_result(
                        &mut self.store,
                        &actor,
                        &which,
                        round,
                        pair[0],
                        pair[1],
                        outcome,
                    );
                    self.report(r, |p| format!("Recorded {} – {}", p.white, black_name(&p)));
                }
            }
            KeyCode::Char('c') => {
                let Some(g) = games.get(board) else {
                    return Action::None;
                };
                let pair = [g.white.as_str(), black_name(g)];
                let r = tournament::confirm_result(&mut self.store, &actor, &which, round, &pair);
                self.report(r, |p| format!("Confirmed {} – {}", p.white, black_name(&p)));
            }
            KeyCode::Char('g') => {
                if let Some(g) = games.get(board)
                    && let Some(black) = &g.black
                {
                    // The game played here is recorded as its result: for those who record.
                    if let Err(e) = self.may(Operation::Result.op().tournament(id)) {
                        self.message = format!("{e} (members play their games from the lobby)");
                        return Action::None;
                    }
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

    /// Appoints an arbiter (or, with a leading `-`, ends an appointment).
    pub(super) fn answer_arbiter(&mut self, t: i64, text: &str) {
        let actor = self.actor.clone();
        let text = text.trim();
        let (name, remove) = match text.strip_prefix('-') {
            Some(rest) => (rest.trim(), true),
            None => (text, false),
        };
        let r = tournament::set_arbiter(&mut self.store, &actor, &t.to_string(), name, remove);
        self.report(r, |()| {
            format!(
                "{name} {} an arbiter",
                if remove { "is no longer" } else { "is" }
            )
        });
    }

    pub(super) fn draw_tournament(
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
        let arbiters = tournament::arbiters(&self.store, &id.to_string()).unwrap_or_default();
        let mut lines = vec![
            Line::from(format!(
                "{} · {} · {} · round {round} of {paired} paired · arbiter: {}",
                t.variant.name(),
                t.time_control.as_deref().unwrap_or("no clock"),
                if t.rated { "rated" } else { "unrated" },
                if arbiters.is_empty() {
                    "none".to_string()
                } else {
                    arbiters.join(", ")
                }
            )),
            Line::from(""),
        ];
        if games.is_empty() {
            lines.push(Line::from(
                if self.can(Operation::Pair.op().tournament(id)) {
                    "No round paired yet: press p to pair round 1."
                } else {
                    "No round paired yet."
                },
            ));
        }
        for (i, g) in games.iter().enumerate() {
            let reported = g.reported.as_ref().map_or(String::new(), |r| {
                format!(
                    "{} reported by {}, unconfirmed",
                    match r.outcome {
                        Outcome::WhiteWins => "1-0?",
                        Outcome::Draw => "½-½?",
                        Outcome::BlackWins => "0-1?",
                    },
                    r.by
                )
            });
            let row = format!(
                "{:>2}. {:<24} – {:<24} {}{reported}",
                g.board,
                g.white,
                black_name(g),
                result_text(g)
            );
            lines.push(selectable(row, i == board));
        }
        lines.push(Line::from(""));
        lines.push(Line::from(self.tournament_hint(id)));
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

    pub(super) fn draw_standings(&self, frame: &mut Frame, area: Rect, id: i64) {
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
        // Reported results count once confirmed: shown, not counted.
        for p in tournament::pairings(&self.store, &which, None).unwrap_or_default() {
            if let Some(r) = &p.reported {
                lines.push(Line::from(format!(
                    "unconfirmed, not counted: round {}, {} – {} {} reported by {}",
                    p.round,
                    p.white,
                    black_name(&p),
                    r.outcome.text(t.scoring),
                    r.by
                )));
            }
        }
        frame.render_widget(
            Paragraph::new(lines)
                .block(Block::bordered().title(format!(" {} — standings ", t.name))),
            area,
        );
    }

    pub(super) fn draw_crosstable(&self, frame: &mut Frame, area: Rect, id: i64) {
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
