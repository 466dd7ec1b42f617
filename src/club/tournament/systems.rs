//! The pairing systems — round robin (Berger tables), Swiss and Keizer — behind one small
//! interface: each reads what it needs of the tournament's state and pairs the next round.

use super::history::dutch_field;
use super::record::{System, Tournament};
use super::state::{entrants, game_rows, rounds_paired};
use crate::club::dutch;
use crate::club::error::ClubError;
use crate::club::pairing::berger;
use crate::club::store::db;
use rusqlite::{OptionalExtension, Transaction, params};
use std::collections::BTreeMap;
use std::collections::HashSet;

/// One round's boards (White, Black: member ids) and the member with the bye, if any.
pub(super) struct Round {
    /// The boards in order.
    pub(super) boards: Vec<(i64, i64)>,
    /// Who has the bye.
    pub(super) bye: Option<i64>,
}

/// A pairing system: how many rounds a tournament has, and the pairing of its next round from
/// its state so far. The rounds before `round` are paired and their results complete.
pub(super) trait PairingSystem {
    /// Rounds for this many entrants (`usize::MAX`: as many as the organiser pairs).
    fn rounds(&self, entrants: usize) -> usize;
    /// Pairs `round` among the entrants (member id and name, in entry order).
    fn pair(
        &self,
        tx: &Transaction,
        t: &Tournament,
        round: u32,
        players: &[(i64, String)],
    ) -> Result<Round, ClubError>;
}

/// The system a tournament is paired by.
pub(super) fn of(system: System) -> Box<dyn PairingSystem> {
    match system {
        System::RoundRobin => Box::new(RoundRobin { double: false }),
        System::DoubleRoundRobin => Box::new(RoundRobin { double: true }),
        System::Swiss { rounds } => Box::new(Swiss { rounds }),
        System::Keizer { rounds } => Box::new(Keizer { rounds }),
    }
}

/// Single or double round robin by the Berger tables.
struct RoundRobin {
    double: bool,
}

impl PairingSystem for RoundRobin {
    fn rounds(&self, entrants: usize) -> usize {
        let single = entrants + entrants % 2 - 1;
        if self.double { 2 * single } else { single }
    }

    fn pair(
        &self,
        _tx: &Transaction,
        _t: &Tournament,
        round: u32,
        players: &[(i64, String)],
    ) -> Result<Round, ClubError> {
        let done = round - 1;
        let table = berger(players.len(), self.double);
        let r = &table[done as usize];
        let id = |n: usize| players[n - 1].0;
        Ok(Round {
            boards: r
                .boards
                .iter()
                .map(|b| (id(b.white), id(b.black)))
                .collect(),
            bye: r.bye.map(id),
        })
    }
}

/// The Swiss system: the FIDE Dutch system (`crate::club::dutch`).
struct Swiss {
    rounds: u32,
}

impl PairingSystem for Swiss {
    fn rounds(&self, _entrants: usize) -> usize {
        self.rounds as usize
    }

    fn pair(
        &self,
        tx: &Transaction,
        t: &Tournament,
        round: u32,
        _players: &[(i64, String)],
    ) -> Result<Round, ClubError> {
        let (field, ids) = dutch_field(tx, t, round, self.rounds)?;
        let r = dutch::pair(&field).map_err(|why| {
            ClubError::Refused(format!(
                "round {round} of {} cannot be paired: {why}",
                t.name
            ))
        })?;
        Ok(Round {
            boards: r.boards.iter().map(|&(w, b)| (ids[w], ids[b])).collect(),
            bye: r.bye.map(|p| ids[p]),
        })
    }
}

/// Keizer evenings: those present paired by Keizer ranking (`crate::club::keizer`).
struct Keizer {
    rounds: u32,
}

impl PairingSystem for Keizer {
    fn rounds(&self, _entrants: usize) -> usize {
        match self.rounds {
            0 => usize::MAX,
            n => n as usize,
        }
    }

