//! The Keizer system of Dutch club evenings: every player has a value by ranking (the leader
//! highest), a win earns the opponent's value and a draw half of it, an evening away earns a
//! third of one's own value, a bye half of it. Scores and ranking are recomputed together until
//! they agree; each evening, whoever is present is paired from the top down, nearest in the
//! ranking, avoiding recent opponents.

use std::collections::HashSet;

/// A finished game between two players (indices), with White's score (1, ½, 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeizerGame {
    /// White.
    pub white: usize,
    /// Black.
    pub black: usize,
    /// White's score.
    pub score: f64,
}

/// Everything the scores depend on.
#[derive(Clone, Debug, Default)]
pub struct Evenings {
    /// Players.
    pub players: usize,
    /// Ratings, for the first ranking.
    pub ratings: Vec<f64>,
    /// Games played.
    pub games: Vec<KeizerGame>,
    /// Byes, one entry per bye.
    pub byes: Vec<usize>,
    /// Evenings away, one entry per player and evening.
    pub absences: Vec<usize>,
}

/// The value of the player at 0-based `rank` among `n`: `n` for the leader down to 1.
fn value(n: usize, rank: usize) -> f64 {
    (n - rank) as f64
}

impl Evenings {
    fn ranking_from(&self, scores: &[f64]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players).collect();
        order.sort_by(|&a, &b| {
            scores[b]
                .total_cmp(&scores[a])
                .then(self.ratings[b].total_cmp(&self.ratings[a]))
                .then(a.cmp(&b))
        });
        order
    }

    fn scores_for(&self, order: &[usize]) -> Vec<f64> {
        let n = self.players;
        let mut rank = vec![0; n];
        for (r, &p) in order.iter().enumerate() {
            rank[p] = r;
        }
        let v = |p: usize| value(n, rank[p]);
        let mut s = vec![0.0; n];
        for g in &self.games {
            s[g.white] += g.score * v(g.black);
            s[g.black] += (1.0 - g.score) * v(g.white);
        }
        for &b in &self.byes {
            s[b] += v(b) / 2.0;
        }
        for &a in &self.absences {
            s[a] += v(a) / 3.0;
        }
        s
    }

    /// Keizer scores and the ranking they give (best first). Values come from a ranking and the
    /// ranking from the scores, so the two are recomputed until the ranking repeats; the result
    /// is the scores computed with the last ranking's values, ranked (when the recomputation
    /// settles, that ranking gives those very scores).
    pub fn standings(&self) -> (Vec<f64>, Vec<usize>) {
        let zero = vec![0.0; self.players];
        let mut seen = vec![self.ranking_from(&zero)];
        loop {
            let scores = self.scores_for(seen.last().expect("one ranking at least"));
            let next = self.ranking_from(&scores);
            if seen.contains(&next) || seen.len() > 100 {
                return (scores, next);
            }
            seen.push(next);
        }
    }
}

/// Pairs the players present (in ranking order, best first): each unpaired player meets the
/// nearest one below who is not in `recent` (pairs as (smaller, larger) index), or the nearest at
/// all when everyone left is recent; the lowest-ranked player sits out with a bye when the
/// number is odd. The player with fewer Whites so far (`whites`: White minus Black games) has
/// White.
pub fn pair(
    present: &[usize],
    recent: &HashSet<(usize, usize)>,
    whites: &[i32],
) -> (Vec<(usize, usize)>, Option<usize>) {
    let mut rest: Vec<usize> = present.to_vec();
    let bye = if rest.len() % 2 == 1 {
        rest.pop()
    } else {
        None
    };
    let mut boards = Vec::new();
    while let Some(a) = (!rest.is_empty()).then(|| rest.remove(0)) {
        let key = |b: usize| (a.min(b), a.max(b));
        let pick = rest
            .iter()
            .position(|&b| !recent.contains(&key(b)))
            .unwrap_or(0);
        let b = rest.remove(pick);
        let a_white = whites[a] <= whites[b];
        boards.push(if a_white { (a, b) } else { (b, a) });
    }
    (boards, bye)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evenings(games: &[(usize, usize, f64)]) -> Evenings {
        Evenings {
            players: 3,
            ratings: vec![1500.0; 3],
            games: games
                .iter()
                .map(|&(white, black, score)| KeizerGame {
                    white,
                    black,
                    score,
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn scores_follow_opponents_values() {
        // Three players: A beat B and C, B beat C.
        let e = evenings(&[(0, 1, 1.0), (1, 2, 1.0), (2, 0, 0.0)]);
        let (scores, order) = e.standings();
        // Values A 3, B 2, C 1: A = 2 + 1 = 3, B = 1, C = 0 — and that ranking gives them back.
        assert_eq!(order, vec![0, 1, 2]);
        assert_eq!(scores, vec![3.0, 1.0, 0.0]);
        assert_eq!(e.scores_for(&order), scores);
    }

    #[test]
    fn a_cycling_recomputation_still_gives_one_answer() {
        // A beat B, B beat C, C drew A: the ranking of B and C flips with each recomputation.
        let e = evenings(&[(0, 1, 1.0), (1, 2, 1.0), (2, 0, 0.5)]);
        let (scores, order) = e.standings();
        assert_eq!(e.standings(), (scores.clone(), order.clone()));
        assert_eq!(order[0], 0, "A leads either way");
        assert_eq!(e.ranking_from(&scores), order);
    }

    #[test]
    fn absences_and_byes_earn_a_share_of_ones_own_value() {
        let e = Evenings {
            players: 2,
            ratings: vec![1600.0, 1500.0],
            byes: vec![0],
            absences: vec![1],
            ..Default::default()
        };
        let (scores, order) = e.standings();
        assert_eq!(order, vec![0, 1]);
        assert_eq!(scores, vec![1.0, 1.0 / 3.0]);
    }

    #[test]
    fn evenings_pair_neighbours_avoiding_recent_opponents() {
        let present = [4, 1, 3, 0, 2];
        let recent: HashSet<(usize, usize)> = [(1, 4)].into_iter().collect();
        let whites = [0, 1, 0, -1, 0];
        let (boards, bye) = pair(&present, &recent, &whites);
        assert_eq!(bye, Some(2));
        // 4 would meet 1 but met them recently: 4–3 instead, then 1–0.
        let pairs: Vec<(usize, usize)> =
            boards.iter().map(|&(w, b)| (w.min(b), w.max(b))).collect();
        assert_eq!(pairs, vec![(3, 4), (0, 1)]);
        // 3 has had fewer Whites than 4: 3 has White.
        assert_eq!(boards[0], (3, 4));
    }
}
