//! A Swiss tournament's state as the Dutch system reads it (`crate::club::dutch::Field`): every
//! entrant in entry order (the pairing numbers) with each round before the one to pair — a game
//! and its colour, a forfeit (no meeting, as C.1 counts), the pairing-allocated bye, or a round
//! sat out — who plays the next round, the forbidden pairs, the scoring and the initial colour.

use super::record::{Outcome, Tournament};
use super::state::{entrants, forbidden_pairs, game_rows};
use crate::club::criteria::Colour;
use crate::club::dutch::{Field, Player, Points, Round, inferred_initial_colour};
use crate::club::error::ClubError;
use crate::club::store::db;
use rusqlite::params;
use std::collections::{HashMap, HashSet};

/// The field for pairing `round` (rounds before it complete), and the member id of each player.
pub(super) fn dutch_field(
    conn: &rusqlite::Connection,
    t: &Tournament,
    round: u32,
    total_rounds: u32,
) -> Result<(Field, Vec<i64>), ClubError> {
    let people = entrants(conn, t.id)?;
    let ids: Vec<i64> = people.iter().map(|(id, _)| *id).collect();
    let index: HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let tenths = |p: f64| (p * 10.0).round().max(0.0) as u32;
    let points = Points {
        win: tenths(t.scoring.win),
        draw: tenths(t.scoring.draw),
    };
    let before = round.saturating_sub(1) as usize;
    let mut players: Vec<Player> = ids
        .iter()
        .map(|_| Player {
            rounds: vec![Round::ABSENT; before],
            present: true,
        })
        .collect();
    for (r, w, b, result) in game_rows(conn, t.id)? {
        let r = r as usize;
        if r == 0 || r > before {
            continue;
        }
        let Some(&wi) = index.get(&w) else { continue };
        let Some(bi) = b.and_then(|b| index.get(&b).copied()) else {
            players[wi].rounds[r - 1] = Round {
                opponent: None,
                colour: None,
                played: false,
                participated: true,
                points: points.win,
            };
            continue;
        };
        let (outcome, forfeit) = result.as_deref().map_or((None, false), Outcome::from_code);
        let (white_points, black_points) = match outcome {
            Some(Outcome::WhiteWins) => (points.win, 0),
            Some(Outcome::Draw) => (points.draw, points.draw),
            Some(Outcome::BlackWins) => (0, points.win),
            None => (0, 0),
        };
        let played = outcome.is_some() && !forfeit;
        for (me, other, colour, p) in [
            (wi, bi, Colour::White, white_points),
            (bi, wi, Colour::Black, black_points),
        ] {
            players[me].rounds[r - 1] = Round {
                opponent: Some(other),
                colour: Some(colour),
                played,
                participated: true,
                points: p,
            };
        }
    }
    let mut stmt = conn
        .prepare(
            "SELECT member_id FROM entries WHERE tournament_id = ?1 AND withdrawn = 1
             UNION SELECT member_id FROM absences WHERE tournament_id = ?1 AND round = ?2",
        )
        .map_err(db)?;
    let out: HashSet<i64> = stmt
        .query_map(params![t.id, round], |r| r.get(0))
        .map_err(db)?
        .collect::<Result<_, _>>()
        .map_err(db)?;
    for (i, id) in ids.iter().enumerate() {
        players[i].present = !out.contains(id);
    }
    let forbidden = forbidden_pairs(conn, t.id)?
        .into_iter()
        .filter_map(|(a, b)| Some((*index.get(&(a as i64))?, *index.get(&(b as i64))?)))
        .collect();
    let initial_colour = inferred_initial_colour(&players).unwrap_or(Colour::White);
    Ok((
        Field {
            players,
            forbidden,
            total_rounds: total_rounds as usize,
            points,
            initial_colour,
        },
        ids,
    ))
}
