//! Training: logistic regression of game results on the evaluation's features.
//!
//! Every quiet position of the games (no capture for either side) is a sample labelled by the
//! game's result from White's side (1, ½, 0) — or, when the tablebases hold it, by its exact
//! value — or by a blend of the result and a short search's value of the position
//! ([`Labeller`]): a game's result says little about any one of its positions (a drawn game
//! passes through positions one side should have won), a search says what the position itself
//! is worth, so blended labels carry less noise. The model says `P(White scores) = σ(E / 100)`,
//! `E` being the evaluation from White's side, each weight taken in its two phases in
//! proportion to the pieces left (see [`Model`]); the weights are fitted by stochastic gradient
//! descent with per-weight step sizes (Adagrad, suited to sparse pattern features) and an L2
//! pull towards the starting weights, one sample at a time in an order drawn from the seed,
//! single-threaded, so the same data and seed give the same weights. One game in twenty is held
//! out to measure the fit, and the epoch that fits it best is kept. The result is scaled so that
//! a man is worth exactly 100.

use crate::engine::eval::Model;
use crate::engine::eval::features::{CONFIGURATIONS, GLOBALS, Global, MAX_REGIONS, Tables, View};
use crate::engine::eval::model::{PHASES, Phased};
use crate::engine::search::{Limits, Searcher};
use crate::rules::board::Position;
use crate::rules::pdn::PdnGame;
use crate::rules::piece::Color;
use crate::rules::variant::Variant;
use crate::tablebase::{Tablebase, Wdl};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// The logistic scale training starts from: an evaluation of 100 means White scores σ(1) ≈ 73%.
const SCALE: f64 = 100.0;
/// Step size of the scale, relative to its value.
const SCALE_RATE: f64 = 0.02;

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    white: [u16; MAX_REGIONS],
    black: [u16; MAX_REGIONS],
    /// White's whole-board terms less Black's.
    globals: [i16; GLOBALS],
    /// +1 with White to move, −1 with Black.
    side: i8,
    /// The share of the opening weights: the pieces left over the pieces at the start.
    opening: f32,
    /// White's expected score.
    target: f32,
}

/// How training runs.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// Passes over the data.
    pub epochs: usize,
    /// Initial step size (hundredths of a man).
    pub rate: f64,
    /// L2 pull towards the starting weights, per sample.
    pub l2: f64,
    /// Seed of the sample order.
    pub seed: u64,
    /// Whether the opening and ending values are fitted apart; if not, one value per weight
    /// is fitted (as the opening's) and written to both phases.
    pub phased: bool,
}

impl Default for TrainSettings {
    fn default() -> TrainSettings {
        TrainSettings {
            epochs: 12,
            rate: 2.0,
            l2: 1e-5,
            seed: 1,
            phased: true,
        }
    }
}

/// Samples drawn from games, split into those trained on and those held out.
#[derive(Default)]
pub struct Samples {
    /// Trained on.
    pub train: Vec<Sample>,
    /// Held out (one game in twenty).
    pub held_out: Vec<Sample>,
    /// How many samples took the tablebases' value.
    pub from_tables: usize,
}

impl Samples {
    /// Adds the quiet positions of `game` (the `index`-th read) after its first `skip` plies.
    /// Games without a result add nothing. With `labels` (a [`Labeller`]'s, ply by ply, and the
    /// search's share), a position the search valued takes that share of its label from the
    /// search and the rest from the result; the tablebases' exact values stand alone.
    pub fn add_game(
        &mut self,
        game: &PdnGame,
        index: usize,
        skip: usize,
        tablebase: Option<&Tablebase>,
        labels: Option<(&[Option<f32>], f32)>,
    ) {
        let Some(result) = game.result.score(Color::White) else {
            return;
        };
        let replay = game.game();
        for (ply, pos) in replay.positions().enumerate() {
            if ply < skip || !quiet(pos) {
                continue;
            }
            let exact = tablebase
                .filter(|tb| tb.variant() == pos.variant() && pos.piece_count() <= tb.max_pieces())
                .and_then(|tb| tb.wdl(pos).ok());
            let target = match exact {
                Some(wdl) => {
                    self.from_tables += 1;
                    let for_mover = match wdl {
                        Wdl::Win => 1.0,
                        Wdl::Draw => 0.5,
                        Wdl::Loss => 0.0,
                    };
                    if pos.side_to_move() == Color::White {
                        for_mover
                    } else {
                        1.0 - for_mover
                    }
                }
                None => {
                    let searched = labels.and_then(|(l, w)| Some((l.get(ply).copied()??, w)));
                    match searched {
                        Some((p, weight)) => weight * p + (1.0 - weight) * result,
                        None => result,
                    }
                }
            };
            let sample = sample(pos, target);
            if index % 20 == 19 {
                self.held_out.push(sample);
            } else {
                self.train.push(sample);
            }
        }
    }
}

