//! Legal move generation for all variants: one implementation, specialised per [`RuleSet`].
//!
//! Captures are found by a depth-first search from every piece that can capture. Captured pieces
//! stay on the board until the move is complete (FMJD 4.11, Frisian Article 14), so they block and
//! cannot be jumped twice; the moving piece's own square counts as empty. The priority rule of the
//! variant then keeps the best captures, and routes with the same start, end and captured set are
//! merged into one move.
//!
//! The file is past 800 lines because the generator, the counter (perft, quiet leaves) and the
//! maker share small private helpers (a side's pieces, the squares a capture can start from, the
//! capture search itself) that must inline into each other: split into files, they would have
//! to be opened to the whole crate for the hottest code's sake.
#![forbid(unsafe_code)]

use crate::rules::board::{KingRun, Position};
use crate::rules::geometry::{
    DIRECTIONS, DL, DOWN, DR, Geometry, LEFT, REVERSE, RIGHT, UL, UP, UR, is_diagonal,
};
use crate::rules::moves::{MAX_PATH, Move, MoveList};
use crate::rules::piece::Color;
use crate::rules::variant::{CapturePriority, RuleSet, with_rules};

// The position's moves are defined here rather than in `board`, so that the board knows nothing
// of move generation and the dependency runs one way: board → movegen.
impl Position {
    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        with_rules!(self.variant, R => generate::<R>(self, &mut list));
        list
    }

    /// Whether the side to move has a capture (and so must capture).
    pub fn has_capture(&self) -> bool {
        with_rules!(self.variant, R => has_capture::<R>(self))
    }

    /// The number of legal moves when none is a capture, or `None` when the side to move must
    /// capture: whether a position is quiet, learnt without listing its simple moves.
    pub fn quiet_move_count(&self) -> Option<u64> {
        let mut captures = MoveList::new();
        with_rules!(self.variant, R => quiet_count_or_captures::<R>(self, &mut captures))
    }

    /// Whether the side not to move could capture if it were its turn: a threat.
    pub fn opponent_has_capture(&self) -> bool {
        let mut other = *self;
        other.side = self.side.opposite();
        other.has_capture()
    }

    /// The position after a move. The move must be one of this position's legal moves.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        with_rules!(self.variant, R => make::<R>(self, mv))
    }
}

pub(crate) const DIAGONALS: [usize; 4] = [UL, UR, DL, DR];
const ALL_DIRECTIONS: [usize; 8] = [UL, UR, DL, DR, UP, DOWN, LEFT, RIGHT];
// A king's capture search keeps its jumps as a mask whose bit d stands for direction d and
// follows them from UL to RIGHT, so that its moves come in the order of its direction list:
// each list is in direction order, from 0.
const _: () = {
    let mut k = 0;
    while k < ALL_DIRECTIONS.len() {
        assert!(ALL_DIRECTIONS[k] == k && (k >= DIAGONALS.len() || DIAGONALS[k] == k));
        k += 1;
    }
};
const WHITE_FORWARD: [usize; 2] = [UL, UR];
const BLACK_FORWARD: [usize; 2] = [DL, DR];

/// The directions a man of `side` moves in.
#[inline(always)]
pub(crate) fn forward(side: Color) -> &'static [usize] {
    match side {
        Color::White => &WHITE_FORWARD,
        Color::Black => &BLACK_FORWARD,
    }
}

#[inline(always)]
fn man_capture_dirs<R: RuleSet>(side: Color) -> &'static [usize] {
    if R::RULES.orthogonal_captures {
        &ALL_DIRECTIONS
    } else if R::RULES.men_capture_backward {
        &DIAGONALS
    } else {
        forward(side)
    }
}

#[inline(always)]
fn king_capture_dirs<R: RuleSet>() -> &'static [usize] {
    if R::RULES.orthogonal_captures {
        &ALL_DIRECTIONS
    } else {
        &DIAGONALS
    }
}

/// The side to move's pieces split up, and the empty squares.
struct Sides {
    men: u64,
    kings: u64,
    them: u64,
    empty: u64,
}

#[inline(always)]
fn sides<R: RuleSet>(pos: &Position) -> Sides {
    let (us, them) = match pos.side {
        Color::White => (pos.white, pos.black),
        Color::Black => (pos.black, pos.white),
    };
    Sides {
        men: us & !pos.kings,
        kings: us & pos.kings,
        them,
        empty: R::RULES.geometry.board & !(us | them),
    }
}

/// For each man capture direction: the squares from which a man could jump that way (with, in
/// a diagonal direction, bits off the board that every use takes away with a set of squares).
#[inline(always)]
fn jump_sources<R: RuleSet>(side: Color, s: &Sides) -> [u64; 8] {
    let g = R::RULES.geometry;
    let mut from = [0u64; 8];
    for &d in man_capture_dirs::<R>(side) {
        let back = REVERSE[d];
        // Diagonal steps need no edge mask (see `Geometry::shift_diagonal`): the first step's
        // result is taken with the opposing pieces, the second's with the men or the landings.
        from[d] = if is_diagonal(d) {
            g.shift_diagonal(g.shift_diagonal(s.empty, back) & s.them, back)
        } else {
            g.shift(g.shift(s.empty, back) & s.them, back)
        };
    }
    from
}

