//! The members list's keys (add, (de)activate, role) and a member's profile: role, federation
//! id, contact, ratings with their history as a chart, and — for the member themselves and for
//! organisers — their SSH keys, to add and remove, and the contact, to change.

use super::prompt::{Prompt, Purpose};
use super::{ClubScreen, Page, selectable};
use crate::club::access::{Operation, Role};
use crate::club::members::{self, Member, MemberFields};
use crate::club::ratings;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph};

/// A member's row in the list: name, ratings, role (when above member) and state.
pub(super) fn row(m: &Member) -> String {
    let r = |v: &str| {
        m.ratings
            .get(v)
            .map_or("    ".to_string(), |r| format!("{r:>4.0}"))
    };
    let mut notes = Vec::new();
    if m.role != Role::Member {
        notes.push(m.role.name());
    }
    if !m.active {
        notes.push("inactive");
    }
    format!(
        "{:<28} {}  {}  {}  {}",
        m.name,
        r("international"),
        r("frisian"),
        r("english"),
        notes.join(", ")
    )
}

impl ClubScreen {
    /// The members list's own keys.
    pub(super) fn members_key(&mut self, key: KeyEvent, len: usize) {
        let selected = (len > 0).then(|| self.members()[self.selected.min(len - 1)].clone());
        match (key.code, selected) {
            (KeyCode::Char('a'), _) => self.ask(
                Operation::AddMember.op(),
                Prompt::new(Purpose::NewMember, "Name of the new member", ""),
            ),
            (KeyCode::Char('d'), Some(m)) => {
                let actor = self.actor.clone();
                let r = members::set_active(&mut self.store, &actor, &m.id.to_string(), !m.active);
                self.report(r, |m| {
                    format!(
                        "{} is {}",
                        m.name,
                        if m.active { "active" } else { "inactive" }
                    )
                });
            }
            (KeyCode::Char('o'), Some(m)) => self.ask(
                Operation::SetRole.op().member(m.id),
                Prompt::new(
                    Purpose::Role(m.id),
                    format!("Role for {} (owner, organiser, member)", m.name),
                    m.role.name(),
                ),
            ),
            (KeyCode::Enter, Some(m)) => {
                self.page = Page::Member(m.id, 0);
                self.message = self.member_hint(m.id);
            }
            _ => {}
        }
    }

    /// The keys of a member's profile, as far as the actor may use them.
    fn member_hint(&self, id: i64) -> String {
        let mut keys = Vec::new();
        if self.can(Operation::EditContact.op().member(id)) {
            keys.push("e changes the contact");
        }
        if self.can(Operation::AddKey.op().member(id)) {
            keys.push("k adds an SSH key · ↑↓ x removes one");
        }
        keys.push("Esc back");
        keys.join(" · ")
    }

    /// The SSH keys shown on a profile: the member's own and an organiser's view only.
    fn shown_keys(&self, id: i64) -> Vec<members::MemberKey> {
        if !self.can(Operation::AddKey.op().member(id)) {
            return Vec::new();
        }
        members::keys(&self.store, &id.to_string()).unwrap_or_default()
    }

