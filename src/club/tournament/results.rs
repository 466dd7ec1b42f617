//! Results and games: the pairings of a round, a member's games to play, results entered or
//! corrected, results reported by players and confirmed, and the PDN of the games played.

use super::entries::{find, list};
use super::record::{Confirmation, Outcome, Pairing, Report, Tournament};
use crate::club::access::{Actor, Operation};
use crate::club::error::ClubError;
use crate::club::members::{self, Member};
use crate::club::store::{Change, Store, db};
use rusqlite::{OptionalExtension, Transaction, params};

/// The pairings of one round (or all rounds with `None`).
pub fn pairings(store: &Store, which: &str, round: Option<u32>) -> Result<Vec<Pairing>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT g.id, g.round, g.board, w.name, b.name, g.result, g.reported, r.name
             FROM games g JOIN members w ON w.id = g.white_id LEFT JOIN members b ON b.id = g.black_id
             LEFT JOIN members r ON r.id = g.reported_by
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
            let reported = match (
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<String>>(7)?,
            ) {
                (Some(code), Some(by)) => Outcome::from_code(&code)
                    .0
                    .map(|outcome| Report { outcome, by }),
                _ => None,
            };
            Ok(Pairing {
                id: r.get(0)?,
                round: r.get(1)?,
                board: r.get(2)?,
                white: r.get(3)?,
                black: r.get(4)?,
                result,
                forfeit,
                reported,
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
    actor: &Actor,
    which: &str,
    round: u32,
    white: &str,
    black: &str,
    outcome: Outcome,
) -> Result<Pairing, ClubError> {
    record_game(store, actor, which, round, &[white, black], outcome, None)
}

/// The stored PDN of a game, if any.
pub fn game_pdn(store: &Store, game: i64) -> Result<Option<String>, ClubError> {
    store
        .conn()
        .query_row("SELECT pdn FROM games WHERE id = ?1", [game], |r| r.get(0))
        .map_err(db)
}

/// A game of a round as the database holds it: its id, its result code and the report waiting
/// on it.
struct Stored {
    id: i64,
    result: Option<String>,
    reported: Option<String>,
    reported_by: Option<i64>,
}

/// The game between `w` and `b` (White first) in a round, read inside a transaction.
fn stored(
    conn: &rusqlite::Connection,
    t: &Tournament,
    round: u32,
    w: &Member,
    b: &Member,
) -> Result<Stored, ClubError> {
    conn.query_row(
        "SELECT id, result, reported, reported_by FROM games WHERE tournament_id = ?1
         AND round = ?2 AND white_id = ?3 AND black_id = ?4",
        params![t.id, round, w.id, b.id],
        |r| {
            Ok(Stored {
                id: r.get(0)?,
                result: r.get(1)?,
                reported: r.get(2)?,
                reported_by: r.get(3)?,
            })
        },
    )
    .optional()
    .map_err(db)?
    .ok_or_else(|| {
        ClubError::Refused(format!(
            "{} – {} is not a game of round {round} of {} (White first)",
            w.name, b.name, t.name
        ))
    })
}

/// The result a code stands for, in the tournament's scoring (`2-0`), or the code itself.
fn result_words(t: &Tournament, code: &str) -> String {
    match Outcome::from_code(code) {
        (Some(o), false) => o.text(t.scoring),
        _ => code.to_string(),
    }
}

/// Sets a game's result (clearing any report on it), and the ratings follow.
fn set_result(
    tx: &Transaction,
    t: &Tournament,
    game: i64,
    outcome: Outcome,
    pdn: Option<&str>,
) -> Result<(), ClubError> {
    tx.execute(
        "UPDATE games SET result = ?1, pdn = coalesce(?3, pdn), reported = NULL,
           reported_by = NULL WHERE id = ?2",
        params![outcome.code(), game, pdn],
    )
    .map_err(db)?;
    if t.rated {
        crate::club::ratings::recompute(tx, t.variant)?;
    }
    Ok(())
}

/// Records a result and, with it in the same transaction, the game's PDN text. An organiser's
/// or the arbiter's result stands over any report.
pub fn record_game(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    round: u32,
    [white, black]: &[&str; 2],
    outcome: Outcome,
    pdn: Option<&str>,
) -> Result<Pairing, ClubError> {
    let (t, w, b) = parties(store, which, [white, black])?;
    let op = Operation::Result.op().tournament(t.id);
    let id = store.write(actor, op, |tx| {
        record_in(tx, &t, round, [&w, &b], outcome, pdn)
    })?;
    pairing_of(store, which, round, id)
}

/// Records a result (and the record) inside the caller's transaction, whose check is the
/// caller's; returns the game's id and the change for the audit.
pub(crate) fn record_in(
    tx: &Transaction,
    t: &Tournament,
    round: u32,
    [w, b]: [&Member; 2],
    outcome: Outcome,
    pdn: Option<&str>,
) -> Result<(i64, Change), ClubError> {
    let game = stored(tx, t, round, w, b)?;
    set_result(tx, t, game.id, outcome, pdn)?;
    let what = match &game.result {
        Some(old) => format!("corrected from {}", result_words(t, old)),
        None => "recorded".into(),
    };
    let change = Change::new(format!(
        "{} round {round}: {} – {} {} ({what})",
        t.name,
        w.name,
        b.name,
        outcome.text(t.scoring)
    ))
    .values(
        game.result.as_deref().map(|c| result_words(t, c)),
        Some(outcome.text(t.scoring)),
    );
    Ok((game.id, change))
}

/// The tournament and the two players a result concerns.
fn parties(
    store: &Store,
    which: &str,
    [white, black]: [&str; 2],
) -> Result<(Tournament, Member, Member), ClubError> {
    Ok((
        find(store, which)?,
        members::find(store, white)?,
        members::find(store, black)?,
    ))
}

fn pairing_of(store: &Store, which: &str, round: u32, id: i64) -> Result<Pairing, ClubError> {
    pairings(store, which, Some(round))?
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| ClubError::BadInput("the game vanished".into()))
}

