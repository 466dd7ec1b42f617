//! Inputs for the fuzzing harness (`fuzz.rs`): a reproducible random generator, and inputs
//! made from scratch with each format's structure — PDN games with nested variations, FENs with
//! repeated and out-of-range squares, TRFs of random tournaments, DXP messages cut short.

#![allow(dead_code)]

use draughts::dxp::{self, Message};
use draughts::rules::notation::move_text;
use draughts::{Position, Variant};

/// A small, fast, reproducible generator (SplitMix64): input `i` of a seed is always the same.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    /// The generator of input `index` of run `seed`.
    pub fn new(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03));
        r.next();
        r
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Random legal games' positions, for seeds.
pub fn random_positions(variant: Variant, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed, 0);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(variant);
        for _ in 0..rng.below(120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves.as_slice()[rng.below(moves.len())]);
            out.push(pos);
        }
    }
    out
}

const SIGNS: [&str; 5] = ["! ", "? ", "!? ", "$3 ", "(!?) "];
const ENDINGS: [&str; 5] = [" *\n", " 2-0\n", " 1-1\n", " 0-2\n", "\n"];

/// PDN text of a random game with comments, annotations and variations nested up to `depth`.
pub fn pdn_game(rng: &mut Rng) -> Vec<u8> {
    let variant = *rng.pick(&Variant::ALL);
    let mut out = String::new();
    let tag = |name: &str, value: &str| format!("[{name} \"{value}\"]\n");
    out.push_str(&tag("Event", "Generated"));
    out.push_str(&tag(
        "GameType",
        match variant {
            Variant::International => "20",
            Variant::English => "21",
            Variant::Frisian => "40",
        },
    ));
    let depth = if rng.one_in(20) { 200 } else { rng.below(6) };
    let plies = rng.below(80);
    pdn_line(rng, Position::start(variant), 0, plies, depth, &mut out);
    out.push_str(rng.pick::<&str>(&ENDINGS));
    out.into_bytes()
}

/// The moves of a random line from `pos` (`ply` plies into the game), with comments, signs and
/// variations nested up to `depth` deep.
fn pdn_line(
    rng: &mut Rng,
    mut pos: Position,
    ply: usize,
    plies: usize,
    depth: usize,
    out: &mut String,
) {
    for p in ply..ply + plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves.as_slice()[rng.below(moves.len())];
        if p % 2 == 0 {
            out.push_str(&format!("{}. ", p / 2 + 1));
        } else {
            out.push_str(&format!("{}... ", p / 2 + 1));
        }
        out.push_str(&move_text(&pos, &mv));
        out.push(' ');
        match rng.below(10) {
            0 => out.push_str("{a comment} "),
            1 => out.push_str(rng.pick::<&str>(&SIGNS)),
            2 | 3 if depth > 0 => {
                // An alternative to this move: a short line of its own, itself with variations.
                out.push_str("( ");
                let length = if depth > 6 { 1 } else { 1 + rng.below(4) };
                pdn_line(rng, pos, p, length, depth - 1, out);
                out.push_str(") ");
            }
            _ => {}
        }
        pos = pos.play(&mv);
    }
}

/// A FEN with squares in and out of range, repeated, kings, ranges and stray separators.
pub fn fen(rng: &mut Rng) -> Vec<u8> {
    let mut s = String::from(*rng.pick(&["W", "B", "", "X", "W:", "B:"]));
    for side in ["W", "B"] {
        s.push(':');
        s.push_str(side);
        for i in 0..rng.below(25) {
            if i > 0 {
                s.push(',');
            }
            if rng.one_in(4) {
                s.push('K');
            }
            let square = if rng.one_in(10) {
                rng.next() as u16 as usize
            } else {
                rng.below(52)
            };
            s.push_str(&square.to_string());
            if rng.one_in(12) {
                s.push_str(&format!("-{}", rng.below(60)));
            }
        }
    }
    s.into_bytes()
}

/// A TRF of a random tournament in the fixed columns the format has.
pub fn trf_file(rng: &mut Rng) -> Vec<u8> {
    let players = 2 + rng.below(30);
    let rounds = rng.below(6);
    let mut s = format!("012 Fuzz\nXXR {}\n", rounds + 1 + rng.below(3));
    for p in 1..=players {
        let mut line = format!(
            // The columns of the format: rank 5–8, name 15–47, rating 49–52, points 81–83,
            // then a round every ten columns.
            "001 {p:>4}      {:<33} {:>4}{:28} {}.0{:5}",
            format!("Player {p}"),
            1000 + rng.below(1500),
            "",
            rng.below(rounds + 1),
            ""
        );
        for _ in 0..rounds {
            let opponent = 1 + rng.below(players);
            let colour = *rng.pick(&['w', 'b', '-']);
            let result = *rng.pick(&['1', '0', '=', '+', '-', 'U', 'Z', 'H', 'F']);
            line.push_str(&format!("  {opponent:>4} {colour} {result}"));
        }
        s.push_str(&line);
        s.push('\n');
    }
    s.into_bytes()
}

/// A DXP message, often cut short.
pub fn dxp_message(rng: &mut Rng) -> Vec<u8> {
    let positions = random_positions(Variant::International, 1, rng.next());
    let pos = match positions.as_slice() {
        [] => Position::start(Variant::International),
        some => *rng.pick(some),
    };
    let message = match rng.below(4) {
        0 => Message::GameRequest {
            version: 1,
            name: "Fuzz".into(),
            follower: draughts::Color::Black,
            minutes: rng.below(200) as u16,
            moves: rng.below(80) as u16,
            start: dxp::Start::Position(pos),
        },
        1 => match pos.legal_moves().as_slice().first() {
            Some(mv) => dxp::move_message(mv, rng.below(100) as u64),
            None => Message::Chat("no move".into()),
        },
        2 => Message::BackRequest {
            number: rng.below(300) as u16,
            side: draughts::Color::White,
        },
        _ => Message::Chat("hello".into()),
    };
    let mut bytes = message.encode().into_bytes();
    if rng.one_in(2) {
        bytes.truncate(rng.below(bytes.len() + 1));
    }
    bytes
}
