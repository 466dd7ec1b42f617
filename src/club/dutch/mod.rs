//! The FIDE Dutch system (C.04.3, the rules in force from 2026) as a pure function of the
//! tournament's state: who is to be paired, every round so far, the forbidden pairs.
//!
//! The criteria are weights on a maximum-weight matching over all players to be paired, settled
//! bracket by bracket from the top score down:
//!
//! - absolute criteria (C.1 no rematch or forbidden pair, C.2 at most one pairing-allocated bye,
//!   C.3 no two non-topscorers with the same absolute colour preference) remove edges;
//! - completion (C.4: everyone but at most one bye-eligible player is paired) is the heaviest
//!   field of every weight, so it always holds when it can;
//! - the quality criteria C.5–C.21 (pairs and scores in the bracket and the next one, the bye
//!   assignee's unplayed games, colour preferences, repeated floats and their scores) follow as
//!   fields in their order of priority ([`weights`]);
//! - the choices the rules leave to the order of the pairing numbers (which moved-down players
//!   are paired, the exchanges between S1 and S2 and the smallest difference of the exchanged
//!   numbers, then S1 against S2 from the top) are fixed one player at a time by nudging the
//!   lowest fields and matching again ([`brackets`]);
//! - colours follow E.1–E.5 ([`colours`]).
//!
//! Every step is a matching, so a round is polynomial in the number of players (there is no
//! backtracking over transpositions).

mod brackets;
mod colours;
mod player;
pub mod quality;
mod weights;

use super::criteria::Colour;

/// One round of a player's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The opponent (index into [`Field::players`]), if any.
    pub opponent: Option<usize>,
    /// The colour, when a game was played.
    pub colour: Option<Colour>,
    /// A game was played over the board (not a forfeit, bye or absence).
    pub played: bool,
    /// The player took part in the round's pairing (a game, a forfeit, the pairing-allocated
    /// bye), as against sitting it out.
    pub participated: bool,
    /// Points scored in the round, in the units of [`Points`].
    pub points: u32,
}

impl Round {
    /// A round sat out for no points (absent, not yet entered).
    pub const ABSENT: Round = Round {
        opponent: None,
        colour: None,
        played: false,
        participated: false,
        points: 0,
    };
}

/// A player, by pairing number (the order of [`Field::players`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Every round before the one to pair.
    pub rounds: Vec<Round>,
    /// To be paired in this round (not absent, not withdrawn).
    pub present: bool,
}

/// The points of a result, in any integer unit (2-1-0, or tenths of 1-½-0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// A win (also a forfeit win).
    pub win: u32,
    /// A draw.
    pub draw: u32,
}

/// The tournament as the pairing of its next round sees it.
#[derive(Clone, Debug)]
pub struct Field {
    /// Players in pairing-number order.
    pub players: Vec<Player>,
    /// Pairs the organiser forbade to meet.
    pub forbidden: Vec<(usize, usize)>,
    /// Rounds the tournament will have.
    pub total_rounds: usize,
    /// The scoring.
    pub points: Points,
    /// The colour pairing number 1 had (or would have had) in round 1.
    pub initial_colour: Colour,
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

/// A round's pairing: boards as (White, Black), best placed first, and the pairing-allocated
/// bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// (White, Black) player indices.
    pub boards: Vec<(usize, usize)>,
    /// The player given the pairing-allocated bye.
    pub bye: Option<usize>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DutchError {
    /// No pairing satisfies the absolute criteria.
    #[error(
        "no pairing of the {0} players present satisfies the absolute criteria (no rematch, no forbidden pair, at most one bye, colours)"
    )]
    Impossible(usize),
    /// The field is beyond what a round may take: weights wider than this build computes with,
    /// or a matching graph (one weight per pair of players) past [`MEMORY_LIMIT`].
    #[error(
        "{0} players need weights of {1} bits, {2} MiB for the pairing graph: more than the 4,088 bits and {limit} MiB a round may take",
        limit = MEMORY_LIMIT >> 20
    )]
    TooLarge(usize, u32, usize),
    /// A round names an opponent who is not in the field.
    #[error("player {player}, round {round}: opponent {opponent} is not in the field")]
    UnknownOpponent {
        /// The player.
        player: usize,
        /// The round (1-based).
        round: usize,
        /// The index named.
        opponent: usize,
    },
    /// The players' histories disagree with the round count.
    #[error("player {player} has {have} rounds of history where {want} were played")]
    Ragged {
        /// The player.
        player: usize,
        /// Rounds in their history.
        have: usize,
        /// Rounds played.
        want: usize,
    },
}

/// The most memory a round's matching graph may take (4 GiB: a field of some 8,000 players in
/// its late rounds, when the weights are widest).
pub const MEMORY_LIMIT: usize = 4 << 30;

/// Pairs the next round by the Dutch system.
pub fn pair(field: &Field) -> Result<Pairing, DutchError> {
    pair_from(field, None)
}

/// [`pair`], with the bits for a bracket's score fields to try first (the estimate when
/// `None`): a bracket that needs more asks for them and the round starts again.
fn pair_from(field: &Field, first_scores_bits: Option<u32>) -> Result<Pairing, DutchError> {
    let played = field.players.first().map_or(0, |p| p.rounds.len());
    if let Some((player, p)) = field
        .players
        .iter()
        .enumerate()
        .find(|(_, p)| p.rounds.len() != played)
    {
        return Err(DutchError::Ragged {
            player,
            have: p.rounds.len(),
            want: played,
        });
    }
    for (player, p) in field.players.iter().enumerate() {
        for (r, round) in p.rounds.iter().enumerate() {
            if let Some(opponent) = round.opponent.filter(|&o| o >= field.players.len()) {
                return Err(DutchError::UnknownOpponent {
                    player,
                    round: r + 1,
                    opponent,
                });
            }
        }
    }
    let players = player::derive(field);
    let mut scores_bits =
        first_scores_bits.unwrap_or_else(|| weights::Layout::first_scores_bits(&players));
    let present = players.iter().flatten().count();
    let matched = loop {
        let layout = weights::Layout::new(&players, field, scores_bits);
        // The narrowest integer the weights fit in, with room for the matching's doubled
        // weights and dual variables; the graph holds one per pair of players, with the
        // matching's bookkeeping beside it (two flags, and at most one nearest leaf per pair
        // for the blossoms).
        let limbs = (layout.width() as usize + 8).div_ceil(64).max(2);
        let memory = present * present * (limbs * 8 + 6);
        if limbs > 64 || memory > MEMORY_LIMIT {
            return Err(DutchError::TooLarge(present, layout.width(), memory >> 20));
        }
        let paired = match limbs {
            2 => brackets::pair::<2>(&players, &layout),
            3 => brackets::pair::<3>(&players, &layout),
            4 => brackets::pair::<4>(&players, &layout),
            5 => brackets::pair::<5>(&players, &layout),
            6 => brackets::pair::<6>(&players, &layout),
            7 | 8 => brackets::pair::<8>(&players, &layout),
            9..=16 => brackets::pair::<16>(&players, &layout),
            17..=32 => brackets::pair::<32>(&players, &layout),
            _ => brackets::pair::<64>(&players, &layout),
        };
        match paired {
            Ok(matched) => break matched,
            Err(brackets::Failure::Dutch(e)) => return Err(e),
            Err(brackets::Failure::Narrow(bits)) => scores_bits = bits,
        }
    };
    Ok(colours::allocate(&players, field, &matched))
}

#[cfg(test)]
mod tests;
