//! Materials: how many men and kings each side has, seen from the side to move.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Most pieces a tablebase material may have; the index arithmetic stays within `u64` well beyond.
pub const MAX_PIECES: u32 = 10;

/// The pieces of a position, side to move first: a tablebase slice holds every position with one
/// material (positions with the other side to move are stored turned round, colours swapped).
///
/// Written as the side to move's pieces, a hyphen, the opponent's: `k` for a king, `m` for a man,
/// kings first — `kkm-k` is two kings and a man against a king, the side with `kkm` to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move and of the opponent.
    pub men: [u8; 2],
    /// Kings of the side to move and of the opponent.
    pub kings: [u8; 2],
}

/// A material name that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("bad material {text:?}: {reason}")]
pub struct MaterialError {
    text: String,
    reason: &'static str,
}

impl Material {
    /// A material from counts: side to move's men and kings, then the opponent's.
    pub const fn new(men: u8, kings: u8, their_men: u8, their_kings: u8) -> Material {
        Material {
            men: [men, their_men],
            kings: [kings, their_kings],
        }
    }

    /// Pieces of one side (0 = side to move).
    pub fn side(&self, side: usize) -> u32 {
        self.men[side] as u32 + self.kings[side] as u32
    }

    /// All pieces on the board.
    pub fn pieces(&self) -> u32 {
        self.side(0) + self.side(1)
    }

    /// All men on the board.
    pub fn total_men(&self) -> u32 {
        self.men[0] as u32 + self.men[1] as u32
    }

    /// The same pieces with the other side to move.
    pub fn partner(&self) -> Material {
        Material {
            men: [self.men[1], self.men[0]],
            kings: [self.kings[1], self.kings[0]],
        }
    }

    /// The slice that names the generation job of this material and its partner (they depend on
    /// each other, so they are computed together).
    pub fn job(&self) -> Material {
        (*self).min(self.partner())
    }

    /// Every material with both sides present and 2..=`pieces` pieces, in an order where each
    /// material comes after every material it depends on.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let pieces = pieces.min(MAX_PIECES) as u8;
        let mut all = Vec::new();
        for m0 in 0..=pieces {
            for k0 in 0..=pieces - m0 {
                for m1 in 0..=pieces - m0 - k0 {
                    for k1 in 0..=pieces - m0 - k0 - m1 {
                        let m = Material::new(m0, k0, m1, k1);
                        if m.side(0) > 0 && m.side(1) > 0 {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.total_men(), m.job(), *m));
        all
    }

    /// The generation jobs (one per pair of partner materials) up to `pieces`, in dependency order.
    pub fn jobs_up_to(pieces: u32) -> Vec<Material> {
        let mut jobs = Vec::new();
        for m in Material::all_up_to(pieces) {
            if m.job() == m {
                jobs.push(m);
            }
        }
        jobs
    }

    /// Materials reached by one move of the side to move that leave this slice and its partner: a
    /// capture (the opponent loses pieces, the capturing man may promote) or a promotion. They are
    /// seen from their own side to move (this material's opponent). Materials where the new side
    /// to move has no piece are left out: those positions are lost.
    pub fn successors(&self) -> BTreeSet<Material> {
        let mut out = BTreeSet::new();
        let (m0, k0, m1, k1) = (self.men[0], self.kings[0], self.men[1], self.kings[1]);
        let mut movers = vec![(m0, k0)];
        if m0 > 0 {
            movers.push((m0 - 1, k0 + 1));
        }
        for &(m, k) in &movers {
            for lost_men in 0..=m1 {
                for lost_kings in 0..=k1 {
                    let left = (m1 - lost_men) + (k1 - lost_kings);
                    if lost_men + lost_kings > 0 && left > 0 {
                        out.insert(Material::new(m1 - lost_men, k1 - lost_kings, m, k));
                    }
                }
            }
        }
        if m0 > 0 {
            out.insert(Material::new(m1, k1, m0 - 1, k0 + 1));
        }
        out
    }

    /// Every material a game can reach from this one by moves that leave it and its partner:
    /// its successors, theirs, and so on (what a WDL-only job reads, since a WDL table leaves
    /// its capture positions to be resolved by playing the captures).
    pub fn reachable(&self) -> BTreeSet<Material> {
        let mut out = BTreeSet::new();
        let mut todo: Vec<Material> = self.successors().into_iter().collect();
        while let Some(m) = todo.pop() {
            if out.insert(m) {
                todo.extend(m.successors());
            }
        }
        out
    }

    /// The jobs this material's job needs finished first.
    pub fn job_dependencies(&self) -> BTreeSet<Material> {
        let job = self.job();
        let mut deps: BTreeSet<Material> = job
            .successors()
            .into_iter()
            .chain(job.partner().successors())
            .map(|m| m.job())
            .collect();
        deps.remove(&job);
        deps
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in 0..2 {
            if side == 1 {
                f.write_str("-")?;
            }
            for _ in 0..self.kings[side] {
                f.write_str("k")?;
            }
            for _ in 0..self.men[side] {
                f.write_str("m")?;
            }
        }
        Ok(())
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let fail = |reason| MaterialError {
            text: text.to_string(),
            reason,
        };
        let Some((ours, theirs)) = text.split_once('-') else {
            return Err(fail("expected two sides joined by '-', such as kkm-k"));
        };
        let mut m = Material::new(0, 0, 0, 0);
        for (side, letters) in [ours, theirs].into_iter().enumerate() {
            if letters.is_empty() {
                return Err(fail("each side needs at least one piece"));
            }
            for c in letters.chars() {
                match c.to_ascii_lowercase() {
                    'k' => m.kings[side] += 1,
                    'm' => m.men[side] += 1,
                    _ => return Err(fail("pieces are written k (king) and m (man)")),
                }
                if m.pieces() > MAX_PIECES {
                    return Err(fail("too many pieces"));
                }
            }
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Material::all_up_to(5) {
            assert_eq!(m.to_string().parse::<Material>(), Ok(m));
        }
        assert_eq!("mk-K".parse(), Ok(Material::new(1, 1, 0, 1)));
        assert!("kk".parse::<Material>().is_err());
        assert!("kx-k".parse::<Material>().is_err());
        assert!("-k".parse::<Material>().is_err());
    }

    #[test]
    fn every_dependency_comes_first() {
        let all = Material::all_up_to(6);
        for (i, m) in all.iter().enumerate() {
            for s in m.successors() {
                let at = all.iter().position(|x| *x == s).expect("successor listed");
                assert!(at < i, "{s} must come before {m}");
            }
            // The partner is solved together with this slice, never before or after it.
            assert!(all.contains(&m.partner()));
        }
        assert_eq!(
            Material::new(1, 0, 0, 1)
                .successors()
                .into_iter()
                .collect::<Vec<_>>(),
            vec![Material::new(0, 1, 0, 1)],
            "m-k: a capture wins outright, a promotion reaches k-k"
        );
    }

    #[test]
    fn job_count() {
        // Materials with both sides present: 2 pieces → 4, 3 → 12 (ordered pairs of sides).
        assert_eq!(Material::all_up_to(2).len(), 4);
        assert_eq!(Material::all_up_to(3).len(), 4 + 12);
        assert_eq!(Material::jobs_up_to(2).len(), 3);
    }
}
