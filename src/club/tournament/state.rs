//! Reading a tournament's state from the database: its entrants, the rounds paired, the games
//! and their results, the pairs the organiser forbade.

use crate::club::error::ClubError;
use crate::club::store::db;
use rusqlite::{Transaction, params};
use std::collections::HashSet;

pub(super) fn rounds_paired(tx: &rusqlite::Connection, t: i64) -> Result<u32, ClubError> {
    tx.query_row(
        "SELECT coalesce(max(round), 0) FROM games WHERE tournament_id = ?1",
        [t],
        |r| r.get(0),
    )
    .map_err(db)
}

/// The entrants' member ids and names in entry order (their Berger numbers).
pub(super) fn entrants(tx: &rusqlite::Connection, t: i64) -> Result<Vec<(i64, String)>, ClubError> {
    let mut stmt = tx
        .prepare(
            "SELECT m.id, m.name FROM entries e JOIN members m ON m.id = e.member_id
             WHERE e.tournament_id = ?1 ORDER BY e.number",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

pub(super) fn missing_results(tx: &Transaction, t: i64, round: u32) -> Result<u32, ClubError> {
    tx.query_row(
        "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2
         AND black_id IS NOT NULL AND result IS NULL",
        params![t, round],
        |r| r.get(0),
    )
    .map_err(db)
}

/// White, Black (none for a bye) and the stored result code of every game, in round and board
/// order.
pub(super) type GameRow = (u32, i64, Option<i64>, Option<String>);

pub(super) fn game_rows(conn: &rusqlite::Connection, t: i64) -> Result<Vec<GameRow>, ClubError> {
    let mut stmt = conn
        .prepare(
            "SELECT round, white_id, black_id, result FROM games WHERE tournament_id = ?1
             ORDER BY round, board",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

pub(super) fn forbidden_pairs(
    tx: &rusqlite::Connection,
    t: i64,
) -> Result<HashSet<(usize, usize)>, ClubError> {
    let mut stmt = tx
        .prepare("SELECT a, b FROM forbidden WHERE tournament_id = ?1")
        .map_err(db)?;
    let rows = stmt
        .query_map([t], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
        .map_err(db)?;
    let mut set = HashSet::new();
    for row in rows {
        let (a, b) = row.map_err(db)?;
        set.insert((a.min(b) as usize, a.max(b) as usize));
    }
    Ok(set)
}
