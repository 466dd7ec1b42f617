//! Rounds: pairing the next one, and what an organiser may change before it starts (forbidden
//! pairs, absences, swaps, unpairing).

use super::entries::{find, forfeit_withdrawn};
use super::record::{System, Tournament};
use super::state::{entrants, missing_results, rounds_paired};
use super::systems::{self, Round};
use crate::club::access::{Actor, Operation};
use crate::club::error::ClubError;
use crate::club::members;
use crate::club::store::{Change, Store, db};
use rusqlite::{Transaction, params};

/// A round's pairing in words for the audit (`1. Ann – Bob; 2. Cor – Dirk; bye Eva`).
fn round_text(tx: &Transaction, t: i64, round: u32) -> Result<String, ClubError> {
    let mut stmt = tx
        .prepare(
            "SELECT g.board, w.name, b.name FROM games g JOIN members w ON w.id = g.white_id
             LEFT JOIN members b ON b.id = g.black_id
             WHERE g.tournament_id = ?1 AND g.round = ?2 ORDER BY g.board",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map(params![t, round], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })
        .map_err(db)?;
    let mut parts = Vec::new();
    for row in rows {
        parts.push(match row.map_err(db)? {
            (_, w, None) => format!("bye {w}"),
            (board, w, Some(b)) => format!("{board}. {w} – {b}"),
        });
    }
    Ok(parts.join("; "))
}

/// Pairs the next round; refused while the previous round has missing results or when every
/// round is paired. Returns the round number.
pub fn pair_next(store: &mut Store, actor: &Actor, which: &str) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    store.write(actor, Operation::Pair.op().tournament(t.id), |tx| {
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
        let change = Change::new(format!("{} round {round} paired", t.name))
            .values(None, Some(round_text(tx, t.id, round)?));
        Ok((round, change))
    })
}

/// Rules out a pairing in a Swiss (family members, club mates, by the organiser's choice).
pub fn forbid(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    a: &str,
    b: &str,
) -> Result<(), ClubError> {
    let t = find(store, which)?;
    let (x, y) = (members::find(store, a)?, members::find(store, b)?);
    if x.id == y.id {
        return Err(ClubError::BadInput(
            "a player cannot meet themselves anyway".into(),
        ));
    }
    store.write(actor, Operation::Forbid.op().tournament(t.id), |tx| {
        tx.execute(
            "INSERT OR IGNORE INTO forbidden (tournament_id, a, b) VALUES (?1, ?2, ?3)",
            params![t.id, x.id.min(y.id), x.id.max(y.id)],
        )
        .map_err(db)?;
        let change = Change::new(format!(
            "{}: {} and {} are not paired",
            t.name, x.name, y.name
        ))
        .values(None, Some(format!("{} × {}", x.name, y.name)));
        Ok(((), change))
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
    actor: &Actor,
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
    store.write(actor, Operation::Absence.op().tournament(t.id), |tx| {
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
        let what = |a: bool| if a { "absent" } else { "present" }.to_string();
        let change = Change::new(format!(
            "{}: {} {} in round {round}",
            t.name,
            m.name,
            what(absent)
        ))
        .values(Some(what(!absent)), Some(what(absent)));
        Ok(((), change))
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
             AND black_id IS NOT NULL AND (result IN ('W', 'D', 'B') OR reported IS NOT NULL)",
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
pub fn swap(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    a: &str,
    b: Option<&str>,
) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    let x = members::find(store, a)?;
    let y = b.map(|b| members::find(store, b)).transpose()?;
    store.write(actor, Operation::Swap.op().tournament(t.id), |tx| {
        let round = open_round(tx, &t)?;
        let before = round_text(tx, t.id, round)?;
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
        let change = Change::new(detail).values(Some(before), Some(round_text(tx, t.id, round)?));
        Ok((round, change))
    })
}

/// Takes back the last paired round while none of its games has a result, so the organiser
/// can change the field (absences, forbidden pairs) and pair it again.
pub fn unpair(store: &mut Store, actor: &Actor, which: &str) -> Result<u32, ClubError> {
    let t = find(store, which)?;
    store.write(actor, Operation::Unpair.op().tournament(t.id), |tx| {
        let round = open_round(tx, &t)?;
        let before = round_text(tx, t.id, round)?;
        tx.execute(
            "DELETE FROM games WHERE tournament_id = ?1 AND round = ?2",
            params![t.id, round],
        )
        .map_err(db)?;
        let change =
            Change::new(format!("{} round {round} unpaired", t.name)).values(Some(before), None);
        Ok((round, change))
    })
}
