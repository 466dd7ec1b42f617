//! `draughts engine selfplay`, `draughts engine train` and `draughts engine book`: the
//! evaluation's training pipeline and the opening book's builder.

use anyhow::{Context, Result, bail};
use draughts::Variant;
use draughts::bounded;
use draughts::engine::eval::{Model, builtin, features::Global};
use draughts::engine::learn::{Labeller, Samples, SelfPlay, TrainSettings, train};
use draughts::rules::pdn;
use draughts::tablebase::{self, progress::Progress, progress::Report};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Arguments of `draughts engine selfplay`.
#[derive(clap::Args)]
pub(crate) struct SelfplayArgs {
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Number of the first game (to extend a run: game i is the same in any run of a seed).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Seed of the random opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Plies played at random from the start.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Plies after which a game is drawn.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Weights file to play with, or `initial` (the untrained start) [default: the shipped ones].
    #[arg(long)]
    weights: Option<String>,
    /// Tablebases: games end with their exact result once the tables hold the position.
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Games played at once [default: every core].
    #[arg(long)]
    threads: Option<usize>,
    /// The PDN file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Arguments of `draughts engine train`.
#[derive(clap::Args)]
pub(crate) struct TrainArgs {
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// PDN files of games (self-play or collections); games of other variants are skipped.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Weights to start from, or `initial` [default: initial].
    #[arg(long)]
    from: Option<String>,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = TrainSettings::default().epochs)]
    epochs: usize,
    /// Initial step size.
    #[arg(long, default_value_t = TrainSettings::default().rate)]
    rate: f64,
    /// L2 pull towards the starting weights.
    #[arg(long, default_value_t = TrainSettings::default().l2)]
    l2: f64,
    /// Seed of the sample order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies of each game not used (random openings).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// 2: an opening and an ending value for every weight; 1: one value for the whole game
    /// (written as two equal ones).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    phases: u8,
    /// Tablebases: positions they hold are labelled with their exact value.
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Nodes of a search run on every position, whose value is blended into its label
    /// (0: the game's result alone).
    #[arg(long, default_value_t = 0)]
    label_nodes: u64,
    /// The search's share of the label (the game's result has the rest).
    #[arg(long, default_value_t = 0.5)]
    label_weight: f32,
    /// The logistic scale of the search's values, in hundredths of a man.
    #[arg(long, default_value_t = 150.0)]
    label_scale: f64,
    /// Weights the labelling search plays with, or `initial` [default: the shipped ones].
    #[arg(long)]
    label_with: Option<String>,
    /// Games labelled at once [default: every core].
    #[arg(long)]
    threads: Option<usize>,
}

/// Arguments of `draughts engine book`.
#[derive(clap::Args)]
pub(crate) struct BookArgs {
    /// international, frisian or english.
    #[arg(long, default_value = "international")]
    variant: String,
    /// PDN files of games (self-play or collections); games of other variants are skipped.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
    /// Plies of each game read.
    #[arg(long, default_value_t = 16)]
    plies: usize,
    /// Games a move must have been played in to enter the book.
    #[arg(long, default_value_t = 3)]
    min_games: u32,
    /// Depth of the search that checks each move (0: no check).
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Moves valued more than this many men below their position's best are dropped.
    #[arg(long, default_value_t = 0.3)]
    margin: f64,
    /// Threads for the checking searches [default: every core].
    #[arg(long)]
    threads: Option<usize>,
}

/// Values the quiet positions of `games` with `labeller`, in parallel on `pool`.
fn label_games(
    labeller: &Labeller,
    games: &[pdn::PdnGame],
    skip: usize,
    pool: &rayon::ThreadPool,
) -> Vec<Vec<Option<f32>>> {
    use rayon::prelude::*;
    let progress = Counted::start("labelling", "games", games.len() as u64);
    let labels = pool.install(|| {
        (games.par_iter())
            .map(|g| {
                let l = labeller.label(g, skip);
                progress.tick();
                l
            })
            .collect()
    });
    progress.finish(&format!(
        "{} games labelled by a search of {} nodes",
        games.len(),
        labeller.nodes
    ));
    labels
}

/// How well the search's labels alone foretell the games' results: the check of
/// `--label-scale` (the loss is least at the scale that suits the search's values).
#[derive(Default)]
struct LabelCheck {
    loss: f64,
    positions: usize,
}

