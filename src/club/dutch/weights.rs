//! The edge weights: one bit field per criterion, most important highest, so that a matching of
//! greatest weight is the pairing the criteria prefer (C.4–C.21 in their order), with room at
//! the bottom for the bracket procedure's nudges (which moved-down players, which exchanges,
//! which opponent).
//!
//! Field widths: a count of players of one score group needs `group_bits` bits; a sum of one bit
//! per score group at the group's own offset (higher scores at higher offsets, so a higher
//! score outweighs any number of lower ones) needs `scores_bits`. Only the scores of the bracket
//! being paired (with the next score group) ever appear in such a sum, so the offsets are laid
//! out per bracket ([`Offsets`]) within one width for the round: a thousand players need a few
//! hundred bits rather than one field per score group of the whole field in every criterion,
//! and the matching computes with a third of the limbs.

use super::Field;
use super::player::{Float, Player};
use crate::club::matching::wide::Wide;
use std::collections::{BTreeMap, HashMap};

/// The bit layout of a round's weights.
pub(super) struct Layout {
    /// Bits for a count of players of one score group.
    pub group_bits: u32,
    /// Bits for one field per score group of a bracket (and for the sum of two ranks).
    pub scores_bits: u32,
    /// Each score's rank among the scores present, lowest 0.
    pub ranks: HashMap<u32, u32>,
    /// Rounds played before this one.
    pub rounds_played: usize,
    /// Whether this round is the last (C.3's topscorers exist then).
    pub last_round: bool,
    /// More than this is a topscorer: half the points of winning every round so far.
    pub topscorer_above: u32,
    /// C.1: whom each player may not meet (played or forbidden), by player id: a few ids
    /// each, read in the innermost loop of the weights.
    forbidden: Vec<Vec<usize>>,
}

/// Bits needed to write `n`.
pub(super) fn bits(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

impl Layout {
    /// The layout for the players present, with `scores_bits` for one field per score group of
    /// a bracket (at least enough for two ranks; see [`Layout::first_scores_bits`]).
    pub fn new(players: &[Option<Player>], field: &Field, scores_bits: u32) -> Layout {
        let counts = score_counts(players.iter().flatten());
        let ranks = counts.keys().zip(0..).map(|(&s, r)| (s, r)).collect();
        let group_bits = bits(counts.values().copied().max().unwrap_or(0)).max(1);
        let scores_bits = scores_bits.max(bits(2 * counts.len()));
        let rounds_played = field.players.first().map_or(0, |p| p.rounds.len());
        let mut forbidden = vec![Vec::new(); field.players.len()];
        let mut forbid = |a: usize, b: usize| {
            for (x, y) in [(a, b), (b, a)] {
                if x >= forbidden.len() {
                    forbidden.resize(x + 1, Vec::new());
                }
                forbidden[x].push(y);
            }
        };
        for &(a, b) in &field.forbidden {
            forbid(a, b);
        }
        for (i, p) in field.players.iter().enumerate() {
            for r in p.rounds.iter().filter(|r| r.played) {
                if let Some(o) = r.opponent {
                    forbid(i, o);
                }
            }
        }
        Layout {
            group_bits,
            scores_bits,
            ranks,
            rounds_played,
            last_round: rounds_played + 1 >= field.total_rounds,
            topscorer_above: rounds_played as u32 * field.points.win.max(field.points.draw) / 2,
            forbidden,
        }
    }

    /// Bits of the largest weight.
    pub fn width(&self) -> u32 {
        let (g, s) = (self.group_bits, self.scores_bits);
        let floats = match self.rounds_played {
            0 => 0,
            1 => 2 * g + 2 * s,
            _ => 4 * g + 4 * s,
        };
        2 + (g + s) * 2 + 2 * g + 4 * g + floats + 3 * g + 1
    }

    /// The weight every edge stays below, given to a pair once it is settled.
    pub fn settled<const N: usize>(&self) -> Wide<N> {
        Wide::bit_at(self.width()) - Wide::from_u64(1)
    }

    /// A first guess of the bits a bracket's score fields need: two adjacent score groups and
    /// room for players moved down from several more (a bracket that needs more asks for a
    /// wider layout), never more than one field per score group of the whole field.
    pub fn first_scores_bits(players: &[Option<Player>]) -> u32 {
        let counts = score_counts(players.iter().flatten());
        let widths: Vec<u32> = counts.values().map(|&c| bits(c)).collect();
        let adjacent = widths
            .windows(2)
            .map(|w| w[0] + w[1])
            .chain(widths.first().copied())
            .max()
            .unwrap_or(0);
        (adjacent + 8).min(widths.iter().sum())
    }

    /// C.1 and C.3: the two may meet.
    pub fn compatible(&self, a: &Player, b: &Player) -> bool {
        !self.forbidden.get(a.id).is_some_and(|o| o.contains(&b.id))
            && (!a.absolute()
                || !b.absolute()
                || a.preference != b.preference
                || (self.last_round
                    && (a.score > self.topscorer_above || b.score > self.topscorer_above)))
    }
}

/// How many players have each score.
fn score_counts<'a>(players: impl Iterator<Item = &'a Player>) -> BTreeMap<u32, usize> {
    let mut counts = BTreeMap::new();
    for p in players {
        *counts.entry(p.score).or_default() += 1;
    }
    counts
}

/// Each score's offset in the score fields of one bracket: its scores lowest first, each with
/// room for a count of its players.
pub(super) struct Offsets(HashMap<u32, u32>);

