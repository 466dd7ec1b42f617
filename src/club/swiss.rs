//! Swiss pairing in the manner of the Dutch system, as a pure function of the standings.
//!
//! Players are ranked by score, then rating. The bye goes to the lowest-ranked player who has
//! not had one. Then, from the top, each player is paired within the score group, top half
//! against bottom half (S1 against S2), the nearest compatible opponent to that ideal first, and
//! otherwise with players of the next groups (a downfloat); the search backtracks when a choice
//! leaves players below it unpairable. The absolute criteria always hold: no rematch, no
//! forbidden pair, at most one bye each, a colour difference within ±2 and never three of the
//! same colour in a row.

use std::collections::HashSet;

/// A colour played in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// What the pairing needs to know of a player.
#[derive(Clone, Debug, Default)]
pub struct SwissPlayer {
    /// The caller's id.
    pub id: usize,
    /// Points so far.
    pub score: f64,
    /// Rating, for the ranking within a score.
    pub rating: f64,
    /// Ids of the opponents met.
    pub opponents: HashSet<usize>,
    /// Colours played, in order (byes and forfeits not included).
    pub colours: Vec<Side>,
    /// Whether the player has had a bye.
    pub had_bye: bool,
    /// How the player floated in the last round, if at all.
    pub floated: Option<Float>,
}

/// A pairing outside one's score group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    /// Paired with a lower score (or given the bye).
    Down,
    /// Paired with a higher score.
    Up,
}

impl SwissPlayer {
    fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Side::White { 1 } else { -1 })
            .sum()
    }

    /// The colour the player must have (absolute preference), if any.
    fn must(&self) -> Option<Side> {
        let n = self.colours.len();
        let last_two = n >= 2 && self.colours[n - 1] == self.colours[n - 2];
        if self.balance() <= -2 || (last_two && self.colours[n - 1] == Side::Black) {
            Some(Side::White)
        } else if self.balance() >= 2 || (last_two && self.colours[n - 1] == Side::White) {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The colour the player would like: the one played less, else the other of the last.
    fn wants(&self) -> Option<Side> {
        self.must().or_else(|| match self.balance() {
            b if b < 0 => Some(Side::White),
            b if b > 0 => Some(Side::Black),
            _ => self.colours.last().map(|c| match c {
                Side::White => Side::Black,
                Side::Black => Side::White,
            }),
        })
    }
}

/// A round's pairing: (White id, Black id) per board, in ranking order, and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// The boards.
    pub boards: Vec<(usize, usize)>,
    /// The player with the bye.
    pub bye: Option<usize>,
}

/// Colours for a pair that can meet, higher-ranked player first; `None` if both must have the
/// same colour.
fn colours(a: &SwissPlayer, b: &SwissPlayer) -> Option<(usize, usize)> {
    let white_first = match (a.must(), b.must()) {
        (Some(x), Some(y)) if x == y => return None,
        (Some(x), _) => x == Side::White,
        (_, Some(y)) => y == Side::Black,
        _ => match (a.wants(), b.wants()) {
            (Some(x), Some(y)) if x != y => x == Side::White,
            // Equal wishes: the higher-ranked player gets theirs.
            (Some(x), _) => x == Side::White,
            (None, Some(y)) => y == Side::Black,
            (None, None) => true,
        },
    };
    Some(if white_first {
        (a.id, b.id)
    } else {
        (b.id, a.id)
    })
}

struct Search<'a> {
    players: &'a [SwissPlayer],
    forbidden: &'a HashSet<(usize, usize)>,
    paired: Vec<bool>,
    boards: Vec<(usize, usize)>,
    steps: u64,
}

const STEP_LIMIT: u64 = 2_000_000;