/// A node-limited search's verdict on each quiet position of a game, as White's expected
/// score, to blend into the game's result as the position's label.
pub struct Labeller {
    /// Nodes searched for each position.
    pub nodes: u64,
    /// The logistic scale of the search's values: White scores σ(value / scale).
    pub scale: f64,
    /// The weights the search plays with (the shipped ones when `None`).
    pub model: Option<Arc<Model>>,
}

impl Labeller {
    /// White's expected score by the search at each ply of `game` (`None` where not searched:
    /// before `skip`, or a capture on the board). The game's positions are searched in order
    /// by one searcher of its own, so a game's labels depend on nothing else.
    pub fn label(&self, game: &PdnGame, skip: usize) -> Vec<Option<f32>> {
        let replay = game.game();
        let positions: Vec<Position> = replay.positions().copied().collect();
        let keys: Vec<u64> = positions.iter().map(Position::zobrist).collect();
        let mut searcher = Searcher::new(2, None);
        searcher.set_model(self.model.clone());
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        (positions.iter().enumerate())
            .map(|(ply, pos)| {
                if ply < skip || !quiet(pos) {
                    return None;
                }
                let value = searcher
                    .search(pos, &keys[..ply], limits, &mut |_| {})
                    .score;
                let p = sigmoid(f64::from(value) / self.scale);
                Some(if pos.side_to_move() == Color::White {
                    p
                } else {
                    1.0 - p
                } as f32)
            })
            .collect()
    }
}

/// Neither side has a capture: the evaluation's own ground (captures are searched out).
fn quiet(pos: &Position) -> bool {
    !pos.has_capture() && !pos.opponent_has_capture()
}

fn sample(pos: &Position, target: f32) -> Sample {
    let g = pos.variant().geometry();
    let t = Tables::of(g);
    let flying = pos.variant().rules().flying_kings;
    let (w, b) = (View::of(pos, Color::White), View::of(pos, Color::Black));
    let mut white = [0u16; MAX_REGIONS];
    let mut black = [0u16; MAX_REGIONS];
    t.for_each_pattern(&w, |r, i| white[r] = i as u16);
    t.for_each_pattern(&b, |r, i| black[r] = i as u16);
    let (gw, gb) = (t.globals(&w, g, flying), t.globals(&b, g, flying));
    Sample {
        white,
        black,
        globals: std::array::from_fn(|k| (gw[k] - gb[k]) as i16),
        side: if pos.side_to_move() == Color::White {
            1
        } else {
            -1
        },
        opening: {
            let full = 2 * pos.variant().rules().pieces_per_side;
            pos.piece_count().min(full) as f32 / full as f32
        },
        target,
    }
}

/// The weights being fitted, in evaluation units, with their Adagrad sums; each weight's two
/// phases side by side (index `PHASES * w + phase`).
struct Fit {
    regions: usize,
    /// The whole-board terms fitted: the starting weights' (the rest stay at zero).
    terms: usize,
    patterns: Vec<f64>,
    globals: Vec<f64>,
    tempo: Phased<f64>,
    sums: Vec<f64>,
    /// The starting weights, which the L2 term pulls towards: all of them, in the order of
    /// `sums`.
    prior: Vec<f64>,
    /// The logistic slope (`1 / scale`), fitted too so that the pull towards the starting
    /// weights does not fight the calibration of the results; with its Adagrad sum.
    slope: f64,
    slope_sum: f64,
    /// Whether the phases are fitted apart (see [`TrainSettings::phased`]).
    phased: bool,
}