/// Kings of the side to move that have at least one capture.
#[inline(always)]
fn king_capturers<R: RuleSet>(s: &Sides) -> u64 {
    if s.kings == 0 {
        return 0;
    }
    let g = R::RULES.geometry;
    if R::RULES.flying_kings {
        // A king at a time: kings are few, and each direction is one look-up.
        let occupied = g.board & !s.empty;
        let (mut kings, mut capturers) = (s.kings, 0);
        while kings != 0 {
            let at = kings.trailing_zeros();
            kings &= kings - 1;
            let captures = king_capture_dirs::<R>().iter().any(|&d| {
                let (_, hit) = g.sight(at, d, occupied);
                hit & s.them != 0 && g.step[d][hit.trailing_zeros() as usize] & s.empty != 0
            });
            if captures {
                capturers |= 1u64 << at;
            }
        }
        return capturers;
    }
    let mut kings = 0;
    for &d in king_capture_dirs::<R>() {
        let back = REVERSE[d];
        kings |= g.shift(g.shift(s.empty, back) & s.them, back);
    }
    kings & s.kings
}

/// Men that can make a first jump, given the squares [`jump_sources`] found.
#[inline(always)]
fn jumping_men<R: RuleSet>(side: Color, sources: &[u64; 8], s: &Sides) -> u64 {
    man_capture_dirs::<R>(side)
        .iter()
        .fold(0, |a, &d| a | sources[d])
        & s.men
}

/// Men and kings of the side to move that have at least one capture.
#[inline(always)]
fn capturers<R: RuleSet>(pos: &Position, s: &Sides) -> (u64, u64) {
    let men = jumping_men::<R>(pos.side, &jump_sources::<R>(pos.side, s), s);
    (men, king_capturers::<R>(s))
}

/// Whether the side to move has a capture.
pub(crate) fn has_capture<R: RuleSet>(pos: &Position) -> bool {
    let s = sides::<R>(pos);
    let (men, kings) = capturers::<R>(pos, &s);
    men | kings != 0
}

/// The number of simple moves when the side to move has no capture; else `None`, with its
/// captures listed in `list`: a search's leaf learns whether it is quiet, and one that is not
/// lists the captures it searches from the same look at the pieces that can capture.
#[inline]
pub(crate) fn quiet_count_or_captures<R: RuleSet>(
    pos: &Position,
    list: &mut MoveList,
) -> Option<u64> {
    let s = sides::<R>(pos);
    list.clear();
    (!generate_captures::<R>(pos, &s, list)).then(|| count_quiet::<R>(pos, &s))
}

/// Kings that may make a simple move: all, except under Frisian Article 17 a king that has just
/// made three simple moves in a row while its side still has men.
#[inline(always)]
fn movable_kings<R: RuleSet>(pos: &Position, s: &Sides) -> u64 {
    if R::RULES.king_move_limit && s.men != 0 {
        let run = pos.king_run[pos.side.index()];
        if run.count >= 3 {
            return s.kings & !(1u64 << run.bit);
        }
    }
    s.kings
}

/// Priority of a finished capture of `pieces` pieces, `kings` of them kings, under the variant's
/// rule: higher is preferred.
#[inline(always)]
fn priority<R: RuleSet>(pieces: u32, kings: u32, mover_is_king: bool) -> u32 {
    match R::RULES.priority {
        CapturePriority::Free => 0,
        CapturePriority::MostPieces => pieces,
        // Article 11: a king is worth 2 - ε men, with ε small enough that n kings stay above
        // 2n - 1 men; Article 12 then prefers a capture by a king.
        CapturePriority::HighestValue => {
            (((pieces + kings) * 32 - kings) << 1) | mover_is_king as u32
        }
    }
}

/// Depth-first search for the captures of one piece.
struct CaptureSearch<'a> {
    geometry: &'static Geometry,
    them: u64,
    empty: u64,
    kings: u64,
    from: u8,
    mover_is_king: bool,
    best: u32,
    path: [u8; MAX_PATH],
    list: &'a mut MoveList,
}

