//! The perfect index of one slice: every position of a material, side to move playing "up" the
//! board (as White), gets a number in `0..size`, and every number is a position.
//!
//! Pieces are ranked in five groups, most significant first: the side to move's men on its own
//! back row, its other men, the opponent's men, the side to move's kings, the opponent's kings.
//! Each group is a combination ranked in colexicographic order among the squares still free for
//! it (a man never stands on its promotion row; kings go on whatever squares the men left). The
//! number of the side to move's men on its back row selects a block, because it decides how many
//! squares the opponent's men can use.
//!
//! Because the men rank before the kings, the positions of one placement of the men are one
//! range of the index ([`MenRange`]): a job can be solved a placement of the men at a time, in
//! the order in which men advance, without another index.

use crate::rules::geometry::Geometry;
use crate::tablebase::material::Material;

const GROUPS: usize = 5;
const MAX_N: usize = 51;
const MAX_K: usize = 11;

/// Binomial coefficients C(n, k) for n ≤ 50, k ≤ 10.
static BINOMIAL: [[u64; MAX_K]; MAX_N] = binomials();

const fn binomials() -> [[u64; MAX_K]; MAX_N] {
    let mut c = [[0u64; MAX_K]; MAX_N];
    let mut n = 0;
    while n < MAX_N {
        c[n][0] = 1;
        let mut k = 1;
        while k < MAX_K && k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

#[inline(always)]
fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// One block of the index: all positions with `back` men of the side to move on its back row.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u64,
    /// Pieces in each group.
    count: [u32; GROUPS],
    /// Squares open to each group.
    room: [u32; GROUPS],
}

impl Block {
    /// Positions with one placement of the men: the placements of the kings.
    fn kings(&self) -> u64 {
        binomial(self.room[3], self.count[3]) * binomial(self.room[4], self.count[4])
    }

    /// Placements of the men in the block.
    fn men(&self) -> u64 {
        (0..3)
            .map(|g| binomial(self.room[g], self.count[g]))
            .product()
    }
}

/// The positions of one placement of the men: `len` numbers from `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MenRange {
    /// The first position.
    pub start: u64,
    /// How many positions (the placements of the kings).
    pub len: u64,
}

/// Ranks and unranks the positions of one material on one board.
#[derive(Clone, Debug)]
pub struct Indexer {
    geometry: &'static Geometry,
    material: Material,
    /// The squares each group may use before the earlier groups take theirs.
    base: [u64; GROUPS],
    blocks: Vec<Block>,
    size: u64,
}

/// A slice position: the side to move's pieces (it moves up the board), the opponent's, kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Pieces of the side to move.
    pub us: u64,
    /// Pieces of the opponent.
    pub them: u64,
    /// Kings of both sides.
    pub kings: u64,
}

impl Indexer {
    /// The index of `material` on the board `geometry`.
    pub fn new(geometry: &'static Geometry, material: Material) -> Indexer {
        let squares = geometry.squares;
        let w = geometry.width;
        let mid = squares - 2 * w;
        let (a, b, c, d) = (
            material.men[0] as u32,
            material.kings[0] as u32,
            material.men[1] as u32,
            material.kings[1] as u32,
        );
        let board = geometry.board;
        let base = [
            geometry.bottom_row,
            board & !geometry.top_row & !geometry.bottom_row,
            board & !geometry.bottom_row,
            board,
            board,
        ];
        let mut blocks = Vec::new();
        let mut size = 0u64;
        for back in 0..=a.min(w) {
            if a - back > mid {
                continue;
            }
            let count = [back, a - back, c, b, d];
            let room = [
                w,
                mid,
                squares - w - (a - back),
                squares - a - c,
                squares.saturating_sub(a + c + b),
            ];
            let block_size: u64 = (0..GROUPS).map(|g| binomial(room[g], count[g])).product();
            if block_size == 0 {
                continue;
            }
            blocks.push(Block {
                start: size,
                count,
                room,
            });
            size += block_size;
        }
        Indexer {
            geometry,
            material,
            base,
            blocks,
            size,
        }
    }

    /// Number of positions (with this side to move).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The material indexed.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of a placement of this material.
    #[inline]
    pub fn rank(&self, p: Placement) -> u64 {
        let men_us = p.us & !p.kings;
        let groups = [
            men_us & self.geometry.bottom_row,
            men_us & !self.geometry.bottom_row,
            p.them & !p.kings,
            p.us & p.kings,
            p.them & p.kings,
        ];
        let back = groups[0].count_ones();
        let block = self
            .blocks
            .iter()
            .find(|b| b.count[0] == back)
            .expect("a placement of this material falls in one of its blocks");
        let mut taken = 0u64;
        let mut index = 0u64;
        for (g, &group) in groups.iter().enumerate() {
            let domain = self.base[g] & !taken;
            let mut rank = 0u64;
            let mut rest = group;
            let mut i = 1;
            while rest != 0 {
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                let below = (domain & ((1u64 << bit) - 1)).count_ones();
                rank += binomial(below, i);
                i += 1;
            }
            index = index * binomial(block.room[g], block.count[g]) + rank;
            taken |= group;
        }
        block.start + index
    }

