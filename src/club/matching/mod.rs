//! Maximum-weight matching in general graphs: Edmonds' blossom algorithm with dual variables
//! (Galil's O(n³) form), for pairing systems that encode their criteria as edge weights.
//!
//! Written here rather than taken from a crate: the pairing weights need integers wider than
//! 128 bits for large fields, so the weight is a type parameter ([`Weight`]), and the crates at
//! hand either fix the weight to a float or a machine integer or were measured too slow for a
//! 1,000-player field. All arithmetic is exact: the weights are doubled inside, so every dual
//! variable and slack stays an integer.

mod blossom;
pub mod wide;

use blossom::Matcher;

use std::fmt::Debug;
use std::ops::{Add, Sub};

/// An exact edge weight: an integer type with room for twice the largest weight plus the sum of
/// two of them.
pub trait Weight: Copy + Ord + Debug + Add<Output = Self> + Sub<Output = Self> {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Half of an even value.
    fn half(self) -> Self;
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    const ONE: i64 = 1;
    fn half(self) -> i64 {
        self / 2
    }
}

impl Weight for i128 {
    const ZERO: i128 = 0;
    const ONE: i128 = 1;
    fn half(self) -> i128 {
        self / 2
    }
}

/// A complete graph on `n` vertices whose edge weights change between matchings, as the
/// bracket-by-bracket pairing systems use it: weight zero is no edge. Each matching starts from
/// the last one, so changing the edges of k vertices costs O(k n²), not a new O(n³) matching.
pub struct Graph<W> {
    matcher: Matcher<W>,
}

impl<W: Weight> Graph<W> {
    /// `n` vertices, no edges.
    pub fn new(n: usize) -> Graph<W> {
        Graph {
            matcher: Matcher::complete(n),
        }
    }

    /// The weight of edge `u`–`v`.
    pub fn weight(&self, u: usize, v: usize) -> W {
        self.matcher.weight_of(u, v)
    }

    /// Sets the weight of edge `u`–`v` (zero removes it). Weights are at most a quarter of the
    /// type's largest value.
    pub fn set(&mut self, u: usize, v: usize, w: W) {
        self.matcher.set_weight(u, v, w);
    }

    /// A matching of greatest weight: each vertex's partner, or the vertex itself when
    /// unmatched.
    pub fn matching(&mut self) -> Vec<usize> {
        self.matcher.solve();
        self.matcher
            .mates()
            .into_iter()
            .enumerate()
            .map(|(v, m)| m.unwrap_or(v))
            .collect()
    }
}

/// The matching of greatest total weight (edges of weight ≤ 0 may be left out); with
/// `max_cardinality`, the greatest weight among the matchings with the most edges. Returns each
/// vertex's partner. Edges are `(u, v, weight)` with `u != v`, vertices `0..n`.
pub fn max_weight_matching<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges, max_cardinality);
    m.solve();
    m.mates()
}

#[cfg(test)]
mod tests;