impl<'a> CaptureSearch<'a> {
    #[inline(always)]
    fn new<R: RuleSet>(pos: &Position, s: &Sides, list: &'a mut MoveList) -> CaptureSearch<'a> {
        CaptureSearch {
            geometry: R::RULES.geometry,
            them: s.them,
            empty: s.empty,
            kings: pos.kings,
            from: 0,
            mover_is_king: false,
            best: 0,
            path: [0; MAX_PATH],
            list,
        }
    }

    /// Starts the captures of the piece on `from` (a king when `king`): its square counts as
    /// empty while it captures.
    #[inline(always)]
    fn start(&mut self, from: u32, king: bool, s: &Sides) {
        self.from = from as u8;
        self.mover_is_king = king;
        self.empty = s.empty | (1u64 << from);
    }

    #[inline(always)]
    fn key<R: RuleSet>(&self, captured: u64) -> u32 {
        priority::<R>(
            captured.count_ones(),
            (captured & self.kings).count_ones(),
            self.mover_is_king,
        )
    }

    #[inline]
    fn record<R: RuleSet>(&mut self, to: u32, captured: u64, n: usize) {
        let key = self.key::<R>(captured);
        if key < self.best {
            return;
        }
        if key > self.best {
            self.best = key;
            self.list.clear();
        }
        // The whole route array is copied, a copy of fixed size instead of a call to copy a
        // length known only here; the squares past `n - 1` are left from other routes, and
        // `path_len` keeps them from being read.
        let mv = Move {
            captured,
            from: self.from,
            to: to as u8,
            width: self.geometry.width as u8,
            path_len: (n - 1) as u8,
            path: self.path,
        };
        // Two routes with the same start, end and captured set take at least three pieces: with
        // two, taking them in the other order takes different squares.
        if n >= 3 {
            self.list.push_capture(mv);
        } else {
            self.list.push(mv);
        }
    }

    /// Captures by a piece that jumps one square at a time (men; English kings).
    fn short<R: RuleSet>(&mut self, dirs: &[usize], at: u32, captured: u64, n: usize) {
        let g = self.geometry;
        // Most landing squares end the capture; one look at the neighbours settles those.
        let near = g.around[usize::from(dirs.len() > 4)][at as usize];
        // The directions a jump goes in, found without a branch per direction (whether one has a
        // piece to take is as good as a coin toss to the processor).
        let mut jumps = 0u32;
        if near & self.them & !captured != 0 {
            for (k, &d) in dirs.iter().enumerate() {
                let victim = g.step[d][at as usize] & self.them & !captured;
                let landing = g.jump[d][at as usize] & self.empty;
                jumps |= u32::from((victim != 0) & (landing != 0)) << k;
            }
        }
        if jumps == 0 {
            if n > 0 {
                self.record::<R>(at, captured, n);
            }
            return;
        }
        while jumps != 0 {
            let d = dirs[jumps.trailing_zeros() as usize];
            jumps &= jumps - 1;
            let victim = g.step[d][at as usize];
            let to = g.jump[d][at as usize].trailing_zeros();
            self.path[n] = to as u8;
            self.short::<R>(dirs, to, captured | victim, n + 1);
        }
    }

    /// Captures by a flying king from the square it starts on: a run of landing squares in
    /// each direction it can jump in, in direction order.
    fn flying<R: RuleSet>(&mut self, at: u32) {
        let jumps = self.looks::<R, NONE>(at, 0);
        self.turn::<R, NONE, UL>(&jumps, None, 0, 0);
        self.turn::<R, NONE, UR>(&jumps, None, 0, 0);
        self.turn::<R, NONE, DL>(&jumps, None, 0, 0);
        self.turn::<R, NONE, DR>(&jumps, None, 0, 0);
        if R::RULES.orthogonal_captures {
            self.turn::<R, NONE, UP>(&jumps, None, 0, 0);
            self.turn::<R, NONE, DOWN>(&jumps, None, 0, 0);
            self.turn::<R, NONE, LEFT>(&jumps, None, 0, 0);
            self.turn::<R, NONE, RIGHT>(&jumps, None, 0, 0);
        }
    }

    /// A flying king's capture going on after a jump in direction `D` (a constant: each
    /// direction's search is compiled apart, and every look in it has constant steps), which
    /// took the last piece of `captured`: the run of empty squares behind that piece, from
    /// `landing` on, each a square to stop on or to turn from.
    ///
    /// Straight ahead every square of the run sees the same piece, so whether the capture can go
    /// on straight is looked at once for the whole run, and followed from its first square only
    /// (from any of them it reaches the same continuations); a square of the run is then the end
    /// of the capture when it has no jump to the side either. Straight back lies the piece just
    /// taken, which stays on the board until the capture ends: never a jump.
    fn run<R: RuleSet, const D: usize>(&mut self, mut landing: u64, captured: u64, n: usize) {
        let g = self.geometry;
        let them = self.them & !captured;
        let ahead = g.first_hit(landing.trailing_zeros(), D, !self.empty) & them;
        // With no piece ahead the mask reads square 0's step, and `ahead` discards it: no
        // branch on whether there is one.
        let beyond = g.step[D][(ahead.trailing_zeros() & 63) as usize] & self.empty;
        let mut straight = ((ahead != 0) & (beyond != 0)).then_some((ahead, beyond));
        let goes_on = straight.is_some();
        while landing != 0 {
            let to = landing.trailing_zeros();
            self.path[n] = to as u8;
            let jumps = self.looks::<R, D>(to, captured);
            if jumps.bits == 0 && !goes_on {
                self.record::<R>(to, captured, n + 1);
            } else {
                // Each direction in turn, in direction order (the order of the variant's list).
                self.turn::<R, D, UL>(&jumps, straight, captured, n + 1);
                self.turn::<R, D, UR>(&jumps, straight, captured, n + 1);
                self.turn::<R, D, DL>(&jumps, straight, captured, n + 1);
                self.turn::<R, D, DR>(&jumps, straight, captured, n + 1);
                if R::RULES.orthogonal_captures {
                    self.turn::<R, D, UP>(&jumps, straight, captured, n + 1);
                    self.turn::<R, D, DOWN>(&jumps, straight, captured, n + 1);
                    self.turn::<R, D, LEFT>(&jumps, straight, captured, n + 1);
                    self.turn::<R, D, RIGHT>(&jumps, straight, captured, n + 1);
                }
            }
            // Straight on is followed from the run's first square only.
            straight = None;
            landing = g.shift(landing, D) & self.empty;
        }
    }

    /// From square `at` of a king's capture that came in direction `CAME` ([`NONE`] at its
    /// start), the jumps to the side (every direction but `CAME` and straight back), each one's
    /// piece to take and first landing square, found without a branch per direction.
    #[inline(always)]
    fn looks<R: RuleSet, const CAME: usize>(&self, at: u32, captured: u64) -> Jumps {
        let g = self.geometry;
        // Pieces already taken stay on the board until the capture ends: they block, and are
        // not taken again.
        let occupied = !self.empty;
        let them = self.them & !captured;
        let mut jumps = Jumps {
            bits: 0,
            targets: [0; DIRECTIONS],
            landings: [0; DIRECTIONS],
        };
        let mut look = |d: usize| {
            if CAME != NONE && (d == CAME || d == REVERSE[CAME]) {
                return;
            }
            let target = g.first_hit(at, d, occupied) & them;
            let landing = g.step[d][(target.trailing_zeros() & 63) as usize] & self.empty;
            jumps.bits |= u32::from((target != 0) & (landing != 0)) << d;
            jumps.targets[d] = target;
            jumps.landings[d] = landing;
        };
        // Spelt out, so that each direction is a constant however the compiler unrolls.
        look(UL);
        look(UR);
        look(DL);
        look(DR);
        if R::RULES.orthogonal_captures {
            look(UP);
            look(DOWN);
            look(LEFT);
            look(RIGHT);
        }
        jumps
    }

    /// Follows the jump in direction `E` from a square of a run in direction `D`: to the side
    /// if `jumps` has one, or straight on over the piece ahead when `E` is `D` and `straight`
    /// gives that piece and the square behind it.
    #[inline(always)]
    fn turn<R: RuleSet, const D: usize, const E: usize>(
        &mut self,
        jumps: &Jumps,
        straight: Option<(u64, u64)>,
        captured: u64,
        n: usize,
    ) {
        if E == D {
            if let Some((ahead, beyond)) = straight {
                self.run::<R, E>(beyond, captured | ahead, n);
            }
        } else if jumps.bits & 1 << E != 0 {
            self.run::<R, E>(jumps.landings[E], captured | jumps.targets[E], n);
        }
    }
}

/// A flying king's jumps from one square.
struct Jumps {
    /// Bit d for a jump in direction d.
    bits: u32,
    /// In each direction with a jump, the piece it takes.
    targets: [u64; DIRECTIONS],
    /// In each direction with a jump, the first square behind that piece.
    landings: [u64; DIRECTIONS],
}

/// No direction: a king's capture at its start, before its first jump.
const NONE: usize = DIRECTIONS;

/// The squares from which a man's capture that has just jumped in direction `d` goes on, given
/// the squares [`jump_sources`] found: a jump in any of its directions but straight back (the
/// piece just taken and the square just left lie only that way).
#[inline(always)]
fn onward<R: RuleSet>(side: Color, sources: &[u64; 8], d: usize) -> u64 {
    let back = REVERSE[d];
    man_capture_dirs::<R>(side)
        .iter()
        .filter(|&&e| e != back)
        .fold(0, |a, &e| a | sources[e])
}

/// Fills `list` with the captures of the side to move, returning whether there are any.
///
/// Most men that can capture take one piece and stop; those are found for all the men at once,
/// from the squares that every man's jumps start from, and listed without the depth-first
/// search, which the others still go through. Men are still taken in order and each one's
/// captures in its directions' order, so the list is the search's, move for move.
#[inline(always)]
fn generate_captures<R: RuleSet>(pos: &Position, s: &Sides, list: &mut MoveList) -> bool {
    let sources = jump_sources::<R>(pos.side, s);
    let mut men = jumping_men::<R>(pos.side, &sources, s);
    let kings = king_capturers::<R>(s);
    if men | kings == 0 {
        return false;
    }
    let g = R::RULES.geometry;
    let dirs = man_capture_dirs::<R>(pos.side);
    // The men with a jump after which the capture goes on.
    let mut longer = 0;
    for &d in dirs {
        let back = REVERSE[d];
        let landings = g.shift(g.shift(sources[d] & s.men, d), d);
        longer |= g.shift(
            g.shift(landings & onward::<R>(pos.side, &sources, d), back),
            back,
        );
    }
    let mut search = CaptureSearch::new::<R>(pos, s, list);
    while men != 0 {
        let from = men.trailing_zeros();
        let man = 1u64 << from;
        men &= men - 1;
        search.start(from, false, s);
        if longer & man == 0 {
            // Its jumps' directions found without a branch per direction (as in the search).
            let mut jumps = 0u32;
            for (k, &d) in dirs.iter().enumerate() {
                jumps |= u32::from(sources[d] & man != 0) << k;
            }
            while jumps != 0 {
                let d = dirs[jumps.trailing_zeros() as usize];
                jumps &= jumps - 1;
                let to = g.jump[d][from as usize].trailing_zeros();
                search.record::<R>(to, g.step[d][from as usize], 1);
            }
        } else {
            search.short::<R>(dirs, from, 0, 0);
        }
    }
    search_kings::<R>(&mut search, s, kings);
    true
}

/// Runs the capture search from each of `kings`.
#[inline]
fn search_kings<R: RuleSet>(search: &mut CaptureSearch<'_>, s: &Sides, mut kings: u64) {
    while kings != 0 {
        let from = kings.trailing_zeros();
        kings &= kings - 1;
        search.start(from, true, s);
        if R::RULES.flying_kings {
            search.flying::<R>(from);
        } else {
            search.short::<R>(&DIAGONALS, from, 0, 0);
        }
    }
}

/// Fills `list` with all legal moves of the side to move.
pub(crate) fn generate<R: RuleSet>(pos: &Position, list: &mut MoveList) {
    list.clear();
    let s = sides::<R>(pos);
    if generate_captures::<R>(pos, &s, list) {
        return;
    }
    let g = R::RULES.geometry;
    let w = g.width;
    for &d in forward(pos.side) {
        let mut targets = g.shift(s.men, d) & s.empty;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            list.push(Move::quiet((to as i32 - g.offset[d]) as u32, to, w));
        }
    }
    let mut kings = movable_kings::<R>(pos, &s);
    while kings != 0 {
        let from = kings.trailing_zeros();
        kings &= kings - 1;
        for d in DIAGONALS {
            let mut target = g.shift(1u64 << from, d) & s.empty;
            while target != 0 {
                list.push(Move::quiet(from, target.trailing_zeros(), w));
                if !R::RULES.flying_kings {
                    break;
                }
                target = g.shift(target, d) & s.empty;
            }
        }
    }
}