impl Fit {
    fn new(start: &Model, phased: bool) -> Fit {
        let (patterns, globals, tempo) = start.units();
        let patterns: Vec<f64> = patterns.into_iter().flatten().collect();
        let globals: Vec<f64> = globals.into_iter().flatten().collect();
        let prior: Vec<f64> = patterns
            .iter()
            .chain(&globals)
            .chain(&tempo)
            .copied()
            .collect();
        Fit {
            regions: Tables::of(start.variant().geometry()).regions(),
            terms: start.terms(),
            sums: vec![0.0; prior.len()],
            patterns,
            globals,
            tempo,
            prior,
            slope: 1.0 / SCALE,
            slope_sum: 0.0,
            phased,
        }
    }

    /// The shares of the opening and ending values in a sample's evaluation.
    fn share(&self, s: &Sample) -> [f64; PHASES] {
        if self.phased {
            [f64::from(s.opening), 1.0 - f64::from(s.opening)]
        } else {
            [1.0, 0.0]
        }
    }

    fn value(&self, s: &Sample) -> f64 {
        let share = self.share(s);
        let phased = |w: &[f64], i: usize| share[0] * w[PHASES * i] + share[1] * w[PHASES * i + 1];
        let mut e = f64::from(s.side) * phased(&self.tempo, 0);
        for r in 0..self.regions {
            e += phased(&self.patterns, r * CONFIGURATIONS + usize::from(s.white[r]));
            e -= phased(&self.patterns, r * CONFIGURATIONS + usize::from(s.black[r]));
        }
        for k in 0..GLOBALS {
            e += phased(&self.globals, k) * f64::from(s.globals[k]);
        }
        e
    }

    /// Cross-entropy of the samples under the current weights.
    fn loss(&self, samples: &[Sample]) -> f64 {
        let total: f64 = samples
            .iter()
            .map(|s| {
                let p = sigmoid(self.value(s) * self.slope).clamp(1e-9, 1.0 - 1e-9);
                let y = f64::from(s.target);
                -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
            })
            .sum();
        total / samples.len().max(1) as f64
    }