    /// Every placement of the men, as its range of positions, in index order.
    pub fn men_ranges(&self) -> impl Iterator<Item = MenRange> + '_ {
        self.blocks.iter().flat_map(|b| {
            let len = b.kings();
            (0..b.men()).map(move |k| MenRange {
                start: b.start + k * len,
                len,
            })
        })
    }

    /// The most positions one placement of the men has.
    pub fn largest_men_range(&self) -> u64 {
        self.blocks.iter().map(Block::kings).max().unwrap_or(0)
    }

    /// The range of the positions whose men stand where `p`'s do.
    pub fn men_range(&self, p: Placement) -> MenRange {
        let index = self.rank(p);
        let b = self
            .blocks
            .iter()
            .rfind(|b| b.start <= index)
            .expect("the first block starts at 0");
        let len = b.kings();
        MenRange {
            start: b.start + (index - b.start) / len * len,
            len,
        }
    }

    /// The placement numbered `index` (which must be below [`size`](Self::size)).
    pub fn unrank(&self, index: u64) -> Placement {
        Walker::new(self, index).placement()
    }
}

/// One group's combination: `pos` are positions within the group's free squares, ascending.
#[derive(Clone, Copy)]
struct Group {
    count: u32,
    room: u32,
    pos: [u8; MAX_K],
    squares: [u8; MAX_N],
}

impl Group {
    fn set_domain(&mut self, domain: u64) {
        let mut rest = domain;
        let mut i = 0;
        while rest != 0 {
            self.squares[i] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            i += 1;
        }
        debug_assert_eq!(i as u32, self.room);
    }

    fn first(&mut self) {
        for i in 0..self.count as usize {
            self.pos[i] = i as u8;
        }
    }

    /// Colexicographic successor; false after the last combination.
    fn advance(&mut self) -> bool {
        let k = self.count as usize;
        for i in 0..k {
            let limit = if i + 1 < k {
                self.pos[i + 1] as u32
            } else {
                self.room
            };
            if (self.pos[i] as u32) + 1 < limit {
                self.pos[i] += 1;
                for j in 0..i {
                    self.pos[j] = j as u8;
                }
                return true;
            }
        }
        false
    }

    fn unrank(&mut self, mut rank: u64) {
        let mut p = self.room;
        for i in (1..=self.count).rev() {
            p -= 1;
            while binomial(p, i) > rank {
                p -= 1;
            }
            rank -= binomial(p, i);
            self.pos[i as usize - 1] = p as u8;
        }
    }

    #[inline]
    fn bits(&self) -> u64 {
        let mut b = 0u64;
        for i in 0..self.count as usize {
            b |= 1u64 << self.squares[self.pos[i] as usize];
        }
        b
    }
}

/// Walks the positions of a slice in index order from any starting number, far faster than
/// unranking each.
pub struct Walker<'a> {
    indexer: &'a Indexer,
    block: usize,
    groups: [Group; GROUPS],
    bits: [u64; GROUPS],
}

