//! What the club pages ask with: a line of text for one value (a new member's name, a contact,
//! an SSH key, a role, a setting, an arbiter), and the form for a new tournament. Both only
//! collect text; the page hands it to the library, which checks it and who asks.

use crate::club::tiebreak::TieBreak;
use crate::club::tournament::{NewTournament, System, parse_tiebreaks};
use crate::club::{ClubError, tournament};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

/// What a line of text is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A new member's name.
    NewMember,
    /// A member's contact.
    Contact(i64),
    /// An SSH public key for a member.
    Key(i64),
    /// A member's role.
    Role(i64),
    /// A club setting's new value.
    Setting(String),
    /// A member to appoint arbiter of a tournament (`-name` ends an appointment).
    Arbiter(i64),
}

/// A line of text being typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What it is for.
    pub purpose: Purpose,
    /// What the line asks.
    pub label: String,
    /// What has been typed.
    pub text: String,
}

/// What a key did to a prompt or form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// Still typing.
    Editing,
    /// Given up (Esc).
    Cancelled,
    /// Done (Enter).
    Done,
}

/// The longest line a prompt takes (an SSH key with a long comment fits).
const MAX_TEXT: usize = 16 * 1024;

fn edit(text: &mut String, key: KeyEvent) -> Typed {
    match key.code {
        KeyCode::Esc => Typed::Cancelled,
        KeyCode::Enter => Typed::Done,
        KeyCode::Backspace => {
            text.pop();
            Typed::Editing
        }
        KeyCode::Char(c) if !c.is_control() && text.len() < MAX_TEXT => {
            text.push(c);
            Typed::Editing
        }
        _ => Typed::Editing,
    }
}

impl Prompt {
    /// A prompt for `purpose`, asking `label`, starting from `text`.
    pub fn new(purpose: Purpose, label: impl Into<String>, text: impl Into<String>) -> Prompt {
        Prompt {
            purpose,
            label: label.into(),
            text: text.into(),
        }
    }

    /// Takes a key.
    pub fn key(&mut self, key: KeyEvent) -> Typed {
        edit(&mut self.text, key)
    }

    /// The message line while typing: the question, the text and a cursor (the end of a long
    /// text, so the cursor stays in view).
    pub fn line(&self, width: usize) -> String {
        let room = width.saturating_sub(self.label.chars().count() + 3).max(8);
        let count = self.text.chars().count();
        let shown: String = self.text.chars().skip(count.saturating_sub(room)).collect();
        format!("{}: {shown}▏", self.label)
    }
}

/// The fields of the new-tournament form, in order.
const FIELDS: [&str; 8] = [
    "Name",
    "System (round-robin, double-round-robin, swiss, keizer)",
    "Rounds (Swiss; Keizer: 0 for open-ended)",
    "Variant (international, frisian, english)",
    "Clock (e.g. 80m+1m; empty: none)",
    "Scoring (2-1-0 or 1-0.5-0)",
    "Rated (yes or no)",
    "Tie-breaks (sb, buchholz, buchholz-cut1, median-buchholz, wins, direct, aro, performance)",
];

/// The form for a new tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentForm {
    /// Each field's text, in [`FIELDS`] order.
    pub values: [String; 8],
    /// The field being typed in.
    pub field: usize,
}

impl Default for TournamentForm {
    fn default() -> TournamentForm {
        TournamentForm {
            values: [
                String::new(),
                "round-robin".into(),
                String::new(),
                "international".into(),
                String::new(),
                "2-1-0".into(),
                "yes".into(),
                "sb,wins".into(),
            ],
            field: 0,
        }
    }
}

impl TournamentForm {
    /// Takes a key: ↑↓ and Tab move between fields, Enter on the last creates, Esc gives up.
    pub fn key(&mut self, key: KeyEvent) -> Typed {
        match key.code {
            KeyCode::Up | KeyCode::BackTab => {
                self.field = self.field.saturating_sub(1);
                Typed::Editing
            }
            KeyCode::Down | KeyCode::Tab => {
                self.field = (self.field + 1).min(FIELDS.len() - 1);
                Typed::Editing
            }
            _ => edit(&mut self.values[self.field], key),
        }
    }

    /// The tournament the form describes, checked as the command line checks it.
    pub fn tournament(&self) -> Result<NewTournament<'_>, ClubError> {
        let v = &self.values;
        let rounds = match v[2].trim() {
            "" => None,
            r => Some(
                r.parse::<u32>()
                    .map_err(|_| ClubError::BadInput(format!("rounds: {r:?} is not a number")))?,
            ),
        };
        let rated = match v[6].trim().to_ascii_lowercase().as_str() {
            "yes" | "y" | "" => true,
            "no" | "n" => false,
            other => {
                return Err(ClubError::BadInput(format!(
                    "rated: {other:?} is not yes or no"
                )));
            }
        };
        let tiebreaks: Vec<TieBreak> = parse_tiebreaks(&v[7])?;
        Ok(NewTournament {
            name: v[0].trim(),
            system: System::parse(v[1].trim(), rounds)?,
            variant: v[3]
                .trim()
                .parse()
                .map_err(|e| ClubError::BadInput(format!("variant: {e}")))?,
            time_control: Some(v[4].trim()).filter(|c| !c.is_empty()),
            scoring: v[5].trim().parse()?,
            rated,
            tiebreaks,
            reports: tournament::Confirmation::Arbiter,
        })
    }

    /// Draws the form over `area`.
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let mut lines = Vec::new();
        for (i, (label, value)) in FIELDS.iter().zip(&self.values).enumerate() {
            let mark = if i == self.field { "▸" } else { " " };
            let cursor = if i == self.field { "▏" } else { "" };
            lines.push(Line::from(format!("{mark} {label}")));
            lines.push(Line::from(format!("    {value}{cursor}")));
        }
        lines.push(Line::from(""));
        lines.push(Line::from("↑↓ or Tab: field · Enter: create · Esc: cancel"));
        let height = (lines.len() as u16 + 2).min(area.height);
        let rect = Rect::new(area.x, area.y, area.width, height);
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(lines).block(Block::bordered().title(" New tournament ")),
            rect,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn press(form: &mut TournamentForm, code: KeyCode) -> Typed {
        form.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn the_form_reads_as_the_command_line_does() {
        let mut f = TournamentForm::default();
        for c in "Club Open".chars() {
            press(&mut f, KeyCode::Char(c));
        }
        press(&mut f, KeyCode::Down);
        for _ in 0.."round-robin".len() {
            press(&mut f, KeyCode::Backspace);
        }
        for c in "swiss".chars() {
            press(&mut f, KeyCode::Char(c));
        }
        press(&mut f, KeyCode::Tab);
        press(&mut f, KeyCode::Char('7'));
        assert_eq!(press(&mut f, KeyCode::Enter), Typed::Done);
        let t = f.tournament().unwrap();
        assert_eq!(t.name, "Club Open");
        assert_eq!(t.system, System::Swiss { rounds: 7 });
        assert!(t.rated && t.time_control.is_none());
        // A Swiss without rounds says so.
        f.values[2].clear();
        assert!(f.tournament().unwrap_err().to_string().contains("rounds"));
        assert_eq!(press(&mut f, KeyCode::Esc), Typed::Cancelled);
    }

    #[test]
    fn a_long_line_shows_its_end() {
        let mut p = Prompt::new(Purpose::NewMember, "Name", "");
        for c in "abcdefghijklmnopqrstuvwxyz".chars() {
            p.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        let line = p.line(20);
        assert!(
            line.starts_with("Name: ") && line.ends_with("xyz▏"),
            "{line}"
        );
    }
}
