use super::*;
use Color::{Black, White};

fn s(secs: f64) -> Duration {
    Duration::from_secs_f64(secs)
}

fn tc(text: &str) -> TimeControl {
    TimeControl::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn parses_the_controls_clubs_use() {
    let t = tc("15m");
    assert_eq!(t.stages().len(), 1);
    assert_eq!(t.stages()[0].time, s(900.0));
    assert_eq!(t.stages()[0].moves, None);

    let t = tc("5m+3s");
    assert_eq!(t.stages()[0].increment, s(3.0));
    let t = tc("80m+1m");
    assert_eq!(
        (t.stages()[0].time, t.stages()[0].increment),
        (s(4800.0), s(60.0))
    );
    let t = tc("5m d3s");
    assert_eq!(t.stages()[0].delay, s(3.0));

    let t = tc("2h/50, 1h/25 repeating");
    assert!(t.repeating());
    assert_eq!(t.stages()[0].moves, Some(50));
    assert_eq!(t.stages()[1].time, s(3600.0));
    assert_eq!(t.stages()[1].moves, Some(25));

    // WCDF 2.15: 30 moves per hour, then 15 moves per 30 minutes.
    let t = tc("1h/30, 30m/15 repeating");
    assert_eq!(t.stages()[1].time, s(1800.0));
    assert_eq!(tc("30 moves per hour, then 15 moves per 30 minutes"), t);

    let t = tc("1h/40+30s, 30m+30s");
    assert_eq!(t.stages()[0].increment, s(30.0));
    assert_eq!(t.stages()[1].moves, None);

    assert_eq!(tc("1h30m").stages()[0].time, s(5400.0));
    assert_eq!(tc("1:30:00").stages()[0].time, s(5400.0));
    assert_eq!(tc("4:30").stages()[0].time, s(270.0));
}

#[test]
fn reads_pgn_numeric_controls() {
    assert_eq!(tc("300+3"), tc("5m+3s"));
    assert_eq!(tc("50/7200:3600"), tc("2h/50, 1h"));
    assert_eq!(tc("900"), tc("15m"));
}

#[test]
fn display_round_trips() {
    for text in [
        "15m",
        "5m+3s",
        "1h20m+1m",
        "5m d3s",
        "2h/50, 1h/25 repeating",
        "1h/30, 30m/15 repeating",
        "1h/40+30s, 30m+30s",
        "2.5s",
    ] {
        let t = tc(text);
        assert_eq!(tc(&t.to_string()), t, "{text} → {t}");
    }
    assert_eq!(tc("80m+1m").to_string(), "1h20m+1m");
    assert_eq!(tc("5m+3s").pgn().as_deref(), Some("300+3"));
    assert_eq!(tc("2h/50, 1h").pgn().as_deref(), Some("50/7200:3600"));
    assert_eq!(tc("5m d3s").pgn(), None);
}

#[test]
fn bad_controls_say_why() {
    for bad in [
        "",
        "abc",
        "5x",
        "5m+",
        "1h/0",
        "1h, 30m/10",
        "30m repeating",
        "0m",
        "1h/ten",
        "1:2:3:4",
        // Found by the fuzzing campaign: these panicked converting to a duration.
        "9999999999999999999999:9",
        "-1:30",
        "inf:00",
        "NaN:1",
        "1: :2",
    ] {
        let e = TimeControl::parse(bad).expect_err(bad);
        assert!(e.to_string().contains("time control"), "{e}");
    }
}

#[test]
fn sudden_death_runs_down_and_flags() {
    let mut c = Clock::new(tc("1m"));
    c.start(White, s(0.0));
    assert_eq!(c.remaining(White, s(10.0)), s(50.0));
    assert_eq!(c.remaining(Black, s(10.0)), s(60.0));
    assert_eq!(c.press(s(10.0)), Some(s(10.0)));
    assert_eq!(c.running(), Some(Black));
    assert_eq!(c.remaining(White, s(30.0)), s(50.0));
    assert_eq!(c.flag(s(69.9)), None);
    assert_eq!(c.flag(s(70.0)), Some(Black));
    // A flag stays down and stops the clock; a late press does not count.
    assert_eq!(c.press(s(71.0)), None);
    assert_eq!(c.remaining(Black, s(100.0)), Duration::ZERO);
    assert_eq!(c.remaining(White, s(100.0)), s(50.0));
}

#[test]
fn fischer_adds_the_increment_after_each_move() {
    let mut c = Clock::new(tc("5m+3s"));
    c.start(White, s(0.0));
    c.press(s(10.0));
    assert_eq!(c.remaining(White, s(10.0)), s(293.0));
    c.press(s(11.0));
    assert_eq!(c.remaining(Black, s(11.0)), s(302.0));
}

#[test]
fn bronstein_delay_charges_only_time_beyond_it() {
    let mut c = Clock::new(tc("5m d3s"));
    c.start(White, s(0.0));
    assert_eq!(c.remaining(White, s(2.0)), s(300.0));
    assert_eq!(c.delay_left(White, s(2.0)), s(1.0));
    c.press(s(2.0));
    assert_eq!(c.remaining(White, s(2.0)), s(300.0));
    c.press(s(12.0));
    assert_eq!(c.remaining(Black, s(12.0)), s(293.0));
}

#[test]
fn stages_add_time_and_repeat() {
    let mut c = Clock::new(tc("10m/3, 5m/2 repeating"));
    let mut now = 0.0;
    c.start(White, s(now));
    let mut white_left = vec![];
    for _ in 0..7 {
        now += 60.0;
        c.press(s(now)); // White moves after a minute
        white_left.push(c.remaining(White, s(now)));
        now += 1.0;
        c.press(s(now));
    }
    let mins: Vec<f64> = white_left.iter().map(|d| d.as_secs_f64() / 60.0).collect();
    // 10m for moves 1–3, +5m after move 3 and after move 5 and move 7.
    assert_eq!(mins, vec![9.0, 8.0, 12.0, 11.0, 15.0, 14.0, 18.0]);
    assert_eq!(c.stage(White), (2, Some(2)));
    assert_eq!(c.moves(White), 7);
}

#[test]
fn fmjd_classical_control() {
    let mut c = Clock::new(tc("2h/50, 1h/25 repeating"));
    c.start(White, s(0.0));
    let mut now = 0.0;
    for _ in 0..50 {
        now += 100.0;
        c.press(s(now));
        c.press(s(now));
    }
    // 50 moves of 100 s: 7200 − 5000 + 3600.
    assert_eq!(c.remaining(White, s(now)), s(5800.0));
    assert_eq!(c.stage(White), (2, Some(25)));
    assert_eq!(c.stage(Black), (2, Some(25)));
}

#[test]
fn a_finished_last_stage_adds_nothing_more() {
    let mut c = Clock::new(tc("1m/1"));
    c.start(White, s(0.0));
    c.press(s(10.0));
    assert_eq!(c.remaining(White, s(10.0)), s(50.0));
    c.press(s(10.0));
    c.press(s(20.0));
    assert_eq!(c.remaining(White, s(20.0)), s(40.0));
    assert_eq!(c.stage(White), (1, None));
}

#[test]
fn stage_increment_applies_only_in_its_stage() {
    let mut c = Clock::new(tc("1m/1+10s, 1m"));
    c.start(White, s(0.0));
    c.press(s(5.0));
    // 60 − 5 + 10 (increment) + 60 (next stage).
    assert_eq!(c.remaining(White, s(5.0)), s(125.0));
    c.press(s(5.0));
    c.press(s(10.0));
    assert_eq!(c.remaining(White, s(10.0)), s(120.0));
}

#[test]
fn the_current_stage_is_the_one_the_side_plays_in() {
    let mut c = Clock::new(tc("1m/1+10s, 1m+2s"));
    assert_eq!(c.current_stage(White).increment, s(10.0));
    c.start(White, s(0.0));
    c.press(s(5.0));
    // White has made the stage's one move; Black has not.
    assert_eq!(c.current_stage(White).increment, s(2.0));
    assert_eq!(c.current_stage(White).moves, None);
    assert_eq!(c.current_stage(Black).increment, s(10.0));
}

#[test]
fn pause_stop_and_resume() {
    let mut c = Clock::new(tc("1m"));
    c.start(White, s(0.0));
    c.pause(s(10.0));
    assert!(c.is_paused());
    assert_eq!(c.remaining(White, s(500.0)), s(50.0));
    c.resume(s(500.0));
    assert_eq!(c.remaining(White, s(505.0)), s(45.0));
    c.stop(s(506.0));
    assert!(c.is_stopped());
    assert_eq!(c.running(), None);
    assert_eq!(c.remaining(White, s(1000.0)), s(44.0));
    c.start(Black, s(1000.0));
    assert_eq!(c.running(), None, "a stopped clock stays stopped");
}

#[test]
fn readings() {
    assert_eq!(display(s(9.95)), "0:09.9");
    assert_eq!(display(s(0.0)), "0:00.0");
    assert_eq!(display(s(10.0)), "0:10");
    assert_eq!(display(s(754.0)), "12:34");
    assert_eq!(display(s(5400.0)), "1:30:00");
    assert_eq!(pdn_time(s(297.0)), "0:04:57");
    assert_eq!(pdn_time(s(3.5)), "0:00:03.5");
    assert_eq!(parse_pdn_time("0:04:57"), Some(s(297.0)));
    assert_eq!(parse_pdn_time("0:00:03.5"), Some(s(3.5)));
    assert_eq!(parse_pdn_time("abc"), None);
}

proptest::proptest! {
    /// A screen that waits [`display_changes_in`] shows the next reading, and waiting a moment
    /// less would have shown the same one: no frame is drawn for nothing, none is missed.
    #[test]
    fn the_reading_changes_exactly_when_said(micros in 1_000u64..10_000_000_000) {
        let d = Duration::from_micros(micros);
        let wait = display_changes_in(d);
        let ms = Duration::from_millis(1);
        proptest::prop_assert!(wait >= ms && wait <= Duration::from_secs(1) + ms);
        proptest::prop_assert_eq!(display(d - (wait - ms)), display(d));
        if d >= wait {
            proptest::prop_assert_ne!(display(d - wait), display(d));
        }
    }
}

#[test]
fn the_next_reading_comes_at_the_tenth_below_ten_seconds_and_the_second_above() {
    let ms = Duration::from_millis;
    assert_eq!(display_changes_in(ms(12_250)), ms(251));
    assert_eq!(display_changes_in(ms(9_950)), ms(51));
    assert_eq!(display_changes_in(ms(10_000)), ms(1));
}
