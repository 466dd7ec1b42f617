//! Maximum-weight matching in general graphs: Edmonds' blossom algorithm with dual variables
//! (Galil's O(n³) form), for pairing systems that encode their criteria as edge weights.
//!
//! Written here rather than taken from a crate: the pairing weights need integers wider than
//! 128 bits for large fields, so the weight is a type parameter ([`Weight`]), and the crates at
//! hand either fix the weight to a float or a machine integer or were measured too slow for a
//! 1,000-player field. All arithmetic is exact: the weights are doubled inside, so every dual
//! variable and slack stays an integer.

pub mod wide;

use std::fmt::Debug;
use std::ops::{Add, Sub};

/// An exact edge weight: an integer type with room for twice the largest weight plus the sum of
/// two of them.
pub trait Weight: Copy + Ord + Debug + Add<Output = Self> + Sub<Output = Self> {
    /// Zero.
    const ZERO: Self;
    /// Half of an even value.
    fn half(self) -> Self;
}

impl Weight for i64 {
    const ZERO: i64 = 0;
    fn half(self) -> i64 {
        self / 2
    }
}

impl Weight for i128 {
    const ZERO: i128 = 0;
    fn half(self) -> i128 {
        self / 2
    }
}

const NONE: usize = usize::MAX;

/// A complete graph on `n` vertices whose edge weights change between matchings, as the
/// bracket-by-bracket pairing systems use it: weight zero is no edge.
pub struct Graph<W> {
    n: usize,
    weights: Vec<W>,
}

impl<W: Weight> Graph<W> {
    /// `n` vertices, no edges.
    pub fn new(n: usize) -> Graph<W> {
        Graph {
            n,
            weights: vec![W::ZERO; n * n],
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The weight of edge `u`–`v`.
    pub fn weight(&self, u: usize, v: usize) -> W {
        self.weights[u * self.n + v]
    }

    /// Sets the weight of edge `u`–`v` (zero removes it).
    pub fn set(&mut self, u: usize, v: usize, w: W) {
        self.weights[u * self.n + v] = w;
        self.weights[v * self.n + u] = w;
    }

    /// A matching of greatest weight: each vertex's partner, or the vertex itself when
    /// unmatched.
    pub fn matching(&self) -> Vec<usize> {
        let mut edges = Vec::new();
        for u in 0..self.n {
            for v in u + 1..self.n {
                let w = self.weight(u, v);
                if w > W::ZERO {
                    edges.push((u, v, w));
                }
            }
        }
        max_weight_matching(self.n, &edges, false)
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
    (0..n)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]]))
        .collect()
}

/// The algorithm's state, named as in the literature: vertices `0..n`, blossoms `n..2n`; an
/// endpoint `p` is an end of edge `p / 2` (`endpoint[p]` its vertex).
struct Matcher<W> {
    n: usize,
    weight: Vec<W>,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    max_cardinality: bool,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> Matcher<W> {
    fn new(n: usize, edges: &[(usize, usize, W)], max_cardinality: bool) -> Matcher<W> {
        let weight: Vec<W> = edges.iter().map(|&(_, _, w)| w + w).collect();
        let maxweight = weight.iter().copied().fold(W::ZERO, std::cmp::max);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            assert!(
                i != j && i < n && j < n,
                "edge {k} ({i}, {j}) is a loop or off the graph"
            );
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::ZERO, n));
        Matcher {
            n,
            endpoint,
            neighbend,
            max_cardinality,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
            weight,
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
        self.dualvar[i] + self.dualvar[j] - self.weight[k] - self.weight[k]
    }

    fn blossom_leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.blossom_leaves(t, out);
            }
        }
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.blossom_leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let mate = self.mate[base];
            self.assign_label(self.endpoint[mate], 1, mate ^ 1);
        }
    }

    /// Traces back from `v` and `w` to find a new blossom's base, or `NONE` for an augmenting
    /// path.
    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self
            .unusedblossoms
            .pop()
            .expect("at most n blossoms exist at once");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        for v in self.leaves(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        for s in self.blossomchilds[b].clone() {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let childs = self.blossomchilds[b].clone();
            let endps = self.blossomendps[b].clone();
            let len = childs.len() as isize;
            let at = |i: isize| ((i % len + len) % len) as usize;
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("a child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - endptrick as isize)] ^ endptrick;
                self.label[self.endpoint[q ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for v in self.leaves(bv) {
                    if self.label[v] != 0 {
                        found = v;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let at = |i: isize| ((i % len + len) % len) as usize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("a child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = (self.endpoint[2 * k], self.endpoint[2 * k + 1]);
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _ in 0..n {
            for b in 0..2 * n {
                self.label[b] = 0;
                self.bestedge[b] = NONE;
            }
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::ZERO;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::ZERO {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path yet: change the duals by the least delta.
                let mut deltatype = -1;
                let mut delta = W::ZERO;
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !self.max_cardinality {
                    deltatype = 1;
                    delta = (0..n).map(|v| self.dualvar[v]).min().expect("n > 0");
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == -1 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if deltatype == -1 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == -1 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == -1 {
                    // Maximum cardinality reached: a last change of duals to optimum.
                    deltatype = 1;
                    delta = (0..n)
                        .map(|v| self.dualvar[v])
                        .min()
                        .expect("n > 0")
                        .max(W::ZERO);
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j) = (
                            self.endpoint[2 * deltaedge],
                            self.endpoint[2 * deltaedge + 1],
                        );
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        self.queue.push(self.endpoint[2 * deltaedge]);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
}
