//! Rounds: pairing the next one, and what an organiser may change before it starts (forbidden
//! pairs, absences, swaps, unpairing).

use super::entries::{find, forfeit_withdrawn};
use super::record::{System, Tournament};
use super::state::{entrants, missing_results, rounds_paired};
use super::systems::{self, Round};
use crate::club::error::ClubError;
use crate::club::members;
use crate::club::store::{Store, db};
use rusqlite::{Transaction, params};

/// Pairs the next round; refused while the previous round has missing results or when every
/// round is paired. Returns the round number.
pub fn pair_next(store: &mut Store, which: &str) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    store.write("tournament pair", |tx| {
        let players = entrants(tx, t.id)?;
        if players.len() < 2 {
            return Err(ClubError::Refused(format!(
                "{} needs at least two players",
                t.name
            )));
        }
        let system = systems::of(t.system);
        let total = system.rounds(players.len());
        let done = rounds_paired(tx, t.id)?;
        if done as usize >= total {
            return Err(ClubError::Refused(format!(
                "all {total} rounds of {} are paired",
                t.name
            )));
        }
        if done > 0 {
            let missing = missing_results(tx, t.id, done)?;
            if missing > 0 {
                return Err(ClubError::Refused(format!(
                    "round {done} of {} has {missing} missing result(s)",
                    t.name
                )));
            }
        }
        let round = done + 1;
        let Round { boards, bye } = system.pair(tx, &t, round, &players)?;
        for (b, (white, black)) in boards.iter().enumerate() {
            tx.execute(
                "INSERT INTO games (tournament_id, round, board, white_id, black_id)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![t.id, round, b as u32 + 1, white, black],
            )
            .map_err(db)?;
        }
        if let Some(p) = bye {
            tx.execute(
                "INSERT INTO games (tournament_id, round, board, white_id, black_id, result)
                 VALUES (?1, ?2, ?3, ?4, NULL, 'bye')",
                params![t.id, round, boards.len() as u32 + 1, p],
            )
            .map_err(db)?;
        }
        forfeit_withdrawn(tx, t.id)?;
        Ok((round, format!("{} round {round}", t.name)))
    })
}

/// Rules out a pairing in a Swiss (family members, club mates, by the organiser's choice).
pub fn forbid(store: &mut Store, which: &str, a: &str, b: &str) -> Result<(), ClubError> {
    let t = find(store, which)?;
    let (x, y) = (members::find(store, a)?, members::find(store, b)?);
    if x.id == y.id {
        return Err(ClubError::BadInput(
            "a player cannot meet themselves anyway".into(),
        ));
    }
    store.write("tournament forbid", |tx| {
        tx.execute(
            "INSERT OR IGNORE INTO forbidden (tournament_id, a, b) VALUES (?1, ?2, ?3)",
            params![t.id, x.id.min(y.id), x.id.max(y.id)],
        )
        .map_err(db)?;
        Ok((
            (),
            format!("{}: {} and {} are not paired", t.name, x.name, y.name),
        ))
    })
}

/// The pairs forbidden to meet in a tournament, by name.
pub fn forbidden(store: &Store, which: &str) -> Result<Vec<(String, String)>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT ma.name, mb.name FROM forbidden f
             JOIN members ma ON ma.id = f.a JOIN members mb ON mb.id = f.b
             WHERE f.tournament_id = ?1 ORDER BY ma.name, mb.name",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map([t.id], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// Marks a player absent (or present again) for one Swiss round: an absent player is not paired
