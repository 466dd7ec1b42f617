//! Edmonds' blossom algorithm with dual variables, in the form of Galil's O(n³) survey (the
//! names follow the literature: vertices `0..n`, blossoms `n..2n`; an endpoint `p` is an end of
//! edge `p / 2`).
//!
//! Extended for graphs whose weights change between matchings: a vertex whose edges changed is
//! freed (unmatched, taken out of its blossoms with their duals handed down, its own dual raised
//! until its edges are feasible again), and stages run from every free vertex whose dual is still
//! positive, so a change of k vertices costs O(k n²) rather than a new O(n³) start.
//!
//! Three economies for the large, changing graphs of a Swiss: a stage does not stop at its first
//! augmenting path but goes on growing the trees not yet augmented, taking every path of tight
//! edges it finds (the stages of a bracket-wide change fell by two thirds); the graph is kept
//! complete with no edge list — edge `i`–`j` is `i * n + j`, its ends computed, an absent edge a
//! flag — so that a vertex's scan reads its row of costs and flags in order and nothing at random;
//! and a blossom is scanned as one: it keeps, for every vertex, its leaf nearest to it (the duals
//! of a blossom's leaves move together while it lives, so the nearest leaf stays the nearest), and
//! a blossom of hundreds of players that lives through many stages costs one row per stage, not
//! one per leaf.
//!
//! One file past 800 lines on purpose: labelling, blossom shrinking and expansion, dual
//! updates and augmentation all read and write one shared state under invariants that hold only
//! between whole steps; split into files, each would reach into the others' fields.

use super::weight::Weight;
use std::collections::VecDeque;

/// The lowest bit of a non-negative weight.
fn low_bit<W: Weight>(w: W) -> W {
    w - (w.half() + w.half())
}

/// No vertex, edge or blossom.
pub(super) const NONE: usize = usize::MAX;

/// No leaf of a blossom has an edge to this vertex.
const NO_LEAF: u32 = u32::MAX;

/// The algorithm's state, named as in the literature: vertices `0..n`, blossoms `n..2n`; edge
/// `i`–`j` (`i < j`) is `i * n + j`, and its endpoints `2k` (at `i`) and `2k + 1` (at `j`).
pub(super) struct Matcher<W> {
    n: usize,
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
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    /// The edges allowed in this stage, to clear them without sweeping every edge.
    allowed: Vec<usize>,
    /// S-vertices and S-blossoms to scan, first labelled first: short paths are found before
    /// the trees run deep, so more of them fit in one stage.
    queue: VecDeque<usize>,
    /// Four times each edge's weight by row (`v * n + w`, both ways): an edge's slack is its
    /// ends' duals less this (the weights are doubled so that every dual stays an integer, and
    /// count twice in a slack); a vertex's scan reads its row in order.
    rows: Vec<W>,
    /// Which edges exist (in the changing graphs, those of weight other than zero), kept beside
    /// the costs: testing a wide weight for zero in the inner loop costs more than the rest of
    /// the scan.
    present_rows: Vec<bool>,
    /// Each blossom's leaf with the least slack towards each vertex (`NO_LEAF` without an
    /// edge), built when the blossom is first scanned and kept while it lives and its edges stay
    /// as they are: its leaves' duals move together, so their order towards a vertex holds.
    reach: Vec<Vec<u32>>,
    /// The vertices whose edges changed, in order, since the matcher began: a blossom's `reach`
    /// is brought up to date for those logged after it was built or last brought up to date.
    changed_columns: Vec<u32>,
    /// Each blossom's place in `changed_columns` when its `reach` was last up to date.
    reach_version: Vec<usize>,
    /// The vertices logged in `changed_columns` since the last matching.
    column_logged: Vec<bool>,
    /// Vertices whose edges changed since the last matching.
    modified: Vec<bool>,
    /// The root of the tree each labelled vertex belongs to in this stage.
    tree: Vec<usize>,
    /// Each vertex's or blossom's best edge with its slack and the duals' epoch it was
    /// computed in: the scan compares against it for every edge.
    best_cache: Vec<(usize, u64, W)>,
    /// Counts changes of the duals, so that a cached slack knows when it is stale.
    epoch: u64,
    /// Trees already augmented in this stage: their labels are spent, and other trees search
    /// on around them (several augmenting paths of tight edges per stage).
    spent: Vec<bool>,
}

