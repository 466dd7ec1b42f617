//! Zobrist hashing of positions, for repetition detection and transposition tables.
#![forbid(unsafe_code)]

use crate::rules::board::Position;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::variant::{RuleSet, with_rules};

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keys per (white man, white king, black man, black king, Frisian king run) and bit.
const KEYS: [[u64; 64]; 5] = {
    let mut keys = [[0u64; 64]; 5];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut table = 0;
    while table < 5 {
        let mut bit = 0;
        while bit < 64 {
            state = splitmix(state);
            keys[table][bit] = state;
            bit += 1;
        }
        table += 1;
    }
    keys
};

const SIDE: u64 = splitmix(0xD1B5_4A32_D192_ED03);

fn fold(mut bits: u64, keys: &[u64; 64]) -> u64 {
    let mut h = 0;
    while bits != 0 {
        h ^= keys[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    h
}

impl Position {
    /// Zobrist hash of the position: equal positions (with equal side to move and rule state)
    /// hash equally.
    pub fn zobrist(&self) -> u64 {
        hash(self)
    }
}

impl Position {
    /// The hash of `next`, the position `mv` (a legal move of this one) leads to, where this
    /// one's hash is `key`: only the squares the move changes are folded in, read off the move
    /// (its two ends at once, without a branch, then its captured pieces), which a search does
    /// at every node. A `key` off by a constant gives a hash off by the same constant: the
    /// search relies on it below its horizon, where it gives a position after a man move or a
    /// capture no true hash.
    pub fn zobrist_after(&self, key: u64, mv: &Move, next: &Position) -> u64 {
        with_rules!(self.variant, R => self.zobrist_after_in::<R>(key, mv, next))
    }

    /// [`Position::zobrist_after`] compiled for one variant.
    #[inline(always)]
    pub(crate) fn zobrist_after_in<R: RuleSet>(&self, key: u64, mv: &Move, next: &Position) -> u64 {
        // The tables of the mover's men and kings are 2·side and 2·side + 1; the piece leaves
        // `from` as it stood and stands on `to` as it ended (a king once promoted). A capture
        // ending where it started folds the same key out and in again: nothing changed there.
        let own = 2 * self.side.index();
        let was_king = ((self.kings >> mv.from) & 1) as usize;
        let is_king = ((next.kings >> mv.to) & 1) as usize;
        let mut h = key
            ^ SIDE
            ^ KEYS[own + was_king][usize::from(mv.from)]
            ^ KEYS[own + is_king][usize::from(mv.to)];
        if mv.captured != 0 {
            let theirs = 2 - own;
            h ^= fold(mv.captured & !self.kings, &KEYS[theirs])
                ^ fold(mv.captured & self.kings, &KEYS[theirs + 1]);
        }
        if R::RULES.king_move_limit && self.king_run != next.king_run {
            h ^= runs(self) ^ runs(next);
        }
        h
    }
}

/// The hash of a position.
fn hash(pos: &Position) -> u64 {
    let mut h = fold(pos.white & !pos.kings, &KEYS[0])
        ^ fold(pos.white & pos.kings, &KEYS[1])
        ^ fold(pos.black & !pos.kings, &KEYS[2])
        ^ fold(pos.black & pos.kings, &KEYS[3]);
    if pos.side == Color::Black {
        h ^= SIDE;
    }
    h ^ runs(pos)
}

/// The Frisian king runs' part of the hash.
fn runs(pos: &Position) -> u64 {
    let mut h = 0;
    for (i, run) in pos.king_run.iter().enumerate() {
        if run.count > 0 {
            // Distinct per side and count: rotate the square key.
            h ^= KEYS[4][run.bit as usize].rotate_left(8 * (i as u32 * 3 + run.count as u32));
        }
    }
    h
}
