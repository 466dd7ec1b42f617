//! The three variants and the rule differences between them, expressed as data.
#![forbid(unsafe_code)]

use crate::rules::geometry::{BOARD8, BOARD10, Geometry};
use crate::rules::piece::Color;
use std::fmt;
use std::str::FromStr;

/// A game of draughts with its own board and rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Variant {
    /// FMJD international draughts, 10×10.
    #[default]
    International,
    /// Frisian draughts, 10×10, official rules 2011.
    Frisian,
    /// English draughts (checkers), WCDF rules, 8×8.
    English,
}

/// How the choice among captures is restricted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePriority {
    /// Any capture sequence may be chosen (WCDF 1.20).
    Free,
    /// The largest number of pieces, a king counting as one (FMJD 4.13).
    MostPieces,
    /// The highest value, then a king before a man (Frisian Articles 11 and 12).
    HighestValue,
}

/// Everything in which the variants' rules of play differ.
#[derive(Debug)]
pub struct Rules {
    /// The board.
    pub geometry: &'static Geometry,
    /// Men may capture backwards.
    pub men_capture_backward: bool,
    /// Kings move and capture over any distance.
    pub flying_kings: bool,
    /// Pieces also capture along rows and columns.
    pub orthogonal_captures: bool,
    /// Restriction on the choice among captures.
    pub priority: CapturePriority,
    /// Frisian Article 17: at most three consecutive simple moves with the same king.
    pub king_move_limit: bool,
    /// The colour that moves first.
    pub first_player: Color,
    /// Pieces each side starts with.
    pub pieces_per_side: u32,
}

const INTERNATIONAL: Rules = Rules {
    geometry: &BOARD10,
    men_capture_backward: true,
    flying_kings: true,
    orthogonal_captures: false,
    priority: CapturePriority::MostPieces,
    king_move_limit: false,
    first_player: Color::White,
    pieces_per_side: 20,
};

const FRISIAN: Rules = Rules {
    geometry: &BOARD10,
    men_capture_backward: true,
    flying_kings: true,
    orthogonal_captures: true,
    priority: CapturePriority::HighestValue,
    king_move_limit: true,
    first_player: Color::White,
    pieces_per_side: 20,
};

const ENGLISH: Rules = Rules {
    geometry: &BOARD8,
    men_capture_backward: false,
    flying_kings: false,
    orthogonal_captures: false,
    priority: CapturePriority::Free,
    king_move_limit: false,
    first_player: Color::Black,
    pieces_per_side: 12,
};

/// A variant's rules as a type, so that move generation is compiled once per variant with
/// every rule difference folded to a constant.
pub(crate) trait RuleSet: 'static {
    /// The variant these rules are.
    const VARIANT: Variant;
    /// The variant's rules.
    const RULES: Rules;
}

pub(crate) struct InternationalRules;
pub(crate) struct FrisianRules;
pub(crate) struct EnglishRules;

impl RuleSet for InternationalRules {
    const VARIANT: Variant = Variant::International;
    const RULES: Rules = INTERNATIONAL;
}
impl RuleSet for FrisianRules {
    const VARIANT: Variant = Variant::Frisian;
    const RULES: Rules = FRISIAN;
}
impl RuleSet for EnglishRules {
    const VARIANT: Variant = Variant::English;
    const RULES: Rules = ENGLISH;
}

/// Runs `$body` with `$r` bound to the [`RuleSet`] type of `$variant`.
macro_rules! with_rules {
    ($variant:expr, $r:ident => $body:expr) => {
        match $variant {
            $crate::rules::variant::Variant::International => {
                type $r = $crate::rules::variant::InternationalRules;
                $body
            }
            $crate::rules::variant::Variant::Frisian => {
                type $r = $crate::rules::variant::FrisianRules;
                $body
            }
            $crate::rules::variant::Variant::English => {
                type $r = $crate::rules::variant::EnglishRules;
                $body
            }
        }
    };
}
pub(crate) use with_rules;

impl Variant {
    /// All variants, in the order they are listed to users.
    pub const ALL: [Variant; 3] = [Variant::International, Variant::Frisian, Variant::English];

    /// The rules of this variant.
    pub fn rules(self) -> &'static Rules {
        match self {
            Variant::International => &INTERNATIONAL,
            Variant::Frisian => &FRISIAN,
            Variant::English => &ENGLISH,
        }
    }

    /// The board of this variant.
    pub fn geometry(self) -> &'static Geometry {
        self.rules().geometry
    }

    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::International => "international",
            Variant::Frisian => "frisian",
            Variant::English => "english",
        }
    }

    /// FEN of the starting position.
    pub fn start_fen(self) -> &'static str {
        match self {
            Variant::International | Variant::Frisian => "W:W31-50:B1-20",
            Variant::English => "B:W21-32:B1-12",
        }
    }

    /// PDN GameType number (20 International, 40 Frisian, 21 English).
    pub fn game_type(self) -> u32 {
        match self {
            Variant::International => 20,
            Variant::Frisian => 40,
            Variant::English => 21,
        }
    }

    /// The variant of a PDN GameType number.
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == n)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of ours.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?} (expected international, frisian or english)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.to_ascii_lowercase().as_str() {
            "international" | "intl" | "fmjd" => Ok(Variant::International),
            "frisian" => Ok(Variant::Frisian),
            "english" | "checkers" => Ok(Variant::English),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}