impl<W: Weight> Matcher<W> {
    /// The complete graph on `n` vertices with every weight zero (absent), for weights that
    /// change between matchings.
    pub(super) fn complete(n: usize) -> Matcher<W> {
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        Matcher {
            n,
            max_cardinality: false,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar: vec![W::ZERO; 2 * n],
            allowedge: vec![false; n * n],
            allowed: Vec::new(),
            queue: VecDeque::new(),
            rows: vec![W::ZERO; n * n],
            present_rows: vec![false; n * n],
            reach: vec![Vec::new(); n],
            changed_columns: Vec::new(),
            reach_version: vec![0; n],
            column_logged: vec![false; n],
            modified: vec![false; n],
            tree: (0..n).collect(),
            spent: vec![false; n],
            best_cache: vec![(NONE, 0, W::ZERO); 2 * n],
            epoch: 0,
        }
    }

    /// The matcher for these edges (a repeated edge counts with its greatest weight), before
    /// any matching; with `max_cardinality`, the best among the matchings with the most edges.
    pub(super) fn new(n: usize, edges: &[(usize, usize, W)], max_cardinality: bool) -> Matcher<W> {
        let mut m = Matcher::complete(n);
        m.max_cardinality = max_cardinality;
        let mut maxcost = W::ZERO;
        for (k, &(i, j, w)) in edges.iter().enumerate() {
            assert!(
                i != j && i < n && j < n,
                "edge {k} ({i}, {j}) is a loop or off the graph"
            );
            let cost = (w + w) + (w + w);
            if !m.present_rows[i * n + j] || cost > m.rows[i * n + j] {
                for at in [i * n + j, j * n + i] {
                    m.rows[at] = cost;
                    m.present_rows[at] = true;
                }
            }
            maxcost = maxcost.max(cost);
        }
        m.dualvar[..n].fill(maxcost.half());
        m
    }

    /// The vertex at endpoint `p`.
    #[inline(always)]
    fn end(&self, p: usize) -> usize {
        let k = p / 2;
        if p & 1 == 1 { k % self.n } else { k / self.n }
    }

    /// The index of edge `i`–`j`.
    fn edge(&self, i: usize, j: usize) -> usize {
        i.min(j) * self.n + i.max(j)
    }

    /// The endpoint of edge `v`–`w` at `w`.
    #[inline(always)]
    fn endpoint_towards(&self, v: usize, w: usize) -> usize {
        if v < w {
            2 * self.edge(v, w) + 1
        } else {
            2 * self.edge(w, v)
        }
    }

    /// The weight of edge `i`–`j`.
    pub(super) fn weight_of(&self, i: usize, j: usize) -> W {
        self.rows[i * self.n + j].half().half()
    }

    /// Sets the weight of edge `v`–`u`; `v` is the vertex freed before the next matching.
    pub(super) fn set_weight(&mut self, v: usize, u: usize, w: W) {
        let cost = (w + w) + (w + w);
        if self.rows[v * self.n + u] != cost {
            let n = self.n;
            for at in [v * n + u, u * n + v] {
                self.rows[at] = cost;
                self.present_rows[at] = w != W::ZERO;
            }
            self.modified[v] = true;
            // The blossoms around `u` no longer know their nearest leaf towards `v` (those
            // around `v` are dissolved when it is freed).
            if !self.column_logged[v] {
                self.column_logged[v] = true;
                self.changed_columns.push(v as u32);
            }
        }
    }

    /// Each vertex's partner.
    pub(super) fn mates(&self) -> Vec<Option<usize>> {
        (0..self.n)
            .map(|v| (self.mate[v] != NONE).then(|| self.end(self.mate[v])))
            .collect()
    }

