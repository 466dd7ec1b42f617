use super::*;
use crate::rules::notation::parse_fen;
use crate::rules::pdn::{read_games, write_game};
use crate::rules::variant::Variant;

#[test]
fn a_man_lost_from_an_equal_position_is_a_blunder_and_a_quarter_man_goes_unmarked() {
    assert_eq!(
        Judgement::of_loss(expected(0) - expected(-100)),
        Judgement::Blunder
    );
    assert_eq!(
        Judgement::of_loss(expected(0) - expected(-25)),
        Judgement::Good
    );
    assert_eq!(
        Judgement::of_loss(expected(0) - expected(-40)),
        Judgement::Inaccuracy
    );
    assert_eq!(
        Judgement::of_loss(expected(0) - expected(-60)),
        Judgement::Mistake
    );
    // Far ahead, a man matters less: +5 to +4 is not marked.
    assert_eq!(
        Judgement::of_loss(expected(500) - expected(400)),
        Judgement::Good
    );
}

fn game(fen: Option<&str>, moves: &str) -> Game {
    let start = match fen {
        Some(f) => parse_fen(f, Variant::International).expect("a valid FEN"),
        None => Position::start(Variant::International),
    };
    let mut g = Game::from_position(start);
    for m in moves.split_whitespace() {
        g.play_text(m).expect("a legal move");
    }
    g
}

fn at_depth(depth: u32) -> Settings {
    Settings {
        time: None,
        depth: Some(depth),
        threads: 2,
        hash_mb: 4,
    }
}

fn run(g: &Game, tables: Option<Arc<Tablebase>>, settings: Settings) -> Review {
    let never = AtomicBool::new(false);
    review(
        *g.start(),
        g.moves(),
        tables,
        settings,
        &mut |_, _| {},
        &never,
    )
    .expect("the review finishes")
}

#[test]
fn a_move_that_loses_two_men_is_a_blunder_and_the_turning_point() {
    // After 1. 32-28 18-22, 2. 33-29 lets Black take two men for one (at depth 7 Black then
    // stands 2.7 men up), where 2. 37-32 keeps the balance.
    let g = game(None, "32-28 18-22 33-29");
    let r = run(&g, None, at_depth(6));
    assert_eq!(r.values.len(), 4);
    assert_eq!(r.moves.len(), 3);
    let blunder = &r.moves[2];
    assert_eq!(blunder.side, Color::White);
    assert_eq!(blunder.judgement, Judgement::Blunder);
    assert!(blunder.loss >= BLUNDER, "{}", blunder.loss);
    assert!(!blunder.proven, "no tables were given");
    assert!(r.values[3].white_score() < -150, "{:?}", r.values[3]);
    assert_ne!(r.values[2].best(), Some(blunder.mv));
    assert!(r.moves[0].judgement < Judgement::Mistake);
    let white = &r.players[0];
    assert_eq!((white.side, white.blunders), (Color::White, 1));
    assert_eq!(white.turning_point, Some(2));
    assert!(white.accuracy < 60.0, "{}", white.accuracy);
    assert!(matches!(r.values[0].source, Source::Search { depth: 6 }));
}

#[test]
fn a_forced_capture_is_not_judged_and_takes_the_value_of_the_position_after_it() {
    // 2. 28x19 is White's only legal move.
    let g = game(None, "32-28 19-23 28x19 14x23");
    let mut calls = Vec::new();
    let never = AtomicBool::new(false);
    let r = review(
        *g.start(),
        g.moves(),
        None,
        at_depth(4),
        &mut |done, total| calls.push((done, total)),
        &never,
    )
    .unwrap();
    assert_eq!(r.moves[2].judgement, Judgement::Forced);
    assert_eq!(r.values[2].source, Source::Forced);
    assert_eq!(r.values[2].score, -r.values[3].score);
    assert_eq!(r.values[2].best(), Some(g.moves()[2]));
    // Five positions, one forced: four searches, reported one by one.
    assert_eq!(calls.first(), Some(&(0, 4)));
    assert_eq!(calls.last(), Some(&(4, 4)));
    assert_eq!(calls.len(), 5);
    assert_eq!(r.players[0].judged, 1);
}

#[test]
fn giving_away_a_tablebase_win_is_a_blunder_proven_by_the_tables() {
    // Three kings against one: White wins in 3 plies while its king holds the long diagonal
    // from 46; leaving it (46-41) lets Black's king take the diagonal: a draw.
    let tables = crate::tablebase::tests::tables_arc(Variant::International);
    let g = game(Some("W:WK46,K47,K48:BK5"), "46-41");
    let r = run(&g, Some(tables), at_depth(4));
    let m = &r.moves[0];
    assert_eq!(m.judgement, Judgement::Blunder);
    assert!(m.proven);
    assert!(
        (m.loss - 0.5).abs() < 1e-9,
        "win to draw costs half a point: {}",
        m.loss
    );
    assert!(matches!(
        r.values[0].source,
        Source::Tablebase(Decision::Win {
            winner: Color::White,
            plies: 3
        })
    ));
    assert_eq!(r.values[1].source, Source::Tablebase(Decision::Draw));
    assert_eq!(eval_text(r.values[0].white_score()), "#2");
    let annotated = annotate(&PdnGame::from_game(&g, &[]), &r, "test");
    let mv = &annotated.line.moves[0];
    assert_eq!(mv.annotations, ["$4"]);
    assert!(
        mv.comments[0].starts_with(
            "[%eval +0.00] Blunder (#2 → +0.00), proven by the tablebases: win → draw; best "
        ),
        "{}",
        mv.comments[0]
    );
    assert_eq!(mv.variations[0].moves[0].mv, r.values[0].best().unwrap());
}

