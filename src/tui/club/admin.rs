//! The club's own lists: its rating settings (everyone sees them, organisers change them) and
//! the audit of every change (organisers and owners read it, newest first).

use super::ClubScreen;
use super::prompt::{Prompt, Purpose};
use crate::club::access::Operation;
use crate::club::{audit, settings};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// How many rows of the audit the tab shows (the newest; `draughts club audit` has them all).
const AUDIT_ROWS: usize = 500;

/// The number of settings rows.
pub(super) fn settings_len() -> usize {
    settings::KEYS.len()
}

impl ClubScreen {
    /// The settings as rows: key, value, meaning.
    pub(super) fn settings_rows(&self) -> Vec<String> {
        settings::show(&self.store)
            .unwrap_or_default()
            .iter()
            .zip(settings::KEYS)
            .map(|((key, value), (_, meaning))| format!("{key:<18} {value:<16} {meaning}"))
            .collect()
    }

    /// The settings tab's key: `e` changes the selected setting.
    pub(super) fn settings_key(&mut self, key: KeyEvent) {
        if key.code != KeyCode::Char('e') {
            return;
        }
        let shown = settings::show(&self.store).unwrap_or_default();
        let Some((name, value)) = shown.get(self.selected).cloned() else {
            return;
        };
        self.ask(
            Operation::Settings.op(),
            Prompt::new(Purpose::Setting(name.clone()), name, value),
        );
    }

    fn audit_entries(&self) -> Vec<audit::Entry> {
        if !self.organises() {
            return Vec::new();
        }
        let mut all = audit::all(&self.store).unwrap_or_default();
        all.reverse();
        all.truncate(AUDIT_ROWS);
        all
    }

    pub(super) fn audit_len(&self) -> usize {
        self.audit_entries().len()
    }

    /// The audit as rows, newest first.
    pub(super) fn audit_rows(&self) -> Vec<String> {
        self.audit_entries()
            .iter()
            .map(|e| {
                let values = e.values().map_or(String::new(), |v| format!("  [{v}]"));
                format!(
                    "{} {:<22} {:<20} {}{values}",
                    e.at,
                    e.who(),
                    e.action,
                    e.detail
                )
            })
            .collect()
    }
}
