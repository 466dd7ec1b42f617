//! The audit: every change to the club's records with who made it, when, and the values before
//! and after. Rows are only ever appended (SQLite triggers refuse UPDATE and DELETE on the
//! table); [`Store::write`](super::Store::write) writes them, this module reads them.

use super::error::ClubError;
use super::store::{Store, db};
use rusqlite::params;
use serde::Serialize;

/// One change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Its number (rows are numbered in the order they were written).
    pub id: i64,
    /// When (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub at: String,
    /// `member`, `local` (the operating-system user on this machine) or `server`.
    pub actor_kind: String,
    /// The acting member's id, for a member.
    pub actor_id: Option<i64>,
    /// The member's name, the operating-system user, or "club server".
    pub actor: String,
    /// The operation, as the commands name it (`member add`, `tournament result`, …).
    pub action: String,
    /// The tournament concerned.
    pub tournament_id: Option<i64>,
    /// The member concerned.
    pub member_id: Option<i64>,
    /// What was done, in words.
    pub detail: String,
    /// The value before.
    pub old: Option<String>,
    /// The value after.
    pub new: Option<String>,
}

/// Which changes to list (all unset: every change).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only changes at or after this date (`YYYY-MM-DD`) or time (`YYYY-MM-DD HH:MM:SS`).
    pub since: Option<String>,
    /// Only changes made by this member or concerning them.
    pub member: Option<i64>,
    /// Only changes concerning this tournament.
    pub tournament: Option<i64>,
}

/// Checks a `--since` value: a date, or a date and time, as the audit writes them.
pub fn parse_since(text: &str) -> Result<String, ClubError> {
    let t = text.trim();
    let bad = || {
        ClubError::BadInput(format!(
            "{text:?} is not a date (YYYY-MM-DD, or YYYY-MM-DD HH:MM:SS)"
        ))
    };
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let (date, time) = t.split_once([' ', 'T']).unwrap_or((t, ""));
    let d: Vec<&str> = date.split('-').collect();
    if d.len() != 3 || !digits(d[0], 4) || !digits(d[1], 2) || !digits(d[2], 2) {
        return Err(bad());
    }
    let (month, day) = (
        d[1].parse::<u32>().unwrap_or(0),
        d[2].parse::<u32>().unwrap_or(0),
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(bad());
    }
    if !time.is_empty() {
        let h: Vec<&str> = time.split(':').collect();
        if h.len() != 3 || h.iter().any(|p| !digits(p, 2)) {
            return Err(bad());
        }
    }
    Ok(if time.is_empty() {
        date.to_string()
    } else {
        format!("{date} {time}")
    })
}

/// The changes that pass the filter, oldest first.
pub fn list(store: &Store, filter: &Filter) -> Result<Vec<Entry>, ClubError> {
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT id, at, actor_kind, actor_id, actor, action, tournament_id, member_id, detail,
                    old, new
             FROM audit
             WHERE (?1 IS NULL OR at >= ?1)
               AND (?2 IS NULL OR actor_id = ?2 OR member_id = ?2)
               AND (?3 IS NULL OR tournament_id = ?3)
             ORDER BY id",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map(
            params![filter.since, filter.member, filter.tournament],
            |r| {
                Ok(Entry {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    actor_kind: r.get(2)?,
                    actor_id: r.get(3)?,
                    actor: r.get(4)?,
                    action: r.get(5)?,
                    tournament_id: r.get(6)?,
                    member_id: r.get(7)?,
                    detail: r.get(8)?,
                    old: r.get(9)?,
                    new: r.get(10)?,
                })
            },
        )
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// Every change, oldest first.
pub fn all(store: &Store) -> Result<Vec<Entry>, ClubError> {
    list(store, &Filter::default())
}

impl Entry {
    /// The acting party as the audit shows it: `Ann Admin (#1)`, `local user ton`, `club server`.
    pub fn who(&self) -> String {
        match (self.actor_kind.as_str(), self.actor_id) {
            ("member", Some(id)) => format!("{} (#{id})", self.actor),
            ("local", _) => format!("local user {}", self.actor),
            _ => self.actor.clone(),
        }
    }

    /// The values, as `old → new`, when there are any.
    pub fn values(&self) -> Option<String> {
        match (&self.old, &self.new) {
            (None, None) => None,
            (old, new) => Some(format!(
                "{} → {}",
                old.as_deref().unwrap_or("–"),
                new.as_deref().unwrap_or("–")
            )),
        }
    }
}