#[test]
fn tables_of_results_only_review_a_game_the_search_values_within_them() {
    // The same blunder with the WDL files alone: the draw after it is the tables', and the
    // win before it, whose length these tables lack, is the search's (it probes them).
    let from = crate::tablebase::tests::tables(Variant::International).dir();
    let dir = tempfile::TempDir::new().unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wdl") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    let tables = Arc::new(Tablebase::open(dir.path()).unwrap());
    let g = game(Some("W:WK46,K47,K48:BK5"), "46-41");
    let r = run(&g, Some(tables), at_depth(4));
    assert!(matches!(r.values[0].source, Source::Search { .. }));
    assert!(r.values[0].score > 0, "{:?}", r.values[0]);
    assert_eq!(r.values[1].source, Source::Tablebase(Decision::Draw));
    assert_eq!(r.moves[0].judgement, Judgement::Blunder);
}

#[test]
fn the_annotated_game_reads_back_unchanged() {
    let g = game(None, "32-28 18-22 33-29");
    let r = run(&g, None, at_depth(4));
    let mut pdn = PdnGame::from_game(&g, &[("White", "Ann"), ("Black", "Bob")]);
    pdn.line.moves[0]
        .comments
        .push("a comment the game had".to_string());
    let annotated = annotate(&pdn, &r, "draughts review, depth 4 a position");
    let text = write_game(&annotated);
    assert!(
        text.contains("[Annotator \"draughts review, depth 4 a position\"]"),
        "{text}"
    );
    assert!(text.contains("{ a comment the game had }"), "{text}");
    assert!(text.contains("$4"), "{text}");
    assert!(text.contains("[%eval"), "{text}");
    let back = read_games(&text, Variant::International);
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].as_ref().expect("the file reads"), &annotated);
    // The better move is there as a variation of the blunder, and its line replays.
    let blunder = &annotated.line.moves[2];
    assert_eq!(blunder.variations.len(), 1);
    assert_eq!(Some(blunder.variations[0].moves[0].mv), r.values[2].best());
}

#[test]
fn a_cancelled_review_stops_and_says_so() {
    let g = game(None, "32-28 18-22 33-29");
    let cancelled = AtomicBool::new(true);
    let settings = Settings {
        time: Some(Duration::from_secs(30)),
        ..at_depth(40)
    };
    let got = review(
        *g.start(),
        g.moves(),
        None,
        settings,
        &mut |_, _| {},
        &cancelled,
    );
    assert!(matches!(got, Err(ReviewError::Cancelled)));
    let unbounded = Settings {
        time: None,
        depth: None,
        ..at_depth(1)
    };
    let never = AtomicBool::new(false);
    let got = review(
        *g.start(),
        g.moves(),
        None,
        unbounded,
        &mut |_, _| {},
        &never,
    );
    assert!(matches!(got, Err(ReviewError::Unbounded)));
}

#[test]
fn a_cancel_during_the_searches_ends_them() {
    let g = game(None, "32-28 18-22 37-32 12-18 34-29");
    let cancel = AtomicBool::new(false);
    let settings = Settings {
        time: Some(Duration::from_secs(600)),
        depth: None,
        threads: 2,
        hash_mb: 4,
    };
    let started = std::time::Instant::now();
    let got = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            cancel.store(true, Ordering::Relaxed);
        });
        review(
            *g.start(),
            g.moves(),
            None,
            settings,
            &mut |_, _| {},
            &cancel,
        )
    });
    assert!(matches!(got, Err(ReviewError::Cancelled)));
    // Ten minutes a position were asked for; the cancel ended the review long before.
    assert!(started.elapsed() < Duration::from_secs(300));
}

#[test]
fn a_finished_game_values_its_last_position_by_the_result() {
    // English: Black's last man is taken, so Black (to move) has lost.
    let start = parse_fen("W:W14:B10", Variant::English).expect("a valid FEN");
    let mut g = Game::from_position(start);
    let mv = *start.legal_moves().iter().next().expect("a capture");
    g.play(&mv).expect("legal");
    assert!(g.outcome().is_some());
    let r = run(&g, None, at_depth(3));
    assert_eq!(r.values[1].source, Source::Over);
    assert_eq!(r.values[1].score, -MATE);
    assert_eq!(r.moves[0].judgement, Judgement::Forced);
}

#[test]
fn eval_texts_are_men_or_moves_to_the_end() {
    assert_eq!(eval_text(125), "+1.25");
    assert_eq!(eval_text(-40), "-0.40");
    assert_eq!(eval_text(0), "+0.00");
    assert_eq!(eval_text(MATE - 7), "#4");
    assert_eq!(eval_text(-(TB_WIN - 12)), "#-6");
    assert_eq!(accuracy(0.0).round(), 100.0);
    assert!(accuracy(0.5) < 15.0);
}
