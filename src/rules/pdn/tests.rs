use super::*;
use crate::rules::game::Game;
use crate::rules::notation::{long_text, parse_fen, to_fen};
use crate::rules::piece::Color;
use crate::rules::variant::Variant;

const SAMPLE: &str = "[Event \"Club \\\"night\\\"\"]\r\n[White \"Jansen\"]\r\n[Black \"Müller\"]\r\n\
[Result \"2-0\"]\r\n[Opening \"Kl. Ouverture\"]\r\n\r\n{ An old line } 1. 32-28 19-23! \
(1... 18-22 { or so } 2. 37-32 (2. 34-30 13-18) 13-18) 2. 28x19 $1 14x23 {recapture} 3. 37-32 2-0\r\n\r\n\
[Event \"Second\"]\r\n1. 32-28 19-23 2. 28x17 *\r\n\r\n\
[Event \"Third\"]\r\n1. 33-29 18-23 2. 29x18 12x23 *\r\n";

#[test]
fn reads_tags_comments_variations_and_annotations() {
    let games = read_games(SAMPLE, Variant::International);
    assert_eq!(games.len(), 3);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("event"), Some("Club \"night\""));
    assert_eq!(g.tag("Black"), Some("Müller"));
    assert_eq!(g.tag("Opening"), Some("Kl. Ouverture"));
    assert_eq!(g.result, GameResult::Win(Color::White));
    assert_eq!(g.line.intro, ["An old line"]);
    assert_eq!(g.line.moves.len(), 5);
    let reply = &g.line.moves[1];
    assert_eq!(reply.annotations, ["!"]);
    assert_eq!(reply.variations.len(), 1);
    let var = &reply.variations[0];
    assert_eq!(var.moves.len(), 3);
    assert_eq!(var.moves[0].comments, ["or so"]);
    assert_eq!(long_text(&var.moves[1].mv), "37-32");
    assert_eq!(var.moves[1].variations[0].moves.len(), 2);
    assert_eq!(long_text(&var.moves[1].variations[0].moves[0].mv), "34-30");
    assert_eq!(g.line.moves[2].annotations, ["$1"]);
    assert_eq!(g.line.moves[3].comments, ["recapture"]);
}

#[test]
fn an_illegal_move_is_located_and_ends_only_its_game() {
    let games = read_games(SAMPLE, Variant::International);
    let e = games[1].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (10, 19));
    assert_eq!(
        e.reason,
        "28x17 is not a legal move here; a capture is compulsory (legal: 28x19)"
    );
    assert_eq!(e.to_string(), format!("10:19: {}", e.reason));
    assert!(games[2].is_ok());
}

#[test]
fn write_then_read_is_the_same_game() {
    for g in read_games(SAMPLE, Variant::International)
        .into_iter()
        .flatten()
    {
        let text = write_game(&g);
        let back = read_games(&text, Variant::International);
        assert_eq!(back.len(), 1, "{text}");
        assert_eq!(back[0].as_ref().unwrap(), &g, "{text}");
    }
}

#[test]
fn writing_follows_the_standard() {
    let text = "[GameType \"20\"]\n1. 032-028 19-23 2. 28:19 014x023 1-1\n";
    let g = read_games(text, Variant::English).remove(0).unwrap();
    assert_eq!(g.variant, Variant::International);
    assert_eq!(
        write_game(&g),
        "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 1-1\n\n"
    );
}

#[test]
fn ambiguous_captures_are_written_in_long_form() {
    // The black man on 10 can take 14 and 22, or 15 and 23, ending on 26 either way.
    let start = parse_fen("B:W14,15,22,23:B10", Variant::English).unwrap();
    let legal = start.legal_moves();
    assert_eq!(legal.len(), 2);
    for mv in legal.iter() {
        let mut game = PdnGame::new(start);
        game.line.moves.push(PdnMove {
            mv: *mv,
            annotations: vec![],
            comments: vec![],
            variations: vec![],
        });
        let text = write_game(&game);
        let long = long_text(mv);
        assert!(long == "10x17x26" || long == "10x19x26", "{long}");
        assert!(text.contains(&format!("1. {long} *")), "{text}");
        let back = read_games(&text, Variant::International).remove(0).unwrap();
        assert_eq!(back, game, "{text}");
    }
}

