//! The `draughts` binary end to end.

use std::path::{Path, PathBuf};

mod common;
use common::{draughts, stderr, stdout};

#[test]
fn perft_prints_one_line_per_depth() {
    let o = draughts(&["perft", "--variant", "international", "--depth", "5"]);
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    let nodes: Vec<&str> = lines
        .iter()
        .map(|l| {
            let fields: Vec<&str> = l.split(' ').collect();
            assert_eq!(fields.len(), 4, "{l}");
            assert!(
                fields[2].starts_with("time=") && fields[3].starts_with("nps="),
                "{l}"
            );
            fields[1]
        })
        .collect();
    assert_eq!(
        nodes,
        [
            "nodes=9",
            "nodes=81",
            "nodes=658",
            "nodes=4265",
            "nodes=27117"
        ]
    );
    assert!(lines[4].starts_with("depth=5 "));
}

#[test]
fn perft_divide_lists_root_moves_then_the_total() {
    let o = draughts(&["perft", "--variant", "english", "--depth", "3", "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8);
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 302);
    assert!(lines[7].starts_with("depth=3 nodes=302 "), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("11-15 ")), "{out}");
}

#[test]
fn perft_from_a_fen() {
    let o = draughts(&[
        "perft",
        "--variant",
        "frisian",
        "--depth",
        "1",
        "--fen",
        "W:W33:B23",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("depth=1 nodes=1 "));
}

#[test]
fn bad_fen_or_variant_exits_2_with_one_line() {
    for args in [
        &["perft", "--fen", "garbage"][..],
        &["perft", "--variant", "chess"][..],
        &["perft", "--variant", "english", "--fen", "B:W40:B1"][..],
    ] {
        let o = draughts(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("draughts: "), "{err}");
        assert!(stdout(&o).is_empty());
    }
}

/// Writes `content` to `name` in `dir`, a directory removed when the test ends (also when it
/// fails).
fn temp_file(dir: &tempfile::TempDir, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn pdn_check_reports_per_file_and_each_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = temp_file(
        &dir,
        "good.pdn",
        b"[Event \"a\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n",
    );
    let bad = temp_file(
        &dir,
        "bad.pdn",
        b"[Event \"a\"]\r\n1. 32-28 19-23 2. 28x17 *\r\n\r\n[Event \"b\"]\r\n1. 33-28 *\r\n",
    );
    let o = draughts(&["pdn", "check", good.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        format!("{} games=1 ok=1 errors=0\n", good.display())
    );

    let o = draughts(&[
        "pdn",
        "check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], format!("{} games=2 ok=1 errors=1", bad.display()));
    assert!(
        lines[2].starts_with(&format!(
            "{}:2:19: 28x17 is not a legal move",
            bad.display()
        )),
        "{out}"
    );

    let english = temp_file(&dir, "english.pdn", b"1. 11-15 23-19 *\n");
    let o = draughts(&[
        "pdn",
        "check",
        "--variant",
        "english",
        english.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = draughts(&["pdn", "check", "/nonexistent/file.pdn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("cannot read"));
}

#[test]
fn pdn_positions_prints_each_games_first_quiet_position_of_that_many_pieces() {
    let dir = tempfile::tempdir().unwrap();
    // Six pieces, then 19-23 offers a man and 28x19 takes it: five, three against two, with
    // Black to move and nothing to take.
    let game = "[SetUp \"1\"]\n[FEN \"W:W32,33,34:B17,18,19\"]\n1. 32-28 19-23 2. 28x19 *\n";
    let file = temp_file(&dir, "games.pdn", format!("{game}\n{game}").as_bytes());
    let f = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["pdn", "positions", f];
        args.extend(extra);
        let o = draughts(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // The same position in two games is printed once.
    assert_eq!(run(&["--pieces", "6"]), "W:W32-34:B17-19\n");
    // Three against two is one piece apart: left out unless allowed.
    assert_eq!(run(&["--pieces", "5"]), "");
    assert_eq!(
        run(&["--pieces", "5", "--imbalance", "1"]),
        "B:W19,33,34:B17,18\n"
    );
    assert_eq!(run(&["--pieces", "4"]), "");
}

#[test]
fn engine_analyse_and_bench() {
    let o = draughts(&["engine", "analyse", "--variant", "english", "--depth", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("depth=")).count(),
        6,
        "{text}"
    );
    assert!(
        text.lines().last().is_some_and(|l| l.starts_with("best=")),
        "{text}"
    );
    // The last line counts the whole search: at least the nodes of its last iteration.
    let nodes = |line: &str| -> u64 {
        let field = line.split(' ').find_map(|f| f.strip_prefix("nodes="));
        field.and_then(|n| n.parse().ok()).unwrap_or(0)
    };
    let last_depth = text
        .lines()
        .rfind(|l| l.starts_with("depth="))
        .unwrap_or("");
    let total = text.lines().last().map_or(0, nodes);
    assert!(
        nodes(last_depth) > 0 && total >= nodes(last_depth),
        "{text}"
    );
    // A forced win is reported as such.
    let o = draughts(&[
        "engine",
        "analyse",
        "--variant",
        "english",
        "--fen",
        "W:WK32:BK26",
        "--depth",
        "20",
        "--tablebases",
        "/nonexistent",
    ]);
    assert!(stdout(&o).contains("win-end-in-"), "{}", stdout(&o));
    let o = draughts(&["engine", "analyse", "--fen", "W:W99:B1"]);
    assert_eq!(o.status.code(), Some(2));
    for time in ["1e300", "inf"] {
        let o = draughts(&["engine", "analyse", "--time", time]);
        assert_eq!(o.status.code(), Some(2), "--time {time}: {}", stderr(&o));
        assert!(stderr(&o).contains("expected seconds"), "{}", stderr(&o));
    }
    let o = draughts(&["engine", "bench", "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("total nodes="), "{}", stdout(&o));
}

/// `draughts match` of English, level 1 against level 1, with `extra` options.
fn english_level_1_match(extra: &[&str]) -> std::process::Output {
    let base = [
        "match",
        "--variant",
        "english",
        "--engine-a",
        "engine:1",
        "--engine-b",
        "engine:1",
    ];
    draughts(&[&base[..], extra].concat())
}

#[test]
fn a_match_takes_a_negative_sprt_bound() {
    // `--sprt -30,0` asks whether A is no worse; the leading minus is the bound's, not a flag.
    let o = english_level_1_match(&[
        "--games",
        "2",
        "--tc",
        "1s+0.01s",
        "--max-plies",
        "20",
        "--sprt",
        "-30,0",
        "--tablebases",
        "/nonexistent",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SPRT -30,0 (alpha 0.05, beta 0.05)"),
        "{}",
        stdout(&o)
    );
    let o = draughts(&[
        "match",
        "--engine-a",
        "engine",
        "--engine-b",
        "engine",
        "--sprt",
        "-30",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("expected two Elo values"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_match_prints_each_game_and_the_score_and_keeps_the_games() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\n9-14 22-18\n11-15 23-19\n").unwrap();
    let pdn = dir.join("match.pdn");
    let o = draughts(&[
        "match",
        "--engine-a",
        "engine:3",
        "--engine-b",
        "engine:1",
        "--games",
        "4",
        "--tc",
        "2s+0.1s",
        "--variant",
        "english",
        "--openings",
        openings.to_str().unwrap(),
        "--pdn",
        pdn.to_str().unwrap(),
        "--max-plies",
        "80",
        "--tablebases",
        "/nonexistent",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[0].starts_with("game 1/4: draughts engine:3 - draughts engine:1: "),
        "{text}"
    );
    assert!(
        lines[1].starts_with("game 2/4: draughts engine:1 - draughts engine:3: "),
        "{text}"
    );
    assert!(
        lines[4].starts_with("draughts engine:3 vs draughts engine:1: "),
        "{text}"
    );
    assert!(lines[4].contains("Elo"), "{text}");
    // The games are on disk, each from its opening, and read back as four finished games.
    let check = draughts(&[
        "pdn",
        "check",
        "--variant",
        "english",
        pdn.to_str().unwrap(),
    ]);
    assert!(
        stdout(&check).contains("games=4 ok=4 errors=0"),
        "{}",
        stdout(&check)
    );
    let saved = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(saved.matches("1. 9-14 22-18").count(), 2, "{saved}");
    assert_eq!(saved.matches("1. 11-15 23-19").count(), 2, "{saved}");
    assert!(!saved.contains("[Result \"*\"]"), "{saved}");

    let bad = draughts(&["match", "--engine-a", "scan", "--engine-b", "engine"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--engine-a"), "{}", stderr(&bad));
    // Weights that cannot be read stop the match before it starts, saying which and why.
    let missing = dir.join("missing.eval");
    let bad = draughts(&[
        "match",
        "--engine-a",
        "engine:1",
        "--engine-b",
        "engine:1",
        "--weights-b",
        missing.to_str().unwrap(),
    ]);
    assert!(!bad.status.success());
    let why = stderr(&bad);
    assert!(
        why.contains("--weights-b") && why.contains("missing.eval"),
        "{why}"
    );
    assert!(stdout(&bad).is_empty(), "{}", stdout(&bad));
}

/// Plays two games between `a` and `b` at `pace` (a fixed time or nodes a move) to `plies`,
/// writing them to `pdn`; checks that neither engine failed, that the move cap ended them and
/// that no clock was kept; returns what the match printed and the PDN it wrote.
fn clockless_match(a: &str, b: &str, pace: [&str; 2], plies: &str, pdn: &Path) -> (String, String) {
    let o = draughts(&[
        "match",
        "--engine-a",
        a,
        "--engine-b",
        b,
        "--games",
        "2",
        pace[0],
        pace[1],
        "--max-plies",
        plies,
        "--tablebases",
        "/nonexistent",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(!text.contains("engine failed"), "{text}");
    assert!(text.contains("move limit of the match"), "{text}");
    let saved = std::fs::read_to_string(pdn).unwrap();
    assert!(!saved.contains("[TimeControl"), "{saved}");
    assert!(!saved.contains("%clock"), "{saved}");
    (text, saved)
}

#[test]
fn a_match_at_a_fixed_time_a_move_tells_a_hub_engine_so_and_keeps_no_clock() {
    // Our own binary as the Hub engine (a real process over the real protocol) against the
    // built-in engine; a Hub engine that refused its level line would lose as "engine failed".
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = dir.path().join("fixed.pdn");
    let hub = format!(
        "hub:{} hub --tablebases /nonexistent",
        env!("CARGO_BIN_EXE_draughts")
    );
    let (text, saved) = clockless_match(&hub, "engine:1", ["--move-time", "0.05"], "16", &pdn);
    assert_eq!(text.lines().count(), 3, "{text}");
    assert_eq!(
        saved.matches("[Event \"draughts match\"]").count(),
        2,
        "{saved}"
    );
    assert!(!saved.contains("%clock"), "{saved}");

    // A fixed time a move replaces the clock; both at once, or no time at all, are refused.
    let both = draughts(&[
        "match",
        "--engine-a",
        "engine:1",
        "--engine-b",
        "engine:1",
        "--tc",
        "1m",
        "--move-time",
        "1",
    ]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    assert!(stderr(&both).contains("--move-time"), "{}", stderr(&both));
    let zero = draughts(&[
        "match",
        "--engine-a",
        "engine:1",
        "--engine-b",
        "engine:1",
        "--move-time",
        "0",
    ]);
    assert!(!zero.status.success());
    assert!(
        stderr(&zero).contains("--move-time 0: expected seconds above 0"),
        "{}",
        stderr(&zero)
    );
}

#[test]
fn a_match_at_a_number_of_nodes_a_move_plays_the_same_games_twice() {
    // Two Hub engines (our own binary, real processes over the real protocol), told to search
    // so many nodes a move without their books: the games do not depend on the time the
    // searches take, so a second match plays them again move for move. A Hub engine that
    // ignored the level line would think for its default ten seconds and lose on time.
    let dir = tempfile::tempdir().expect("temp dir");
    let hub = format!(
        "hub:{} hub --tablebases /nonexistent --no-book",
        env!("CARGO_BIN_EXE_draughts")
    );
    let play = |name: &str| -> String {
        let pdn = dir.path().join(name);
        let (_, saved) = clockless_match(&hub, &hub, ["--nodes", "5000"], "24", &pdn);
        saved
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let first = play("first.pdn");
    assert!(first.contains("1. "), "{first}");
    assert_eq!(first, play("second.pdn"));

    // Nodes replace the clock and the time a move; with either, or none, they are refused.
    for clash in [["--tc", "1m"], ["--move-time", "1"], ["--nodes", "0"]] {
        let mut args = vec!["match", "--engine-a", "engine:1", "--engine-b", "engine:1"];
        if clash[0] != "--nodes" {
            args.extend(["--nodes", "1000"]);
        }
        args.extend(clash);
        let o = draughts(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--nodes"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn review_marks_the_blunder_and_writes_a_pdn_that_reads_back() {
    // 2. 33-29 lets Black take two men for one; 2. 37-32 keeps the balance.
    let game = b"[Event \"club evening\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n\
                 1. 32-28 18-22 2. 33-29 *\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let file = temp_file(&dir, "review.pdn", game);
    let out = file.with_file_name("review-annotated.pdn");
    let o = draughts(&[
        "review",
        file.to_str().unwrap(),
        "--depth",
        "6",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("Review of Ann – Bob (international): depth 6 a position, 2 threads"),
        "{text}"
    );
    assert!(text.contains("2. 33-29??"), "{text}");
    assert!(text.contains("blunder"), "{text}");
    assert!(text.contains("White: accuracy"), "{text}");
    assert!(
        text.contains("1 blunder; turning point 2. 33-29??"),
        "{text}"
    );
    let o = draughts(&["pdn", "check", out.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("games=1 ok=1 errors=0"),
        "{}",
        stdout(&o)
    );
    let annotated = std::fs::read_to_string(&out).unwrap();
    let words = annotated.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("2. 33-29 $4 { [%eval -"), "{annotated}");
    // A command is never broken across lines.
    assert!(
        annotated.lines().all(|l| !l.ends_with("[%eval")),
        "{annotated}"
    );
    assert!(annotated.contains("[Annotator \"draughts review, depth 6 a position\"]"));
    // The same review for machines.
    let o = draughts(&["review", file.to_str().unwrap(), "--depth", "6", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["moves"][2]["move"], "33-29");
    assert_eq!(v["moves"][2]["judgement"], "blunder");
    assert_eq!(v["moves"][2]["nag"], "$4");
    assert_eq!(v["players"][0]["blunders"], 1);
    assert_eq!(v["players"][0]["turning_point"]["move"], "33-29");
    // A game the file does not have.
    let o = draughts(&["review", file.to_str().unwrap(), "--game", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has no game 2"), "{}", stderr(&o));
    // A round of a tournament's export: its games with moves, all written back.
    let round = b"[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. 32-28 18-22 2. 33-29 *\n\n\
                  [Round \"2\"]\n[White \"C\"]\n[Black \"D\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n\
                  [Round \"2\"]\n[White \"E\"]\n[Black \"F\"]\n\n1. 33-28 17-22 2. 28x17 11x22 *\n\n\
                  [Round \"2\"]\n[White \"G\"]\n[Black \"H\"]\n[Termination \"forfeit\"]\n\n2-0\n";
    let file = temp_file(&dir, "round.pdn", round);
    let out = file.with_file_name("round-annotated.pdn");
    let o = draughts(&[
        "review",
        file.to_str().unwrap(),
        "--round",
        "2",
        "--depth",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Review of C – D"), "{text}");
    assert!(text.contains("Review of E – F"), "{text}");
    assert!(
        !text.contains("Review of A – B") && !text.contains("G – H"),
        "{text}"
    );
    assert!(text.contains("2 games reviewed in"), "{text}");
    let o = draughts(&["pdn", "check", out.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("games=2 ok=2 errors=0"),
        "{}",
        stdout(&o)
    );
    let o = draughts(&["review", file.to_str().unwrap(), "--round", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no game with moves in round 3"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_program_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // `draughts perft … | head -1`: the later depths are written after the reader has gone.
    let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["perft", "--variant", "international", "--depth", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut first)
        .expect("the first line arrives");
    assert!(first.starts_with("depth=1 "), "{first}");
    let o = child.wait_with_output().expect("the binary ends");
    assert!(o.status.success(), "{:?}: {}", o.status, stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn selfplay_games_train_weights_with_search_labels() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let games = dir.join("games.pdn");
    let weights = dir.join("labelled.eval");
    let o = draughts(&[
        "engine",
        "selfplay",
        "--variant",
        "english",
        "--games",
        "6",
        "--nodes",
        "200",
        "--max-plies",
        "80",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let train = |extra: &[&str]| {
        let mut args = vec![
            "engine",
            "train",
            "--variant",
            "english",
            "--epochs",
            "1",
            "--phases",
            "1",
            "--out",
            weights.to_str().unwrap(),
            games.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        draughts(&args)
    };
    let o = train(&["--label-nodes", "100", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("6 games labelled by a search of 100 nodes"),
        "{out}"
    );
    assert!(out.contains("the search's labels alone: loss 0."), "{out}");
    assert!(out.contains("weights written to"), "{out}");
    // The weights play: a match reads them.
    let o = english_level_1_match(&[
        "--weights-a",
        weights.to_str().unwrap(),
        "--games",
        "2",
        "--tc",
        "5s+0.05s",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A share outside 0–1 or a scale not above 0 is bad input, refused saying which option.
    for bad in [&["--label-weight", "1.5"][..], &["--label-scale", "0"][..]] {
        let o = train(&[&["--label-nodes", "100"][..], bad].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&o).contains(bad[0]), "{}", stderr(&o));
    }
}
