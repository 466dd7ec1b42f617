use super::*;
use crate::rules::game::Game;
use crate::rules::pdn::{Line, PdnMove};
use crate::rules::piece::Color;
use proptest::prelude::*;

const V: Variant = Variant::International;

/// A finished game of `moves` (move text) from the start.
fn game(moves: &[&str], result: GameResult) -> PdnGame {
    let mut pos = Position::start(V);
    let mut line = Line::default();
    for text in moves {
        let mv = parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        line.moves.push(PdnMove {
            mv,
            annotations: vec![],
            comments: vec![],
            variations: vec![],
        });
        pos = pos.play(&mv);
    }
    let mut g = PdnGame::new(Position::start(V));
    g.line = line;
    g.result = result;
    g
}

fn mv(pos: &Position, text: &str) -> Move {
    parse_move(pos, text).unwrap()
}

#[test]
fn counts_the_games_and_the_movers_score_of_each_move() {
    let start = Position::start(V);
    let mut b = BookBuilder::new(V, 2);
    b.add_game(&game(&["32-28", "18-23"], GameResult::Win(Color::White)));
    b.add_game(&game(&["32-28", "19-23"], GameResult::Draw));
    b.add_game(&game(&["32-28", "18-23"], GameResult::Win(Color::Black)));
    b.add_game(&game(&["33-28", "18-23"], GameResult::Win(Color::Black)));
    // Unfinished games and games of another variant say nothing about the moves.
    b.add_game(&game(&["31-26", "18-23"], GameResult::Unfinished));
    let mut english = PdnGame::new(Position::start(Variant::English));
    english.result = GameResult::Draw;
    b.add_game(&english);
    assert_eq!(b.games(), 4);
    let book = b.build(1);
    let first = book.moves(&start);
    // 32-28: three games, White won one, drew one, lost one: 50%. 33-28: one game, lost.
    assert_eq!(first.len(), 2);
    assert_eq!(
        (first[0].mv, first[0].games, first[0].percent),
        (mv(&start, "32-28"), 3, 50)
    );
    assert_eq!(
        (first[1].mv, first[1].games, first[1].percent),
        (mv(&start, "33-28"), 1, 0)
    );
    // After 32-28, Black's 18-23 won one game of two for Black.
    let after = start.play(&mv(&start, "32-28"));
    let reply = book.moves(&after);
    assert_eq!(reply[0].mv, mv(&after, "18-23"));
    assert_eq!((reply[0].games, reply[0].percent), (2, 50));
    // Only the first two plies are read.
    let deeper = after.play(&mv(&after, "18-23"));
    assert!(book.moves(&deeper).is_empty());
    // With two games at least, 33-28, 19-23 and the position after 33-28 are gone.
    let book = rebuild(&[
        (&["32-28", "18-23"], GameResult::Win(Color::White)),
        (&["32-28", "19-23"], GameResult::Draw),
        (&["32-28", "18-23"], GameResult::Win(Color::Black)),
        (&["33-28", "18-23"], GameResult::Win(Color::Black)),
    ])
    .build(2);
    assert_eq!(book.len(), 2);
    assert_eq!(book.moves(&start).len(), 1);
    assert_eq!(book.moves(&after).len(), 1);
}

fn rebuild(games: &[(&[&str], GameResult)]) -> BookBuilder {
    let mut b = BookBuilder::new(V, 2);
    for (moves, result) in games {
        b.add_game(&game(moves, *result));
    }
    b
}

#[test]
fn picks_each_move_in_proportion_to_its_games() {
    let start = Position::start(V);
    let text = format!("{MAGIC} international\nW:W31-50:B1-20\t32-28 3 50% -\t33-28 1 0% -\n");
    let book = Book::parse(&text, V).unwrap();
    let picks: Vec<Move> = (0..8).map(|r| book.pick(&start, r).unwrap()).collect();
    let a = mv(&start, "32-28");
    let b = mv(&start, "33-28");
    assert_eq!(picks, [a, a, a, b, a, a, a, b]);
    // A position the book does not hold: no move.
    assert_eq!(book.pick(&start.play(&a), 0), None);
}

#[test]
fn reads_back_what_it_writes() {
    let mut b = BookBuilder::new(V, 6);
    b.add_game(&game(
        &["32-28", "18-23", "37-32", "12-18", "41-37", "7-12"],
        GameResult::Draw,
    ));
    b.add_game(&game(
        &["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"],
        GameResult::Win(Color::White),
    ));
    let mut book = b.build(1);
    let first = book.positions.values_mut().next().unwrap();
    first.1[0].eval = Some(-37);
    let text = book.to_text();
    let back = Book::parse(&text, V).unwrap();
    assert_eq!(back.len(), book.len());
    for (pos, moves) in book.positions.values() {
        assert_eq!(back.moves(pos), moves.as_slice(), "{}", to_fen(pos));
    }
    assert_eq!(back.to_text(), text);
}

