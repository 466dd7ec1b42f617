//! Creating and finding tournaments, who plays in them (entries and withdrawals), who arbitrates
//! them and who confirms the results players report.

use super::record::{Confirmation, NewTournament, System, Tournament, parse_tiebreaks};
use super::state::{entrants, rounds_paired};
use crate::club::access::{Actor, Operation};
use crate::club::error::ClubError;
use crate::club::members;
use crate::club::store::{Change, Store, db};
use rusqlite::{OptionalExtension, Transaction, params};

/// Creates a tournament.
pub fn create(store: &mut Store, actor: &Actor, new: &NewTournament) -> Result<i64, ClubError> {
    store.write(actor, Operation::CreateTournament.op(), |tx| {
        let id = insert(tx, new)?;
        let change = Change::new(format!("#{id} {}", new.name.trim()))
            .about_tournament(id)
            .values(
                None,
                Some(format!(
                    "{}; {}; {}; {}; {}; {}",
                    new.system.name(),
                    new.variant.name(),
                    new.time_control.unwrap_or("no clock"),
                    new.scoring.name(),
                    if new.rated { "rated" } else { "unrated" },
                    new.tiebreaks
                        .iter()
                        .map(|t| t.name())
                        .collect::<Vec<_>>()
                        .join(",")
                )),
            );
        Ok((id, change))
    })
}

/// Checks and inserts a tournament inside a transaction; returns its id.
pub(crate) fn insert(tx: &Transaction, new: &NewTournament) -> Result<i64, ClubError> {
    let NewTournament {
        name,
        system,
        variant,
        time_control,
        scoring,
        rated,
        ref tiebreaks,
        reports,
    } = *new;
    let name = name.trim().to_string();
    if name.is_empty() || name.parse::<i64>().is_ok() {
        return Err(ClubError::BadInput(format!(
            "{name:?} is not a usable tournament name"
        )));
    }
    if let Some(tc) = time_control {
        crate::clock::TimeControl::parse(tc).map_err(|e| ClubError::BadInput(e.to_string()))?;
    }
    let taken: Option<i64> = tx
        .query_row(
            "SELECT id FROM tournaments WHERE name = ?1 COLLATE NOCASE",
            [&name],
            |r| r.get(0),
        )
        .optional()
        .map_err(db)?;
    if taken.is_some() {
        return Err(ClubError::Refused(format!(
            "a tournament named {name:?} exists already"
        )));
    }
    tx.execute(
        "INSERT INTO tournaments (name, system, variant, time_control, scoring, rated, tiebreaks, rounds, reports, created)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, datetime('now'))",
        params![
            name,
            system.name(),
            variant.name(),
            time_control,
            scoring.name(),
            rated,
            tiebreaks.iter().map(|t| t.name()).collect::<Vec<_>>().join(","),
            match system {
                System::Swiss { rounds } | System::Keizer { rounds } => Some(rounds),
                _ => None,
            },
            reports.name()
        ],
    )
    .map_err(db)?;
    Ok(tx.last_insert_rowid())
}

/// Finds a tournament by id or name.
pub fn find(store: &Store, which: &str) -> Result<Tournament, ClubError> {
    let conn = store.conn();
    let row = |r: &rusqlite::Row| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, Option<String>>(4)?,
            r.get::<_, String>(5)?,
            r.get::<_, bool>(6)?,
            r.get::<_, String>(7)?,
            r.get::<_, Option<u32>>(8)?,
            r.get::<_, String>(9)?,
        ))
    };
    let sql = "SELECT id, name, system, variant, time_control, scoring, rated, tiebreaks, rounds, reports FROM tournaments";
    let found = match which.trim().parse::<i64>() {
        Ok(id) => conn
            .query_row(&format!("{sql} WHERE id = ?1"), [id], row)
            .optional(),
        Err(_) => conn
            .query_row(
                &format!("{sql} WHERE name = ?1 COLLATE NOCASE"),
                [which.trim()],
                row,
            )
            .optional(),
    }
    .map_err(db)?;
    let (id, name, system, variant, time_control, scoring, rated, tiebreaks, rounds, reports) =
        found.ok_or_else(|| ClubError::BadInput(format!("no tournament {which:?}")))?;
    Ok(Tournament {
        id,
        name,
        system: System::parse(&system, rounds)?,
        variant: variant
            .parse()
            .map_err(|_| ClubError::BadInput(format!("stored variant {variant:?}")))?,
        time_control,
        scoring: scoring.parse()?,
        rated,
        tiebreaks: parse_tiebreaks(&tiebreaks)?,
        reports: reports.parse()?,
    })
}

/// All tournaments, newest first.
pub fn list(store: &Store) -> Result<Vec<Tournament>, ClubError> {
    let ids: Vec<i64> = {
        let mut stmt = store
            .conn()
            .prepare("SELECT id FROM tournaments ORDER BY id DESC")
            .map_err(db)?;
        let rows = stmt.query_map([], |r| r.get(0)).map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)?
    };
    ids.iter().map(|id| find(store, &id.to_string())).collect()
}