impl Search<'_> {
    fn compatible(&self, i: usize, j: usize) -> Option<(usize, usize)> {
        let (a, b) = (&self.players[i], &self.players[j]);
        if a.opponents.contains(&b.id) || self.forbidden.contains(&(a.id.min(b.id), a.id.max(b.id)))
        {
            return None;
        }
        colours(a, b)
    }

    /// Opponents for player `i` in order of preference.
    fn candidates(&self, i: usize) -> Vec<usize> {
        let score = self.players[i].score;
        let group: Vec<usize> = (0..self.players.len())
            .filter(|&j| (j == i || !self.paired[j]) && self.players[j].score == score)
            .collect();
        let pos = group.iter().position(|&j| j == i).unwrap_or(0);
        let ideal = pos + group.len() / 2;
        let mut same: Vec<usize> = group.iter().copied().filter(|&j| j != i).collect();
        same.sort_by_key(|&j| {
            let p = group.iter().position(|&g| g == j).unwrap_or(0);
            (p.abs_diff(ideal), p)
        });
        let others = (0..self.players.len())
            .filter(|&j| j != i && !self.paired[j] && self.players[j].score != score);
        let mut others: Vec<usize> = others.collect();
        // Nearest score first (a float down or up by as little as possible), then those who did
        // not float up last round, then ranking.
        let up = |j: usize| self.players[j].floated == Some(Float::Up);
        others.sort_by(|&x, &y| {
            let dx = (self.players[x].score - score).abs();
            let dy = (self.players[y].score - score).abs();
            dx.total_cmp(&dy).then(up(x).cmp(&up(y))).then(x.cmp(&y))
        });
        same.into_iter().chain(others).collect()
    }

    fn solve(&mut self) -> bool {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return false;
        }
        let Some(top) = self.paired.iter().position(|p| !p) else {
            return true;
        };
        // Within the top score group, last round's downfloaters are paired first, so that
        // someone else floats down this time if anyone must.
        let score = self.players[top].score;
        let i = (top..self.players.len())
            .find(|&j| {
                !self.paired[j]
                    && self.players[j].score == score
                    && self.players[j].floated == Some(Float::Down)
            })
            .unwrap_or(top);
        self.paired[i] = true;
        for j in self.candidates(i) {
            if let Some(board) = self.compatible(i, j) {
                self.paired[j] = true;
                self.boards.push(board);
                if self.solve() {
                    return true;
                }
                self.boards.pop();
                self.paired[j] = false;
            }
        }
        self.paired[i] = false;
        false
    }
}

