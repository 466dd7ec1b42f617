//! A set of evaluation weights for one variant, its file format, and the evaluation itself.
//!
//! The file is zstd-compressed: a magic line, the variant, the counts, then little-endian `i16`
//! weights in quarters of a hundredth of a man (pattern weights region by region, then the
//! whole-board terms, then the tempo). Everything is checked before use: a damaged or foreign
//! file is an error, never a wrong evaluation.

use super::features::{CONFIGURATIONS, GLOBALS, Tables, View};
use crate::rules::board::Position;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use thiserror::Error;

/// Weights are kept in quarters of the evaluation's unit (a hundredth of a man).
pub const QUANTUM: i32 = 4;
const MAGIC: &[u8; 16] = b"draughts-eval 1\n";
/// No weights file is larger than this once decompressed (the largest board needs 0.4 MB).
const MAX_DECOMPRESSED: usize = 1 << 21;

/// Why a weights file cannot be used.
#[derive(Debug, Error)]
pub enum ModelError {
    /// Not zstd data, or damaged.
    #[error("not a weights file: {0}")]
    Compression(String),
    /// Something in the file is wrong.
    #[error("weights file: {0}")]
    Invalid(String),
}

/// The weights of the evaluation for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    variant: Variant,
    /// Region by region, one weight per configuration.
    patterns: Vec<i16>,
    globals: [i16; GLOBALS],
    tempo: i16,
}

impl Model {
    /// A model from weights in evaluation units (the trainer's output), rounded to the file's
    /// precision.
    pub fn from_units(variant: Variant, patterns: &[f64], globals: &[f64], tempo: f64) -> Model {
        let q = |x: f64| (x * f64::from(QUANTUM)).round().clamp(-32767.0, 32767.0) as i16;
        Model {
            variant,
            patterns: patterns.iter().map(|&x| q(x)).collect(),
            globals: std::array::from_fn(|i| q(globals[i])),
            tempo: q(tempo),
        }
    }

    /// The weights in evaluation units: patterns, whole-board terms, tempo.
    pub fn units(&self) -> (Vec<f64>, Vec<f64>, f64) {
        let u = |x: i16| f64::from(x) / f64::from(QUANTUM);
        (
            self.patterns.iter().map(|&x| u(x)).collect(),
            self.globals.iter().map(|&x| u(x)).collect(),
            u(self.tempo),
        )
    }

    /// The variant the weights are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The value of `pos` for the side to move, in hundredths of a man.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let g = pos.variant().geometry();
        let t = Tables::of(g);
        let flying = pos.variant().rules().flying_kings;
        let white = View::of(pos, Color::White);
        let black = View::of(pos, Color::Black);
        let mut e = 0i32;
        t.for_each_pattern(&white, |r, i| {
            e += i32::from(self.patterns[r * CONFIGURATIONS + i]);
        });
        t.for_each_pattern(&black, |r, i| {
            e -= i32::from(self.patterns[r * CONFIGURATIONS + i]);
        });
        let (gw, gb) = (t.globals(&white, g, flying), t.globals(&black, g, flying));
        for k in 0..GLOBALS {
            e += i32::from(self.globals[k]) * (gw[k] - gb[k]);
        }
        if pos.side_to_move() == Color::Black {
            e = -e;
        }
        (e + i32::from(self.tempo)).div_euclid(QUANTUM)
    }

    /// The file's bytes (compressed).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(MAGIC.len() + 8 + 2 * self.patterns.len() + 64);
        raw.extend_from_slice(MAGIC);
        raw.push(variant_code(self.variant));
        let regions = self.patterns.len() / CONFIGURATIONS;
        raw.extend_from_slice(&(regions as u16).to_le_bytes());
        raw.extend_from_slice(&(GLOBALS as u16).to_le_bytes());
        for w in self
            .patterns
            .iter()
            .chain(&self.globals)
            .chain(std::iter::once(&self.tempo))
        {
            raw.extend_from_slice(&w.to_le_bytes());
        }
        // Level 19: the file ships in the repository and is written once per training run.
        zstd::bulk::compress(&raw, 19).expect("compressing a buffer in memory cannot fail")
    }

    /// Reads a weights file for `variant`, checking everything.
    pub fn from_bytes(bytes: &[u8], variant: Variant) -> Result<Model, ModelError> {
        let raw = zstd::bulk::decompress(bytes, MAX_DECOMPRESSED)
            .map_err(|e| ModelError::Compression(e.to_string()))?;
        let invalid = |s: String| Err(ModelError::Invalid(s));
        let Some(rest) = raw.strip_prefix(MAGIC.as_slice()) else {
            return invalid("it does not start with the weights file's magic line".into());
        };
        if rest.len() < 5 {
            return invalid("the header is cut short".into());
        }
        if rest[0] != variant_code(variant) {
            return invalid(format!(
                "the weights are for another variant than {variant}"
            ));
        }
        let regions = usize::from(u16::from_le_bytes([rest[1], rest[2]]));
        let globals = usize::from(u16::from_le_bytes([rest[3], rest[4]]));
        let expected = Tables::of(variant.geometry()).regions();
        if regions != expected || globals != GLOBALS {
            return invalid(format!(
                "{regions} regions and {globals} terms, where {variant} needs {expected} and {GLOBALS}"
            ));
        }
        let data = &rest[5..];
        let count = regions * CONFIGURATIONS + GLOBALS + 1;
        if data.len() != 2 * count {
            return invalid(format!(
                "{} bytes of weights, {} expected",
                data.len(),
                2 * count
            ));
        }
        let mut words = data
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let patterns: Vec<i16> = words.by_ref().take(regions * CONFIGURATIONS).collect();
        let globals = std::array::from_fn(|_| words.next().unwrap_or(0));
        let tempo = words.next().unwrap_or(0);
        Ok(Model {
            variant,
            patterns,
            globals,
            tempo,
        })
    }
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::International => 1,
        Variant::Frisian => 2,
        Variant::English => 3,
    }
}
