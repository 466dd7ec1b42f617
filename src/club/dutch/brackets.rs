//! The bracket-by-bracket procedure: from the top score group down, each bracket (its
//! moved-down players, its own score group, with the next group as the place to float to) is
//! settled by matchings over every player still unpaired, so that what is decided in a bracket
//! never leaves the rest of the round unpairable (C.4).
//!
//! In one bracket, in this order: how many moved-down players are paired (C.6–C.7, from the
//! weights), which of them (the highest first, B.1), their opponents (the highest available
//! after the criteria, B.3); then in the remainder, how many players change between S1 and S2,
//! which (the lowest of S1 and the highest of S2, with the smallest difference of pairing
//! numbers, B.4), and finally each S1 player's opponent from the top. Each choice is a matching
//! with the candidate's edges nudged in the lowest bits: the nudge wins only where the criteria
//! are indifferent.

use super::DutchError;
use super::player::Player;
use super::weights::{Context, Layout, Offsets};
use crate::club::matching::Graph;
use crate::club::matching::wide::Wide;
use std::collections::HashMap;

/// Partners in the round: `(a, b)` field indices, `b == a` for the bye.
pub(super) type Matched = Vec<(usize, usize)>;

/// Why a round was not paired with a layout.
pub(super) enum Failure {
    /// The round cannot be paired.
    Dutch(DutchError),
    /// A bracket's score fields need this many bits, more than the layout has.
    Narrow(u32),
}

impl From<DutchError> for Failure {
    fn from(e: DutchError) -> Failure {
        Failure::Dutch(e)
    }
}

struct Round<'a, const N: usize> {
    /// Players present, by score then pairing number: the matching's vertices.
    sorted: Vec<&'a Player>,
    layout: &'a Layout,
    graph: Graph<Wide<N>>,
    mates: Vec<usize>,
}

impl<const N: usize> Round<'_, N> {
    fn score(&self, v: usize) -> u32 {
        self.sorted[v].score
    }

    fn solve(&mut self) {
        self.mates = self.graph.matching();
    }

    /// Pairs `v` with the first of `options` (lowest first: each later one is nudged up by one
    /// more, from `start`) that the criteria allow, and settles the pair. `count_absent`: an
    /// option without an edge still takes its step.
    fn settle_highest(
        &mut self,
        v: usize,
        options: &[(usize, Wide<N>)],
        start: u64,
        count_absent: bool,
    ) -> usize {
        let mut addend = start;
        for &(o, w) in options {
            if !w.is_zero() {
                self.graph.set(v, o, w.plus(addend));
                addend += 1;
            } else if count_absent {
                addend += 1;
            }
        }
        self.solve();
        let mate = self.mates[v];
        self.settle(v, mate);
        mate
    }

    /// Settles `a`–`b`: their edge outweighs all others, and no one else may take them.
    fn settle(&mut self, a: usize, b: usize) {
        let heavy = self.layout.settled::<N>();
        for u in 0..self.sorted.len() {
            if u != a {
                self.graph
                    .set(a, u, if u == b { heavy } else { Wide::ZERO });
            }
            if u != b {
                self.graph
                    .set(b, u, if u == a { heavy } else { Wide::ZERO });
            }
        }
    }
}