    fn step(&mut self, s: &Sample, settings: &TrainSettings) {
        let e = self.value(s);
        let error = sigmoid(e * self.slope) - f64::from(s.target);
        let g = error * self.slope;
        let slope_grad = error * e;
        self.slope_sum += slope_grad * slope_grad;
        self.slope -= SCALE_RATE / SCALE * slope_grad / (self.slope_sum.sqrt() + 1e-12);
        let rate = settings.rate;
        let l2 = settings.l2;
        let n = self.patterns.len();
        let prior = &self.prior;
        let share = self.share(s);
        // Weight `i` (both phases) of the slice `w`, whose first weight is number `at` in `sums`
        // and `prior`.
        let update = |sums: &mut [f64], at: usize, w: &mut [f64], i: usize, grad: f64| {
            for (p, part) in share.iter().enumerate() {
                let (j, w) = (PHASES * i + p, &mut w[PHASES * i + p]);
                let grad = grad * part + l2 * (*w - prior[at + j]);
                sums[at + j] += grad * grad;
                *w -= rate * grad / (sums[at + j].sqrt() + 1e-12);
            }
        };
        for r in 0..self.regions {
            let i = r * CONFIGURATIONS + usize::from(s.white[r]);
            update(&mut self.sums, 0, &mut self.patterns, i, g);
            let i = r * CONFIGURATIONS + usize::from(s.black[r]);
            update(&mut self.sums, 0, &mut self.patterns, i, -g);
        }
        for k in 0..self.terms {
            if s.globals[k] != 0 {
                let grad = g * f64::from(s.globals[k]);
                update(&mut self.sums, n, &mut self.globals, k, grad);
            }
        }
        let grad = g * f64::from(s.side);
        update(
            &mut self.sums,
            n + self.globals.len(),
            &mut self.tempo,
            0,
            grad,
        );
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// Its number, from 1 (0: the starting weights).
    pub number: usize,
    /// Loss on the samples trained on.
    pub train_loss: f64,
    /// Loss on the held-out samples.
    pub held_out_loss: f64,
    /// The fitted logistic scale: the evaluation at which White scores σ(1) ≈ 73%.
    pub scale: f64,
}

/// Fits weights for `variant` from `start` on `samples`, reporting each epoch; returns the
/// weights of the epoch that fits the held-out samples best, scaled so that a man is 100.
pub fn train(
    variant: Variant,
    start: &Model,
    samples: &mut Samples,
    settings: &TrainSettings,
    report: &mut dyn FnMut(&Epoch),
) -> Model {
    let mut fit = Fit::new(start, settings.phased);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
    let mut best = (fit.loss(&samples.held_out), export(variant, &fit));
    report(&Epoch {
        number: 0,
        train_loss: fit.loss(&samples.train),
        held_out_loss: best.0,
        scale: 1.0 / fit.slope,
    });
    for number in 1..=settings.epochs {
        // Fisher–Yates from the seed: the order, and so the weights, depend on nothing else.
        let train = &mut samples.train;
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        for s in train.iter() {
            fit.step(s, settings);
        }
        let epoch = Epoch {
            number,
            train_loss: fit.loss(&samples.train),
            held_out_loss: fit.loss(&samples.held_out),
            scale: 1.0 / fit.slope,
        };
        report(&epoch);
        if epoch.held_out_loss < best.0 || samples.held_out.is_empty() {
            best = (epoch.held_out_loss, export(variant, &fit));
        }
    }
    best.1
}

/// The fitted weights scaled so that a man is worth 100, averaged over the phases.
fn export(variant: Variant, fit: &Fit) -> Model {
    let at = PHASES * Global::Man as usize;
    let man = if fit.phased {
        (fit.globals[at] + fit.globals[at + 1]) / 2.0
    } else {
        fit.globals[at]
    };
    let scale = if man > 1.0 { 100.0 / man } else { 1.0 };
    let phased = |w: &[f64]| -> Vec<Phased<f64>> {
        w.chunks_exact(PHASES)
            .map(|c| {
                let ending = if fit.phased { c[1] } else { c[0] };
                [c[0] * scale, ending * scale]
            })
            .collect()
    };
    Model::from_units(
        variant,
        &phased(&fit.patterns),
        &phased(&fit.globals)[..fit.terms],
        phased(&fit.tempo)[0],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::learn::selfplay::SelfPlay;
    use crate::rules::pdn::GameResult;

    fn games() -> Vec<PdnGame> {
        SelfPlay {
            variant: Variant::English,
            seed: 3,
            nodes: 400,
            random_plies: 6,
            max_plies: 120,
            model: None,
            tablebase: None,
        }
        .run(0, 40, &|| {})
    }

    #[test]
    fn only_quiet_positions_of_finished_games_are_samples() {
        let games = games();
        let mut samples = Samples::default();
        for (i, g) in games.iter().enumerate() {
            samples.add_game(g, i, 0, None, None);
        }
        let quiet_positions: usize = games
            .iter()
            .map(|g| g.game().positions().filter(|p| quiet(p)).count())
            .sum();
        assert_eq!(
            samples.train.len() + samples.held_out.len(),
            quiet_positions
        );
        assert!(!samples.held_out.is_empty());
        let mut unfinished = games[0].clone();
        unfinished.set_result(GameResult::Unfinished);
        let mut none = Samples::default();
        none.add_game(&unfinished, 0, 0, None, None);
        assert!(none.train.is_empty());
    }

    #[test]
    fn training_fits_the_data_better_and_is_reproducible() {
        let games = games();
        let collect = || {
            let mut s = Samples::default();
            for (i, g) in games.iter().enumerate() {
                s.add_game(g, i, 4, None, None);
            }
            s
        };
        let v = Variant::English;
        // Weights with the first nine whole-board terms only (as files from before the later
        // terms are): training fits those and leaves the others out.
        let (patterns, globals, tempo) = Model::initial(v).units();
        let terms = Global::ManMoves as usize;
        let start = Model::from_units(v, &patterns, &globals[..terms], tempo);
        let settings = TrainSettings {
            epochs: 3,
            ..TrainSettings::default()
        };
        let mut first = Vec::new();
        let mut samples = collect();
        let before = Fit::new(&start, true).loss(&samples.train);
        let a = train(v, &start, &mut samples, &settings, &mut |e| first.push(*e));
        assert!(
            first.last().unwrap().train_loss < before,
            "{first:?} from {before}"
        );
        let b = train(v, &start, &mut collect(), &settings, &mut |_| {});
        assert_eq!(a, b);
        let [opening, ending] = a.units().1[Global::Man as usize];
        assert!(((opening + ending) / 2.0 - 100.0).abs() <= 0.25);
        // Only the terms the starting weights have are fitted; the later ones stay at zero.
        assert_eq!(a.terms(), terms);
        assert!(a.units().1[terms..].iter().all(|&w| w == [0.0; 2]));
        assert!(a.units().1[..terms].iter().any(|&w| w != [0.0; 2]));
    }

    #[test]
    fn one_phase_training_writes_the_same_value_to_both_phases() {
        let games = games();
        let mut samples = Samples::default();
        for (i, g) in games.iter().enumerate() {
            samples.add_game(g, i, 4, None, None);
        }
        // Without held-out samples the last epoch is kept, not the starting weights.
        samples.held_out.clear();
        let v = Variant::English;
        let settings = |phased| TrainSettings {
            epochs: 2,
            phased,
            ..TrainSettings::default()
        };
        let one = train(
            v,
            &Model::initial(v),
            &mut samples,
            &settings(false),
            &mut |_| {},
        );
        let (patterns, globals, tempo) = one.units();
        assert_ne!(one, Model::initial(v));
        assert!(patterns.iter().chain(&globals).all(|[o, e]| o == e));
        assert_eq!(tempo[0], tempo[1]);
        assert_eq!(globals[Global::Man as usize], [100.0, 100.0]);
        // Fitted apart, the phases part.
        let mut epochs = Vec::new();
        let two = train(
            v,
            &Model::initial(v),
            &mut samples,
            &settings(true),
            &mut |e| epochs.push(*e),
        );
        let (patterns, globals, _) = two.units();
        assert!(
            patterns.iter().chain(&globals).any(|[o, e]| o != e),
            "{epochs:?}"
        );
    }

    #[test]
    fn search_labels_blend_into_the_results_as_weighted() {
        let games = games();
        let labeller = Labeller {
            nodes: 200,
            scale: 150.0,
            model: None,
        };
        let game = &games[0];
        let labels = labeller.label(game, 4);
        assert_eq!(
            labeller.label(game, 4),
            labels,
            "a game's labels depend on it alone"
        );
        let positions: Vec<Position> = game.game().positions().copied().collect();
        assert_eq!(labels.len(), positions.len());
        for (ply, (label, pos)) in labels.iter().zip(&positions).enumerate() {
            assert_eq!(label.is_some(), ply >= 4 && quiet(pos), "ply {ply}");
            assert!(label.is_none_or(|p| (0.0..=1.0).contains(&p)));
        }
        let result = match game.result {
            GameResult::Win(Color::White) => 1.0,
            GameResult::Win(Color::Black) => 0.0,
            _ => 0.5,
        };
        let targets = |weight: f32| {
            let mut s = Samples::default();
            // Index 0: every sample goes to the training set.
            s.add_game(game, 0, 4, None, Some((&labels, weight)));
            s.train.iter().map(|s| s.target).collect::<Vec<f32>>()
        };
        let searched: Vec<f32> = labels.iter().flatten().copied().collect();
        assert_eq!(targets(0.0), vec![result; searched.len()]);
        assert_eq!(targets(1.0), searched);
        let half = targets(0.5);
        for (h, p) in half.iter().zip(&searched) {
            assert!((h - (p + result) / 2.0).abs() < 1e-6);
        }
    }

    #[test]
    fn a_search_label_favours_the_side_a_man_up() {
        let v = Variant::International;
        let labeller = Labeller {
            nodes: 500,
            scale: 150.0,
            model: None,
        };
        let start = crate::rules::notation::parse_fen("W:W31,32,33,34:B3,4,5", v).unwrap();
        let game = PdnGame::new(start);
        let labels = labeller.label(&game, 0);
        // About a man up: σ(100 / 150) ≈ 0.66.
        assert!(labels[0].is_some_and(|p| p > 0.6), "{labels:?}");
    }

    #[test]
    fn a_sample_reads_the_position_from_whites_side() {
        let v = Variant::International;
        let pos = crate::rules::notation::parse_fen("B:W31,32,33:B19", v).unwrap();
        let s = sample(&pos, 1.0);
        assert_eq!(s.side, -1);
        assert_eq!(s.globals[Global::Man as usize], 2);
        // The model and the sample agree on the value.
        let m = Model::initial(v);
        let fit = Fit::new(&m, true);
        let white_side = fit.value(&s);
        let for_mover = f64::from(m.evaluate(&pos));
        assert!(
            (white_side + for_mover).abs() <= 1.0,
            "{white_side} {for_mover}"
        );
    }
}
