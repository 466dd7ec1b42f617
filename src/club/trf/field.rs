//! A TRF as the state of its next round, for the Dutch system: which rounds were played
//! (a last column holding only requested byes and absences is the round to pair, as the
//! reference pairing programs read it), every player's history, forbidden pairs, colours.

use super::read::{self, TrfPlayer};
use crate::club::ClubError;
use crate::club::criteria::Colour;
use crate::club::dutch::{Field, Player, Points, Round, inferred_initial_colour};
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(rank: usize, name: &str, rounds: &str) -> String {
        // Columns: 5–8 rank, 15–47 name, 49–52 rating, 81–84 points, 92 on the rounds.
        format!(
            "001 {rank:>4}      {name:<33} 1800{:28} 0.0{:7}{rounds}",
            "", ""
        )
    }

    #[test]
    fn the_last_column_of_requests_is_the_round_to_pair() {
        let text = format!(
            "012 T\nXXR 5\n{}\n{}\n{}\n",
            line(1, "Ann", "   2 w 1"),
            line(2, "Bob", "   1 b 0  0000 - Z"),
            line(3, "Cor", "0000 - U")
        );
        let next = next_round(&text).unwrap();
        assert_eq!(next.starting_ranks, vec![1, 2, 3]);
        let f = &next.field;
        assert_eq!(f.players[0].rounds.len(), 1, "one round played");
        assert!(f.players[0].present && !f.players[1].present && f.players[2].present);
        assert!(f.players[0].rounds[0].played);
        let bye = f.players[2].rounds[0];
        assert!(bye.participated && !bye.played && bye.opponent.is_none());
        assert_eq!(f.initial_colour, Colour::White);
    }

    #[test]
    fn bad_files_are_errors_that_say_where() {
        for (text, says) in [
            (String::new(), "no players"),
            (
                format!("012 T\n{}\n", line(1, "Ann", "   9 w 1")),
                "no player 9",
            ),
            (
                format!("012 T\n{}\n", line(1, "Ann", "   1 w ?")),
                "not a result",
            ),
            ("012 T\nXXC white1\n001 x".to_string(), "line 3"),
        ] {
            let e = next_round(&text).err().expect("an error").to_string();
            assert!(e.contains(says), "{e:?} should say {says:?}");
        }
    }
}