#[test]
fn says_where_and_why_a_book_does_not_read() {
    let start = "W:W31-50:B1-20";
    let line = |body: &str| format!("{MAGIC} international\n# a comment\n{body}\n");
    let cases: [(String, &str); 9] = [
        ("not a book\n".into(), "line 1"),
        (
            format!("{MAGIC} english\nB:W21-32:B1-12\t11-15 1 50% -\n"),
            "a book of english",
        ),
        (line("W:W31-50:B1-99\t32-28 1 50% -"), "line 3"),
        (line(&format!("{start}\t32-26 1 50% -")), "line 3"),
        (
            line(&format!("{start}\t32-28 0 50% -")),
            "not a number of games",
        ),
        (line(&format!("{start}\t32-28 1 150% -")), "not a score"),
        (line(&format!("{start}\t32-28 1 50% x")), "not a value"),
        (
            line(&format!("{start}\t32-28 1 50% -\t32-28 2 50% -")),
            "twice",
        ),
        (
            line(&format!("{start}\t32-28 1 50% -\n{start}\t33-28 1 50% -")),
            "line 4",
        ),
    ];
    for (text, why) in cases {
        let e = Book::parse(&text, V).expect_err(&text).to_string();
        assert!(e.contains(why), "{text:?}: {e}");
    }
    let long = line(&format!("{start}\t{}", "32-28 1 50% -\t".repeat(2000)));
    let e = Book::parse(&long, V).unwrap_err().to_string();
    assert!(e.contains("line 3") && e.contains("longer than"), "{e}");
    assert!(
        Book::parse(&line(start), V)
            .unwrap_err()
            .to_string()
            .contains("no move")
    );
}

#[test]
fn the_check_drops_a_move_that_loses_a_man() {
    // 32-27 walks into 22x31 and was played in nine games; 45-40 is safe.
    let pos = parse_fen("W:W32,45:B22", V).unwrap();
    let hang = mv(&pos, "32-27");
    let safe = mv(&pos, "45-40");
    assert!(pos.play(&hang).has_capture() && !pos.play(&safe).has_capture());
    let text = format!(
        "{MAGIC} international\n{}\t32-27 9 50% -\t45-40 1 50% -\n",
        to_fen(&pos)
    );
    let mut book = Book::parse(&text, V).unwrap();
    let checked = std::sync::atomic::AtomicUsize::new(0);
    book.check(4, 50, &|| {
        checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(checked.into_inner(), 1);
    let moves = book.moves(&pos);
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0].mv, safe);
    assert!(moves[0].eval.is_some());
    // A position whose only book move hangs the man loses it, and then the position itself,
    // since a move outside the book is better.
    let text = format!("{MAGIC} international\n{}\t32-27 9 50% -\n", to_fen(&pos));
    let mut book = Book::parse(&text, V).unwrap();
    book.check(4, 50, &|| {});
    assert!(book.is_empty());
    assert_eq!(Book::parse(&book.to_text(), V).unwrap().len(), 0);
}

#[test]
fn the_shipped_books_read_and_start_at_the_initial_position() {
    for v in Variant::ALL {
        let book = builtin(v);
        assert_eq!(book.variant(), v);
        assert!(book.len() >= 50, "{v}: {} positions", book.len());
        let start = Position::start(v);
        assert!(!book.moves(&start).is_empty(), "{v}");
        // Every move leads somewhere the game goes on, and was checked by a search.
        for (pos, moves) in book.positions.values() {
            for m in moves {
                assert!(m.eval.is_some(), "{v}: {}", to_fen(pos));
                assert!(!pos.play(&m.mv).legal_moves().is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Whatever games a book is built from, its text reads back as the same book, and every
    /// move it picks is legal where it picks it.
    #[test]
    fn a_built_book_reads_back_the_same(seed in any::<u64>(), games in 1usize..12) {
        let mut rng = seed | 1;
        let mut next = |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let mut b = BookBuilder::new(V, 8);
        for _ in 0..games {
            let mut g = Game::new(V);
            let mut line = Line::default();
            for _ in 0..8 {
                let moves = g.position().legal_moves();
                let m = moves.as_slice()[next(moves.len())];
                line.moves.push(PdnMove { mv: m, annotations: vec![], comments: vec![], variations: vec![] });
                g.play(&m).unwrap();
            }
            let mut pdn = PdnGame::new(Position::start(V));
            pdn.line = line;
            pdn.result = [GameResult::Draw, GameResult::Win(Color::White), GameResult::Win(Color::Black)][next(3)];
            b.add_game(&pdn);
        }
        let book = b.build(1);
        let back = Book::parse(&book.to_text(), V).unwrap();
        prop_assert_eq!(back.len(), book.len());
        for (pos, moves) in book.positions.values() {
            prop_assert_eq!(back.moves(pos), moves.as_slice());
            let picked = back.pick(pos, seed).unwrap();
            prop_assert!(pos.legal_moves().iter().any(|m| *m == picked));
        }
    }
}