#[test]
fn results_per_variant() {
    use GameResult::*;
    let i = Variant::International;
    let e = Variant::English;
    assert_eq!(GameResult::parse("2-0", i), Some(Win(Color::White)));
    assert_eq!(GameResult::parse("1-0", i), Some(Win(Color::White)));
    assert_eq!(GameResult::parse("0-2", i), Some(Win(Color::Black)));
    assert_eq!(GameResult::parse("1/2-1/2", i), Some(Draw));
    // English: the left score is Black's, Black moves first.
    assert_eq!(GameResult::parse("1-0", e), Some(Win(Color::Black)));
    assert_eq!(GameResult::parse("0-2", e), Some(Win(Color::White)));
    assert_eq!(GameResult::parse("0-0", e), Some(BothLost));
    assert_eq!(result_text(Win(Color::White), i), "2-0");
    assert_eq!(result_text(Draw, i), "1-1");
    assert_eq!(result_text(Win(Color::Black), e), "1-0");
    assert_eq!(result_text(Draw, Variant::Frisian), "1/2-1/2");
    assert_eq!(result_text(Win(Color::Black), Variant::Frisian), "0-1");
}

#[test]
fn scores_of_a_result() {
    use GameResult::*;
    assert_eq!(Win(Color::White).score(Color::White), Some(1.0));
    assert_eq!(Win(Color::White).score(Color::Black), Some(0.0));
    assert_eq!(Win(Color::Black).score(Color::Black), Some(1.0));
    assert_eq!(Draw.score(Color::Black), Some(0.5));
    assert_eq!(BothLost.score(Color::White), None);
    assert_eq!(Unfinished.score(Color::White), None);
}

#[test]
fn game_type_selects_the_variant_and_fen_the_start() {
    let text = "[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"W:WK27,K23:BK28,12.\"]\n23-19 *\n\
                [GameType \"40\"]\n1. 33-29 *\n[GameType \"20,W,10,10,N1,0\"]\n1. 33-29 *\n";
    let games: Vec<PdnGame> = read_games(text, Variant::International)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(games[0].variant, Variant::English);
    assert_eq!(to_fen(&games[0].start), "W:WK23,K27:B12,K28");
    assert_eq!(games[1].variant, Variant::Frisian);
    assert_eq!(games[2].variant, Variant::International);
}

#[test]
fn bad_input_gives_located_errors() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "[GameType \"25\"]\n1. c3-d4 *\n",
            (1, 11),
            "unknown GameType",
        ),
        ("[FEN \"W:W51\"]\n*\n", (1, 6), "bad FEN"),
        ("[Event \"x\"\n1. 32-28 *\n", (2, 1), "expected ']'"),
        ("1. 32-28 { never closed\n", (1, 10), "unterminated comment"),
        (
            "1. 32-28 19-23 2. *\n",
            (1, 16),
            "move number without a move",
        ),
        ("1. 32-28 . 19-23 *\n", (1, 10), "'.'"),
        ("1. 32-28 ) *\n", (1, 10), "')' without"),
        (
            "1. 32-28 ( 33-29\n",
            (1, 12),
            "file ends inside a variation",
        ),
        ("1. a3-b4 *\n", (1, 4), "only numeric notation"),
        ("1. 32-28 4-6\n", (1, 10), "not a legal move"),
        (
            "1. 32-28 19-23\n[Event \"next\"]\n*\n",
            (2, 1),
            "has no result",
        ),
    ];
    for (text, at, reason) in cases {
        let games = read_games(text, Variant::International);
        let e = games[0].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), *at, "{text:?}: {e}");
        assert!(e.reason.contains(reason), "{text:?}: {e}");
    }
    // The game after a broken one is still read.
    let games = read_games(
        "[GameType \"25\"]\n[Event \"a\"]\n1. c3-d4 *\n\n[Event \"b\"]\n1. 32-28 *\n",
        Variant::International,
    );
    assert_eq!(games.len(), 2);
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
}

#[test]
fn tag_only_games_and_missing_markers() {
    let games = read_games(
        "[Event \"a\"]\n\n[Event \"b\"]\n[Result \"2-0\"]\n1. 32-28",
        Variant::International,
    );
    assert_eq!(games.len(), 2);
    assert!(games[0].as_ref().unwrap().line.moves.is_empty());
    let b = games[1].as_ref().unwrap();
    assert_eq!(b.line.moves.len(), 1);
    assert_eq!(b.result, GameResult::Win(Color::White));
}

#[test]
fn a_game_record_from_play() {
    let mut game = Game::new(Variant::English);
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        game.play_text(m).unwrap();
    }
    let pdn = PdnGame::from_game(&game, &[("Event", "Club"), ("Black", "A"), ("White", "B")]);
    let text = write_game(&pdn);
    assert_eq!(
        text,
        "[Event \"Club\"]\n[Black \"A\"]\n[White \"B\"]\n[GameType \"21\"]\n[Result \"*\"]\n\
         1. 11-15 23-19 2. 8-11 22-17 *\n\n"
    );
    assert_eq!(
        read_games(&text, Variant::International)[0]
            .as_ref()
            .unwrap(),
        &pdn
    );
}

