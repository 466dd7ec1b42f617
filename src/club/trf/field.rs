//! A TRF as the state of its next round, for the Dutch system: which rounds were played
//! (a last column holding only requested byes and absences is the round to pair, as the
//! reference pairing programs read it), every player's history, forbidden pairs, colours.

use super::read::{self, TrfPlayer};
use crate::club::ClubError;
use crate::club::criteria::Colour;
use crate::club::dutch::{Field, Player, Points, Round};
use std::collections::BTreeMap;

/// The next round of a TRF, ready to pair.
pub struct NextRound {
    /// The pairing's input; player `i` is the TRF's `starting_ranks[i]`.
    pub field: Field,
    /// Starting ranks in the file, by player index.
    pub starting_ranks: Vec<usize>,
    /// Names, by player index.
    pub names: Vec<String>,
}

fn participated(&(opponent, _, result): &(usize, char, char)) -> bool {
    opponent != 0 || result == 'U' || result == '+'
}

fn blank(&(opponent, colour, result): &(usize, char, char)) -> bool {
    opponent == 0 && colour == ' ' && result == ' '
}

/// Reads a TRF as the round after its last played one.
pub fn next_round(text: &str) -> Result<NextRound, ClubError> {
    let parsed = read::parse(text)?;
    let players: Vec<(&usize, &TrfPlayer)> = parsed.players.iter().collect();
    if players.is_empty() {
        return Err(ClubError::BadInput("no players (001 records)".into()));
    }
    let index: BTreeMap<usize, usize> = players
        .iter()
        .enumerate()
        .map(|(i, (rank, _))| (**rank, i))
        .collect();
    // A round counts as played once anyone took part in its pairing.
    let played = players
        .iter()
        .flat_map(|(_, p)| {
            p.rounds
                .iter()
                .enumerate()
                .filter(|(_, e)| !blank(e))
                .map(|(i, e)| if participated(e) { i + 1 } else { i })
        })
        .max()
        .unwrap_or(0);
    let tenths = |p: f64| (p * 10.0).round().max(0.0) as u32;
    let points = Points {
        win: tenths(parsed.scoring.win),
        draw: tenths(parsed.scoring.draw),
    };
    let mut field_players = Vec::new();
    for (rank, p) in &players {
        let mut rounds = Vec::new();
        for i in 0..played {
            let Some(&(opponent, colour, result)) = p.rounds.get(i) else {
                rounds.push(Round::ABSENT);
                continue;
            };
            let opponent = match opponent {
                0 => None,
                o => Some(*index.get(&o).ok_or_else(|| {
                    ClubError::BadInput(format!("player {rank}, round {}: no player {o}", i + 1))
                })?),
            };
            let colour = match colour {
                'w' => Some(Colour::White),
                'b' => Some(Colour::Black),
                _ => None,
            };
            let participated = participated(&(opponent.unwrap_or(0), ' ', result));
            let points = match result {
                '+' | 'W' | '1' | 'F' | 'U' => points.win,
                'D' | '=' | 'H' => points.draw,
                '-' | 'L' | '0' | 'Z' | ' ' => 0,
                other => {
                    return Err(ClubError::BadInput(format!(
                        "player {rank}, round {}: {other:?} is not a result",
                        i + 1
                    )));
                }
            };
            rounds.push(Round {
                opponent,
                colour,
                played: opponent.is_some()
                    && colour.is_some()
                    && matches!(result, 'W' | '1' | 'D' | '=' | 'L' | '0'),
                participated,
                points,
            });
        }
        let present = p.rounds.iter().skip(played).all(blank);
        field_players.push(Player { rounds, present });
    }
    let mut forbidden = Vec::new();
    for group in &parsed.forbidden {
        for (k, a) in group.iter().enumerate() {
            for b in &group[k + 1..] {
                if let (Some(&x), Some(&y)) = (index.get(a), index.get(b)) {
                    forbidden.push((x, y));
                }
            }
        }
    }
    let initial_colour = parsed
        .initial_colour
        .or_else(|| inferred_initial_colour(&field_players))
        .unwrap_or(Colour::White);
    Ok(NextRound {
        field: Field {
            players: field_players,
            forbidden,
            total_rounds: parsed.rounds_tag.map_or(usize::MAX, |r| r as usize),
            points,
            initial_colour,
        },
        starting_ranks: players.iter().map(|(r, _)| **r).collect(),
        names: players.iter().map(|(_, p)| p.name.clone()).collect(),
    })
}

/// The initial colour from the first round with colours: the colour of the highest player who
/// took part in it, reversed when their pairing number among those taking part is even.
pub fn inferred_initial_colour(players: &[Player]) -> Option<Colour> {
    let first = players
        .iter()
        .filter_map(|p| p.rounds.iter().position(|r| r.colour.is_some()))
        .min()?;
    let mut number = 0;
    for p in players {
        if !p.rounds[..=first].iter().any(|r| r.participated) {
            continue;
        }
        if let Some(c) = p.rounds[first].colour {
            return Some(if number % 2 == 1 { c.other() } else { c });
        }
        number += 1;
    }
    None
}