impl LabelCheck {
    fn add(&mut self, game: &pdn::PdnGame, labels: Option<&[Option<f32>]>) {
        let (Some(y), Some(labels)) = (game.result.score(draughts::Color::White), labels) else {
            return;
        };
        for &p in labels.iter().flatten() {
            let (y, p) = (f64::from(y), f64::from(p).clamp(1e-9, 1.0 - 1e-9));
            self.loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
            self.positions += 1;
        }
    }

    /// The mean cross-entropy, once a position was labelled.
    fn loss(&self) -> Option<f64> {
        (self.positions > 0).then(|| self.loss / self.positions as f64)
    }
}

/// Builds an opening book and writes it.
pub(crate) fn book(args: BookArgs) -> Result<()> {
    use draughts::engine::book::BookBuilder;
    let variant: Variant = args.variant.parse()?;
    if !(0.0..100.0).contains(&args.margin) {
        bail!("--margin {}: expected men from 0 to 100", args.margin);
    }
    let mut builder = BookBuilder::new(variant, args.plies);
    for path in &args.games {
        let bytes = bounded::read_file(path, bounded::MAX_PDN_FILE, "PDN file")?;
        for game in pdn::read_bytes(&bytes, variant).into_iter().flatten() {
            builder.add_game(&game);
        }
    }
    let read = builder.games();
    let mut book = builder.build(args.min_games);
    let moves = |b: &draughts::engine::Book| -> usize { b.positions().map(|(_, m)| m.len()).sum() };
    outln!(
        "{read} finished {variant} games: {} positions, {} moves played in {} games or more",
        book.len(),
        moves(&book),
        args.min_games
    );
    if book.is_empty() {
        bail!(
            "no position reached by at least --min-games {} games",
            args.min_games
        );
    }
    if args.depth > 0 {
        let before = moves(&book);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads.unwrap_or(0))
            .build()?;
        let progress = Counted::start("checking", "positions", book.len() as u64);
        pool.install(|| {
            book.check(args.depth, (args.margin * 100.0).round() as i32, &|| {
                progress.tick()
            })
        });
        progress.finish(&format!(
            "checked by depth {} searches: {} of {before} moves kept",
            args.depth,
            moves(&book)
        ));
    }
    draughts::config::write_atomic(&args.out, book.to_text().as_bytes())
        .with_context(|| args.out.display().to_string())?;
    outln!("book written to {}", args.out.display());
    Ok(())
}

/// A progress step counted item by item from any thread: a bar on a terminal, and otherwise a
/// plain line every twentieth of the way.
struct Counted {
    progress: Progress,
    label: &'static str,
    unit: &'static str,
    total: u64,
    done: AtomicU64,
    lines: bool,
}

impl Counted {
    fn start(label: &'static str, unit: &'static str, total: u64) -> Counted {
        let report = Report::for_stdout();
        Counted {
            progress: Progress::start(report, label, total),
            label,
            unit,
            total,
            done: AtomicU64::new(0),
            lines: report == Report::Lines,
        }
    }

    /// One more item done.
    fn tick(&self) {
        self.progress.inc(1);
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if self.lines && n.is_multiple_of((self.total / 20).max(1)) {
            outln!("{}: {n}/{} {}", self.label, self.total, self.unit);
        }
    }

    fn finish(self, summary: &str) {
        self.progress.finish(summary);
    }
}

/// Reads weights named on the command line: a file, `initial`, `builtin`, or `default` when
/// none is named.
pub(crate) fn weights(
    name: Option<&str>,
    variant: Variant,
    default: fn(Variant) -> Model,
) -> Result<Model> {
    match name {
        None => Ok(default(variant)),
        Some("initial") => Ok(Model::initial(variant)),
        Some("builtin") => Ok(builtin(variant).clone()),
        Some(path) => {
            let bytes =
                bounded::read_file(Path::new(path), bounded::MAX_TEXT_FILE, "weights file")?;
            Model::from_bytes(&bytes, variant).with_context(|| path.to_string())
        }
    }
}

fn tables(dir: Option<&Path>, variant: Variant) -> Result<Option<Arc<tablebase::Tablebase>>> {
    match dir {
        None => Ok(None),
        Some(d) => tablebase::open_if_present(d, variant).map_err(anyhow::Error::msg),
    }
}

