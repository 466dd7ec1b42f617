//! Static evaluation, from the side to move's point of view, in hundredths of a man.
//!
//! The weights are learned, one set per variant (`draughts engine selfplay` and `draughts engine
//! train`, run by `scripts/train.sh`), and ship inside the binary.
//!
//! - [`features`]: what the evaluation sees (4 × 4 region patterns and whole-board terms);
//! - [`model`]: the weights, their file format and the evaluation itself;
//! - `initial`: the hand-set evaluation training starts from.

pub mod features;
mod initial;
pub mod model;

pub use model::{Model, ModelError};

use crate::rules::board::Position;
use crate::rules::variant::Variant;
use std::sync::OnceLock;

/// The weights shipped with the program for a variant. Inlined: the search asks for them at
/// every leaf it values, and once they are read that is one load and one test.
#[inline]
pub fn builtin(variant: Variant) -> &'static Model {
    static MODELS: [OnceLock<Model>; Variant::ALL.len()] = [const { OnceLock::new() }; _];
    let cell = &MODELS[variant as usize];
    match cell.get() {
        Some(model) => model,
        None => cell.get_or_init(|| read_builtin(variant)),
    }
}

/// Reads the shipped weights of a variant (once a run: [`builtin`] keeps them).
#[cold]
#[inline(never)]
fn read_builtin(variant: Variant) -> Model {
    let bytes: &[u8] = match variant {
        Variant::International => include_bytes!("weights/international.eval"),
        Variant::Frisian => include_bytes!("weights/frisian.eval"),
        Variant::English => include_bytes!("weights/english.eval"),
    };
    Model::from_bytes(bytes, variant)
        .expect("the shipped weights are checked by the tests before release")
}