    fn modified_now(&self, v: usize, modified: &[usize]) -> bool {
        modified.binary_search(&v).is_ok()
    }

    /// Allows edge `k` in this stage (under both of its row indices, so that a scan reads the
    /// flags in order).
    fn allow(&mut self, k: usize) {
        if !self.allowedge[k] {
            self.allowedge[k] = true;
            self.allowedge[(k % self.n) * self.n + k / self.n] = true;
            self.allowed.push(k);
        }
    }

    /// The slack of `x`'s best edge, computed once while the duals stay as they are.
    fn best_slack(&mut self, x: usize) -> W {
        let k = self.bestedge[x];
        let (ck, epoch, slack) = self.best_cache[x];
        if ck == k && epoch == self.epoch {
            return slack;
        }
        let slack = self.slack(k);
        self.best_cache[x] = (k, self.epoch, slack);
        slack
    }

    /// Makes `k`, whose slack is `slack`, the best edge of `x`.
    fn set_best(&mut self, x: usize, k: usize, slack: W) {
        self.bestedge[x] = k;
        self.best_cache[x] = (k, self.epoch, slack);
    }

    /// Unmatches `v`'s blossom and makes `v` a blossom of its own: rotated to be the base of
    /// each blossom around it, which is then dissolved, its dual handed down to its vertices so
    /// that every slack inside stays as it was and every other grows. Returns the vertex that was matched to it.
    fn free(&mut self, v: usize) -> usize {
        let b = self.inblossom[v];
        let base = self.blossombase[b];
        let mut partner = NONE;
        if self.mate[base] != NONE {
            partner = self.end(self.mate[base]);
            self.mate[partner] = NONE;
            self.mate[base] = NONE;
        }
        if b >= self.n {
            self.augment_blossom(b, v);
            self.mate[v] = NONE;
        }
        while self.inblossom[v] != v {
            // A blossom's dual counts twice in the slack of an edge inside it (the weights are
            // doubled): each vertex takes it whole.
            let top = self.inblossom[v];
            let z = self.dualvar[top];
            for x in self.leaves(top) {
                self.dualvar[x] = self.dualvar[x] + z;
            }
            self.dualvar[top] = W::ZERO;
            self.expand_blossom(top, true);
        }
        partner
    }

    /// Frees every modified vertex and the vertices matched to them, and raises the duals of the
    /// modified ones until their edges are feasible, keeping every positive free dual of one
    /// parity (so that slacks between trees stay even and halve exactly).
    fn prepare(&mut self) {
        let modified: Vec<usize> = (0..self.n).filter(|&v| self.modified[v]).collect();
        if modified.is_empty() {
            return;
        }
        let free_before: Vec<usize> = (0..self.n)
            .filter(|&v| self.mate[v] == NONE && self.blossombase[self.inblossom[v]] == v)
            .collect();
        let mut freed = Vec::new();
        let mut is_freed = vec![false; self.n];
        for &v in &modified {
            self.modified[v] = false;
            if self.keeps_its_place(v) {
                continue;
            }
            let partner = self.free(v);
            for x in [v, partner] {
                if x != NONE && !is_freed[x] {
                    self.free(x);
                    is_freed[x] = true;
                    freed.push(x);
                }
            }
        }
        let parity = free_before
            .iter()
            .find(|&&v| self.dualvar[v] > W::ZERO && !is_freed[v])
            .map_or(W::ZERO, |&v| low_bit(self.dualvar[v]));
        for &v in &freed {
            let changed = self.modified_now(v, &modified);
            let mut need = if changed {
                self.dual_needed(v, NONE)
            } else {
                self.dualvar[v]
            };
            if need > W::ZERO && low_bit(need) != parity {
                need = need + W::ONE;
            }
            self.dualvar[v] = need;
        }
    }

