//! The fuzzing harness: one target per reader of outside input, each fed inputs made by
//! mutating real files and by generators that know the format's structure (`fuzz_inputs.rs`),
//! the reader called in-process. A target fails on a panic, and says so with the input; every
//! input's time is measured so a slow one is reported. Shared by `tests/fuzz.rs` (a short pass
//! in the suite) and `examples/fuzz.rs` (the long campaign `scripts/fuzz.sh` runs).

#![allow(dead_code)]

use crate::fuzz_inputs::{Rng, dxp_message, fen, pdn_game, random_positions, trf_file};
use draughts::club::{dutch, members, trf};
use draughts::config::Config;
use draughts::dxp::Message;
use draughts::engine::book::Book;
use draughts::engine::eval::Model;
use draughts::rules::notation::{move_text, parse_fen, parse_move, to_fen};
use draughts::rules::pdn::{read_bytes, read_games, write_game};
use draughts::tablebase::{self, Tablebase};
use draughts::{Position, Variant};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A call of a reader on one input.
pub type Reader = Box<dyn Fn(&[u8]) + Sync>;

/// A reader under test.
pub struct Target {
    /// Its name on the command line and in reports.
    pub name: &'static str,
    /// Real inputs to mutate.
    pub seeds: Vec<Vec<u8>>,
    /// Text fragments that mean something to the reader (inserted, and repeated, by mutation).
    pub dictionary: &'static [&'static str],
    /// An input made from scratch with the format's structure, if the target has a generator.
    pub generate: Option<fn(&mut Rng) -> Vec<u8>>,
    /// Reads one input; it may return an error, never panic.
    pub run: Reader,
}

/// The largest input a mutation makes (bigger ones come from the generators' repetitions).
const MAX_INPUT: usize = 1 << 20;

impl Target {
    /// Input `index` of run `seed`.
    pub fn input(&self, seed: u64, index: u64) -> Vec<u8> {
        let mut rng = Rng::new(seed, index);
        let mut data = match self.generate {
            Some(g) if self.seeds.is_empty() || rng.one_in(3) => g(&mut rng),
            _ => rng.pick(&self.seeds).clone(),
        };
        // A window of a large seed (a whole collection would make every input slow).
        if data.len() > 16 << 10 && !rng.one_in(50) {
            let len = 1 + rng.below(16 << 10);
            let start = rng.below(data.len() - len);
            data = data[start..start + len].to_vec();
        }
        // Some inputs go in unchanged, so the readers' success paths are exercised as well.
        if rng.one_in(8) {
            return data;
        }
        for _ in 0..1 + rng.below(8) {
            self.mutate(&mut rng, &mut data);
        }
        data.truncate(MAX_INPUT);
        data
    }

    fn mutate(&self, rng: &mut Rng, data: &mut Vec<u8>) {
        let at = |rng: &mut Rng, data: &Vec<u8>| rng.below(data.len() + 1);
        match rng.below(10) {
            0 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] ^= 1 << rng.below(8);
            }
            1 if !data.is_empty() => {
                let i = rng.below(data.len());
                data[i] = rng.next() as u8;
            }
            2 => {
                let i = at(rng, data);
                let b = *rng.pick(b"0123456789-x:,.WBK ()[]{}\"\n\r\t\0\\$!?*/=;%");
                data.insert(i, b);
            }
            3 if !data.is_empty() => {
                let i = rng.below(data.len());
                let n = 1 + rng.below((data.len() - i).min(64));
                data.drain(i..i + n);
            }
            4 if !data.is_empty() => {
                // A slice repeated: runs of moves, of tags, of nested brackets.
                let i = rng.below(data.len());
                let n = 1 + rng.below((data.len() - i).min(32));
                let piece = data[i..i + n].to_vec();
                let most = if rng.one_in(10) { 5_000 } else { 8 };
                let times = 1 + rng.below(most);
                let at = at(rng, data);
                let mut run = Vec::with_capacity(piece.len() * times);
                for _ in 0..times {
                    run.extend_from_slice(&piece);
                }
                data.splice(at..at, run);
            }
            5 | 6 if !self.dictionary.is_empty() => {
                let word = rng.pick(self.dictionary).as_bytes();
                let times = if rng.one_in(8) {
                    1 + rng.below(20_000)
                } else {
                    1
                };
                let at = at(rng, data);
                let mut run = Vec::new();
                for _ in 0..times {
                    run.extend_from_slice(word);
                }
                data.splice(at..at, run);
            }
            7 if !self.seeds.is_empty() => {
                // Spliced with another seed.
                let other = rng.pick(&self.seeds);
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let n = 1 + rng.below((other.len() - from).min(4096));
                    let at = at(rng, data);
                    data.splice(at..at, other[from..from + n].iter().copied());
                }
            }
            8 if !data.is_empty() => {
                data.truncate(rng.below(data.len()));
            }
            _ => {
                // Two bytes swapped.
                if data.len() >= 2 {
                    let (i, j) = (rng.below(data.len()), rng.below(data.len()));
                    data.swap(i, j);
                }
            }
        }
    }
}