#[test]
fn deep_nesting_is_a_located_error_not_a_crash() {
    // 200,000 variations opened inside one another, as a hostile file would.
    let text = format!(
        "1. 32-28 {}19-23 *\n[Event \"Next\"]\n1. 32-28 *\n",
        "(".repeat(200_000)
    );
    let games = read_games(&text, Variant::International);
    assert_eq!(games.len(), 2, "the next game is still read");
    let e = games[0].as_ref().unwrap_err();
    // The 65th '(' (column 10 + 64) is the one too many.
    assert_eq!((e.line, e.column), (1, 10 + MAX_VARIATION_DEPTH));
    assert_eq!(e.reason, "variations nested deeper than 64");
    assert!(games[1].is_ok());
    // At the limit, variations are read.
    let mut deep = String::from("1. 32-28 ");
    for _ in 0..MAX_VARIATION_DEPTH {
        deep.push_str("(1. 33-28 ");
    }
    deep.push_str(&")".repeat(MAX_VARIATION_DEPTH));
    deep.push_str(" *");
    let g = read_games(&deep, Variant::International).remove(0).unwrap();
    let mut line = &g.line;
    let mut levels = 0;
    while let Some(v) = line.moves[0].variations.first() {
        line = v;
        levels += 1;
    }
    assert_eq!(levels, MAX_VARIATION_DEPTH);
    // Written back, it reads the same.
    assert_eq!(
        read_games(&write_game(&g), Variant::International)
            .remove(0)
            .unwrap()
            .line,
        g.line
    );
}

#[test]
fn over_long_tokens_are_refused_where_they_start() {
    let big = "x".repeat(50_000_000);
    let text = format!("[Event \"{big}\"]\n1. 32-28 *\n[Event \"ok\"]\n1. 32-28 *\n");
    let games = read_games(&text, Variant::International);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (1, 8));
    assert_eq!(e.reason, "string of 50000000 characters (at most 4096)");
    assert!(games.last().unwrap().is_ok());
    let comment = format!("1. 32-28 {{{}}} *", "a ".repeat(40_000));
    let e = read_games(&comment, Variant::International)
        .remove(0)
        .unwrap_err();
    assert_eq!(
        (e.line, e.column, e.reason.as_str()),
        (1, 10, "comment of 80000 characters (at most 65536)")
    );
    let e = read_games(
        &format!("1. {}-28 *", "3".repeat(300)),
        Variant::International,
    )
    .remove(0)
    .unwrap_err();
    assert_eq!((e.line, e.column), (1, 4));
    assert!(e.reason.starts_with("move of "), "{}", e.reason);
    // A tag value at the limit is kept whole.
    let at_limit = "é".repeat(4096);
    let g = read_games(
        &format!("[Event \"{at_limit}\"]\n1. 32-28 *"),
        Variant::International,
    )
    .remove(0)
    .unwrap();
    assert_eq!(g.tag("Event"), Some(at_limit.as_str()));
}

#[test]
fn several_signs_on_one_move_read_back_as_they_were() {
    // Found by the fuzzing campaign: the writer glued a move's signs together, so two read
    // back as one, and many as one over-long annotation.
    let many = format!("1. 32-28 {} 19-23 *", "!? ".repeat(300));
    for text in [
        "1. 32-28 19-23(!?!!!) !! *",
        "1. 32-28!! $1 ?! 19-23 *",
        many.as_str(),
    ] {
        let g = read_games(text, Variant::International).remove(0).unwrap();
        let written = write_game(&g);
        let back = read_games(&written, Variant::International).remove(0);
        assert_eq!(back.as_ref().map(|b| &b.line), Ok(&g.line), "{written}");
    }
    let g = read_games("1. 32-28 19-23(!?!!!) !! *", Variant::International)
        .remove(0)
        .unwrap();
    assert_eq!(g.line.moves[1].annotations, ["!?!!!", "!!"]);
}

#[test]
fn a_comment_command_is_never_broken_across_lines() {
    let start = crate::rules::board::Position::start(Variant::International);
    let mv = crate::rules::notation::parse_move(&start, "32-28").unwrap();
    for n in 0..90 {
        let mut game = PdnGame::new(start);
        game.line.moves.push(PdnMove {
            mv,
            annotations: Vec::new(),
            comments: vec![format!(
                "{}[%eval -12.50] [%clk 0:01:02] after",
                "x ".repeat(n)
            )],
            variations: Vec::new(),
        });
        let text = write_game(&game);
        assert!(text.contains("[%eval -12.50]"), "{n}: {text}");
        assert!(text.contains("[%clk 0:01:02]"), "{n}: {text}");
        let back = read_games(&text, Variant::International);
        assert_eq!(back[0].as_ref().unwrap(), &game, "{n}: {text}");
    }
}