    /// The least dual of `v` (at least zero) that leaves each of its edges but `skip` feasible.
    fn dual_needed(&self, v: usize, skip: usize) -> W {
        let mut need = W::ZERO;
        let row = v * self.n;
        for u in (0..self.n).filter(|&u| u != v && self.present_rows[row + u]) {
            if self.edge(v, u) != skip {
                let d = self.rows[row + u] - self.dualvar[u];
                if d > need {
                    need = d;
                }
            }
        }
        need
    }

    /// Whether a changed vertex outside any blossom can keep its partner (or stay free): its
    /// dual set so that its matched edge is tight and its other edges feasible. The common case
    /// when a pairing system nudges weights and the best matching stays as it was.
    fn keeps_its_place(&mut self, v: usize) -> bool {
        if self.inblossom[v] != v {
            return false;
        }
        let matched = (self.mate[v] != NONE).then(|| self.mate[v] / 2);
        let others = self.dual_needed(v, matched.unwrap_or(NONE));
        match matched {
            None if others == W::ZERO => {
                self.dualvar[v] = W::ZERO;
                true
            }
            Some(k) if self.present_rows[k] => {
                let tight = self.rows[k] - self.dualvar[self.end(self.mate[v])];
                if tight >= others && tight >= W::ZERO {
                    self.dualvar[v] = tight;
                    true
                } else {
                    false
                }
            }
            _ => false,
        }
    }

