//! Laws of the rules core checked on random legal games, and parsers fed random input.

use draughts::rules::game::Game;
use draughts::rules::notation::{
    line_texts, long_text, move_text, move_texts, parse_fen, parse_move, to_fen,
};
use draughts::rules::pdn::{PdnGame, read_bytes, read_games, write_game};
use draughts::rules::perft::perft;
use draughts::{Color, Kind, Piece, Position, Setup, Variant};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::International),
        Just(Variant::Frisian),
        Just(Variant::English)
    ]
}

/// A random legal game: each choice picks one of the legal moves.
fn random_game(variant: Variant, choices: &[u16]) -> Game {
    let mut game = Game::new(variant);
    for &c in choices {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.position().legal_moves();
        let mv = legal.as_slice()[c as usize % legal.len()];
        game.play(&mv).expect("a move from the legal list is legal");
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn move_text_names_the_move_it_was_made_from(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        let game = random_game(v, &choices);
        for (pos, mv) in game.positions().zip(game.moves()) {
            prop_assert_eq!(parse_move(pos, &move_text(pos, mv)).unwrap(), *mv);
            prop_assert_eq!(parse_move(pos, &long_text(mv)).unwrap(), *mv);
        }
    }

    #[test]
    fn the_hash_after_a_move_is_the_hash_of_the_position_after_it(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..200)
    ) {
        // Long random games reach kings and, in Frisian, king runs: every kind of change.
        // Every move of each position, not only the one played.
        let game = random_game(v, &choices);
        for pos in game.positions() {
            for mv in pos.legal_moves().iter() {
                let next = pos.play(mv);
                prop_assert_eq!(pos.zobrist_after(pos.zobrist(), mv, &next), next.zobrist());
            }
        }
    }

    #[test]
    fn a_hash_off_by_a_constant_stays_off_by_it_after_any_move(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..200), off in any::<u64>()
    ) {
        // The search gives a position below its horizon no true hash: repetitions among the
        // positions after it are still found because each hash is off by the same constant.
        let game = random_game(v, &choices);
        for pos in game.positions() {
            for mv in pos.legal_moves().iter() {
                let next = pos.play(mv);
                prop_assert_eq!(pos.zobrist_after(pos.zobrist() ^ off, mv, &next), next.zobrist() ^ off);
            }
        }
    }

    #[test]
    fn a_quiet_move_count_is_the_number_of_moves_of_a_position_without_captures(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..200)
    ) {
        let game = random_game(v, &choices);
        for pos in game.positions() {
            let expected = (!pos.has_capture()).then(|| pos.legal_moves().len() as u64);
            prop_assert_eq!(pos.quiet_move_count(), expected);
        }
    }

    #[test]
    fn all_move_texts_at_once_are_each_moves_text(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        let game = random_game(v, &choices);
        for pos in game.positions() {
            let all = move_texts(pos);
            prop_assert_eq!(all.len(), pos.legal_moves().len());
            for (mv, text) in &all {
                prop_assert_eq!(text, &move_text(pos, mv));
            }
        }
    }

    #[test]
    fn a_lines_texts_are_its_moves_texts_up_to_the_first_illegal_move(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        let game = random_game(v, &choices);
        let start = game.start();
        let texts: Vec<String> = game
            .positions()
            .zip(game.moves())
            .map(|(pos, mv)| move_text(pos, mv))
            .collect();
        prop_assert_eq!(&line_texts(start, game.moves()), &texts);
        // A move repeated where it is no longer legal ends the line there.
        if let Some(first) = game.moves().first() {
            let mut line = game.moves()[..1].to_vec();
            line.push(*first);
            prop_assert_eq!(line_texts(start, &line), texts[..1].to_vec());
        }
    }

    #[test]
    fn play_then_undo_restores_position_and_hash(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 1..120)
    ) {
        let mut game = random_game(v, &choices);
        let positions: Vec<Position> = game.positions().copied().collect();
        let mut hashes: Vec<u64> = positions.iter().map(Position::zobrist).collect();
        while game.undo().is_some() {
            hashes.pop();
            prop_assert_eq!(game.hash(), *hashes.last().unwrap());
            prop_assert_eq!(game.position(), &positions[hashes.len() - 1]);
        }
        prop_assert_eq!(game.position(), &Position::start(v));
    }

    #[test]
    fn fen_round_trips(v in variant(), choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let game = random_game(v, &choices);
        for pos in game.positions() {
            let fen = to_fen(pos);
            let back = parse_fen(&fen, v).unwrap();
            prop_assert_eq!(to_fen(&back), fen.clone());
            prop_assert_eq!(back.pieces().collect::<Vec<_>>(), pos.pieces().collect::<Vec<_>>());
            prop_assert_eq!(back.side_to_move(), pos.side_to_move());
        }
    }

    #[test]
    fn pdn_round_trips(v in variant(), choices in prop::collection::vec(any::<u16>(), 0..150)) {
        let game = random_game(v, &choices);
        let pdn = PdnGame::from_game(&game, &[("Event", "Property"), ("White", "A"), ("Black", "B")]);
        let text = write_game(&pdn);
        let back = read_games(&text, Variant::International);
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(back[0].as_ref().unwrap(), &pdn);
        prop_assert_eq!(back[0].as_ref().unwrap().game().outcome(), game.outcome());
    }

    #[test]
    fn colour_flip_keeps_move_counts(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..100)
    ) {
        let game = random_game(v, &choices);
        let pos = game.position();
        let flipped = pos.flipped();
        prop_assert_eq!(flipped.flipped(), *pos);
        prop_assert_eq!(perft(pos, 1), perft(&flipped, 1));
        prop_assert_eq!(perft(pos, 2), perft(&flipped, 2));
        prop_assert_eq!(perft(pos, 3), perft(&flipped, 3));
    }
}

