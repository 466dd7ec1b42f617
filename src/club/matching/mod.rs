//! Maximum-weight matching in general graphs: Edmonds' blossom algorithm with dual variables
//! (Galil's O(n³) form), for pairing systems that encode their criteria as edge weights.
//!
//! Written here rather than taken from a crate: the pairing weights need integers wider than
//! 128 bits for large fields, so the weight is a type parameter ([`Weight`]); the crates at hand
//! fix the weight to a float or a machine integer, and none keeps its state from one matching to
//! the next when a few weights change, which a pairing system settling one player at a time
//! needs. All arithmetic is exact: the weights are doubled inside, so every dual variable and
//! slack stays an integer.
mod blossom;
mod weight;
pub mod wide;

pub use weight::Weight;

use blossom::Matcher;

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
/// vertex's partner. Edges are `(u, v, weight)` with `u != v`, vertices `0..n`; the graph is held
/// complete (memory grows with `n²`, whatever the number of edges).
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