/// Number of legal moves, counted without listing simple moves or single captures that cannot
/// go on. `scratch` receives the other captures.
#[inline]
pub(crate) fn count<R: RuleSet>(pos: &Position, scratch: &mut MoveList) -> u64 {
    let g = R::RULES.geometry;
    let s = sides::<R>(pos);
    let sources = jump_sources::<R>(pos.side, &s);
    let king_captures = king_capturers::<R>(&s);
    let dirs = man_capture_dirs::<R>(pos.side);
    if jumping_men::<R>(pos.side, &sources, &s) | king_captures == 0 {
        return count_quiet::<R>(pos, &s);
    }
    scratch.clear();
    let mut search = CaptureSearch::new::<R>(pos, &s, scratch);
    // Single captures that end at once, by the kind of piece taken (man, king).
    let mut singles = [0u64; 2];
    for &d in dirs {
        let movers = sources[d] & s.men;
        if movers == 0 {
            continue;
        }
        let back = REVERSE[d];
        let landings = g.shift(g.shift(movers, d), d);
        let onward = onward::<R>(pos.side, &sources, d);
        let done = g.shift(landings & !onward, back);
        singles[0] += (done & !pos.kings).count_ones() as u64;
        singles[1] += (done & pos.kings).count_ones() as u64;
        let mut more = landings & onward;
        while more != 0 {
            let to = more.trailing_zeros();
            more &= more - 1;
            let from = g.jump[back][to as usize].trailing_zeros();
            search.start(from, false, &s);
            search.path[0] = to as u8;
            search.short::<R>(dirs, to, g.step[back][to as usize], 1);
        }
    }
    search_kings::<R>(&mut search, &s, king_captures);
    let (mut best, mut total) = (search.best, search.list.len() as u64);
    for (taken_king, n) in [(false, singles[0]), (true, singles[1])] {
        let key = priority::<R>(1, taken_king as u32, false);
        if n == 0 || key < best {
            continue;
        }
        if key > best {
            (best, total) = (key, 0);
        }
        total += n;
    }
    total
}