    /// A member's profile's keys.
    pub(super) fn member_key(&mut self, key: KeyEvent, id: i64, k: usize) {
        let keys = self.shown_keys(id);
        let name = members::find(&self.store, &id.to_string()).map_or(String::new(), |m| m.name);
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => {
                self.page = Page::List;
                self.message = self.list_hint();
            }
            KeyCode::Up => {
                self.page = Page::Member(id, k.saturating_sub(1));
            }
            KeyCode::Down => {
                self.page = Page::Member(id, (k + 1).min(keys.len().saturating_sub(1)));
            }
            KeyCode::Char('e') => {
                let contact = members::find(&self.store, &id.to_string())
                    .ok()
                    .and_then(|m| m.contact)
                    .unwrap_or_default();
                self.ask(
                    Operation::EditContact.op().member(id),
                    Prompt::new(
                        Purpose::Contact(id),
                        format!("Contact of {name} (empty clears it)"),
                        contact,
                    ),
                );
            }
            KeyCode::Char('k') => self.ask(
                Operation::AddKey.op().member(id),
                Prompt::new(
                    Purpose::Key(id),
                    format!("SSH public key for {name} (ssh-ed25519 AAAA…)"),
                    "",
                ),
            ),
            KeyCode::Char('x') => match keys.get(k) {
                Some(found) => {
                    let actor = self.actor.clone();
                    let r = members::remove_key(&mut self.store, &actor, &found.fingerprint);
                    self.page = Page::Member(id, k.saturating_sub(1));
                    self.report(r, |()| format!("Removed {}", found.fingerprint));
                }
                None => {
                    self.message = match self.may(Operation::RemoveKey.op().member(id)) {
                        Ok(()) => format!("{name} has no SSH key to remove"),
                        Err(e) => e.to_string(),
                    }
                }
            },
            _ => {}
        }
    }

    /// Does what a prompt about a member was for.
    pub(super) fn answer_member(&mut self, id: i64, purpose: Purpose, text: &str) {
        let actor = self.actor.clone();
        let who = id.to_string();
        match purpose {
            Purpose::Contact(_) => {
                let fields = MemberFields {
                    contact: Some(text.to_string()),
                    ..Default::default()
                };
                let r = members::edit(&mut self.store, &actor, &who, &fields);
                self.report(r, |m| format!("{}'s contact changed", m.name));
            }
            Purpose::Key(_) => {
                let r = members::add_key(&mut self.store, &actor, &who, text);
                self.report(r, |k| format!("Added {}", k.fingerprint));
            }
            Purpose::Role(_) => {
                let r = text
                    .parse::<Role>()
                    .and_then(|role| members::set_role(&mut self.store, &actor, &who, role));
                self.report(r, |m| format!("{} is {}", m.name, m.role.name()));
            }
            _ => {}
        }
    }

    pub(super) fn draw_member(&self, frame: &mut Frame, area: Rect, id: i64, selected: usize) {
        let Ok(m) = members::find(&self.store, &id.to_string()) else {
            return;
        };
        let keys = self.shown_keys(id);
        let managed = self.can(Operation::AddKey.op().member(id));
        let rows = 5 + if managed { keys.len().max(1) + 1 } else { 0 };
        let height = u16::try_from(rows + 2).unwrap_or(u16::MAX);
        let [info, chart_rect] =
            Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(area);
        let ratings: Vec<String> = m
            .ratings
            .iter()
            .map(|(v, r)| format!("{v} {r:.0}"))
            .collect();
        let mut lines = vec![
            Line::from(format!(
                "{} · {}{}",
                m.name,
                m.role.name(),
                if m.active { "" } else { " · inactive" }
            )),
            Line::from(format!(
                "federation id: {}",
                m.federation_id.as_deref().unwrap_or("-")
            )),
            Line::from(format!("contact: {}", m.contact.as_deref().unwrap_or("-"))),
            Line::from(format!("ratings: {}", ratings.join(", "))),
            Line::from(""),
        ];
        if managed {
            lines.push(Line::from("SSH keys:"));
            if keys.is_empty() {
                lines.push(Line::from("  (none: k adds one)"));
            }
            for (i, k) in keys.iter().enumerate() {
                lines.push(selectable(k.fingerprint.clone(), i == selected));
            }
        }
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(" Member ")),
            info,
        );
        self.draw_rating_chart(frame, chart_rect, &m);
    }

    fn draw_rating_chart(&self, frame: &mut Frame, area: Rect, m: &Member) {
        let variant = m
            .ratings
            .keys()
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_default();
        let history = ratings::history(&self.store, m.id, variant).unwrap_or_default();
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
        frame.render_widget(chart, area);
    }
}
