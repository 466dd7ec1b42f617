//! Checking a Swiss round's pairing — as the program paired it, or as an organiser changed it —
//! against the Dutch system's absolute criteria and colour rules (`crate::club::criteria`).

use super::entries::find;
use super::record::{Outcome, System};
use super::state::{entrants, forbidden_pairs, game_rows, rounds_paired};
use crate::club::criteria::{self, Colour, Field, Record, Violation};
use crate::club::error::ClubError;
use crate::club::store::Store;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// One rule a round's pairing breaks, in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The article: `C.04.3 C1` …
    pub article: &'static str,
    /// Whether it is an absolute criterion (no Dutch pairing may break it).
    pub absolute: bool,
    /// The players concerned.
    pub players: Vec<String>,
    /// What is wrong.
    pub text: String,
}

/// The findings for a round of a Swiss (the last paired round when none is given), with the
/// round checked.
pub fn check(
    store: &Store,
    which: &str,
    round: Option<u32>,
) -> Result<(u32, Vec<Finding>), ClubError> {
    let t = find(store, which)?;
    let System::Swiss { rounds: total } = t.system else {
        return Err(ClubError::Refused(format!(
            "{} is not a Swiss: only Swiss pairings follow the Dutch system's criteria",
            t.name
        )));
    };
    let conn = store.conn();
    let paired = rounds_paired(conn, t.id)?;
    let round = round.unwrap_or(paired);
    if round == 0 || round > paired {
        return Err(ClubError::BadInput(format!(
            "{} has {paired} paired round(s); round {round} cannot be checked",
            t.name
        )));
    }
    let people = entrants(conn, t.id)?;
    let index: HashMap<i64, usize> = people
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    let (win, draw) = (t.scoring.win, t.scoring.draw);
    let mut players = vec![Record::default(); people.len()];
    let mut boards = Vec::new();
    for (r, w, b, result) in game_rows(conn, t.id)? {
        let Some(&wi) = index.get(&w) else { continue };
        let bi = b.and_then(|b| index.get(&b).copied());
        if r == round {
            boards.push((wi, bi));
            continue;
        }
        if r > round {
            continue;
        }
        let Some(bi) = bi else {
            // The pairing-allocated bye: a win's points without playing.
            players[wi].score += win;
            players[wi].bye_ineligible = true;
            continue;
        };
        let (outcome, forfeit) = result.as_deref().map_or((None, false), Outcome::from_code);
        let Some(outcome) = outcome else { continue };
        let (white_points, black_points) = match outcome {
            Outcome::WhiteWins => (win, 0.0),
            Outcome::Draw => (draw, draw),
            Outcome::BlackWins => (0.0, win),
        };
        players[wi].score += white_points;
        players[bi].score += black_points;
        if forfeit {
            // A win without playing rules out the pairing-allocated bye (C2).
            let winner = if outcome == Outcome::WhiteWins {
                wi
            } else {
                bi
            };
            players[winner].bye_ineligible = true;
        } else {
            players[wi].games.push((bi, Colour::White));
            players[bi].games.push((wi, Colour::Black));
        }
    }
    let forbidden: HashSet<(usize, usize)> = forbidden_pairs(conn, t.id)?
        .into_iter()
        .filter_map(|(a, b)| {
            let (a, b) = (*index.get(&(a as i64))?, *index.get(&(b as i64))?);
            Some((a.min(b), a.max(b)))
        })
        .collect();
    let field = Field {
        players: &players,
        forbidden: &forbidden,
        last_round: round == total,
        topscorer_above: f64::from(round - 1) * win.max(draw) / 2.0,
    };
    let name = |i: usize| people[i].1.clone();
    let colour = |c: Colour| match c {
        Colour::White => "White",
        Colour::Black => "Black",
    };
    let findings = criteria::check(&field, &boards)
        .into_iter()
        .map(|v| {
            let (players, text) = match &v {
                Violation::Rematch { a, b } => (
                    vec![name(*a), name(*b)],
                    format!(
                        "{} and {} have played each other before",
                        name(*a),
                        name(*b)
                    ),
                ),
                Violation::Forbidden { a, b } => (
                    vec![name(*a), name(*b)],
                    format!(
                        "{} and {} may not be paired (forbidden)",
                        name(*a),
                        name(*b)
                    ),
                ),
                Violation::ByeAgain { player } => (
                    vec![name(*player)],
                    format!(
                        "{} has the bye but already had one, or a win without playing",
                        name(*player)
                    ),
                ),
                Violation::SameAbsoluteColour { a, b, colour: c } => (
                    vec![name(*a), name(*b)],
                    format!(
                        "{} and {} both must have {} and neither is a topscorer",
                        name(*a),
                        name(*b),
                        colour(*c)
                    ),
                ),
                Violation::ColourDenied { player, colour: c } => (
                    vec![name(*player)],
                    format!(
                        "{} must have {} (absolute preference) and the opponent did not need it",
                        name(*player),
                        colour(*c)
                    ),
                ),
                Violation::PairedTwice { player } => (
                    vec![name(*player)],
                    format!("{} is paired twice", name(*player)),
                ),
            };
            Finding {
                article: v.article(),
                absolute: v.absolute(),
                players,
                text,
            }
        })
        .collect();
    Ok((round, findings))
}