/// Pairs the players present: partners and the bye, before colours.
pub(super) fn pair<const N: usize>(
    players: &[Option<Player>],
    layout: &Layout,
) -> Result<Matched, Failure> {
    let mut sorted: Vec<&Player> = players.iter().flatten().collect();
    sorted.sort_by(|a, b| a.placing(b));
    let n = sorted.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut round = Round::<N> {
        sorted,
        layout,
        graph: Graph::new(n),
        mates: Vec::new(),
    };
    let top = round.score(0);
    let odd = n % 2 == 1;
    let no_ranks = HashMap::new();
    let no_offsets = Offsets::none();
    let plain = Context {
        bye_score: 0,
        single_downfloater_is_bye: false,
        unplayed_ranks: &no_ranks,
        offsets: &no_offsets,
    };
    // First, whether the round can be paired at all, and (with an odd number) from which score
    // the bye is given: the lowest the rest of the round allows.
    for i in 0..n {
        for j in 0..i {
            let (p, o) = (round.sorted[i], round.sorted[j]);
            let w = if odd {
                if layout.compatible(p, o) {
                    let g = layout.group_bits;
                    Wide::<N>::from_u64(1 + !p.bye_eligible as u64 + !o.bye_eligible as u64)
                        .shifted(layout.scores_bits)
                        .or(u64::from(layout.ranks[&p.score] + layout.ranks[&o.score]))
                        .shifted(g)
                        .or((p.score >= top) as u64)
                } else {
                    Wide::ZERO
                }
            } else {
                layout.weight(o, p, false, false, &plain)
            };
            round.graph.set(i, j, w);
        }
    }
    round.solve();
    let unmatched: Vec<usize> = (0..n).filter(|&v| round.mates[v] == v).collect();
    if unmatched.len() > 1 || unmatched.iter().any(|&v| !round.sorted[v].bye_eligible) {
        return Err(DutchError::Impossible(n).into());
    }
    let mut bye_score = 0;
    let mut single = false;
    let mut unplayed_ranks = HashMap::new();
    if odd {
        bye_score = round.score(unmatched[0]);
        single = bye_score >= top
            && (0..n)
                .take_while(|&v| round.score(v) >= top)
                .all(|v| round.score(round.mates[v]) >= top);
        let mut games: Vec<usize> = round
            .sorted
            .iter()
            .filter(|p| p.score == bye_score)
            .map(|p| p.played)
            .collect();
        games.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, g) in games.into_iter().enumerate() {
            unplayed_ranks.insert(g, rank as u64);
        }
        let context = Context {
            bye_score,
            single_downfloater_is_bye: single,
            unplayed_ranks: &unplayed_ranks,
            offsets: &no_offsets,
        };
        for i in 0..n {
            for j in 0..i {
                let w = layout.weight(round.sorted[j], round.sorted[i], false, false, &context);
                round.graph.set(i, j, w);
            }
        }
    }

    let mut result: Matched = Vec::new();
    let mut matched = vec![false; n];
    // The bracket: moved-down players (the first `moved` of it), then the score group, then
    // (loaded at each step) the next score group. Vertices of the groups are consecutive.
    let mut next = (0..n).take_while(|&v| round.score(v) >= top).count();
    let mut bracket: Vec<usize> = (0..next).collect();
    let mut moved = 0;
    let mut group_start = 0;
    while bracket.len() > 1 || next < n {
        let group_end_index = bracket.len();
        let group_end = group_start + (group_end_index - moved);
        let next_group = next;
        while next < n && round.score(next) >= round.score(next_group) {
            bracket.push(next);
            next += 1;
        }
        let offsets = Offsets::new(bracket.iter().map(|&v| round.sorted[v]), layout)
            .map_err(Failure::Narrow)?;
        let context = Context {
            bye_score,
            single_downfloater_is_bye: single,
            unplayed_ranks: &unplayed_ranks,
            offsets: &offsets,
        };
        let len = bracket.len();
        // base[larger][smaller], over bracket positions.
        let mut base: Vec<Vec<Wide<N>>> = vec![Vec::new(); len];
        for larger in moved..len {
            for smaller in 0..larger {
                base[larger].push(layout.weight(
                    round.sorted[bracket[smaller]],
                    round.sorted[bracket[larger]],
                    larger < group_end_index,
                    larger >= group_end_index,
                    &context,
                ));
            }
        }
        for larger in moved..len {
            for smaller in 0..larger {
                round
                    .graph
                    .set(bracket[larger], bracket[smaller], base[larger][smaller]);
            }
        }
        let g = layout.group_bits;
        // The weight nudged for the remainder: fewest exchanges, smallest exchanged numbers.
        let nudged = |base: &Vec<Vec<Wide<N>>>,
                      smaller: usize,
                      larger: usize,
                      smaller_rem: usize,
                      pairs: usize|
         -> Wide<N> {
            let w = base[larger][smaller];
            if w.is_zero() {
                return w;
            }
            let addend = (Wide::<N>::from_u64((smaller_rem < pairs) as u64).shifted(2 * g)
                - Wide::from_u64(smaller_rem as u64))
            .shifted(1);
            w + addend
        };
        round.solve();
        let in_group = |m: usize| m >= group_start && m < group_end;

        // Which moved-down players are paired in the bracket: the highest first.
        let mut group_score = 0;
        let mut left = 0;
        let mut left_matched = 0;
        for pi in 0..moved {
            let s = round.score(bracket[pi]);
            if pi == 0 || s < group_score {
                group_score = s;
                left = 0;
                left_matched = 0;
                let mut k = pi;
                while k < len && round.score(bracket[k]) >= group_score {
                    left += 1;
                    if in_group(round.mates[bracket[k]]) {
                        left_matched += 1;
                    }
                    k += 1;
                }
            }
            if left_matched == 0 {
                continue;
            }
            let pv = bracket[pi];
            if left <= left_matched {
                matched[pv] = true;
                continue;
            }
            left -= 1;
            if !in_group(round.mates[pv]) {
                for oi in moved..group_end_index {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        round.graph.set(pv, bracket[oi], w.or(1));
                    }
                }
                round.solve();
            }
            if in_group(round.mates[pv]) {
                matched[pv] = true;
                left_matched -= 1;
                for oi in moved..group_end_index {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        let w = w.or((group_end_index - moved) as u64).plus(1);
                        round.graph.set(pv, bracket[oi], w);
                    }
                }
            }
        }

        // Their opponents: the highest the criteria allow.
        for pi in 0..moved {
            let pv = bracket[pi];
            if !matched[pv] {
                continue;
            }
            let options: Vec<(usize, Wide<N>)> = (moved..group_end_index)
                .rev()
                .filter(|&oi| !matched[bracket[oi]])
                .map(|oi| (bracket[oi], base[oi][pi]))
                .collect();
            let mv = round.settle_highest(pv, &options, len as u64, false);
            matched[mv] = true;
        }

        // The remainder: S1 (the first `pairs` of it) against S2.
        let mut remainder: Vec<usize> = Vec::new();
        let mut pairs = 0;
        for (pi, &pv) in bracket.iter().enumerate().take(group_end_index).skip(moved) {
            if round.mates[pv] < group_start {
                continue;
            }
            remainder.push(pi);
            if round.mates[pv] < pv {
                pairs += 1;
            }
        }
        for (oi_pos, &oi) in remainder.iter().enumerate() {
            let ov = bracket[oi];
            for (pr, &pi) in remainder[..oi_pos].iter().enumerate() {
                round
                    .graph
                    .set(bracket[pi], ov, nudged(&base, pi, oi, pr, pairs));
            }
        }
        round.solve();
        let pairs_down =
            |round: &Round<N>, v: usize| round.mates[v] > v && round.mates[v] < group_end;
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&pi| !pairs_down(&round, bracket[pi]))
            .count();

        // Exchanges out of S1: its lowest players first.
        let mut remaining = exchanges;
        let mut pos = pairs;
        while pos > 0 && remaining > 0 {
            pos -= 1;
            let pi = remainder[pos];
            let pv = bracket[pi];
            if pairs_down(&round, pv) {
                for &oi in &remainder[pos + 1..] {
                    let w = nudged(&base, pi, oi, pos, pairs);
                    if !w.is_zero() {
                        round.graph.set(pv, bracket[oi], w.minus(1));
                    }
                }
                round.solve();
            }
            let exchange = !pairs_down(&round, pv);
            remaining -= exchange as usize;
            for &oi in &remainder[pos + 1..] {
                if exchange {
                    base[oi][pi] = Wide::ZERO;
                }
                round
                    .graph
                    .set(pv, bracket[oi], nudged(&base, pi, oi, pos, pairs));
            }
        }

        // Exchanges into S1: the highest of S2 first.
        let mut remaining = exchanges;
        for pos in pairs..remainder.len() {
            if remaining <= 1 {
                break;
            }
            let pi = remainder[pos];
            let pv = bracket[pi];
            let already = pairs_down(&round, pv);
            if !already {
                for &oi in &remainder[pos + 1..] {
                    let w = nudged(&base, pi, oi, pos, pairs);
                    if !w.is_zero() {
                        round.graph.set(pv, bracket[oi], w.plus(1));
                    }
                }
                round.solve();
            }
            if pairs_down(&round, pv) {
                remaining -= 1;
                for &oi in &remainder[..pos] {
                    base[pi][oi] = Wide::ZERO;
                    round.graph.set(pv, bracket[oi], Wide::ZERO);
                }
                for oi in group_end_index..len {
                    base[oi][pi] = Wide::ZERO;
                    round.graph.set(pv, bracket[oi], Wide::ZERO);
                }
            }
            if !already {
                for &oi in &remainder[pos + 1..] {
                    round
                        .graph
                        .set(pv, bracket[oi], nudged(&base, pi, oi, pos, pairs));
                }
            }
        }

        // S1 is now fixed: only its players may take one from below them.
        for (pos, &pi) in remainder.iter().enumerate() {
            let pv = bracket[pi];
            for &oi in &remainder[pos + 1..] {
                let ov = bracket[oi];
                if !pairs_down(&round, pv) || pairs_down(&round, ov) {
                    base[oi][pi] = Wide::ZERO;
                }
                round.graph.set(pv, ov, base[oi][pi]);
            }
        }

        // Each S1 player's opponent, from the top.
        for &pi in &remainder {
            let pv = bracket[pi];
            if !pairs_down(&round, pv) {
                continue;
            }
            let options: Vec<(usize, Wide<N>)> = remainder
                .iter()
                .rev()
                .filter(|&&oi| oi > pi && !matched[bracket[oi]])
                .map(|&oi| (bracket[oi], base[oi][pi]))
                .collect();
            let mv = round.settle_highest(pv, &options, 0, true);
            matched[pv] = true;
            matched[mv] = true;
        }

        // The next bracket: whoever was not paired here, then the next score group.
        let mut carried = Vec::new();
        moved = 0;
        single = odd && next_group < n && bye_score >= round.score(next_group);
        for (pi, &pv) in bracket.iter().enumerate() {
            if pi < group_end_index && matched[pv] {
                let mv = round.mates[pv];
                // Pairs are settled from their higher player, always the lower vertex.
                if pv < mv {
                    result.push((round.sorted[pv].id, round.sorted[mv].id));
                }
            } else {
                carried.push(pv);
                if pi < group_end_index {
                    moved += 1;
                }
                if single && round.score(round.mates[pv]) < round.score(next_group) {
                    single = false;
                }
            }
        }
        // Below the last score group, a bracket that pairs no one never will (C.4 held when
        // the round began, so this is a broken invariant, not bad input).
        if next_group == n && carried.len() == bracket.len() {
            return Err(DutchError::Impossible(n).into());
        }
        bracket = carried;
        group_start = group_end;
    }
    for &v in &bracket {
        result.push((round.sorted[v].id, round.sorted[v].id));
    }
    Ok(result)
}