/// and scores nothing. Only for a round not yet paired.
pub fn set_absent(
    store: &mut Store,
    which: &str,
    who: &str,
    round: u32,
    absent: bool,
) -> Result<(), ClubError> {
    let t = find(store, which)?;
    let m = members::find(store, who)?;
    if !matches!(t.system, System::Swiss { .. } | System::Keizer { .. }) {
        return Err(ClubError::Refused(format!(
            "{} is a round robin: every pairing is fixed; record a result or withdraw instead",
            t.name
        )));
    }
    store.write("tournament absent", |tx| {
        if round <= rounds_paired(tx, t.id)? {
            return Err(ClubError::Refused(format!(
                "round {round} of {} is paired already (unpair it first)",
                t.name
            )));
        }
        let sql = if absent {
            "INSERT OR IGNORE INTO absences (tournament_id, member_id, round) VALUES (?1, ?2, ?3)"
        } else {
            "DELETE FROM absences WHERE tournament_id = ?1 AND member_id = ?2 AND round = ?3"
        };
        tx.execute(sql, params![t.id, m.id, round]).map_err(db)?;
        let what = if absent { "absent" } else { "present" };
        Ok((
            (),
            format!("{}: {} {what} in round {round}", t.name, m.name),
        ))
    })
}

/// The last paired round, refused if any of its games has a result (the round has started).
pub(super) fn open_round(tx: &Transaction, t: &Tournament) -> Result<u32, ClubError> {
    let round = rounds_paired(tx, t.id)?;
    if round == 0 {
        return Err(ClubError::Refused(format!(
            "{} has no round paired",
            t.name
        )));
    }
    let played: u32 = tx
        .query_row(
            "SELECT count(*) FROM games WHERE tournament_id = ?1 AND round = ?2
             AND black_id IS NOT NULL AND result IN ('W', 'D', 'B')",
            params![t.id, round],
            |r| r.get(0),
        )
        .map_err(db)?;
    if played > 0 {
        return Err(ClubError::Refused(format!(
            "round {round} of {} has results already",
            t.name
        )));
    }
    Ok(round)
}

/// Overrides the last round's pairing before it starts: `a` and `b` change places (boards,
/// colours and byes follow; two opponents thereby change colours), or without `b` the colours
/// of `a`'s game are reversed.
pub fn swap(store: &mut Store, which: &str, a: &str, b: Option<&str>) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    let x = members::find(store, a)?;
    let y = b.map(|b| members::find(store, b)).transpose()?;
    store.write("tournament swap", |tx| {
        let round = open_round(tx, &t)?;
        let detail = match &y {
            Some(y) => {
                let n = tx
                    .execute(
                        "UPDATE games SET
                           white_id = CASE white_id WHEN ?3 THEN ?4 WHEN ?4 THEN ?3 ELSE white_id END,
                           black_id = CASE black_id WHEN ?3 THEN ?4 WHEN ?4 THEN ?3 ELSE black_id END
                         WHERE tournament_id = ?1 AND round = ?2",
                        params![t.id, round, x.id, y.id],
                    )
                    .map_err(db)?;
                if n == 0 {
                    return Err(ClubError::Refused(format!(
                        "neither {} nor {} plays in round {round}",
                        x.name, y.name
                    )));
                }
                format!("{} round {round}: {} and {} swapped", t.name, x.name, y.name)
            }
            None => {
                let n = tx
                    .execute(
                        "UPDATE games SET white_id = black_id, black_id = white_id
                         WHERE tournament_id = ?1 AND round = ?2 AND black_id IS NOT NULL
                           AND (white_id = ?3 OR black_id = ?3)",
                        params![t.id, round, x.id],
                    )
                    .map_err(db)?;
                if n == 0 {
                    return Err(ClubError::Refused(format!(
                        "{} has no game in round {round}",
                        x.name
                    )));
                }
                format!("{} round {round}: colours of {}'s game swapped", t.name, x.name)
            }
        };
        Ok((round, detail))
    })
}

/// Takes back the last paired round while none of its games has a result, so the organiser
/// can change the field (absences, forbidden pairs) and pair it again.
pub fn unpair(store: &mut Store, which: &str) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    store.write("tournament unpair", |tx| {
        let round = open_round(tx, &t)?;
        tx.execute(
            "DELETE FROM games WHERE tournament_id = ?1 AND round = ?2",
            params![t.id, round],
        )
        .map_err(db)?;
        Ok((round, format!("{} round {round} unpaired", t.name)))
    })
}