/// Number of simple moves.
#[inline(always)]
fn count_quiet<R: RuleSet>(pos: &Position, s: &Sides) -> u64 {
    let g = R::RULES.geometry;
    let mut n = 0;
    for &d in forward(pos.side) {
        n += (g.shift(s.men, d) & s.empty).count_ones();
    }
    let kings = movable_kings::<R>(pos, s);
    n += g.king_moves(kings, g.board & !s.empty, R::RULES.flying_kings);
    n as u64
}

/// The position after `mv`, which must be legal in `pos`. Always inlined: the search then
/// builds each child in the slot it is read from, with no copy of it.
#[inline(always)]
pub(crate) fn make<R: RuleSet>(pos: &Position, mv: &Move) -> Position {
    let g = R::RULES.geometry;
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    let mut next = *pos;
    let side = pos.side;
    let (us, them) = match side {
        Color::White => (&mut next.white, &mut next.black),
        Color::Black => (&mut next.black, &mut next.white),
    };
    *us = (*us & !from) | to;
    *them &= !mv.captured;
    let was_king = pos.kings & from != 0;
    let promotion_row = match side {
        Color::White => g.top_row,
        Color::Black => g.bottom_row,
    };
    next.kings &= !(from | mv.captured);
    if was_king || to & promotion_row != 0 {
        next.kings |= to;
    }
    if R::RULES.king_move_limit {
        let run = &mut next.king_run[side.index()];
        if was_king && mv.captured == 0 {
            // Only "three or more" matters, so the count stops at 3.
            run.count = if run.count > 0 && run.bit == mv.from {
                (run.count + 1).min(3)
            } else {
                1
            };
            run.bit = mv.to;
        } else {
            *run = KingRun::default();
        }
        let theirs = &mut next.king_run[side.opposite().index()];
        if theirs.count > 0 && mv.captured & (1u64 << theirs.bit) != 0 {
            *theirs = KingRun::default();
        }
    }
    next.side = side.opposite();
    next
}

