//! Checking a Swiss round's pairing — as the program paired it, or as an organiser changed it —
//! against the Dutch system's absolute criteria and colour rules (`crate::club::criteria`), and
//! against its quality criteria by comparison with the Dutch system's own pairing of the same
//! players (`crate::club::dutch::quality`).

use super::entries::find;
use super::history::dutch_field;
use super::record::System;
use super::state::{entrants, game_rows, rounds_paired};
use crate::club::criteria::{self, Colour, Field, Record, Violation};
use crate::club::dutch::{self, quality};
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
    // The state before the round, as the pairing read it.
    let (mut state, _) = dutch_field(conn, &t, round, total)?;
    let mut boards = Vec::new();
    for (r, w, b, _) in game_rows(conn, t.id)? {
        if r != round {
            continue;
        }
        if let Some(&wi) = index.get(&w) {
            boards.push((wi, b.and_then(|b| index.get(&b).copied())));
        }
    }
    let points = state.points;
    let players: Vec<Record> = state
        .players
        .iter()
        .map(|p| Record {
            score: f64::from(p.rounds.iter().map(|r| r.points).sum::<u32>()) / 10.0,
            games: p
                .rounds
                .iter()
                .filter(|r| r.played)
                .filter_map(|r| Some((r.opponent?, r.colour?)))
                .collect(),
            // C2: the pairing-allocated bye, or a win's points without playing.
            bye_ineligible: p.rounds.iter().any(|r| {
                !r.played && ((r.participated && r.opponent.is_none()) || r.points >= points.win)
            }),
        })
        .collect();
    let (win, draw) = (t.scoring.win, t.scoring.draw);
    let forbidden: HashSet<(usize, usize)> = state
        .forbidden
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
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
    let mut findings: Vec<Finding> = criteria::check(&field, &boards)
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
    // Quality: held against the Dutch system's own pairing of the same players, criterion by
    // criterion in order; the first on which this pairing does worse is reported.
    let in_round: HashSet<usize> = boards
        .iter()
        .flat_map(|&(w, b)| [Some(w), b])
        .flatten()
        .collect();
    for (i, p) in state.players.iter_mut().enumerate() {
        p.present = in_round.contains(&i);
    }
    let paired: Vec<(usize, usize)> = boards.iter().filter_map(|&(w, b)| Some((w, b?))).collect();
    let bye = boards.iter().find(|(_, b)| b.is_none()).map(|&(w, _)| w);
    if let Ok(best) = dutch::pair(&state) {
        let mine = quality::counts(&state, &paired, bye);
        let dutch = quality::counts(&state, &best.boards, best.bye);
        if let Some(i) = quality::first_shortfall(&mine, &dutch) {
            let c = &mine[i];
            for group in &c.instances {
                let names: Vec<String> = group.iter().map(|&p| name(p)).collect();
                findings.push(Finding {
                    article: c.article,
                    absolute: false,
                    text: format!(
                        "{}: {} (the Dutch pairing of these players has {}, this one {})",
                        c.what,
                        names.join(" against "),
                        dutch[i].measure,
                        c.measure
                    ),
                    players: names,
                });
            }
        }
    }
    Ok((round, findings))
}
