//! A short pass of the fuzzing campaign (`scripts/fuzz.sh` runs the long one): every reader of
//! outside input takes a few thousand mutated and generated inputs without a panic, and no
//! input takes a second.

#[path = "support/fuzz.rs"]
mod fuzz;
#[path = "support/fuzz_inputs.rs"]
mod fuzz_inputs;

use std::path::Path;

#[test]
fn every_reader_survives_a_short_fuzzing_pass() {
    let pdn = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pdn");
    let tables = tempfile::tempdir().unwrap();
    fuzz::small_tables(tables.path());
    let targets = fuzz::targets(pdn.exists().then_some(pdn.as_path()), Some(tables.path()));
    assert_eq!(targets.len(), 13, "a target per reader");
    fuzz::quiet_panics();
    let mut problems = Vec::new();
    for t in &targets {
        let inputs = if t.name == "tablebase" { 300 } else { 2_000 };
        let r = fuzz::run_range(t, 20261123, 0, inputs);
        assert_eq!(r.inputs, inputs);
        for f in &r.failures {
            problems.push(format!(
                "{} input {}: {} ({:?})",
                t.name,
                f.index,
                f.message.chars().take(300).collect::<String>(),
                String::from_utf8_lossy(&f.input[..f.input.len().min(300)])
            ));
        }
        for (i, d) in &r.hangs {
            problems.push(format!("{} input {i} took {d:?}", t.name));
        }
    }
    let _ = std::panic::take_hook();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn inputs_are_reproducible_from_their_seed() {
    let targets = fuzz::targets(None, None);
    for t in &targets {
        for i in [0, 1, 977] {
            assert_eq!(t.input(5, i), t.input(5, i), "{}", t.name);
        }
        let distinct: std::collections::HashSet<Vec<u8>> = (0..50).map(|i| t.input(5, i)).collect();
        assert!(distinct.len() > 25, "{}: inputs vary", t.name);
    }
}

#[test]
fn the_generators_make_inputs_the_readers_accept() {
    // Generated inputs exercise the readers' success paths (and the checks made after a
    // success) only if most of them are valid.
    let mut rng = fuzz_inputs::Rng::new(3, 3);
    let share = |ok: usize| ok * 100 / 200;
    let pdn = (0..200)
        .filter(|_| {
            let games = draughts::rules::pdn::read_bytes(
                &fuzz_inputs::pdn_game(&mut rng),
                draughts::Variant::International,
            );
            !games.is_empty() && games.iter().all(Result::is_ok)
        })
        .count();
    assert!(share(pdn) >= 90, "{pdn} of 200 generated PDN games read");
    let trf = (0..200)
        .filter(|_| {
            let text = String::from_utf8(fuzz_inputs::trf_file(&mut rng)).unwrap();
            draughts::club::trf::next_round(&text).is_ok()
        })
        .count();
    assert!(share(trf) >= 30, "{trf} of 200 generated TRFs read");
    let dxp = (0..200)
        .filter(|_| {
            let text = String::from_utf8(fuzz_inputs::dxp_message(&mut rng)).unwrap();
            draughts::dxp::Message::parse(&text, draughts::Variant::International).is_ok()
        })
        .count();
    assert!(share(dxp) >= 30, "{dxp} of 200 generated DXP messages read");
}
