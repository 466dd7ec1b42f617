//! Pairing systems, as pure functions of the players' numbers (no database).
//!
//! Round robins follow the Berger tables of the FIDE Handbook (C.05, Annex 1), which FMJD
//! tournaments use as well: with `n` players (an odd field gets a bye as player `n + 1`), in round
//! `r` player `n` meets `(r + 1) / 2` with Black in odd rounds and `n/2 + r/2` with White in even
//! rounds; on the other boards, counting from that opponent `o`, board `k` has `o + k − 1` with
//! White against `o − (k − 1)`, numbers taken round 1..n−1.

/// One board of a round: White against Black, by player number (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The player with White.
    pub white: usize,
    /// The player with Black.
    pub black: usize,
}

/// A round: its boards in table order, and the player with a bye (odd fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The games.
    pub boards: Vec<Board>,
    /// Who sits out, if anyone.
    pub bye: Option<usize>,
}

/// The Berger table for `players` players (at least 2): `players − 1` rounds for an even field,
/// `players` rounds for an odd one. A double round robin plays the table with its last two rounds
/// exchanged, then the table again with colours reversed.
pub fn berger(players: usize, double: bool) -> Vec<Round> {
    let n = players + players % 2;
    let wrap = |x: isize| -> usize { ((x - 1).rem_euclid(n as isize - 1) + 1) as usize };
    let mut rounds = Vec::new();
    for r in 1..n {
        let opponent = if r % 2 == 1 {
            r.div_ceil(2)
        } else {
            n / 2 + r / 2
        };
        let mut boards = Vec::with_capacity(n / 2);
        boards.push(if r % 2 == 1 {
            Board {
                white: opponent,
                black: n,
            }
        } else {
            Board {
                white: n,
                black: opponent,
            }
        });
        for k in 1..n / 2 {
            boards.push(Board {
                white: wrap((opponent + k) as isize),
                black: wrap(opponent as isize - k as isize),
            });
        }
        let mut bye = None;
        if n != players {
            // Player n is the bye: its opponent sits out.
            let b = boards.remove(0);
            bye = Some(if b.white == n { b.black } else { b.white });
        }
        rounds.push(Round { boards, bye });
    }
    if double {
        // FIDE C.05: in a double round robin the last two rounds of the first cycle change
        // places, so nobody gets three games running with the same colour at the turn.
        let first_cycle = {
            let mut c = rounds.clone();
            let len = c.len();
            if len >= 2 {
                c.swap(len - 1, len - 2);
            }
            c
        };
        let second: Vec<Round> = rounds
            .iter()
            .map(|r| Round {
                boards: r
                    .boards
                    .iter()
                    .map(|b| Board {
                        white: b.black,
                        black: b.white,
                    })
                    .collect(),
                bye: r.bye,
            })
            .collect();
        rounds = first_cycle;
        rounds.extend(second);
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn table(rounds: &[Round]) -> Vec<Vec<(usize, usize)>> {
        rounds
            .iter()
            .map(|r| r.boards.iter().map(|b| (b.white, b.black)).collect())
            .collect()
    }

    #[test]
    fn published_tables() {
        // FIDE Handbook C.05 Annex 1, Berger tables for 4, 6 and 8 players, round by round.
        assert_eq!(
            table(&berger(4, false)),
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)],
            ]
        );
        assert_eq!(
            table(&berger(6, false)),
            vec![
                vec![(1, 6), (2, 5), (3, 4)],
                vec![(6, 4), (5, 3), (1, 2)],
                vec![(2, 6), (3, 1), (4, 5)],
                vec![(6, 5), (1, 4), (2, 3)],
                vec![(3, 6), (4, 2), (5, 1)],
            ]
        );
        assert_eq!(
            table(&berger(8, false)),
            vec![
                vec![(1, 8), (2, 7), (3, 6), (4, 5)],
                vec![(8, 5), (6, 4), (7, 3), (1, 2)],
                vec![(2, 8), (3, 1), (4, 7), (5, 6)],
                vec![(8, 6), (7, 5), (1, 4), (2, 3)],
                vec![(3, 8), (4, 2), (5, 1), (6, 7)],
                vec![(8, 7), (1, 6), (2, 5), (3, 4)],
                vec![(4, 8), (5, 3), (6, 2), (7, 1)],
            ]
        );
        // 10 players, the first three rounds.
        assert_eq!(
            table(&berger(10, false))[..3],
            [
                vec![(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
                vec![(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
                vec![(2, 10), (3, 1), (4, 9), (5, 8), (6, 7)],
            ]
        );
    }

    #[test]
    fn every_pair_meets_once_and_colours_balance_for_3_to_20_players() {
        for players in 3..=20 {
            let rounds = berger(players, false);
            let n = players + players % 2;
            assert_eq!(rounds.len(), n - 1, "{players}");
            let mut met = HashSet::new();
            let mut whites = vec![0i32; players + 1];
            let mut byes = vec![0; players + 1];
            for r in &rounds {
                let mut seen = HashSet::new();
                for b in &r.boards {
                    assert!(b.white <= players && b.black <= players);
                    assert!(seen.insert(b.white) && seen.insert(b.black), "{players}");
                    assert!(met.insert((b.white.min(b.black), b.white.max(b.black))));
                    whites[b.white] += 1;
                    whites[b.black] -= 1;
                }
                if let Some(p) = r.bye {
                    assert!(seen.insert(p));
                    byes[p] += 1;
                }
                assert_eq!(seen.len(), players, "everyone plays or has the bye");
            }
            assert_eq!(met.len(), players * (players - 1) / 2, "{players}");
            for p in 1..=players {
                assert!(whites[p].abs() <= 1, "{players}: player {p} colour balance");
                assert_eq!(byes[p], usize::from(players % 2 == 1));
            }
        }
    }

    /// Published tables in the compact form `1-10 2-9 …`, one round per line.
    fn parse_table(text: &str) -> Vec<Vec<(usize, usize)>> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                l.split_whitespace()
                    .map(|p| {
                        let (w, b) = p.split_once('-').expect("a pair");
                        (w.parse().expect("a number"), b.parse().expect("a number"))
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn published_tables_for_10_and_12_players() {
        let ten = "1-10 2-9 3-8 4-7 5-6
                   10-6 7-5 8-4 9-3 1-2
                   2-10 3-1 4-9 5-8 6-7
                   10-7 8-6 9-5 1-4 2-3
                   3-10 4-2 5-1 6-9 7-8
                   10-8 9-7 1-6 2-5 3-4
                   4-10 5-3 6-2 7-1 8-9
                   10-9 1-8 2-7 3-6 4-5
                   5-10 6-4 7-3 8-2 9-1";
        assert_eq!(table(&berger(10, false)), parse_table(ten));
        // Nine players: the ten-player table with 10 as the bye.
        let nine = berger(9, false);
        assert_eq!(nine[0].bye, Some(1));
        assert_eq!(nine[1].bye, Some(6));
        let twelve = "1-12 2-11 3-10 4-9 5-8 6-7
                      12-7 8-6 9-5 10-4 11-3 1-2
                      2-12 3-1 4-11 5-10 6-9 7-8
                      12-8 9-7 10-6 11-5 1-4 2-3
                      3-12 4-2 5-1 6-11 7-10 8-9
                      12-9 10-8 11-7 1-6 2-5 3-4
                      4-12 5-3 6-2 7-1 8-11 9-10
                      12-10 11-9 1-8 2-7 3-6 4-5
                      5-12 6-4 7-3 8-2 9-1 10-11
                      12-11 1-10 2-9 3-8 4-7 5-6
                      6-12 7-5 8-4 9-3 10-2 11-1";
        assert_eq!(table(&berger(12, false)), parse_table(twelve));
        let fourteen = "1-14 2-13 3-12 4-11 5-10 6-9 7-8
                        14-8 9-7 10-6 11-5 12-4 13-3 1-2
                        2-14 3-1 4-13 5-12 6-11 7-10 8-9
                        14-9 10-8 11-7 12-6 13-5 1-4 2-3
                        3-14 4-2 5-1 6-13 7-12 8-11 9-10
                        14-10 11-9 12-8 13-7 1-6 2-5 3-4";
        assert_eq!(table(&berger(14, false))[..6], parse_table(fourteen)[..]);
    }

    #[test]
    fn double_round_robin_reverses_colours_and_avoids_three_in_a_row() {
        let rounds = berger(5, true);
        assert_eq!(rounds.len(), 10);
        let single = berger(5, false);
        for (a, b) in single.iter().zip(&rounds[5..]) {
            assert_eq!(a.bye, b.bye);
            for (x, y) in a.boards.iter().zip(&b.boards) {
                assert_eq!((x.white, x.black), (y.black, y.white));
            }
        }
        assert_eq!(rounds[3], single[4]);
        assert_eq!(rounds[4], single[3]);
        for players in 3..=20 {
            let rounds = berger(players, true);
            for p in 1..=players {
                let colours: Vec<bool> = rounds
                    .iter()
                    .filter_map(|r| {
                        r.boards.iter().find_map(|b| {
                            (b.white == p)
                                .then_some(true)
                                .or((b.black == p).then_some(false))
                        })
                    })
                    .collect();
                assert!(
                    !colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "{players} players, player {p}: {colours:?}"
                );
            }
        }
    }
}
