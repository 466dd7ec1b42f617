//! Colour allocation (E.1–E.5) and the order of the boards.

use super::brackets::Matched;
use super::player::Player;
use super::{Field, Pairing};
use crate::club::criteria::Colour;
use std::cmp::Reverse;

/// Whether `a` is placed above `b`: more points, then the smaller pairing number.
fn above(a: &Player, b: &Player) -> bool {
    a.placing(b).is_lt()
}

/// The colour E.1–E.4 give `player` against `opponent`, if they decide.
fn by_preferences(player: &Player, opponent: &Player) -> Option<Colour> {
    let (mine, theirs) = (player.preference, opponent.preference);
    if mine.is_none() || theirs.is_none() || mine != theirs {
        // E.1: both preferences granted (or the only one there is).
        return mine.or(theirs.map(Colour::other));
    }
    let other = |c: Option<Colour>| c.map(Colour::other);
    // E.2: the stronger preference: absolute (the wider imbalance among two), then strong.
    if player.absolute() && (player.imbalance > opponent.imbalance || !opponent.absolute()) {
        return mine;
    }
    if opponent.absolute() && (opponent.imbalance > player.imbalance || !player.absolute()) {
        return other(theirs);
    }
    if player.strong && !opponent.strong {
        return mine;
    }
    if opponent.strong && !player.strong {
        return other(theirs);
    }
    // E.3: alternate from the latest round in which they had different colours.
    player
        .colours_back
        .iter()
        .zip(&opponent.colours_back)
        .find(|(a, b)| a != b)
        .map(|(_, &theirs_then)| theirs_then)
}

/// The colour `player` gets against `opponent` (E.1–E.5).
fn colour(player: &Player, opponent: &Player, field: &Field) -> Colour {
    if let Some(c) = by_preferences(player, opponent) {
        return c;
    }
    let initial = field.initial_colour;
    let player_lower = above(opponent, player);
    match player.preference {
        // E.4: the higher-placed player's preference.
        Some(mine) => {
            if player_lower {
                opponent.preference.map_or(mine, Colour::other)
            } else {
                mine
            }
        }
        // E.5: by the higher-placed player's pairing number, odd numbers the initial colour.
        None => {
            if player_lower {
                if opponent.rank % 2 == 1 {
                    initial
                } else {
                    initial.other()
                }
            } else if player.rank % 2 == 1 {
                initial.other()
            } else {
                initial
            }
        }
    }
}

/// Boards with colours, best placed first (the bye last).
pub(super) fn allocate(players: &[Option<Player>], field: &Field, matched: &Matched) -> Pairing {
    let get = |i: usize| {
        players[i]
            .as_ref()
            .expect("only players present are paired")
    };
    let mut boards = Vec::new();
    let mut bye = None;
    for &(a, b) in matched {
        if a == b {
            bye = Some(a);
            continue;
        }
        let (first, second) = (a.min(b), a.max(b));
        let c = colour(get(first), get(second), field);
        boards.push(if c == Colour::White {
            (first, second)
        } else {
            (second, first)
        });
    }
    boards.sort_by_key(|&(w, b)| {
        let (hi, lo) = if above(get(w), get(b)) {
            (get(w), get(b))
        } else {
            (get(b), get(w))
        };
        (Reverse(hi.score), Reverse(lo.score), hi.rank)
    });
    Pairing { boards, bye }
}