/// Whether `mv` (a legal capture of `pos`) can be played along a route that stops on `stops`
/// in this order (other stops may come between). Used to read long capture notation.
pub(crate) fn route_matches<R: RuleSet>(pos: &Position, mv: &Move, stops: &[u8]) -> bool {
    struct Walk {
        geometry: &'static Geometry,
        dirs: &'static [usize],
        flying: bool,
        victims: u64,
        empty: u64,
        to: u32,
    }
    impl Walk {
        fn go(&self, at: u32, captured: u64, stops: &[u8], came: Option<usize>) -> bool {
            if captured == self.victims {
                return at == self.to && stops.is_empty();
            }
            let g = self.geometry;
            for &d in self.dirs {
                if came == Some(REVERSE[d]) {
                    continue;
                }
                let mut target = g.shift(1u64 << at, d);
                while self.flying && target & self.empty != 0 {
                    target = g.shift(target, d);
                }
                if target & self.victims & !captured == 0 {
                    continue;
                }
                let mut landing = g.shift(target, d) & self.empty;
                while landing != 0 {
                    let bit = landing.trailing_zeros();
                    let rest = match stops.split_first() {
                        Some((&first, rest)) if first as u32 == bit => rest,
                        _ => stops,
                    };
                    if self.go(bit, captured | target, rest, Some(d)) {
                        return true;
                    }
                    if !self.flying {
                        break;
                    }
                    landing = g.shift(landing, d) & self.empty;
                }
            }
            false
        }
    }
    if !mv.is_capture() {
        return stops.is_empty();
    }
    let s = sides::<R>(pos);
    let is_king = pos.kings & (1u64 << mv.from) != 0;
    let walk = Walk {
        geometry: R::RULES.geometry,
        dirs: if is_king {
            king_capture_dirs::<R>()
        } else {
            man_capture_dirs::<R>(pos.side)
        },
        flying: is_king && R::RULES.flying_kings,
        victims: mv.captured & s.them,
        empty: s.empty | (1u64 << mv.from),
        to: mv.to as u32,
    };
    walk.go(mv.from as u32, 0, stops, None)
}

#[cfg(test)]
mod tests {
    use super::{
        CaptureSearch, RuleSet, capturers, generate, man_capture_dirs, search_kings, sides,
    };
    use crate::rules::board::{Position, Square};
    use crate::rules::moves::MoveList;
    use crate::rules::notation::{long_text, move_text, parse_fen, parse_move, to_fen};
    use crate::rules::piece::Kind;
    use crate::rules::variant::{Variant, with_rules};

    fn moves(variant: Variant, fen: &str) -> Vec<String> {
        let mut v = in_order(variant, fen);
        v.sort();
        v
    }

    /// The legal moves' texts in the order the generator lists them.
    fn in_order(variant: Variant, fen: &str) -> Vec<String> {
        let pos = parse_fen(fen, variant).unwrap();
        pos.legal_moves()
            .iter()
            .map(|m| move_text(&pos, m))
            .collect()
    }