/// A random setup: up to 24 pieces of any kind on random squares.
fn random_position() -> impl Strategy<Value = Position> {
    (
        variant(),
        any::<bool>(),
        prop::collection::vec((1u32..=50, 0u8..4), 0..24),
    )
        .prop_filter_map("a valid setup", |(variant, black, pieces)| {
            let max = variant.geometry().squares;
            let mut seen = std::collections::HashSet::new();
            let pieces = pieces
                .into_iter()
                .filter(|(sq, _)| *sq <= max && seen.insert(*sq))
                .map(|(sq, k)| {
                    let color = if k % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let kind = if k < 2 { Kind::Man } else { Kind::King };
                    (sq, Piece { color, kind })
                })
                .collect();
            let side_to_move = if black { Color::Black } else { Color::White };
            Setup {
                variant,
                side_to_move,
                pieces,
            }
            .into_position()
            .ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn bulk_count_equals_the_move_list(pos in random_position()) {
        prop_assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
        let two: u64 = pos.legal_moves().iter().map(|m| pos.play(m).legal_moves().len() as u64).sum();
        prop_assert_eq!(perft(&pos, 2), two);
    }

    #[test]
    fn bulk_count_equals_the_move_list_in_games(
        v in variant(), choices in prop::collection::vec(any::<u16>(), 0..150)
    ) {
        let game = random_game(v, &choices);
        for pos in game.positions() {
            prop_assert_eq!(perft(pos, 1), pos.legal_moves().len() as u64);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn pdn_reader_never_panics_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        for v in Variant::ALL {
            let _ = read_bytes(&bytes, v);
        }
    }

    #[test]
    fn pdn_reader_never_panics_on_mutated_games(
        cuts in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)
    ) {
        let mut bytes = b"[Event \"x\"]\n[GameType \"20\"]\n[FEN \"W:W31-50:B1-20\"]\n\
            {intro} 1. 32-28 19-23! (1... 18-22 2. 37-32) 2. 28x19 $3 14x23 {c} 2-0\n\
            [GameType \"21\"]\n1. 11-15 23-19 2. 8-11 *\n".to_vec();
        for (at, byte) in cuts {
            let i = at.index(bytes.len());
            match byte % 3 {
                0 => bytes[i] = byte,
                1 => { bytes.remove(i); }
                _ => bytes.insert(i, byte),
            }
        }
        let _ = read_bytes(&bytes, Variant::International);
    }

    #[test]
    fn fen_and_move_parsers_never_panic(text in "\\PC{0,40}", v in variant()) {
        if let Ok(pos) = parse_fen(&text, v) {
            let _ = pos.legal_moves();
        }
        let _ = parse_move(&Position::start(v), &text);
    }

    #[test]
    fn fen_parser_never_panics_on_fen_like_text(text in "[WBK?:,.0-9 -]{0,40}", v in variant()) {
        if let Ok(pos) = parse_fen(&text, v) {
            let _ = perft(&pos, 2);
        }
    }
}