/// Plays the self-play games and writes them.
pub(crate) fn selfplay(args: SelfplayArgs) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    let model = weights(args.weights.as_deref(), variant, |v| builtin(v).clone())?;
    let settings = SelfPlay {
        variant,
        seed: args.seed,
        nodes: args.nodes.max(1),
        random_plies: args.random_plies,
        max_plies: args.max_plies.max(1),
        model: Some(Arc::new(model)),
        tablebase: tables(args.tablebases.as_deref(), variant)?,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let progress = Counted::start("self-play", "games", args.games);
    let games = pool.install(|| settings.run(args.first, args.games, &|| progress.tick()));
    let text = pdn::write_games(&games);
    draughts::config::write_atomic(&args.out, text.as_bytes())
        .with_context(|| args.out.display().to_string())?;
    let (mut white, mut draws, mut black) = (0, 0, 0);
    for g in &games {
        match g.result {
            pdn::GameResult::Win(draughts::Color::White) => white += 1,
            pdn::GameResult::Win(draughts::Color::Black) => black += 1,
            _ => draws += 1,
        }
    }
    progress.finish(&format!(
        "{} games (White wins {white}, draws {draws}, Black wins {black}) written to {}",
        games.len(),
        args.out.display()
    ));
    Ok(())
}

/// Fits the weights and writes them.
pub(crate) fn train_weights(args: TrainArgs) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    if !(0.0..=1.0).contains(&args.label_weight) {
        bail!(
            "--label-weight {}: expected a share from 0 to 1",
            args.label_weight
        );
    }
    if !(args.label_scale > 0.0 && args.label_scale.is_finite()) {
        bail!(
            "--label-scale {}: expected a positive number",
            args.label_scale
        );
    }
    let start = weights(args.from.as_deref(), variant, Model::initial)?;
    let tb = tables(args.tablebases.as_deref(), variant)?;
    let labeller = match args.label_nodes {
        0 => None,
        nodes => Some(Labeller {
            nodes,
            scale: args.label_scale,
            model: Some(Arc::new(weights(
                args.label_with.as_deref(),
                variant,
                |v| builtin(v).clone(),
            )?)),
        }),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    // File by file, so only one file's games are held at a time.
    let mut samples = Samples::default();
    let mut read = 0usize;
    let mut check = LabelCheck::default();
    for path in &args.games {
        let bytes = bounded::read_file(path, bounded::MAX_PDN_FILE, "PDN file")?;
        let games: Vec<pdn::PdnGame> = (pdn::read_bytes(&bytes, variant).into_iter().flatten())
            .filter(|g| g.variant == variant)
            .collect();
        let labels = match &labeller {
            Some(l) => label_games(l, &games, args.skip, &pool),
            None => Vec::new(),
        };
        for (k, game) in games.iter().enumerate() {
            let labels = labels.get(k).map(Vec::as_slice);
            check.add(game, labels);
            let blend = labels.map(|l| (l, args.label_weight));
            samples.add_game(game, read + k, args.skip, tb.as_deref(), blend);
        }
        read += games.len();
    }
    if let Some(loss) = check.loss() {
        outln!("the search's labels alone: loss {loss:.5} against the games' results");
    }
    if samples.train.is_empty() {
        bail!("no finished {variant} game with a quiet position in the files given");
    }
    outln!(
        "{read} games: {} positions to train on, {} held out, {} valued by the tablebases",
        samples.train.len(),
        samples.held_out.len(),
        samples.from_tables
    );
    let settings = TrainSettings {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        seed: args.seed,
        phased: args.phases == 2,
    };
    let model = train(variant, &start, &mut samples, &settings, &mut |e| {
        outln!(
            "epoch {:>2}: loss {:.5} on the training positions, {:.5} held out, scale {:.1}",
            e.number,
            e.train_loss,
            e.held_out_loss,
            e.scale
        );
    });
    let (_, globals, tempo) = model.units();
    outln!("{:>22}  {:>8} {:>8}", "", "opening", "ending");
    for &g in &Global::ALL[..model.terms()] {
        let [o, e] = globals[g as usize];
        outln!("{:>22}: {o:+8.2} {e:+8.2}", g.name());
    }
    outln!("{:>22}: {:+8.2} {:+8.2}", "tempo", tempo[0], tempo[1]);
    draughts::config::write_atomic(&args.out, &model.to_bytes())
        .with_context(|| args.out.display().to_string())?;
    outln!("weights written to {}", args.out.display());
    Ok(())
}