    fn list(items: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    const I: Variant = Variant::International;
    const F: Variant = Variant::Frisian;
    const E: Variant = Variant::English;

    #[test]
    fn a_reused_list_holds_the_new_positions_moves_only() {
        // A long capture list first, then positions with fewer and with quiet moves: nothing of
        // the earlier list may remain.
        let mut reused = MoveList::new();
        for (v, fen) in [
            (I, "W:W27,28,32,33,K46:B7,8,9,12,13,17,18,19,22,23"),
            (I, "W:W33,47:B28,K42"),
            (I, "W:W31-50:B1-20"),
            (F, "W:W32,35,K46:B30,41"),
            (E, "B:W21-32:B1-12"),
        ] {
            let pos = parse_fen(fen, v).unwrap();
            // As the search calls it, one list per ply reused.
            with_rules!(v, R => generate::<R>(&pos, &mut reused));
            assert_eq!(reused.as_slice(), pos.legal_moves().as_slice(), "{v} {fen}");
        }
    }

    /// The captures as the depth-first search from every man lists them (then the kings'), with
    /// no man's captures listed apart: what the generator's list must equal, in its order.
    fn captures_by_search<R: RuleSet>(pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        let s = sides::<R>(pos);
        let (mut men, kings) = capturers::<R>(pos, &s);
        let mut search = CaptureSearch::new::<R>(pos, &s, &mut list);
        while men != 0 {
            let from = men.trailing_zeros();
            men &= men - 1;
            search.start(from, false, &s);
            search.short::<R>(man_capture_dirs::<R>(pos.side), from, 0, 0);
        }
        search_kings::<R>(&mut search, &s, kings);
        list
    }

    #[test]
    fn captures_that_end_after_one_piece_are_listed_as_the_search_lists_them() {
        // Random games in every variant (a fixed seed), each position's captures compared move
        // for move, route and order included, with the search's.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut compared = [0usize; 3];
        for (k, v) in [I, F, E].into_iter().enumerate() {
            for _ in 0..200 {
                let mut pos = Position::start(v);
                for _ in 0..150 {
                    let listed = pos.legal_moves();
                    if listed.is_empty() {
                        break;
                    }
                    if listed.as_slice()[0].is_capture() {
                        let searched = with_rules!(v, R => captures_by_search::<R>(&pos));
                        let routes = |l: &MoveList| -> Vec<(Vec<Square>, u64)> {
                            l.iter().map(|m| (m.route(), m.captured)).collect()
                        };
                        assert_eq!(routes(&listed), routes(&searched), "{v} {}", to_fen(&pos));
                        compared[k] += 1;
                    }
                    let pick = next() as usize % listed.len();
                    pos = pos.play(&listed.as_slice()[pick]);
                }
            }
        }
        // Enough positions with captures in each variant for the comparison to mean something.
        assert!(compared.iter().all(|&n| n > 1_000), "{compared:?}");
    }

    #[test]
    fn capture_value_beats_count_man_against_king() {
        // FMJD 4.13-4.14: one piece either way, free choice. Frisian Art. 11: the king is worth more.
        assert_eq!(moves(I, "W:W33,47:B28,K42"), list(&["33x22", "47x38"]));
        assert_eq!(moves(F, "W:W33,47:B28,K42"), list(&["47x18"]));
    }

    #[test]
    fn equal_value_the_king_must_capture() {
        // FMJD 4.14: free choice between equal captures; Frisian Art. 12: the king has priority.
        assert_eq!(moves(I, "W:W32,35,K46:B30,41"), list(&["35x24", "46x37"]));
        assert_eq!(moves(F, "W:W32,35,K46:B30,41"), list(&["46x37"]));
    }

    #[test]
    fn majority_against_value() {
        // FMJD 4.13: three men beat two kings; Frisian Art. 11: two kings (worth more than three
        // men) beat three men.
        assert_eq!(moves(I, "W:W45,46:B23,32,41,K30,K40"), list(&["46x19"]));
        assert_eq!(moves(F, "W:W45,46:B23,32,41,K30,K40"), list(&["45x25"]));
        // Art. 11: three kings are worth more than five men.
        assert_eq!(
            moves(I, "W:W45,46:B7,13,23,32,41,K15,K30,K40"),
            list(&["46x8"])
        );
        assert_eq!(
            moves(F, "W:W45,46:B7,13,23,32,41,K15,K30,K40"),
            list(&["45x5"])
        );
    }

    #[test]
    fn frisian_men_capture_along_rows_and_columns() {
        // Frisian Art. 7: man - enemy man - empty square in any of eight directions.
        assert_eq!(moves(I, "W:W33:B23"), list(&["33-28", "33-29"]));
        assert_eq!(moves(F, "W:W33:B23"), list(&["33x13"]));
        assert_eq!(moves(I, "W:W33:B34"), list(&["33-28", "33-29"]));
        assert_eq!(moves(F, "W:W33:B34"), list(&["33x35"]));
    }

    #[test]
    fn king_loop_routes_are_one_move() {
        // Two routes round the same four pieces, same start, end and captured set: one move.
        for v in [I, F] {
            let pos = parse_fen("W:WK2:B7,8,17,18", v).unwrap();
            let legal = pos.legal_moves();
            assert_eq!(legal.len(), 1, "{v}");
            let mv = legal.as_slice()[0];
            assert_eq!((mv.from().number(), mv.to().number()), (2, 2));
            assert_eq!(mv.capture_count(), 4);
            assert_eq!(move_text(&pos, &mv), "2x2");
        }
    }

    #[test]
    fn frisian_three_king_moves_in_a_row() {
        // Art. 17: with kings and men, at most three consecutive simple moves with one king.
        let mut pos = parse_fen("W:WK28,46:B5", F).unwrap();
        for text in ["28-17", "5-10", "17-28", "10-15", "28-17", "15-20"] {
            let mv = parse_move(&pos, text).unwrap();
            pos = pos.play(&mv);
        }
        assert_eq!(
            pos.legal_moves()
                .iter()
                .map(|m| move_text(&pos, m))
                .collect::<Vec<_>>(),
            ["46-41"]
        );
        // The ban is lifted by a move of another piece.
        pos = pos.play(&parse_move(&pos, "46-41").unwrap());
        pos = pos.play(&parse_move(&pos, "20-24").unwrap());
        assert!(parse_move(&pos, "17-28").is_ok());
        // A side with kings only is not bound by the rule.
        let mut kings_only = parse_fen("W:WK28,K36:B5", F).unwrap();
        for text in ["28-17", "5-10", "17-28", "10-15", "28-17", "15-20"] {
            kings_only = kings_only.play(&parse_move(&kings_only, text).unwrap());
        }
        assert!(parse_move(&kings_only, "17-28").is_ok());
        // International has no such rule.
        let mut intl = parse_fen("W:WK28,46:B5", I).unwrap();
        for text in ["28-17", "5-10", "17-28", "10-15", "28-17", "15-20"] {
            intl = intl.play(&parse_move(&intl, text).unwrap());
        }
        assert!(parse_move(&intl, "17-28").is_ok());
    }

    #[test]
    fn english_rule_vectors() {
        // WCDF 1.19: a man reaching the king row by capture is crowned and the move ends.
        assert_eq!(moves(E, "B:W26,27:B22"), list(&["22x31"]));
        // WCDF 1.20: any capture may be chosen, not necessarily the largest.
        assert_eq!(
            moves(E, "B:W18,26,19:B14,15"),
            list(&["14x30", "15x24", "15x31"])
        );
        // WCDF 1.17: kings move one square.
        assert_eq!(
            moves(E, "B:W32:BK18"),
            list(&["18-14", "18-15", "18-22", "18-23"])
        );
        // WCDF 1.18: men capture forward only; 1.21: kings also backward.
        assert_eq!(moves(E, "B:W18:B22"), list(&["22-25", "22-26"]));
        assert_eq!(moves(E, "B:W18:BK23"), list(&["23x14"]));
        assert_eq!(
            moves(E, "B:W21-32:B1-12"),
            list(&["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
        );
    }

    #[test]
    fn promotion_only_when_the_move_ends_on_the_far_row() {
        // FMJD 4.15: a man passing the promotion row during a capture stays a man.
        let pos = parse_fen("W:W13:B9,10,40", I).unwrap();
        let mv = parse_move(&pos, "13x15").unwrap();
        assert_eq!(long_text(&mv), "13x4x15");
        let after = pos.play(&mv);
        let at15 = after.piece_at(Square::new(15, I).unwrap()).unwrap();
        assert_eq!(at15.kind, Kind::Man);
        // FMJD 3.5: a man that stops on the far row is crowned.
        let pos = parse_fen("W:W7:B40", I).unwrap();
        let after = pos.play(&parse_move(&pos, "7-1").unwrap());
        assert_eq!(
            after.piece_at(Square::new(1, I).unwrap()).unwrap().kind,
            Kind::King
        );
    }

    #[test]
    fn flying_king_moves_and_lands_anywhere_beyond() {
        // FMJD 3.9 and 4.3: a king moves along free squares and lands on any free square beyond.
        assert_eq!(moves(I, "W:WK46:B5").len(), 8);
        assert_eq!(
            moves(I, "W:WK46:B28"),
            list(&["46x23", "46x19", "46x14", "46x10", "46x5"])
        );
        // An enemy piece with a piece right behind it cannot be taken.
        assert_eq!(moves(I, "W:WK46:B37,32"), list(&["46-41"]));
    }

    #[test]
    fn a_flying_kings_captures_come_direction_by_direction_nearest_landing_first() {
        // FMJD 4.3: the king takes 22, 32 or 33 (one diagonal through 28 holds 22 and 33) and
        // lands on any free square behind. The list goes up-left, up-right, down-left,
        // down-right, and along each from the nearest landing square out: the search's order of
        // moves of equal rank, and so its tree, follows it.
        let listed = in_order(I, "W:WK28:B22,32,33");
        let expected = [
            "28x17", "28x11", "28x6", "28x37", "28x41", "28x46", "28x39", "28x44", "28x50",
        ];
        assert_eq!(listed, expected);
    }

    #[test]
    fn a_frisian_kings_capture_turns_from_any_landing_square_in_any_line() {
        // Frisian Article 9: a king captures along the horizontal, vertical and
        // diagonal lines, lands on any empty square behind the man taken and goes on from there
        // in another direction. Up the file from 46 over 36, then over 17: diagonally from 26,
        // along the row from 16, diagonally from 6 — listed landing by landing, nearest first.
        let listed = in_order(F, "W:WK46:B17,36");
        let expected = [
            "46x12", "46x8", "46x3", "46x18", "46x19", "46x20", "46x22", "46x28", "46x33", "46x39",
            "46x44", "46x50",
        ];
        assert_eq!(listed, expected);
    }

    #[test]
    fn captured_pieces_stay_until_the_capture_is_complete() {
        // FMJD 4.8/4.11: the king takes 28, 8 and 7 and then heads back down the diagonal
        // 11-17-22-28-33; 28 is still on the board, so 33 cannot be reached. If captured pieces
        // vanished at once, 41x39 over four pieces would be the only move.
        assert_eq!(moves(I, "W:WK41:B28,8,7,33"), list(&["41x11", "41x16"]));
    }

    #[test]
    fn a_side_without_moves_has_an_empty_list() {
        // FMJD 7.2.2: a blocked side has no move.
        assert!(
            parse_fen("W:W46:B41,37", I)
                .unwrap()
                .legal_moves()
                .is_empty()
        );
        assert!(parse_fen("B:W46", I).unwrap().legal_moves().is_empty());
    }
}
