//! What the Dutch system reads from a player's history (A.2 ranking, A.6 colour preferences,
//! A.4 floats, C.2 bye eligibility), computed once per round.

use super::{Field, Round};
use crate::club::criteria::Colour;

/// A float in an earlier round (A.4): paired against a lower score (or scored points without
/// playing), or against a higher one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Float {
    Down,
    Up,
    None,
}

/// A player to be paired, as the criteria see them.
#[derive(Clone, Debug)]
pub(super) struct Player {
    /// Index into [`Field::players`].
    pub id: usize,
    /// Pairing number among the players who take part (0-based): ties in score, colours.
    pub rank: usize,
    /// Points before the round.
    pub score: u32,
    /// Games played over the board.
    pub played: usize,
    /// The colour wanted (A.6), if any.
    pub preference: Option<Colour>,
    /// |whites − blacks|.
    pub imbalance: usize,
    /// The colour of the last two games, when they had the same one.
    pub repeated: Option<Colour>,
    /// A strong preference: colours one apart, not absolute.
    pub strong: bool,
    /// May receive the pairing-allocated bye (C.2).
    pub bye_eligible: bool,
    /// Floats one and two rounds back (index 1 and 2).
    pub floats: [Float; 3],
    /// Colours of the games played, latest first (E.3).
    pub colours_back: Vec<Colour>,
}

impl Player {
    /// Colours two or more apart.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// The order of placing (A.2): more points first, then the smaller pairing number.
    pub fn placing(&self, other: &Player) -> std::cmp::Ordering {
        other
            .score
            .cmp(&self.score)
            .then(self.rank.cmp(&other.rank))
    }

    /// An absolute colour preference (A.6.a).
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// The players to pair, each with the pairing number, score, preference and floats it brings.
/// Indexed like the field; players not present are `None`.
pub(super) fn derive(field: &Field) -> Vec<Option<Player>> {
    let rounds = field.players.first().map_or(0, |p| p.rounds.len());
    // Pairing numbers count the players who take part now or took part in any pairing: a late
    // entrant still sitting out is not yet numbered.
    let mut next_rank = 0;
    let ranks: Vec<Option<usize>> = field
        .players
        .iter()
        .map(|p| {
            (p.present || p.rounds.iter().any(|r| r.participated)).then(|| {
                next_rank += 1;
                next_rank - 1
            })
        })
        .collect();
    let score_back = |i: usize, back: usize| -> u32 {
        field.players[i].rounds[..rounds - back]
            .iter()
            .map(|r| r.points)
            .sum()
    };
    field
        .players
        .iter()
        .enumerate()
        .map(|(id, p)| {
            if !p.present {
                return None;
            }
            let games: Vec<Colour> = p.rounds.iter().filter_map(played_colour).collect();
            let whites = games.iter().filter(|&&c| c == Colour::White).count();
            let blacks = games.len() - whites;
            let fewer = if whites > blacks {
                Colour::Black
            } else {
                Colour::White
            };
            let imbalance = whites.abs_diff(blacks);
            let last = games.last().copied();
            let same_twice = games.len() >= 2 && games[games.len() - 2] == games[games.len() - 1];
            let preference = if imbalance > 1 {
                Some(fewer)
            } else if same_twice {
                last.map(Colour::other)
            } else if imbalance > 0 {
                Some(fewer)
            } else {
                last.map(Colour::other)
            };
            let repeated = if same_twice { last } else { None };
            let float = |back: usize| -> Float {
                if back > rounds {
                    return Float::None;
                }
                let r = &p.rounds[rounds - back];
                if !r.played {
                    return if r.points > 0 {
                        Float::Down
                    } else {
                        Float::None
                    };
                }
                let mine = score_back(id, back);
                let theirs = r.opponent.map_or(0, |o| score_back(o, back));
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            };
            let mut player = Player {
                id,
                rank: ranks[id].unwrap_or(usize::MAX),
                score: score_back(id, 0),
                played: games.len(),
                preference,
                imbalance,
                repeated,
                strong: false,
                bye_eligible: p.rounds.iter().all(|r| {
                    r.played
                        || (r.points < field.points.win
                            && !(r.participated && r.opponent.is_none()))
                }),
                floats: [Float::None, float(1), float(2)],
                colours_back: games.iter().rev().copied().collect(),
            };
            player.strong = !player.absolute() && imbalance > 0;
            Some(player)
        })
        .collect()
}

fn played_colour(r: &Round) -> Option<Colour> {
    if r.played { r.colour } else { None }
}
