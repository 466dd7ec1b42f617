//! The matching against exhaustive search.

use super::*;
use proptest::prelude::*;

/// The best total weight (and, for ties in cardinality mode, the most edges first) by trying
/// every matching.
fn brute(n: usize, edges: &[(usize, usize, i64)], max_cardinality: bool) -> (usize, i64) {
    fn go(
        k: usize,
        used: &mut Vec<bool>,
        edges: &[(usize, usize, i64)],
        count: usize,
        total: i64,
        best: &mut (usize, i64),
        max_cardinality: bool,
    ) {
        let better = if max_cardinality {
            (count, total) > *best
        } else {
            total > best.1
        };
        if better {
            *best = (count, total);
        }
        for e in k..edges.len() {
            let (i, j, w) = edges[e];
            if !used[i] && !used[j] {
                used[i] = true;
                used[j] = true;
                go(
                    e + 1,
                    used,
                    edges,
                    count + 1,
                    total + w,
                    best,
                    max_cardinality,
                );
                used[i] = false;
                used[j] = false;
            }
        }
    }
    let mut best = (0, 0);
    go(
        0,
        &mut vec![false; n],
        edges,
        0,
        0,
        &mut best,
        max_cardinality,
    );
    best
}

fn value(mate: &[Option<usize>], edges: &[(usize, usize, i64)]) -> (usize, i64) {
    let mut count = 0;
    let mut total = 0;
    for (v, m) in mate.iter().enumerate() {
        if let Some(u) = *m {
            assert_eq!(mate[u], Some(v), "the matching is symmetric");
            if v < u {
                count += 1;
                total += edges
                    .iter()
                    .filter(|&&(i, j, _)| (i, j) == (v, u) || (i, j) == (u, v))
                    .map(|e| e.2)
                    .max()
                    .expect("matched along an edge");
            }
        }
    }
    (count, total)
}

#[test]
fn small_cases_from_the_literature() {
    assert_eq!(max_weight_matching::<i64>(0, &[], false), vec![]);
    assert_eq!(
        max_weight_matching(2, &[(0, 1, 1i64)], false),
        vec![Some(1), Some(0)]
    );
    // A path: the two outer edges beat the heavier middle one together.
    let m = max_weight_matching(4, &[(0, 1, 5i64), (1, 2, 11), (2, 3, 5)], false);
    assert_eq!(m, vec![None, Some(2), Some(1), None]);
    let m = max_weight_matching(4, &[(0, 1, 5i64), (1, 2, 11), (2, 3, 5)], true);
    assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
    // A triangle with a tail: a blossom is formed and expanded.
    let m = max_weight_matching(4, &[(0, 1, 9i64), (0, 2, 9), (1, 2, 10), (2, 3, 7)], false);
    assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
    // Wide weights work the same.
    let big = 1i128 << 100;
    let m = max_weight_matching(3, &[(0, 1, big), (1, 2, big + 1)], false);
    assert_eq!(m, vec![None, Some(2), Some(1)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn equals_exhaustive_search(
        n in 1usize..11,
        raw in proptest::collection::vec((0usize..11, 0usize..11, -5i64..40), 0..24),
        max_cardinality in any::<bool>(),
    ) {
        let edges: Vec<(usize, usize, i64)> = raw
            .into_iter()
            .map(|(i, j, w)| (i % n, j % n, w))
            .filter(|&(i, j, _)| i != j)
            .collect();
        let mate = max_weight_matching(n, &edges, max_cardinality);
        let got = value(&mate, &edges);
        let best = brute(n, &edges, max_cardinality);
        if max_cardinality {
            prop_assert_eq!(got, best);
        } else {
            prop_assert_eq!(got.1, best.1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A graph whose weights change between matchings matches as well as a fresh start on
    /// the same weights: several rounds of changes to a few vertices' edges.
    #[test]
    fn changing_weights_match_as_well_as_starting_afresh(
        n in 1usize..9,
        rounds in proptest::collection::vec(
            proptest::collection::vec((0usize..9, 0usize..9, 0i64..12), 0..10),
            1..6,
        ),
    ) {
        let mut graph = Graph::<i64>::new(n);
        let mut weights = vec![vec![0i64; n]; n];
        for changes in rounds {
            for (u, v, w) in changes {
                let (u, v) = (u % n, v % n);
                if u == v {
                    continue;
                }
                graph.set(u, v, w);
                weights[u][v] = w;
                weights[v][u] = w;
            }
            let mates = graph.matching();
            let mut edges = Vec::new();
            for (u, row) in weights.iter().enumerate() {
                for (v, &w) in row.iter().enumerate().skip(u + 1) {
                    if w > 0 {
                        edges.push((u, v, w));
                    }
                }
            }
            let mut total = 0;
            for (v, &m) in mates.iter().enumerate() {
                prop_assert_eq!(mates[m], v, "a matching pairs both ways");
                if m > v {
                    prop_assert!(weights[v][m] > 0, "no absent edge is matched");
                    total += weights[v][m];
                }
            }
            prop_assert_eq!(total, brute(n, &edges, false).1);
        }
    }
}
