//! Standings with tie-breaks, and the crosstable.

use super::entries::find;
use super::record::{Outcome, Standing, System};
use super::results::pairings;
use super::state::entrants;
use super::systems::keizer_field;
use crate::club::error::ClubError;
use crate::club::store::Store;
use crate::club::tiebreak::{Game as TbGame, Results};
use serde::Serialize;
use std::collections::BTreeMap;

/// The standings: points, then the tournament's tie-breaks in order; players equal on all of
/// them share a place.
pub fn standings(store: &Store, which: &str) -> Result<Vec<Standing>, ClubError> {
    let t = find(store, which)?;
    let games = pairings(store, which, None)?;
    let people = entrants(store.conn(), t.id)?;
    let index: BTreeMap<&str, usize> = people
        .iter()
        .enumerate()
        .map(|(i, (_, n))| (n.as_str(), i))
        .collect();
    let rated = crate::club::members::list(store, true, None)?;
    let ratings: Vec<f64> = people
        .iter()
        .map(|(id, _)| {
            rated
                .iter()
                .find(|m| m.id == *id)
                .and_then(|m| m.ratings.get(t.variant.name()).copied())
                .unwrap_or(crate::club::ratings::DEFAULT_RATING)
        })
        .collect();
    let mut results = Results {
        players: people.len(),
        games: Vec::new(),
        byes: Vec::new(),
        win: t.scoring.win,
        draw: t.scoring.draw,
        ratings,
    };
    for g in &games {
        let white = index[g.white.as_str()];
        match (g.black.as_deref(), g.result) {
            (None, _) => results.byes.push(white),
            // A win by forfeit scores like a bye: points, no tie-break.
            (Some(b), Some(o)) if g.forfeit => match o {
                Outcome::WhiteWins => results.byes.push(white),
                _ => results.byes.push(index[b]),
            },
            (Some(b), Some(o)) => results.games.push(TbGame {
                white,
                black: index[b],
                score: match o {
                    Outcome::WhiteWins => 1.0,
                    Outcome::Draw => 0.5,
                    Outcome::BlackWins => 0.0,
                },
            }),
            (Some(_), None) => {}
        }
    }
    let mut points = results.points();
    if matches!(t.system, System::Keizer { .. }) {
        // In a Keizer competition the Keizer score is what ranks.
        let (_, scores) = keizer_field(store.conn(), &t)?;
        for (i, (id, _)) in people.iter().enumerate() {
            points[i] = (scores.get(id).copied().unwrap_or(0.0) * 100.0).round() / 100.0;
        }
    }
    let breaks: Vec<Vec<f64>> = t.tiebreaks.iter().map(|&tb| results.tiebreak(tb)).collect();
    let mut played = vec![0u32; people.len()];
    for g in &results.games {
        played[g.white] += 1;
        played[g.black] += 1;
    }
    let mut table: Vec<Standing> = people
        .iter()
        .enumerate()
        .map(|(i, (_, name))| Standing {
            place: 0,
            name: name.clone(),
            points: points[i],
            played: played[i],
            tiebreaks: breaks.iter().map(|b| b[i]).collect(),
        })
        .collect();
    let key = |s: &Standing| {
        let mut k = vec![s.points];
        k.extend(&s.tiebreaks);
        k
    };
    table.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.name.cmp(&b.name))
    });
    for i in 0..table.len() {
        table[i].place = if i > 0 && key(&table[i]) == key(&table[i - 1]) {
            table[i - 1].place
        } else {
            i + 1
        };
    }
    Ok(table)
}

/// A crosstable: the players in standings order and, for each, their points against each other
/// player (one entry per game played, in round order).
#[derive(Clone, Debug, Serialize)]
pub struct Crosstable {
    /// The standings, giving the row order.
    pub standings: Vec<Standing>,
    /// `cells[i][j]`: the points row player `i` scored against row player `j`.
    pub cells: Vec<Vec<Vec<f64>>>,
}

/// The crosstable of a tournament.
pub fn crosstable(store: &Store, which: &str) -> Result<Crosstable, ClubError> {
    let t = find(store, which)?;
    let standings = standings(store, which)?;
    let row: BTreeMap<&str, usize> = standings
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let n = standings.len();
    let mut cells = vec![vec![Vec::new(); n]; n];
    for g in pairings(store, which, None)? {
        let (Some(black), Some(o), false) = (g.black.as_deref(), g.result, g.forfeit) else {
            continue;
        };
        let (w, b) = (row[g.white.as_str()], row[black]);
        let (pw, pb) = match o {
            Outcome::WhiteWins => (t.scoring.win, 0.0),
            Outcome::Draw => (t.scoring.draw, t.scoring.draw),
            Outcome::BlackWins => (0.0, t.scoring.win),
        };
        cells[w][b].push(pw);
        cells[b][w].push(pb);
    }
    Ok(Crosstable { standings, cells })
}