/// The position's value for the side to move, by the shipped weights.
pub fn evaluate(pos: &Position) -> i32 {
    builtin(pos.variant()).evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;

    fn eval(v: Variant, fen: &str) -> i32 {
        evaluate(&parse_fen(fen, v).unwrap())
    }

    #[test]
    fn the_start_is_level_and_colour_symmetric() {
        for v in Variant::ALL {
            let start = Position::start(v);
            let e = evaluate(&start);
            assert_eq!(e, builtin(v).evaluate(&start), "{v}");
            assert!((0..=10).contains(&e), "{v}: the start is worth {e}");
            assert_eq!(evaluate(&start.flipped()), e, "{v}");
        }
    }

    #[test]
    fn the_shipped_weights_are_for_their_variant_and_value_a_man_at_a_hundred() {
        for v in Variant::ALL {
            let (_, globals, _) = builtin(v).units();
            assert_eq!(builtin(v).variant(), v);
            // The terms the variant's training fits, as `scripts/train.sh` wrote them.
            assert_eq!(builtin(v).terms(), Model::initial(v).terms(), "{v}");
            // Averaged over the phases, to the file's precision.
            let [opening, ending] = globals[features::Global::Man as usize];
            assert!(((opening + ending) / 2.0 - 100.0).abs() <= 0.25, "{v}");
            for king in globals[features::Global::King as usize] {
                assert!(king > 100.0, "{v}");
            }
        }
    }

    #[test]
    fn the_starting_weights_are_the_hand_set_evaluation() {
        // White's man on 28: 100, advanced four rows 5, a centre file 4, on the left wing alone
        // −3 = 106. Black's man on 5 is a man on its own back row: 100 + guard 4 − 3 = 101.
        // Tempo 2: 106 − 101 + 2 = 7.
        let pos = parse_fen("W:W28:B5", Variant::International).unwrap();
        assert_eq!(Model::initial(Variant::International).evaluate(&pos), 7);
        // Both squares behind 28 held: an outpost (6) and two more men on their rows.
        let with = parse_fen("W:W28,32,33:B5", Variant::International).unwrap();
        let without = parse_fen("W:W28,32,34:B5", Variant::International).unwrap();
        let m = Model::initial(Variant::International);
        // 33 and 34 are on the same row, both on centre files of the right wing: the outpost
        // is the whole difference.
        assert_eq!(m.evaluate(&with) - m.evaluate(&without), 6);
    }

    #[test]
    fn weights_are_taken_in_proportion_to_the_pieces_left() {
        // Only the man counts: 100 in the opening, 200 in the ending.
        let v = Variant::International;
        let patterns = vec![[0.0; 2]; features::MAX_REGIONS * features::CONFIGURATIONS];
        let mut globals = vec![[0.0; 2]; features::GLOBALS];
        globals[features::Global::Man as usize] = [100.0, 200.0];
        let m = Model::from_units(v, &patterns, &globals, [0.0, 0.0]);
        // Three pieces of 40: (3 × 100 + 37 × 200) / 40 = 192.5, a man up.
        assert_eq!(m.evaluate(&parse_fen("W:W28,32:B5", v).unwrap()), 192);
        // 39 pieces: (39 × 100 + 1 × 200) / 40 = 102.5.
        let list = |r: std::ops::RangeInclusive<u32>| {
            r.map(|n| n.to_string()).collect::<Vec<_>>().join(",")
        };
        let fen = format!("W:W{}:B{}", list(31..=50), list(1..=19));
        let one_short = parse_fen(&fen, v).unwrap();
        assert_eq!(one_short.piece_count(), 39);
        assert_eq!(m.evaluate(&one_short), 102);
        // The file keeps both phases.
        assert_eq!(Model::from_bytes(&m.to_bytes(), v).unwrap(), m);
    }

    #[test]
    fn a_damaged_or_foreign_weights_file_is_refused() {
        let good = builtin(Variant::English).to_bytes();
        assert_eq!(
            Model::from_bytes(&good, Variant::English).ok().as_ref(),
            Some(builtin(Variant::English))
        );
        assert!(Model::from_bytes(&good, Variant::International).is_err());
        assert!(Model::from_bytes(&good[..good.len() / 2], Variant::English).is_err());
        assert!(Model::from_bytes(b"not zstd at all", Variant::English).is_err());
        let short = zstd::bulk::compress(b"draughts-eval 2\n\x03", 1).unwrap();
        assert!(Model::from_bytes(&short, Variant::English).is_err());
    }

    #[test]
    fn material_and_kings_count() {
        let v = Variant::International;
        assert!(eval(v, "W:W31,32:B19") > eval(v, "W:W31:B19,20"));
        assert!(eval(v, "W:WK31:B19") > eval(v, "W:W31:B19"));
        // A king is worth more than two men: a side's first king always, and every king while
        // the other side has two men or more and eight pieces or more are on the board (the fit
        // splits a king's value into its own weight, the first king's and one for each opposing
        // man; in endings of kings against kings alone the tables' values make it less; a
        // further king against a lone man, an ending mostly decided already, the fit values at
        // less than two men, and so, by a few hundredths of a man, a further king against two
        // men among seven pieces or fewer, where the 2–5-piece tables and the search's few
        // plies to them decide).
        let (_, globals, _) = builtin(v).units();
        let g = |t: features::Global| globals[t as usize];
        let (king, man) = (g(features::Global::King), g(features::Global::Man));
        let (first, against) = (
            g(features::Global::FirstKing),
            g(features::Global::KingsAgainstMen),
        );
        for p in 0..2 {
            assert!(
                king[p] + first[p] > 2.0 * man[p],
                "{king:?} {first:?} {man:?}"
            );
        }
        // A weight's value among n of the 40 pieces, as the evaluation takes it.
        let at = |w: [f64; 2], n: f64| (n * w[0] + (40.0 - n) * w[1]) / 40.0;
        for n in 8..=40 {
            let n = f64::from(n);
            assert!(
                at(king, n) + 2.0 * at(against, n) > 2.0 * at(man, n),
                "{n} pieces: {king:?} {against:?} {man:?}"
            );
        }
    }

    #[test]
    fn a_runaway_man_is_worth_more_than_a_blocked_one() {
        let v = Variant::International;
        // White man on 7 (one row from promotion) with nothing ahead, against one on 16 blocked.
        assert!(eval(v, "W:W7:B45") > eval(v, "W:W17:B45,1,2"));
        assert!(eval(v, "W:W7:B45") > eval(v, "W:W37:B45"));
    }

    #[test]
    fn flipping_colours_keeps_the_value() {
        for (v, fen) in [
            (Variant::International, "W:W31,32,33,K40:B10,12,19"),
            (Variant::English, "B:W21,22,K30:B5,9,K14"),
            (Variant::Frisian, "W:W28,K46:B3,4,K20"),
        ] {
            let p = parse_fen(fen, v).unwrap();
            assert_eq!(evaluate(&p), evaluate(&p.flipped()), "{v} {fen}");
        }
    }
}