    #[inline(always)]
    fn slack(&self, k: usize) -> W {
        let (i, j) = (self.end(2 * k), self.end(2 * k + 1));
        self.dualvar[i] + self.dualvar[j] - self.rows[k]
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
        let root = if p == NONE { w } else { self.tree[self.end(p)] };
        for x in self.leaves(b) {
            self.tree[x] = root;
        }
        if t == 1 {
            self.queue.push_back(b);
        } else {
            let base = self.blossombase[b];
            let mate = self.mate[base];
            self.assign_label(self.end(mate), 1, mate ^ 1);
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
                v = self.end(self.labelend[b]);
                b = self.inblossom[v];
                v = self.end(self.labelend[b]);
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
        let (mut v, mut w) = (self.end(2 * k), self.end(2 * k + 1));
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
            v = self.end(self.labelend[bv]);
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
            w = self.end(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        for v in self.leaves(b) {
            self.inblossom[v] = b;
        }
        for &bv in &path {
            self.bestedge[bv] = NONE;
        }
        // The new blossom is scanned whole: its former T-leaves have not been, and its best
        // edge to the other S-blossoms is found on the way.
        self.bestedge[b] = NONE;
        self.reach[b - self.n].clear();
        self.queue.push_back(b);
    }

    /// Brings blossom `b`'s nearest leaf towards each vertex up to date, its children's first
    /// (a vertex child is its own nearest leaf): built whole when it has none, or when more
    /// vertices changed since than a whole build costs; otherwise only the changed columns.
    fn refresh_reach(&mut self, b: usize) {
        let n = self.n;
        let logged = self.changed_columns.len();
        let built = !self.reach[b - n].is_empty();
        if built && self.reach_version[b - n] == logged {
            return;
        }
        for i in 0..self.blossomchilds[b].len() {
            let c = self.blossomchilds[b][i];
            if c >= n {
                self.refresh_reach(c);
            }
        }
        let since = self.reach_version[b - n];
        self.reach_version[b - n] = logged;
        let mut table = std::mem::take(&mut self.reach[b - n]);
        if built && logged - since < n {
            for &w in &self.changed_columns[since..logged] {
                table[w as usize] = self.nearest_leaf(b, w as usize);
            }
        } else {
            table.clear();
            table.extend((0..n).map(|w| self.nearest_leaf(b, w)));
        }
        self.reach[b - n] = table;
    }

    /// Blossom `b`'s leaf nearest to `w`, from its children's (which are up to date): the
    /// least slack less the dual at `w`, which all of `b`'s leaves share towards it.
    fn nearest_leaf(&self, b: usize, w: usize) -> u32 {
        let n = self.n;
        let mut best = (NO_LEAF, W::ZERO);
        for &c in &self.blossomchilds[b] {
            let x = if c < n {
                c as u32
            } else {
                self.reach[c - n][w]
            };
            if x == NO_LEAF || !self.present_rows[x as usize * n + w] {
                continue;
            }
            let value = self.dualvar[x as usize] - self.rows[x as usize * n + w];
            if best.0 == NO_LEAF || value < best.1 {
                best = (x, value);
            }
        }
        best.0
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
            let entrychild = self.inblossom[self.end(self.labelend[b] ^ 1)];
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
                let x = self.end(p ^ 1);
                self.label[x] = 0;
                let q = endps[at(j - endptrick as isize)] ^ endptrick;
                let x = self.end(q ^ 1);
                self.label[x] = 0;
                self.assign_label(self.end(p ^ 1), 2, p);
                self.allow(q / 2);
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allow(p / 2);
                j += jstep;
            }
            let bv = childs[at(j)];
            let x = self.end(p ^ 1);
            self.label[x] = 2;
            self.label[bv] = 2;
            let x = self.end(p ^ 1);
            self.labelend[x] = p;
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
                    let x = self.end(self.mate[self.blossombase[bv]]);
                    self.label[x] = 0;
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
        self.bestedge[b] = NONE;
        self.reach[b - self.n].clear();
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
                self.augment_blossom(t, self.end(p));
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.n {
                self.augment_blossom(t, self.end(p ^ 1));
            }
            let x = self.end(p);
            self.mate[x] = p ^ 1;
            let x = self.end(p ^ 1);
            self.mate[x] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = (self.end(2 * k), self.end(2 * k + 1));
        self.augment_to_root(v, 2 * k + 1);
        self.augment_to_root(w, 2 * k);
    }

    /// Flips the alternating path from `s` back to its tree's root: `s` is matched through
    /// endpoint `p` (or left free with `NONE`), the root is matched at the other end.
    fn augment_to_root(&mut self, mut s: usize, mut p: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.end(self.labelend[bs]);
            let bt = self.inblossom[t];
            s = self.end(self.labelend[bt]);
            let j = self.end(self.labelend[bt] ^ 1);
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    /// `v` belongs to a tree already augmented in this stage.
    fn in_spent_tree(&self, v: usize) -> bool {
        self.label[self.inblossom[v]] != 0 && self.spent[self.tree[v]]
    }

    /// `v` is the base of a top-level blossom with no partner.
    fn free_base(&self, v: usize) -> bool {
        self.mate[v] == NONE && self.blossombase[self.inblossom[v]] == v
    }

    /// Matches: the vertices changed since the last call are freed first, then stages run from
    /// the free vertices until none can gain.
    pub(super) fn solve(&mut self) {
        // The log of changed vertices stays within a few rows: past them, a table brought up to
        // date column by column would be rebuilt whole anyway, so all are dropped with it.
        if self.changed_columns.len() > 4 * self.n {
            self.changed_columns.clear();
            self.reach.iter_mut().for_each(Vec::clear);
        }
        self.column_logged.fill(false);
        self.prepare();
        self.epoch += 1;
        let n = self.n;
        loop {
            for b in 0..2 * n {
                self.label[b] = 0;
                self.bestedge[b] = NONE;
            }
            for k in std::mem::take(&mut self.allowed) {
                self.allowedge[k] = false;
                self.allowedge[(k % n) * n + k / n] = false;
            }
            self.spent.fill(false);
            self.queue.clear();
            // Roots: free blossoms whose base has a dual to spend (every free one when the
            // cardinality counts first). A free base with a zero dual is a place to end a path.
            let mut roots = false;
            for v in 0..n {
                if self.mate[v] == NONE
                    && self.blossombase[self.inblossom[v]] == v
                    && self.label[self.inblossom[v]] == 0
                    && (self.max_cardinality || self.dualvar[v] > W::ZERO)
                {
                    self.assign_label(v, 1, NONE);
                    roots = true;
                }
            }
            if !roots {
                break;
            }
            let mut augmented = false;
            let mut finished = false;
            loop {
                while let Some(unit) = self.queue.pop_front() {
                    // A unit taken into a blossom formed after it was queued is scanned with
                    // that blossom.
                    if self.blossomparent[unit] != NONE {
                        continue;
                    }
                    if augmented && self.in_spent_tree(self.blossombase[unit]) {
                        continue;
                    }
                    // A vertex scans its own row; a blossom, for each vertex, the row of its
                    // leaf nearest to it.
                    let nearest = if unit >= n {
                        self.refresh_reach(unit);
                        std::mem::take(&mut self.reach[unit - n])
                    } else {
                        Vec::new()
                    };
                    for w in 0..n {
                        let v = match nearest.get(w) {
                            None => unit,
                            Some(&NO_LEAF) => continue,
                            Some(&x) => x as usize,
                        };
                        let row = v * n;
                        if w == v || !self.present_rows[row + w] {
                            continue;
                        }
                        let p = self.endpoint_towards(v, w);
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let k = p / 2;
                        let mut kslack = W::ZERO;
                        if !self.allowedge[row + w] {
                            kslack = self.dualvar[v] + self.dualvar[w] - self.rows[row + w];
                            if kslack <= W::ZERO {
                                self.allow(k);
                            }
                        }
                        if augmented && self.in_spent_tree(w) {
                            continue;
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                if self.mate[self.blossombase[self.inblossom[w]]] == NONE {
                                    // A free blossom outside the trees: a path ends there
                                    // (its label end is stale, so it is not traced).
                                    let root = self.tree[v];
                                    self.augment_to_root(v, p);
                                    let bw = self.inblossom[w];
                                    if bw >= self.n {
                                        self.augment_blossom(bw, w);
                                    }
                                    self.mate[w] = p ^ 1;
                                    // The end of the path joins the spent tree.
                                    self.label[bw] = 2;
                                    for x in self.leaves(bw) {
                                        self.tree[x] = root;
                                    }
                                    self.spent[root] = true;
                                    augmented = true;
                                    break;
                                }
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.spent[self.tree[v]] = true;
                                    self.spent[self.tree[w]] = true;
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
                            if self.bestedge[b] == NONE || kslack < self.best_slack(b) {
                                self.set_best(b, k, kslack);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.best_slack(w))
                        {
                            self.set_best(w, k, kslack);
                        }
                    }
                    if unit >= n {
                        self.reach[unit - n] = nearest;
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
                // The S-vertex whose dual reaches zero first (a free base among equals).
                let mut zeroed = NONE;
                if !self.max_cardinality {
                    for v in 0..n {
                        if self.label[self.inblossom[v]] != 1 {
                            continue;
                        }
                        let d = self.dualvar[v];
                        if zeroed == NONE
                            || d < delta
                            || (d == delta && self.free_base(v) && !self.free_base(zeroed))
                        {
                            delta = d;
                            zeroed = v;
                        }
                    }
                    deltatype = 1;
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
                    finished = true;
                    delta = (0..n)
                        .map(|v| self.dualvar[v])
                        .min()
                        .expect("n > 0")
                        .max(W::ZERO);
                }
                self.epoch += 1;
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
                    1 if finished || self.free_base(zeroed) => break,
                    1 => {
                        // An S-vertex inside a tree has no dual left: the path from its root
                        // to it is flipped, so the root is matched and this vertex is free.
                        self.augment_to_root(zeroed, NONE);
                        break;
                    }
                    2 => {
                        self.allow(deltaedge);
                        let (mut i, j) = (self.end(2 * deltaedge), self.end(2 * deltaedge + 1));
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push_back(self.inblossom[i]);
                    }
                    3 => {
                        self.allow(deltaedge);
                        self.queue
                            .push_back(self.inblossom[self.end(2 * deltaedge)]);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if finished {
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