/// A failure: which input, and what happened.
#[derive(Debug)]
pub struct Failure {
    /// The input's index in the run.
    pub index: u64,
    /// The panic's message.
    pub message: String,
    /// The input itself.
    pub input: Vec<u8>,
}

/// What a run of one target found.
#[derive(Debug, Default)]
pub struct Report {
    /// Inputs run.
    pub inputs: u64,
    /// Inputs whose reader panicked.
    pub failures: Vec<Failure>,
    /// The slowest input: its index and time.
    pub slowest: (u64, Duration),
    /// Inputs that took longer than the hang limit.
    pub hangs: Vec<(u64, Duration)>,
}

/// The time past which an input counts as a hang.
pub const HANG: Duration = Duration::from_secs(1);

/// Runs inputs `from..to` of `seed` through `target`.
pub fn run_range(target: &Target, seed: u64, from: u64, to: u64) -> Report {
    let mut report = Report::default();
    for index in from..to {
        let input = target.input(seed, index);
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        let took = started.elapsed();
        report.inputs += 1;
        if took > report.slowest.1 {
            report.slowest = (index, took);
        }
        if took > HANG {
            report.hangs.push((index, took));
        }
        if let Err(payload) = outcome {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic without a message".into());
            report.failures.push(Failure {
                index,
                message,
                input,
            });
        }
    }
    report
}

/// Silences the default panic message (a failure is reported with its input instead).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}