/// A player reports the result of their own game, played over the board: it shows as reported
/// and counts only when the arbiter or an organiser confirms it, or, where the tournament says
/// so, when the opponent reports the same result. A result already recorded is the arbiter's to
/// correct.
pub fn report_result(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    round: u32,
    [white, black]: &[&str; 2],
    outcome: Outcome,
) -> Result<Pairing, ClubError> {
    let (t, w, b) = parties(store, which, [white, black])?;
    let game = stored(store.conn(), &t, round, &w, &b)?;
    let op = Operation::Report.op().tournament(t.id).game(game.id);
    let me = actor.member_id();
    let id = store.write(actor, op, |tx| {
        let game = stored(tx, &t, round, &w, &b)?;
        if let Some(result) = &game.result {
            return Err(ClubError::Refused(format!(
                "the result {} is recorded already: ask the arbiter to correct it",
                result_words(&t, result)
            )));
        }
        let text = outcome.text(t.scoring);
        let pending = game.reported.as_deref().zip(game.reported_by);
        let by_opponent = pending.filter(|(_, by)| Some(*by) != me);
        let detail = |what: &str| {
            format!(
                "{} round {round}: {} – {} {text} {what}",
                t.name, w.name, b.name
            )
        };
        let change = match by_opponent {
            Some((code, _)) if code == outcome.code() && t.reports == Confirmation::Opponent => {
                set_result(tx, &t, game.id, outcome, None)?;
                Change::new(detail("confirmed by the opponent")).values(None, Some(text))
            }
            Some((code, by)) if code != outcome.code() => {
                let name: String = tx
                    .query_row("SELECT name FROM members WHERE id = ?1", [by], |r| r.get(0))
                    .map_err(db)?;
                return Err(ClubError::Refused(format!(
                    "{name} reported {}: the arbiter decides",
                    result_words(&t, code)
                )));
            }
            Some(_) => {
                return Err(ClubError::Refused(format!(
                    "your opponent reported {text} already: the arbiter confirms it"
                )));
            }
            None => {
                tx.execute(
                    "UPDATE games SET reported = ?1, reported_by = ?2 WHERE id = ?3",
                    params![outcome.code(), me, game.id],
                )
                .map_err(db)?;
                Change::new(detail("reported")).values(
                    game.reported.as_deref().map(|c| result_words(&t, c)),
                    Some(text),
                )
            }
        };
        Ok((game.id, change))
    })?;
    pairing_of(store, which, round, id)
}

/// The arbiter or an organiser confirms the result a player reported: it counts from now on.
pub fn confirm_result(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    round: u32,
    [white, black]: &[&str; 2],
) -> Result<Pairing, ClubError> {
    let (t, w, b) = parties(store, which, [white, black])?;
    let op = Operation::Confirm.op().tournament(t.id);
    let id = store.write(actor, op, |tx| {
        let game = stored(tx, &t, round, &w, &b)?;
        let Some(code) = game.reported.as_deref() else {
            return Err(ClubError::Refused(format!(
                "{} – {} has no reported result to confirm",
                w.name, b.name
            )));
        };
        let Some(outcome) = Outcome::from_code(code).0 else {
            return Err(ClubError::BadInput(format!("stored report {code:?}")));
        };
        set_result(tx, &t, game.id, outcome, None)?;
        let text = outcome.text(t.scoring);
        let change = Change::new(format!(
            "{} round {round}: {} – {} {text} confirmed",
            t.name, w.name, b.name
        ))
        .values(None, Some(text));
        Ok((game.id, change))
    })?;
    pairing_of(store, which, round, id)
}
