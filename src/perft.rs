//! Perft: the number of leaf nodes of the legal move tree, the standard check of move generators.
#![forbid(unsafe_code)]

use crate::board::Position;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::variant::{RuleSet, with_rules};

fn lists(depth: u32) -> Vec<MoveList> {
    vec![MoveList::new(); depth.max(1) as usize]
}

fn perft_rec<R: RuleSet>(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let (list, rest) = lists
        .split_first_mut()
        .expect("one move list per remaining ply is allocated up front");
    if depth == 1 {
        return movegen::count::<R>(pos, list);
    }
    movegen::generate::<R>(pos, list);
    let mut nodes = 0;
    for mv in list.iter() {
        nodes += perft_rec::<R>(&movegen::make::<R>(pos, mv), depth - 1, rest);
    }
    nodes
}

/// Leaf nodes of the legal move tree of `depth` plies below `pos` (1 at depth 0). Moves at the
/// last ply are counted without being played.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists = lists(depth);
    with_rules!(pos.variant(), R => perft_rec::<R>(pos, depth, &mut lists))
}

/// Perft below each legal move of `pos`, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|mv| (*mv, perft(&pos.play(mv), depth.saturating_sub(1))))
        .collect()
}
