//! Perft: the number of leaf nodes of the legal move tree, the standard check of move generators.
#![forbid(unsafe_code)]

use crate::rules::board::Position;
use crate::rules::movegen;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variant::{RuleSet, with_rules};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{move_text, parse_fen};
    use crate::rules::variant::Variant;

    /// Published counts (../shared/reference/perft.md, duplicates dropped).
    const REFERENCE: &[(&str, Variant, &str, &[u64])] = &[
        (
            "international start",
            Variant::International,
            "W:W31-50:B1-20",
            &[
                9,
                81,
                658,
                4265,
                27117,
                167140,
                1049442,
                6483961,
                41022423,
                258895763,
                1665861398,
                10749771911,
            ],
        ),
        (
            "Random178",
            Variant::International,
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            &[
                14, 55, 1168, 5432, 87195, 629010, 9041010, 86724219, 1216917193,
            ],
        ),
        (
            "Woldouby",
            Variant::International,
            "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
            &[
                6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989, 9872645,
                58360286, 346184885,
            ],
        ),
        (
            "AllKings",
            Variant::International,
            "W:WK31-50:BK1-20",
            &[
                17, 79, 352, 1399, 7062, 37589, 217575, 1333217, 8558321, 58381162, 417920283,
            ],
        ),
        (
            "AlmostPromotion",
            Variant::International,
            "W:W6,7,8,9,10:B41,42,43,44,45",
            &[
                9, 81, 795, 7578, 86351, 936311, 11448262, 138362698, 1799526674,
            ],
        ),
        (
            "frisian start",
            Variant::Frisian,
            "W:W31-50:B1-20",
            &[
                9, 81, 658, 3874, 21265, 102431, 540126, 2825779, 15605069, 85817725, 491186430,
                2848172553,
            ],
        ),
        (
            "english start",
            Variant::English,
            "B:W21-32:B1-12",
            &[
                7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
                388617999, 1766564893,
            ],
        ),
    ];

    /// Checks every depth whose count is at most `limit` nodes.
    fn check_reference(limit: u64) {
        for &(name, variant, fen, counts) in REFERENCE {
            let pos = parse_fen(fen, variant).unwrap();
            for (i, &expected) in counts.iter().enumerate() {
                if expected > limit {
                    break;
                }
                let depth = i as u32 + 1;
                assert_eq!(perft(&pos, depth), expected, "{name} depth {depth}");
            }
        }
    }

    #[test]
    fn reference_counts_up_to_fifteen_million_nodes() {
        check_reference(15_000_000);
    }

    /// Every published count, billions of nodes: `cargo test --release --features deep-perft`.
    #[cfg(feature = "deep-perft")]
    #[test]
    fn reference_counts_all_depths() {
        check_reference(u64::MAX);
    }

    #[test]
    fn depth_zero_is_one_node() {
        assert_eq!(perft(&Position::start(Variant::English), 0), 1);
    }

    fn divide_of(variant: Variant, depth: u32) -> Vec<(String, u64)> {
        let pos = Position::start(variant);
        let mut out: Vec<(String, u64)> = divide(&pos, depth)
            .into_iter()
            .map(|(m, n)| (move_text(&pos, &m), n))
            .collect();
        out.sort();
        out
    }

    fn sorted(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = pairs.iter().map(|&(m, n)| (m.to_string(), n)).collect();
        v.sort();
        v
    }

    #[test]
    fn reference_divides() {
        assert_eq!(
            divide_of(Variant::International, 8),
            sorted(&[
                ("31-27", 579816),
                ("32-28", 649042),
                ("33-29", 657036),
                ("34-30", 994136),
                ("31-26", 913252),
                ("32-27", 574583),
                ("33-28", 674635),
                ("34-29", 590297),
                ("35-30", 851164),
            ])
        );
        assert_eq!(
            divide_of(Variant::Frisian, 8),
            sorted(&[
                ("31-27", 288280),
                ("32-28", 313649),
                ("33-29", 288399),
                ("34-30", 419149),
                ("31-26", 374636),
                ("32-27", 267368),
                ("33-28", 329950),
                ("34-29", 271730),
                ("35-30", 272618),
            ])
        );
        assert_eq!(
            divide_of(Variant::English, 10),
            sorted(&[
                ("12-16", 3118206),
                ("11-16", 3517451),
                ("11-15", 2080244),
                ("10-15", 2390844),
                ("10-14", 2031291),
                ("9-14", 2023518),
                ("9-13", 3230010),
            ])
        );
    }
}