impl<'a> Walker<'a> {
    /// A walker standing on position `index`.
    pub fn new(indexer: &'a Indexer, index: u64) -> Walker<'a> {
        assert!(index < indexer.size, "index {index} beyond the slice");
        let block = indexer
            .blocks
            .iter()
            .rposition(|b| b.start <= index)
            .expect("the first block starts at 0");
        let empty = Group {
            count: 0,
            room: 0,
            pos: [0; MAX_K],
            squares: [0; MAX_N],
        };
        let mut w = Walker {
            indexer,
            block,
            groups: [empty; GROUPS],
            bits: [0; GROUPS],
        };
        let b = indexer.blocks[block];
        let mut rest = index - b.start;
        let mut ranks = [0u64; GROUPS];
        for g in (0..GROUPS).rev() {
            let n = binomial(b.room[g], b.count[g]);
            ranks[g] = rest % n;
            rest /= n;
        }
        for (g, &rank) in ranks.iter().enumerate() {
            w.groups[g].count = b.count[g];
            w.groups[g].room = b.room[g];
            w.refresh_domain(g);
            w.groups[g].unrank(rank);
            w.bits[g] = w.groups[g].bits();
        }
        w
    }

    fn refresh_domain(&mut self, g: usize) {
        let taken: u64 = self.bits[..g].iter().fold(0, |a, b| a | b);
        self.groups[g].set_domain(self.indexer.base[g] & !taken);
    }

    /// The placement the walker stands on.
    #[inline]
    pub fn placement(&self) -> Placement {
        let [back, men, their_men, kings, their_kings] = self.bits;
        Placement {
            us: back | men | kings,
            them: their_men | their_kings,
            kings: kings | their_kings,
        }
    }

    /// Steps to the next position; false after the last one (the walker is then spent).
    #[inline]
    pub fn advance(&mut self) -> bool {
        let mut g = GROUPS;
        while g > 0 {
            g -= 1;
            if self.groups[g].advance() {
                self.bits[g] = self.groups[g].bits();
                for later in g + 1..GROUPS {
                    self.refresh_domain(later);
                    self.groups[later].first();
                    self.bits[later] = self.groups[later].bits();
                }
                return true;
            }
        }
        self.block += 1;
        let Some(b) = self.indexer.blocks.get(self.block).copied() else {
            return false;
        };
        for g in 0..GROUPS {
            self.groups[g].count = b.count[g];
            self.groups[g].room = b.room[g];
            self.refresh_domain(g);
            self.groups[g].first();
            self.bits[g] = self.groups[g].bits();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{BOARD8, BOARD10};

    /// Every placement of `m` by brute force over the squares, as a check of size and rank.
    fn brute_force(g: &'static Geometry, m: Material) -> Vec<Placement> {
        let squares: Vec<u64> = (1..=g.squares)
            .map(|n| 1u64 << g.bit_of[n as usize])
            .collect();
        let mut out = Vec::new();
        let mut pieces = Vec::new();
        for (count, kind) in [
            (m.men[0], 0u8),
            (m.kings[0], 1),
            (m.men[1], 2),
            (m.kings[1], 3),
        ] {
            pieces.extend(std::iter::repeat_n(kind, count as usize));
        }
        fn place(
            g: &Geometry,
            squares: &[u64],
            pieces: &[u8],
            at: usize,
            min: usize,
            p: Placement,
            out: &mut Vec<Placement>,
        ) {
            if at == pieces.len() {
                out.push(p);
                return;
            }
            let same_as_last = at > 0 && pieces[at - 1] == pieces[at];
            for (i, &sq) in squares.iter().enumerate() {
                if (same_as_last && i < min) || (p.us | p.them) & sq != 0 {
                    continue;
                }
                let mut q = p;
                match pieces[at] {
                    0 if sq & g.top_row == 0 => q.us |= sq,
                    1 => {
                        q.us |= sq;
                        q.kings |= sq;
                    }
                    2 if sq & g.bottom_row == 0 => q.them |= sq,
                    3 => {
                        q.them |= sq;
                        q.kings |= sq;
                    }
                    _ => continue,
                }
                place(g, squares, pieces, at + 1, i + 1, q, out);
            }
        }
        let empty = Placement {
            us: 0,
            them: 0,
            kings: 0,
        };
        place(g, &squares, &pieces, 0, 0, empty, &mut out);
        out
    }

    #[test]
    fn rank_is_a_bijection_and_the_walker_agrees() {
        for (g, max) in [(&BOARD8, 4), (&BOARD10, 3)] {
            for m in Material::all_up_to(max) {
                let ix = Indexer::new(g, m);
                let all = brute_force(g, m);
                assert_eq!(all.len() as u64, ix.size(), "{m}");
                let mut seen = vec![false; all.len()];
                for p in &all {
                    let r = ix.rank(*p);
                    assert!(!seen[r as usize], "{m}: two placements rank {r}");
                    seen[r as usize] = true;
                    assert_eq!(ix.unrank(r), *p, "{m}: unrank({r})");
                }
                let mut w = Walker::new(&ix, 0);
                for i in 0..ix.size() {
                    assert_eq!(ix.rank(w.placement()), i, "{m}: walk step {i}");
                    assert_eq!(w.advance(), i + 1 < ix.size());
                }
            }
        }
    }

    /// The published placement counts for English (one-sided materials included).
    #[test]
    fn english_counts_match_the_formula() {
        let total = |n: u8| -> u64 {
            let mut sum = 0;
            for m0 in 0..=n {
                for k0 in 0..=n - m0 {
                    for m1 in 0..=n - m0 - k0 {
                        let m = Material::new(m0, k0, m1, n - m0 - k0 - m1);
                        sum += Indexer::new(&BOARD8, m).size();
                    }
                }
            }
            sum
        };
        assert_eq!(total(2), 6_972);
        assert_eq!(total(3), 261_224);
        assert_eq!(total(4), 7_092_774);
    }

    #[test]
    fn the_men_ranges_tile_the_index_and_hold_one_placement_of_the_men_each() {
        for (g, max) in [(&BOARD8, 4), (&BOARD10, 4)] {
            for m in Material::all_up_to(max) {
                let ix = Indexer::new(g, m);
                let mut next = 0;
                for r in ix.men_ranges() {
                    assert_eq!(r.start, next, "{m}");
                    let first = ix.unrank(r.start);
                    let men = |p: Placement| (p.us & !p.kings, p.them & !p.kings);
                    for i in [r.start, r.start + r.len / 2, r.start + r.len - 1] {
                        let p = ix.unrank(i);
                        assert_eq!(men(p), men(first), "{m}: position {i}");
                        assert_eq!(ix.men_range(p), r, "{m}: position {i}");
                    }
                    next += r.len;
                }
                assert_eq!(next, ix.size(), "{m}");
            }
        }
    }

    #[test]
    fn walking_from_the_middle() {
        let ix = Indexer::new(&BOARD10, Material::new(2, 1, 1, 1));
        for start in [0, 1, 12_345, ix.size() / 2, ix.size() - 2] {
            let mut w = Walker::new(&ix, start);
            for i in start..(start + 1000).min(ix.size()) {
                assert_eq!(ix.rank(w.placement()), i);
                w.advance();
            }
        }
    }
}