    fn pair(
        &self,
        tx: &Transaction,
        t: &Tournament,
        round: u32,
        _players: &[(i64, String)],
    ) -> Result<Round, ClubError> {
        let (ranking, _) = keizer_field(tx, t)?;
        let absent: HashSet<i64> = {
            let mut stmt = tx
                .prepare("SELECT member_id FROM absences WHERE tournament_id = ?1 AND round = ?2")
                .map_err(db)?;
            let rows = stmt
                .query_map(params![t.id, round], |r| r.get(0))
                .map_err(db)?;
            rows.collect::<Result<_, _>>().map_err(db)?
        };
        let (field, ids) = dutch_field(tx, t, round, 0)?;
        let by_id: BTreeMap<i64, &crate::club::dutch::Player> =
            ids.iter().copied().zip(&field.players).collect();
        let index: BTreeMap<i64, usize> =
            ranking.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        let present: Vec<usize> = ranking
            .iter()
            .filter(|id| !absent.contains(id) && by_id.get(id).is_some_and(|p| p.present))
            .map(|id| index[id])
            .collect();
        // White games minus Black games, of the games played.
        let whites: Vec<i32> = ranking
            .iter()
            .map(|id| {
                by_id.get(id).map_or(0, |p| {
                    p.rounds
                        .iter()
                        .filter(|r| r.played)
                        .map(|r| match r.colour {
                            Some(crate::club::criteria::Colour::White) => 1,
                            Some(crate::club::criteria::Colour::Black) => -1,
                            None => 0,
                        })
                        .sum()
                })
            })
            .collect();
        // Opponents of the last three rounds are avoided when possible.
        let recent: HashSet<(usize, usize)> = {
            let mut stmt = tx
                .prepare(
                    "SELECT white_id, black_id FROM games WHERE tournament_id = ?1
                     AND black_id IS NOT NULL AND round > ?2",
                )
                .map_err(db)?;
            let rows = stmt
                .query_map(params![t.id, round as i64 - 4], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })
                .map_err(db)?;
            let mut set = HashSet::new();
            for row in rows {
                let (w, b) = row.map_err(db)?;
                if let (Some(&x), Some(&y)) = (index.get(&w), index.get(&b)) {
                    set.insert((x.min(y), x.max(y)));
                }
            }
            set
        };
        if present.len() < 2 {
            return Err(ClubError::Refused(format!(
                "fewer than two players present for round {round} of {}",
                t.name
            )));
        }
        let (pairs, bye) = crate::club::keizer::pair(&present, &recent, &whites);
        Ok(Round {
            boards: pairs
                .iter()
                .map(|&(w, b)| (ranking[w], ranking[b]))
                .collect(),
            bye: bye.map(|i| ranking[i]),
        })
    }
}

/// The Keizer ranking (member ids, best first) and scores of a tournament's entrants, from its
/// games, byes and absences so far.
pub(super) fn keizer_field(
    conn: &rusqlite::Connection,
    t: &Tournament,
) -> Result<(Vec<i64>, BTreeMap<i64, f64>), ClubError> {
    let people = entrants(conn, t.id)?;
    let index: BTreeMap<i64, usize> = people
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    let mut evenings = crate::club::keizer::Evenings {
        players: people.len(),
        ratings: Vec::new(),
        ..Default::default()
    };
    for (id, _) in &people {
        let r: Option<f64> = conn
            .query_row(
                "SELECT rating FROM ratings WHERE member_id = ?1 AND variant = ?2",
                params![id, t.variant.name()],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)?;
        evenings
            .ratings
            .push(r.unwrap_or(crate::club::ratings::DEFAULT_RATING));
    }
    let paired = rounds_paired(conn, t.id)?;
    for (_, w, b, result) in game_rows(conn, t.id)? {
        let Some(&wi) = index.get(&w) else { continue };
        match (b.and_then(|b| index.get(&b).copied()), result.as_deref()) {
            (None, _) => evenings.byes.push(wi),
            (Some(bi), Some(code)) => {
                let score = match code {
                    "W" | "FW" => 1.0,
                    "D" => 0.5,
                    "B" | "FB" => 0.0,
                    _ => continue,
                };
                evenings.games.push(crate::club::keizer::KeizerGame {
                    white: wi,
                    black: bi,
                    score,
                });
            }
            _ => {}
        }
    }
    let mut stmt = conn
        .prepare("SELECT member_id FROM absences WHERE tournament_id = ?1 AND round <= ?2")
        .map_err(db)?;
    let rows = stmt
        .query_map(params![t.id, paired], |r| r.get::<_, i64>(0))
        .map_err(db)?;
    for row in rows {
        if let Some(&i) = index.get(&row.map_err(db)?) {
            evenings.absences.push(i);
        }
    }
    let (scores, order) = evenings.standings();
    let ranking = order.iter().map(|&i| people[i].0).collect();
    let by_id = people
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, scores[i]))
        .collect();
    Ok((ranking, by_id))
}