fn text(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

/// Every target. `tables` is a directory of small generated tablebases to damage (the
/// tablebase target is left out without it).
pub fn targets(pdn_dir: Option<&Path>, tables: Option<&Path>) -> Vec<Target> {
    let mut out = Vec::new();

    let mut pdn_seeds: Vec<Vec<u8>> = Vec::new();
    if let Some(dir) = pdn_dir {
        collect_files(dir, "pdn", &mut pdn_seeds);
    }
    let mut rng = Rng::new(7, 7);
    for _ in 0..20 {
        pdn_seeds.push(pdn_game(&mut rng));
    }
    out.push(Target {
        name: "pdn",
        seeds: pdn_seeds,
        dictionary: &[
            "(",
            ")",
            "{",
            "}",
            "[",
            "]",
            "\"",
            "1. ",
            "32-28 ",
            "19-23 ",
            "28x19 ",
            "x",
            "...",
            "$1 ",
            "!?",
            "(!?)",
            "2-0",
            "1-1",
            "*",
            "[GameType \"21\"]",
            "[FEN \"W:W1:B2\"]",
            "\n",
            "\r\n",
            "%",
            ";",
            "\u{feff}",
            "é",
        ],
        generate: Some(pdn_game),
        run: Box::new(|input| {
            for game in read_bytes(input, Variant::International)
                .into_iter()
                .flatten()
            {
                // What was read writes out and reads back as the same game.
                let again = write_game(&game);
                let back = read_games(&again, game.variant);
                let back = back
                    .first()
                    .and_then(|g| g.as_ref().ok())
                    .unwrap_or_else(|| panic!("a game read does not read back: {again}"));
                assert_eq!(back.line, game.line, "the moves read back differently");
            }
        }),
    });

    let fen_seeds = Variant::ALL
        .iter()
        .flat_map(|&v| random_positions(v, 3, 11))
        .map(|p| to_fen(&p).into_bytes())
        .collect();
    out.push(Target {
        name: "fen",
        seeds: fen_seeds,
        dictionary: &[
            "W:", "B:", ":W", ":B", "K", ",", "-", "50", "0", "99999", "\"", "[FEN",
        ],
        generate: Some(fen),
        run: Box::new(|input| {
            let t = text(input);
            for v in Variant::ALL {
                if let Ok(p) = parse_fen(&t, v) {
                    // A position read writes and reads back the same.
                    assert_eq!(parse_fen(&to_fen(&p), v).ok(), Some(p), "{t:?}");
                }
            }
        }),
    });

    let positions: Vec<Position> = Variant::ALL
        .iter()
        .flat_map(|&v| random_positions(v, 4, 13))
        .collect();
    let move_seeds = positions
        .iter()
        .flat_map(|p| {
            p.legal_moves()
                .iter()
                .map(|m| move_text(p, m))
                .collect::<Vec<_>>()
        })
        .take(400)
        .map(String::into_bytes)
        .collect();
    out.push(Target {
        name: "move",
        seeds: move_seeds,
        dictionary: &["-", "x", "X", ":", "0", "50", "99999999999999999999", " "],
        generate: None,
        run: Box::new(move |input| {
            let t = text(input);
            for p in positions.iter().step_by(7) {
                if let Ok(m) = parse_move(p, &t) {
                    assert!(p.legal_moves().iter().any(|l| *l == m), "{t:?}");
                }
            }
        }),
    });

    let mut rng = Rng::new(17, 17);
    out.push(Target {
        name: "trf",
        seeds: (0..20).map(|_| trf_file(&mut rng)).collect(),
        dictionary: &[
            "001 ",
            "012 ",
            "XXR ",
            "XXC white1",
            "  0000 - U",
            "\n",
            "    ",
        ],
        generate: Some(trf_file),
        run: Box::new(|input| {
            if let Ok(next) = trf::next_round(&text(input))
                && next.field.players.len() <= 60
            {
                let _ = dutch::pair(&next.field);
            }
        }),
    });

    out.push(Target {
        name: "csv",
        seeds: vec![
            b"name,federation_id,contact,active,international,frisian,english\n\
              Anna de Vries,NED123,anna@example.org,yes,1650,,1500\n\
              \"Bakker, Jan\",,,no,,1400,\n"
                .to_vec(),
            b"name\nAnna\nBob\n".to_vec(),
        ],
        dictionary: &[
            ",", "\"", "\n", "name", "active", "yes", "1500", "-1e309", "NaN",
        ],
        generate: None,
        run: Box::new(|input| {
            let _ = members::parse_csv(&text(input));
        }),
    });

    out.push(Target {
        name: "settings",
        seeds: vec![
            toml::to_string(&Config::default())
                .expect("the default settings write")
                .into_bytes(),
        ],
        dictionary: &[
            "=", "[", "]", "[[", "{", "}", "\"", "'''", "\n", "true", "1e999", "#",
        ],
        generate: None,
        run: Box::new(|input| {
            let _ = Config::parse(&text(input));
        }),
    });

    out.push(Target {
        name: "hub",
        seeds: [
            "hub",
            "init",
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"",
            "level depth=4 move-time=0.3",
            "set-param name=variant value=frisian",
            "go think",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect(),
        dictionary: &["=", "\"", " ", "pos=", "moves=", "\\", "\t"],
        generate: None,
        run: Box::new(|input| {
            let t = text(input);
            let Ok(line) = draughts::hub::Line::parse(&t) else {
                return;
            };
            for v in Variant::ALL {
                let pos = match line.args.get("pos") {
                    Some(p) => draughts::hub::parse_position(p, v).ok(),
                    None => Some(Position::start(v)),
                };
                if let (Some(mut pos), Some(moves)) = (pos, line.args.get("moves")) {
                    for m in moves.split_whitespace() {
                        match draughts::hub::parse_move(&pos, m) {
                            Ok(mv) => pos = pos.play(&mv),
                            Err(_) => break,
                        }
                    }
                }
            }
        }),
    });

    out.push(Target {
        name: "dxp",
        seeds: Vec::new(),
        dictionary: &[
            "R", "A", "M", "E", "B", "K", "C", "0", "W", "Z", "e", "z", "\0",
        ],
        generate: Some(dxp_message),
        run: Box::new(|input| {
            let t = text(input);
            for v in Variant::ALL {
                if let Ok(m) = Message::parse(&t, v) {
                    // A message read encodes to one that reads back and encodes the same (the
                    // encoding may shorten: a chat line has at most 127 characters).
                    let e = m.encode();
                    let again = Message::parse(&e, v).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(again.encode(), e);
                }
            }
        }),
    });

    out.push(Target {
        name: "book",
        seeds: Variant::ALL
            .iter()
            .map(|&v| {
                let t = draughts::engine::book::builtin(v).to_text();
                // The first lines: the whole book would make every input slow.
                t.lines()
                    .take(60)
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes()
            })
            .collect(),
        dictionary: &[
            "\t",
            "\n",
            "%",
            "-",
            "x",
            "W:",
            "draughts-book 1 ",
            "999999999999",
        ],
        generate: None,
        run: Box::new(|input| {
            for v in Variant::ALL {
                let _ = Book::parse(&text(input), v);
            }
        }),
    });

    out.push(Target {
        name: "weights",
        seeds: Variant::ALL
            .iter()
            .map(|&v| draughts::engine::eval::builtin(v).to_bytes())
            .collect(),
        dictionary: &[],
        generate: None,
        run: Box::new(|input| {
            for v in Variant::ALL {
                if let Ok(m) = Model::from_bytes(input, v) {
                    // Weights that load evaluate any position without a panic.
                    let _ = m.evaluate(&Position::start(v));
                }
            }
        }),
    });

    out.push(Target {
        name: "openings",
        seeds: vec![b"32-28 19-23\n33-29 17-21\n# a comment\n\n31-27 16-21 27x16\n".to_vec()],
        dictionary: &["-", "x", " ", "\n", "#", "W:W", "50"],
        generate: None,
        run: Box::new(|input| {
            for v in Variant::ALL {
                let _ = draughts::arena::read_openings(&text(input), v);
            }
        }),
    });

    out.push(Target {
        name: "clock",
        seeds: ["5m+3s", "40/90m,30m+30s", "1h", "10s+0.1s", "90m+30s"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect(),
        dictionary: &["+", "/", ",", "m", "s", "h", ".", "99999999999999999"],
        generate: None,
        run: Box::new(|input| {
            let _ = draughts::clock::TimeControl::parse(&text(input));
        }),
    });

    if let Some(dir) = tables {
        out.push(tablebase_target(dir));
    }
    out
}

/// Damaged table files: each input replaces one file of a small generated set in a scratch
/// copy, which is then opened and probed.
fn tablebase_target(dir: &Path) -> Target {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    collect_named(dir, &mut files);
    files.sort();
    let names: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let seeds: Vec<Vec<u8>> = files
        .iter()
        .enumerate()
        .map(|(i, (_, bytes))| {
            // The file's number first, so a mutated input still says which file it replaces.
            let mut b = vec![i as u8];
            b.extend_from_slice(bytes);
            b
        })
        .collect();
    let source = dir.to_path_buf();
    let probes: Vec<Position> = random_positions(Variant::English, 400, 19)
        .into_iter()
        .filter(|p| p.piece_count() <= 3)
        .take(40)
        .collect();
    Target {
        name: "tablebase",
        seeds,
        dictionary: &[],
        generate: None,
        run: Box::new(move |input| {
            let Some((&which, bytes)) = input.split_first() else {
                return;
            };
            thread_local! {
                static SCRATCH: std::cell::RefCell<Option<tempfile::TempDir>> =
                    const { std::cell::RefCell::new(None) };
            }
            SCRATCH.with(|cell| {
                let mut cell = cell.borrow_mut();
                // A copy of the set per thread, made once; each input damages one file of it
                // and puts the file back afterwards.
                let scratch = cell.get_or_insert_with(|| {
                    let d = tempfile::tempdir().expect("a scratch directory");
                    for name in &names {
                        let to = d.path().join(name);
                        if let Some(parent) = to.parent() {
                            std::fs::create_dir_all(parent).expect("scratch directories");
                        }
                        std::fs::copy(source.join(name), &to).expect("scratch file copied");
                    }
                    d
                });
                let name = &names[usize::from(which) % names.len()];
                let path = scratch.path().join(name);
                std::fs::write(&path, bytes).expect("scratch file written");
                let result = catch_unwind(AssertUnwindSafe(|| {
                    if let Ok(tb) = Tablebase::open(scratch.path()) {
                        for p in &probes {
                            let _ = tb.wdl(p);
                            let _ = tb.dtw(p);
                        }
                    }
                }));
                std::fs::copy(source.join(name), &path).expect("scratch file restored");
                if let Err(panic) = result {
                    std::panic::resume_unwind(panic);
                }
            });
        }),
    }
}

/// Generates the 2–3-piece English tables into `dir` (a second or so).
pub fn small_tables(dir: &Path) {
    tablebase::generate::generate_all(
        Variant::English,
        3,
        dir,
        tablebase::progress::Report::Quiet,
        tablebase::memory::default_budget(),
    )
    .expect("the small English tables generate");
}

fn collect_files(dir: &Path, ext: &str, out: &mut Vec<Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect_files(&p, ext, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
            && let Ok(bytes) = std::fs::read(&p)
        {
            out.push(bytes);
        }
    }
}

/// Every file under `dir`, by its path relative to `dir`.
fn collect_named(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if let (Ok(rel), Ok(bytes)) = (p.strip_prefix(root), std::fs::read(&p)) {
                out.push((rel.to_path_buf(), bytes));
            }
        }
    }
    walk(dir, dir, out);
}