/// Enters members (by name or id) into a tournament that has not started.
pub fn enter(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    who: &[String],
) -> Result<usize, ClubError> {
    let t = find(store, which)?;
    let people = who
        .iter()
        .map(|w| members::find(store, w))
        .collect::<Result<Vec<_>, _>>()?;
    store.write(actor, Operation::Enter.op().tournament(t.id), |tx| {
        let open = matches!(t.system, System::Swiss { .. } | System::Keizer { .. });
        if !open && rounds_paired(tx, t.id)? > 0 {
            return Err(ClubError::Refused(format!(
                "{} has started: a round robin takes no late entries",
                t.name
            )));
        }
        for m in &people {
            if !m.active {
                return Err(ClubError::Refused(format!("{} is inactive", m.name)));
            }
            let n = tx
                .execute(
                    "INSERT OR IGNORE INTO entries (tournament_id, member_id, number)
                     VALUES (?1, ?2, (SELECT coalesce(max(number), 0) + 1 FROM entries WHERE tournament_id = ?1))",
                    params![t.id, m.id],
                )
                .map_err(db)?;
            if n == 0 {
                return Err(ClubError::Refused(format!("{} is entered already", m.name)));
            }
        }
        let names: Vec<&str> = people.iter().map(|m| m.name.as_str()).collect();
        let change = Change::new(format!("{}: {} entered", t.name, names.join(", ")))
            .values(None, Some(names.join(", ")));
        Ok((people.len(), change))
    })
}

/// The entrants' names in entry order (their starting numbers).
pub fn entrant_names(store: &Store, t: i64) -> Result<Vec<String>, ClubError> {
    Ok(entrants(store.conn(), t)?
        .into_iter()
        .map(|(_, n)| n)
        .collect())
}

/// Gives every unplayed game of a withdrawn player to the opponent by forfeit.
pub(super) fn forfeit_withdrawn(tx: &Transaction, t: i64) -> Result<usize, ClubError> {
    tx.execute(
        "UPDATE games SET result = CASE
             WHEN w.withdrawn AND b.withdrawn THEN 'FF'
             WHEN w.withdrawn THEN 'FB'
             ELSE 'FW' END
         FROM entries w, entries b
         WHERE games.tournament_id = ?1 AND games.result IS NULL AND games.black_id IS NOT NULL
           AND w.tournament_id = ?1 AND w.member_id = games.white_id
           AND b.tournament_id = ?1 AND b.member_id = games.black_id
           AND (w.withdrawn OR b.withdrawn)",
        [t],
    )
    .map_err(db)
}

/// Withdraws a player: their unplayed games, now and in later rounds, are lost by forfeit
/// (results already played stand).
pub fn withdraw(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    who: &str,
) -> Result<usize, ClubError> {
    let t = find(store, which)?;
    let m = members::find(store, who)?;
    store.write(actor, Operation::Withdraw.op().tournament(t.id), |tx| {
        let n = tx
            .execute(
                "UPDATE entries SET withdrawn = 1
                 WHERE tournament_id = ?1 AND member_id = ?2 AND withdrawn = 0",
                params![t.id, m.id],
            )
            .map_err(db)?;
        if n == 0 {
            return Err(ClubError::Refused(format!(
                "{} is not playing in {}",
                m.name, t.name
            )));
        }
        let forfeits = forfeit_withdrawn(tx, t.id)?;
        let change = Change::new(format!(
            "{}: {} withdrew ({forfeits} game(s) forfeited)",
            t.name, m.name
        ))
        .values(Some("playing".into()), Some("withdrawn".into()));
        Ok((forfeits, change))
    })
}

/// Appoints a member arbiter of a tournament (or, with `remove`, ends the appointment): they may
/// pair its rounds, record and correct its results, and mark absences, swaps and forbidden pairs.
pub fn set_arbiter(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    who: &str,
    remove: bool,
) -> Result<(), ClubError> {
    let t = find(store, which)?;
    let m = members::find(store, who)?;
    store.write(actor, Operation::Arbiter.op().tournament(t.id), |tx| {
        let n = if remove {
            tx.execute(
                "DELETE FROM arbiters WHERE tournament_id = ?1 AND member_id = ?2",
                params![t.id, m.id],
            )
        } else {
            if !m.active {
                return Err(ClubError::Refused(format!("{} is inactive", m.name)));
            }
            tx.execute(
                "INSERT OR IGNORE INTO arbiters (tournament_id, member_id) VALUES (?1, ?2)",
                params![t.id, m.id],
            )
        }
        .map_err(db)?;
        if n == 0 {
            return Err(ClubError::Refused(format!(
                "{} {} an arbiter of {}",
                m.name,
                if remove { "is not" } else { "is already" },
                t.name
            )));
        }
        let (old, new) = if remove {
            (Some(m.name.clone()), None)
        } else {
            (None, Some(m.name.clone()))
        };
        let change = Change::new(format!(
            "{}: {} {} arbiter",
            t.name,
            m.name,
            if remove { "is no longer" } else { "is" }
        ))
        .values(old, new);
        Ok(((), change))
    })
}

/// The arbiters of a tournament, by name.
pub fn arbiters(store: &Store, which: &str) -> Result<Vec<String>, ClubError> {
    let t = find(store, which)?;
    let mut stmt = store
        .conn()
        .prepare(
            "SELECT m.name FROM arbiters a JOIN members m ON m.id = a.member_id
             WHERE a.tournament_id = ?1 ORDER BY m.name",
        )
        .map_err(db)?;
    let rows = stmt.query_map([t.id], |r| r.get(0)).map_err(db)?;
    rows.collect::<Result<_, _>>().map_err(db)
}

/// Says who confirms the results players report in a tournament.
pub fn set_reports(
    store: &mut Store,
    actor: &Actor,
    which: &str,
    reports: Confirmation,
) -> Result<(), ClubError> {
    let t = find(store, which)?;
    store.write(
        actor,
        Operation::ReportSetting.op().tournament(t.id),
        |tx| {
            tx.execute(
                "UPDATE tournaments SET reports = ?1 WHERE id = ?2",
                params![reports.name(), t.id],
            )
            .map_err(db)?;
            let change = Change::new(format!(
                "{}: reported results are confirmed by the {}",
                t.name,
                reports.name()
            ))
            .values(
                Some(t.reports.name().to_string()),
                Some(reports.name().to_string()),
            );
            Ok(((), change))
        },
    )
}
