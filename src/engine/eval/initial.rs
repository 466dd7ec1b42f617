//! The starting point of training: the hand-set evaluation the engine played with before its
//! weights were learned, written in the learned evaluation's terms.
//!
//! Its per-man terms (advancement by row, centre files, back-row guard) become square values
//! shared among the regions that cover each square; an outpost (a man three to five rows up
//! with both squares behind it held) becomes a bonus of every region holding the three squares;
//! material, runaways, king mobility, wing imbalance and the tempo are whole-board terms. Self-play
//! from this start and training pulled towards it (see `learn::train`) only move a weight as far
//! as the games show.

use super::features::{CONFIGURATIONS, GLOBALS, Global, REGION_SQUARES, Tables};
use super::model::{Model, QUANTUM};
use crate::rules::geometry::{DL, DR};
use crate::rules::variant::Variant;

/// The hand-set weights of one variant, in hundredths of a man.
struct Hand {
    king: f64,
    advance: [f64; 10],
    centre: f64,
    back_guard: f64,
    outpost: f64,
    runaway: [f64; 3],
    king_mobility: f64,
    imbalance: f64,
    tempo: f64,
}

fn hand(variant: Variant) -> Hand {
    let international = Hand {
        king: 300.0,
        advance: [0.0, 1.0, 2.0, 3.0, 5.0, 7.0, 9.0, 12.0, 16.0, 0.0],
        centre: 4.0,
        back_guard: 4.0,
        outpost: 6.0,
        runaway: [120.0, 80.0, 45.0],
        king_mobility: 2.0,
        imbalance: 3.0,
        tempo: 2.0,
    };
    match variant {
        Variant::International => international,
        // The same board: only the king and the terms its stronger king changes differ.
        Variant::Frisian => Hand {
            king: 350.0,
            outpost: 5.0,
            runaway: [140.0, 90.0, 50.0],
            king_mobility: 3.0,
            imbalance: 2.0,
            ..international
        },
        Variant::English => Hand {
            king: 150.0,
            advance: [0.0, 2.0, 3.0, 5.0, 7.0, 9.0, 12.0, 0.0, 0.0, 0.0],
            centre: 5.0,
            back_guard: 8.0,
            outpost: 4.0,
            runaway: [60.0, 40.0, 25.0],
            king_mobility: 2.0,
            imbalance: 2.0,
            tempo: 2.0,
        },
    }
}

/// The whole-board terms a variant's weights have, and so its training fits: every one for
/// International and English; Frisian fits the nine up to the advancement (with all thirteen its
/// pipeline, then without the labelled step, made weights that played worse).
fn terms(variant: Variant) -> usize {
    match variant {
        Variant::International | Variant::English => GLOBALS,
        Variant::Frisian => Global::ManMoves as usize,
    }
}

impl Model {
    /// The starting point of training: the hand-set evaluation.
    pub fn initial(variant: Variant) -> Model {
        // The hand-set evaluation does not change with the phase.
        let (patterns, globals, tempo) = weights(variant);
        let both = |w: &[f64]| w.iter().map(|&x| [x, x]).collect::<Vec<_>>();
        Model::from_units(variant, &both(&patterns), &both(&globals), [tempo, tempo])
    }
}

/// The starting weights in evaluation units: patterns (region by region), whole-board terms,
/// tempo.
fn weights(variant: Variant) -> (Vec<f64>, Vec<f64>, f64) {
    let g = variant.geometry();
    let t = Tables::of(g);
    let h = hand(variant);
    let size = 2 * g.width as usize;
    let squares: Vec<[u8; REGION_SQUARES]> = (0..t.regions()).map(|r| t.squares(r)).collect();
    // A value shared among the regions holding some squares, in whole quarters of the unit
    // (the file's precision) so that the shares add up to it exactly: region `k` of `n` gets
    // its share.
    let share = |value: f64, k: usize, n: usize| {
        let quarters = (value * f64::from(QUANTUM)).round() as i64;
        let (base, rest) = (quarters.div_euclid(n as i64), quarters.rem_euclid(n as i64));
        (base + i64::from((k as i64) < rest)) as f64 / f64::from(QUANTUM)
    };
    let holding = |bits: &[u8]| -> Vec<usize> {
        (0..squares.len())
            .filter(|&r| bits.iter().all(|b| squares[r].contains(b)))
            .collect()
    };
    // Per region, per bit: the value of an own man there (seen from White's side).
    let mut value = vec![[0.0f64; 64]; squares.len()];
    // Per region: the outposts it holds whole, as (man, two squares behind, its share).
    let mut outposts: Vec<Vec<(u8, [u8; 2], f64)>> = vec![Vec::new(); squares.len()];
    for n in 1..=g.squares as u8 {
        let bit = g.bit_of[n as usize];
        let (row, file) = g.coords_of_number(n);
        let advanced = size - 1 - row as usize;
        let mut v = h.advance[advanced.min(9)];
        if (2..size - 2).contains(&(file as usize)) {
            v += h.centre;
        }
        if advanced == 0 {
            v += h.back_guard;
        }
        let regions = holding(&[bit]);
        for (k, &r) in regions.iter().enumerate() {
            value[r][bit as usize] = share(v, k, regions.len());
        }
        let (dl, dr) = (g.step[DL][bit as usize], g.step[DR][bit as usize]);
        if (3..=5).contains(&advanced) && dl != 0 && dr != 0 {
            let behind = [dl.trailing_zeros() as u8, dr.trailing_zeros() as u8];
            let regions = holding(&[bit, behind[0], behind[1]]);
            for (k, &r) in regions.iter().enumerate() {
                outposts[r].push((bit, behind, share(h.outpost, k, regions.len())));
            }
        }
    }
    let mut patterns = vec![0.0; t.regions() * CONFIGURATIONS];
    for (r, region) in squares.iter().enumerate() {
        for config in 0..CONFIGURATIONS {
            // Digit k of the configuration: 0 empty, 1 own man, 2 opposing man.
            let mut own = Vec::with_capacity(REGION_SQUARES);
            let mut c = config;
            for &bit in region {
                if c % 3 == 1 {
                    own.push(bit);
                }
                c /= 3;
            }
            let mut w: f64 = own.iter().map(|&b| value[r][b as usize]).sum();
            for (bit, behind, bonus) in &outposts[r] {
                if own.contains(bit) && behind.iter().all(|b| own.contains(b)) {
                    w += bonus;
                }
            }
            patterns[r * CONFIGURATIONS + config] = w;
        }
    }
    let mut globals = vec![0.0; terms(variant)];
    globals[Global::Man as usize] = 100.0;
    globals[Global::King as usize] = h.king;
    globals[Global::Runaway1 as usize] = h.runaway[0];
    globals[Global::Runaway2 as usize] = h.runaway[1];
    globals[Global::Runaway3 as usize] = h.runaway[2];
    globals[Global::KingMobility as usize] = h.king_mobility;
    globals[Global::Imbalance as usize] = -h.imbalance;
    (patterns, globals, h.tempo)
}