/// Pairs a round. `forbidden` holds pairs (smaller id first) the organiser ruled out. Fails when
/// no pairing satisfies the absolute criteria (e.g. everyone has met everyone).
pub fn pair(
    players: &[SwissPlayer],
    forbidden: &HashSet<(usize, usize)>,
) -> Result<SwissRound, String> {
    let mut ranked: Vec<SwissPlayer> = players.to_vec();
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let bye_choices: Vec<Option<usize>> = if ranked.len() % 2 == 1 {
        (0..ranked.len())
            .rev()
            .filter(|&i| !ranked[i].had_bye)
            .map(Some)
            .collect::<Vec<_>>()
    } else {
        vec![None]
    };
    if bye_choices.is_empty() {
        return Err("an odd field and everyone has had a bye".into());
    }
    for bye in bye_choices {
        let rest: Vec<SwissPlayer> = ranked
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != bye)
            .map(|(_, p)| p.clone())
            .collect();
        let mut search = Search {
            players: &rest,
            forbidden,
            paired: vec![false; rest.len()],
            boards: Vec::new(),
            steps: 0,
        };
        if search.solve() {
            return Ok(SwissRound {
                boards: search.boards,
                bye: bye.map(|i| ranked[i].id),
            });
        }
    }
    Err("no pairing meets the rules (no rematches, colours, byes)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for simulated results.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Plays a simulated tournament, checking every round; returns the rounds paired and how
    /// many of the boards paired players more than a win apart, of how many.
    fn simulate(n: usize, rounds: usize, seed: u64) -> (usize, usize, usize) {
        let (mut boards, mut wide) = (0, 0);
        let mut rng = Rng(seed | 1);
        let mut players: Vec<SwissPlayer> = (0..n)
            .map(|id| SwissPlayer {
                id,
                rating: 1000.0 + (rng.next() % 1500) as f64,
                ..Default::default()
            })
            .collect();
        let forbidden = HashSet::new();
        for round in 0..rounds {
            let Ok(r) = pair(&players, &forbidden) else {
                return (round, wide, boards);
            };
            let scores: Vec<f64> = players.iter().map(|p| p.score).collect();
            let mut seen = HashSet::new();
            for &(w, b) in &r.boards {
                assert!(
                    seen.insert(w) && seen.insert(b),
                    "a player twice in one round"
                );
                assert!(!players[w].opponents.contains(&b), "rematch {w}-{b}");
                boards += 1;
                if (scores[w] - scores[b]).abs() > 1.0 {
                    wide += 1;
                }
                let outcome = rng.next() % 3;
                let (sw, sb) = [(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)][outcome as usize];
                for (me, them, s, c) in [(w, b, sw, Side::White), (b, w, sb, Side::Black)] {
                    let p = &mut players[me];
                    p.opponents.insert(them);
                    p.colours.push(c);
                    p.score += s;
                    p.floated = match scores[me].total_cmp(&scores[them]) {
                        std::cmp::Ordering::Greater => Some(Float::Down),
                        std::cmp::Ordering::Less => Some(Float::Up),
                        std::cmp::Ordering::Equal => None,
                    };
                }
            }
            if let Some(bye) = r.bye {
                assert!(seen.insert(bye));
                assert!(!players[bye].had_bye, "a second bye");
                players[bye].had_bye = true;
                players[bye].score += 1.0;
            }
            assert_eq!(seen.len(), n, "everyone plays or has the bye");
            for p in &players {
                assert!(p.balance().abs() <= 2, "colour difference {}", p.balance());
                let c = &p.colours;
                assert!(
                    !c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "three of a colour in a row: {c:?}"
                );
            }
        }
        (rounds, wide, boards)
    }

    #[test]
    fn simulated_tournaments_keep_the_absolute_criteria() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for n in [5, 6, 7, 9, 12, 17, 24, 31, 50, 75, 120, 200] {
            for rounds in [5, 7, 9, 11] {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let (played, wide, boards) = simulate(n, rounds, seed);
                // Only small fields can run out of opponents.
                if n > 2 * rounds {
                    assert_eq!(played, rounds, "n={n} rounds={rounds}");
                }
                // Score groups hold: in fields large enough to fill them, hardly any board pairs
                // players more than a win apart.
                // Score groups hold: while the field is large for the number of rounds, no
                // board pairs players more than a win apart, and in large fields hardly any.
                if n >= 24 && rounds <= 7 {
                    assert!(
                        wide * 100 <= boards,
                        "n={n} rounds={rounds}: {wide} of {boards}"
                    );
                }
                if n >= 50 {
                    assert!(
                        wide * 20 <= boards,
                        "n={n} rounds={rounds}: {wide} of {boards}"
                    );
                }
            }
        }
    }

    #[test]
    fn first_round_pairs_top_half_against_bottom_half() {
        let players: Vec<SwissPlayer> = (0..8)
            .map(|id| SwissPlayer {
                id,
                rating: 2000.0 - id as f64 * 10.0,
                ..Default::default()
            })
            .collect();
        let r = pair(&players, &HashSet::new()).unwrap();
        let mut pairs: Vec<(usize, usize)> = r
            .boards
            .iter()
            .map(|&(w, b)| (w.min(b), w.max(b)))
            .collect();
        pairs.sort();
        assert_eq!(pairs, vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
        assert_eq!(r.bye, None);
    }

    #[test]
    fn last_rounds_downfloater_stays_in_the_group() {
        // A, B and C on 2 points (C floated down last round), D and E on 1, F on 0.
        let p = |id: usize, score: f64, floated| SwissPlayer {
            id,
            score,
            rating: 2000.0 - id as f64,
            floated,
            ..Default::default()
        };
        let players = vec![
            p(0, 2.0, None),
            p(1, 2.0, None),
            p(2, 2.0, Some(Float::Down)),
            p(3, 1.0, None),
            p(4, 1.0, None),
            p(5, 0.0, None),
        ];
        let r = pair(&players, &HashSet::new()).unwrap();
        let opponent = |x: usize| {
            r.boards
                .iter()
                .find_map(|&(w, b)| (w == x).then_some(b).or((b == x).then_some(w)))
        };
        assert!(
            matches!(opponent(2), Some(0 | 1)),
            "C stays in its group: {:?}",
            r.boards
        );
        // Without the history, C (the lowest of the three) would float.
        let mut fresh = players.clone();
        fresh[2].floated = None;
        let r = pair(&fresh, &HashSet::new()).unwrap();
        let c = r
            .boards
            .iter()
            .find_map(|&(w, b)| (w == 2).then_some(b).or((b == 2).then_some(w)));
        assert!(matches!(c, Some(3 | 4)), "{:?}", r.boards);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_without_one() {
        let mut players: Vec<SwissPlayer> = (0..5)
            .map(|id| SwissPlayer {
                id,
                rating: 2000.0 - id as f64,
                ..Default::default()
            })
            .collect();
        assert_eq!(pair(&players, &HashSet::new()).unwrap().bye, Some(4));
        players[4].had_bye = true;
        assert_eq!(pair(&players, &HashSet::new()).unwrap().bye, Some(3));
    }

    #[test]
    fn forbidden_pairs_and_impossible_rounds() {
        let players: Vec<SwissPlayer> = (0..2)
            .map(|id| SwissPlayer {
                id,
                ..Default::default()
            })
            .collect();
        let forbidden: HashSet<(usize, usize)> = [(0, 1)].into_iter().collect();
        assert!(pair(&players, &forbidden).is_err());
        let mut met = players.clone();
        met[0].opponents.insert(1);
        met[1].opponents.insert(0);
        assert!(pair(&met, &HashSet::new()).is_err());
    }
}
