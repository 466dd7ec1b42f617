//! Who plays in a tournament and how far it has got, as the pages that publish it read them:
//! the entrants with their starting numbers and withdrawals, the rounds sat out, the rounds
//! paired against the rounds to play, and the standings as CSV.

use super::entries::find;
use super::state::rounds_paired;
use super::systems;
use crate::club::error::ClubError;
use crate::club::store::{Store, db};
use serde::Serialize;

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entrant {
    /// Starting number (entry order).
    pub number: u32,
    /// The member's id.
    pub member: i64,
    /// The member's name.
    pub name: String,
    /// Whether they withdrew.
    pub withdrawn: bool,
}

/// The entrants, in starting-number order.
pub fn field(store: &Store, which: &str) -> Result<Vec<Entrant>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT e.number, m.id, m.name, e.withdrawn FROM entries e
             JOIN members m ON m.id = e.member_id WHERE e.tournament_id = ?1 ORDER BY e.number",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t.id], |r| {
            Ok(Entrant {
                number: r.get(0)?,
                member: r.get(1)?,
                name: r.get(2)?,
                withdrawn: r.get(3)?,
            })
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// The rounds players were marked absent for: (round, name), in round and name order.
pub fn absences(store: &Store, which: &str) -> Result<Vec<(u32, String)>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT a.round, m.name FROM absences a JOIN members m ON m.id = a.member_id
             WHERE a.tournament_id = ?1 ORDER BY a.round, m.name",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t.id], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// How far a tournament has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Rounds paired.
    pub paired: u32,
    /// Rounds to play (`None`: open-ended, as a Keizer without a number of rounds).
    pub rounds: Option<u32>,
    /// Every round is paired and every game has its result.
    pub finished: bool,
}

/// How far a tournament has got.
pub fn progress(store: &Store, which: &str) -> Result<Progress, ClubError> {
    let t = find(store, which)?;
    let conn = store.conn();
    let paired = rounds_paired(conn, t.id)?;
    let players: i64 = conn
        .query_row(
            "SELECT count(*) FROM entries WHERE tournament_id = ?1",
            [t.id],
            |r| r.get(0),
        )
        .map_err(db)?;
    let players = usize::try_from(players).unwrap_or(0);
    let rounds = u32::try_from(systems::of(t.system).rounds(players)).ok();
    let missing: u32 = conn
        .query_row(
            "SELECT count(*) FROM games WHERE tournament_id = ?1 AND black_id IS NOT NULL
             AND result IS NULL",
            [t.id],
            |r| r.get(0),
        )
        .map_err(db)?;
    Ok(Progress {
        paired,
        rounds,
        finished: rounds.is_some_and(|r| paired >= r) && missing == 0,
    })
}

/// The standings as CSV: place, name, points, games, then each tie-break by its name.
pub fn standings_csv(store: &Store, which: &str) -> Result<String, ClubError> {
    let t = find(store, which)?;
    let table = super::standings::standings(store, which)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let bad = |e: csv::Error| ClubError::BadInput(e.to_string());
    let mut header = vec!["place", "name", "points", "games"];
    header.extend(t.tiebreaks.iter().map(|b| b.name()));
    w.write_record(&header).map_err(bad)?;
    for r in &table {
        let mut row = vec![
            r.place.to_string(),
            r.name.clone(),
            r.points.to_string(),
            r.played.to_string(),
        ];
        row.extend(r.tiebreaks.iter().map(f64::to_string));
        w.write_record(&row).map_err(bad)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| ClubError::BadInput(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| ClubError::BadInput(e.to_string()))
}
