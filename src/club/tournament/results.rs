//! Results and games: the pairings of a round, a member's games to play, results entered or
//! corrected, and the PDN of the games played.

use super::entries::{find, list};
use super::record::{Outcome, Pairing, Tournament};
use crate::club::error::ClubError;
use crate::club::members;
use crate::club::store::{Store, db};
use rusqlite::{OptionalExtension, params};

/// The pairings of one round (or all rounds with `None`).
pub fn pairings(store: &Store, which: &str, round: Option<u32>) -> Result<Vec<Pairing>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT g.id, g.round, g.board, w.name, b.name, g.result
             FROM games g JOIN members w ON w.id = g.white_id LEFT JOIN members b ON b.id = g.black_id
             WHERE g.tournament_id = ?1 AND (?2 IS NULL OR g.round = ?2)
             ORDER BY g.round, g.board",
        )
        .map_err(db)?;
    let rows = stmt
        .query_map(params![t.id, round], |r| {
            let (result, forfeit) = r
                .get::<_, Option<String>>(5)?
                .as_deref()
                .map_or((None, false), Outcome::from_code);
            Ok(Pairing {
                id: r.get(0)?,
                round: r.get(1)?,
                board: r.get(2)?,
                white: r.get(3)?,
                black: r.get(4)?,
                result,
                forfeit,
            })
        })
        .map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// The games `member` still has to play in the latest round of each tournament (byes and games
/// with a result left out).
pub fn to_play(store: &Store, member: &str) -> Result<Vec<(Tournament, Pairing)>, ClubError> {
    let mut out = Vec::new();
    for t in list(store)? {
        let round: u32 = store
            .conn()
            .query_row(
                "SELECT coalesce(max(round), 0) FROM games WHERE tournament_id = ?1",
                [t.id],
                |r| r.get(0),
            )
            .map_err(db)?;
        if round == 0 {
            continue;
        }
        for p in pairings(store, &t.id.to_string(), Some(round))? {
            let plays = p.white == member || p.black.as_deref() == Some(member);
            if plays && p.black.is_some() && p.result.is_none() {
                out.push((t.clone(), p));
            }
        }
    }
    Ok(out)
}

/// Records (or corrects) the result of the game between `white` and `black` in a round.
pub fn record_result(
    store: &mut Store,
    which: &str,
    round: u32,
    white: &str,
    black: &str,
    outcome: Outcome,
) -> Result<Pairing, ClubError> {
    record_game(store, which, round, &[white, black], outcome, None)
}

/// The stored PDN of a game, if any.
pub fn game_pdn(store: &Store, game: i64) -> Result<Option<String>, ClubError> {
    store
        .conn()
        .query_row("SELECT pdn FROM games WHERE id = ?1", [game], |r| r.get(0))
        .map_err(db)
}

/// Records a result and, with it in the same transaction, the game's PDN text.
pub fn record_game(
    store: &mut Store,
    which: &str,
    round: u32,
    [white, black]: &[&str; 2],
    outcome: Outcome,
    pdn: Option<&str>,
) -> Result<Pairing, ClubError> {
    let t = find(store, which)?;
    let w = members::find(store, white)?;
    let b = members::find(store, black)?;
    let id = store.write("tournament result", |tx| {
        let game: Option<(i64, Option<String>)> = tx
            .query_row(
                "SELECT id, result FROM games WHERE tournament_id = ?1 AND round = ?2
                 AND white_id = ?3 AND black_id = ?4",
                params![t.id, round, w.id, b.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(db)?;
        let Some((id, before)) = game else {
            return Err(ClubError::Refused(format!(
                "{} – {} is not a game of round {round} of {} (White first)",
                w.name, b.name, t.name
            )));
        };
        tx.execute(
            "UPDATE games SET result = ?1, pdn = coalesce(?3, pdn) WHERE id = ?2",
            params![outcome.code(), id, pdn],
        )
        .map_err(db)?;
        if t.rated {
            crate::club::ratings::recompute(tx, t.variant)?;
        }
        let what = match before {
            Some(old) => format!("corrected from {old}"),
            None => "recorded".into(),
        };
        Ok((
            id,
            format!(
                "{} round {round}: {} – {} {} ({what})",
                t.name,
                w.name,
                b.name,
                outcome.code()
            ),
        ))
    })?;
    pairings(store, which, Some(round))?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| ClubError::BadInput("the game vanished".into()))
}