impl Offsets {
    /// The offsets for a bracket's players (with the next score group), or the bits they need
    /// when more than the layout has.
    pub fn new<'a>(
        players: impl Iterator<Item = &'a Player>,
        layout: &Layout,
    ) -> Result<Offsets, u32> {
        let mut offsets = HashMap::new();
        let mut used = 0;
        for (score, count) in score_counts(players) {
            offsets.insert(score, used);
            used += bits(count);
        }
        if used > layout.scores_bits {
            return Err(used);
        }
        Ok(Offsets(offsets))
    }

    /// No scores: for weights outside any bracket.
    pub fn none() -> Offsets {
        Offsets(HashMap::new())
    }

    /// The bit of `score` within a score field.
    fn of(&self, score: u32) -> u32 {
        self.0[&score]
    }
}

/// What the weight of one edge depends on beyond the two players.
pub(super) struct Context<'a> {
    /// Players of this score or lower are candidates for the bye.
    pub bye_score: u32,
    /// The bye assignee comes from the bracket just paired (C.9 applies).
    pub single_downfloater_is_bye: bool,
    /// Rank of each number of games played among the bye candidates (most games first).
    pub unplayed_ranks: &'a HashMap<usize, u64>,
    /// The score offsets of the bracket being paired.
    pub offsets: &'a Offsets,
}

impl Layout {
    fn bye_candidate(&self, p: &Player, c: &Context) -> bool {
        p.bye_eligible && p.score <= c.bye_score
    }

    /// The weight of `higher`–`lower` (`higher` placed above): zero when they may not meet.
    /// `in_bracket`: `lower` belongs to the bracket being paired; `in_next`: to the one below it.
    pub fn weight<const N: usize>(
        &self,
        higher: &Player,
        lower: &Player,
        in_bracket: bool,
        in_next: bool,
        c: &Context,
    ) -> Wide<N> {
        if !self.compatible(higher, lower) {
            return Wide::ZERO;
        }
        let (g, s) = (self.group_bits, self.scores_bits);
        let flag = |b: bool| b as u64;
        // The fields from the top down, each added in place: `at` is the lowest bit of the
        // field being written.
        let mut at = self.width() - 2;
        // C.4 completion and C.5 the bye to an eligible player of the lowest score.
        let mut w = Wide::<N>::ZERO.add_at(
            at,
            1 + flag(!self.bye_candidate(higher, c)) + flag(!self.bye_candidate(lower, c)),
        );
        // C.6 the most pairs in the bracket, C.7 the highest scores paired in it; then the
        // same for the next bracket (completion of the round from below).
        for inside in [in_bracket, in_next] {
            at -= g;
            w = w.add_at(at, flag(inside));
            at -= s;
            if inside {
                w = w.add_at(at + c.offsets.of(higher.score), 1);
            }
        }
        // C.9: the bye assignee with the fewest unplayed games.
        at -= 2 * g;
        if c.single_downfloater_is_bye {
            for p in [higher, lower] {
                if p.score == c.bye_score {
                    w = w.add_at(at, c.unplayed_ranks[&p.played]);
                }
            }
        }
        w = colour_fields(w, &mut at, lower, higher, in_bracket, g);
        let down = |p: &Player, back: usize| p.floats[back] == Float::Down;
        let up = |p: &Player, back: usize| p.floats[back] == Float::Up;
        let backs: &[usize] = match self.rounds_played {
            0 => &[],
            1 => &[1],
            _ => &[1, 2],
        };
        // C.14–C.17: no repeated downfloats or upfloats from the last two rounds.
        for &back in backs {
            at -= g;
            if in_bracket {
                w = w.add_at(
                    at,
                    flag(down(lower, back))
                        + flag(higher.score <= lower.score && down(higher, back)),
                );
            }
            at -= g;
            if in_bracket {
                w = w.add_at(at, flag(!(higher.score > lower.score && up(lower, back))));
            }
        }
        // C.18–C.21: the scores of repeated downfloaters and of upfloaters' opponents as low
        // as can be.
        for &back in backs {
            at -= s;
            if in_bracket {
                for p in [lower, higher] {
                    if down(p, back) {
                        w = w.add_at(at + c.offsets.of(p.score), 1);
                    }
                }
            }
            at -= s;
            if in_bracket && !(up(lower, back) && higher.score > lower.score) {
                w = w.add_at(at + c.offsets.of(higher.score), 1);
            }
        }
        // Room for the bracket procedure: moved-down players, exchanges, opponents.
        debug_assert_eq!(at, 3 * g + 1, "the fields fill the layout's width");
        w
    }
}

/// C.10–C.13: colour preferences met (absolute imbalances, absolute preferences, preferences,
/// strong preferences), counted only inside the bracket.
fn colour_fields<const N: usize>(
    mut w: Wide<N>,
    at: &mut u32,
    player: &Player,
    opponent: &Player,
    in_bracket: bool,
    g: u32,
) -> Wide<N> {
    let differ = player.preference != opponent.preference;
    let imbalances = !player.absolute_imbalance() || !opponent.absolute_imbalance() || differ;
    let absolutes = !player.absolute()
        || !opponent.absolute()
        || differ
        || if player.imbalance == opponent.imbalance {
            player.repeated.is_none() || player.repeated != opponent.repeated
        } else {
            let less_unbalanced = if player.imbalance > opponent.imbalance {
                opponent
            } else {
                player
            };
            less_unbalanced.repeated != player.preference.map(|c| c.other())
        };
    let preferences = differ || player.preference.is_none() || opponent.preference.is_none();
    let strongs = (!player.strong && !player.absolute())
        || (!opponent.strong && !opponent.absolute())
        || (player.absolute() && opponent.absolute())
        || differ;
    for met in [imbalances, absolutes, preferences, strongs] {
        *at -= g;
        w = w.add_at(*at, (in_bracket && met) as u64);
    }
    w
}
