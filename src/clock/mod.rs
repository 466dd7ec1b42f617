//! Game clocks: time controls as clubs write them, and a two-sided clock driven by whatever
//! monotonic time the caller supplies (so it is tested without sleeping, and the same clock runs
//! on a local terminal or on a server).
//!
//! Time control syntax (spaces optional around `,` `/` `+`):
//!
//! ```text
//! control := stage ("," stage)* ["repeating"]
//! stage   := time ["/" moves] ["+" time] ["d" time]
//! time    := 90s | 5m | 1h30m | 2h | 1:30:00 | 4:30
//! ```
//!
//! `15m` is sudden death, `5m+3s` adds 3 seconds after each move (Fischer), `5m d3s` lets each
//! move use 3 seconds before the clock runs down (Bronstein delay), `2h/50, 1h/25 repeating` gives
//! 2 hours for the first 50 moves and another hour for every 25 moves after that, time carried
//! over. A stage without a move count lasts the rest of the game; after the last stage with a
//! count, no more time is added unless the control says `repeating`.
#![forbid(unsafe_code)]

use crate::rules::piece::Color;
use std::fmt;
use std::time::Duration;

/// One stage of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Time added when the stage begins.
    pub time: Duration,
    /// Moves to be made in the stage; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Time added after each move made in the stage (Fischer).
    pub increment: Duration,
    /// Time each move may use before the clock runs down (Bronstein).
    pub delay: Duration,
}

/// A time control: stages played in order, the last one possibly repeating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    stages: Vec<Stage>,
    repeating: bool,
}

/// Why a time control text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "time control {text:?}: {reason} (examples: 15m, 5m+3s, 5m d3s, \"2h/50, 1h/25 repeating\")"
)]
pub struct TimeControlError {
    text: String,
    reason: String,
}

fn parse_time(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("a time is missing".into());
    }
    if t.contains(':') {
        let mut secs = 0f64;
        let parts: Vec<&str> = t.split(':').collect();
        if parts.len() > 3 {
            return Err(format!("{t:?} has too many ':' fields"));
        }
        for p in &parts {
            let p = p.trim();
            // Digits only: `f64` would also read "-1", "inf" and "NaN".
            let digits = !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.');
            let v: f64 = p
                .parse()
                .ok()
                .filter(|_| digits)
                .ok_or_else(|| format!("{t:?} is not a time like 1:30:00"))?;
            secs = secs * 60.0 + v;
        }
        return bounded_seconds(secs, t);
    }
    let mut total = 0f64;
    let mut rest = t;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if n == 0 {
            return Err(format!("{t:?}: expected a number at {rest:?}"));
        }
        let value: f64 = rest[..n]
            .parse()
            .map_err(|_| format!("{t:?}: {:?} is not a number", &rest[..n]))?;
        rest = &rest[n..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        total += value
            * match unit.to_ascii_lowercase().as_str() {
                "h" | "hr" | "hour" | "hours" => 3600.0,
                "m" | "min" | "mins" | "minute" | "minutes" => 60.0,
                "s" | "sec" | "secs" | "second" | "seconds" | "" => 1.0,
                other => return Err(format!("{t:?}: unknown unit {other:?} (use h, m or s)")),
            };
    }
    bounded_seconds(total, t)
}

/// The most seconds a clock holds (about 115 days): a deadline past it could overflow the
/// machine's clock.
pub const MAX_SECONDS: f64 = 1.0e7;

/// `secs` as a duration, when it is one a clock can hold (at most [`MAX_SECONDS`]).
fn bounded_seconds(secs: f64, text: &str) -> Result<Duration, String> {
    if !secs.is_finite() || !(0.0..=MAX_SECONDS).contains(&secs) {
        return Err(format!("{text:?} is too long"));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_stage(text: &str) -> Result<Stage, String> {
    let mut s = text.trim();
    let mut delay = Duration::ZERO;
    // The delay marker is a `d` followed by a number (so units like "seconds" do not match).
    let marker = s.char_indices().find(|&(i, c)| {
        matches!(c, 'd' | 'D')
            && s[i + 1..]
                .trim_start()
                .starts_with(|n: char| n.is_ascii_digit())
    });
    if let Some((i, _)) = marker {
        delay = parse_time(&s[i + 1..])?;
        s = s[..i].trim();
    }
    let mut increment = Duration::ZERO;
    if let Some(i) = s.find('+') {
        increment = parse_time(&s[i + 1..])?;
        s = s[..i].trim();
    }
    let mut moves = None;
    if let Some(i) = s.find('/') {
        let m = s[i + 1..].trim();
        let n: u32 = m
            .parse()
            .map_err(|_| format!("{m:?} is not a number of moves"))?;
        if n == 0 {
            return Err("a stage needs at least one move".into());
        }
        moves = Some(n);
        s = s[..i].trim();
    }
    let time = parse_time(s)?;
    if time.is_zero() && increment.is_zero() {
        return Err("a stage needs some time".into());
    }
    Ok(Stage {
        time,
        moves,
        increment,
        delay,
    })
}

/// Reads a PGN/PDN-style numeric control: `300`, `300+3`, `50/7200:25/3600`.
fn parse_numeric(text: &str) -> Option<TimeControl> {
    let mut stages = Vec::new();
    let fields: Vec<&str> = text.split(':').collect();
    for (i, field) in fields.iter().enumerate() {
        let (moves, rest) = match field.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().ok().filter(|&n| n > 0)?), r),
            // Only the last field may lack a move count (otherwise it is `h:mm:ss`).
            None if i + 1 < fields.len() => return None,
            None => (None, *field),
        };
        let (secs, inc) = match rest.split_once('+') {
            Some((s, i)) => (s, i.trim().parse::<f64>().ok()?),
            None => (rest, 0.0),
        };
        let secs: f64 = secs.trim().parse().ok()?;
        let sane = (0.0..MAX_SECONDS).contains(&secs) && (0.0..1.0e5).contains(&inc);
        if !sane {
            return None;
        }
        stages.push(Stage {
            time: Duration::from_secs_f64(secs),
            moves,
            increment: Duration::from_secs_f64(inc),
            delay: Duration::ZERO,
        });
    }
    Some(TimeControl {
        stages,
        repeating: false,
    })
}

/// Reads the rule-book wording `30 moves per hour, then 15 moves per 30 minutes`: each part is a
/// rate, and the last rate goes on for the rest of the game (WCDF 2.15b).
fn parse_words(text: &str) -> Result<TimeControl, String> {
    let lower = text.to_ascii_lowercase();
    let mut stages = Vec::new();
    for part in lower.split([',', ';']).flat_map(|p| p.split(" then ")) {
        let part = part.trim().trim_start_matches("then").trim();
        if part.is_empty() {
            continue;
        }
        let Some((moves, time)) = part.split_once(" per ") else {
            return Err(format!("{part:?} is not of the form \"N moves per T\""));
        };
        let moves = moves.trim().trim_end_matches("moves").trim();
        let n: u32 = moves
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{moves:?} is not a number of moves"))?;
        let time = time.trim();
        let time = if time.starts_with(|c: char| c.is_ascii_alphabetic()) {
            format!("1{time}")
        } else {
            time.replace(' ', "")
        };
        stages.push(Stage {
            time: parse_time(&time)?,
            moves: Some(n),
            increment: Duration::ZERO,
            delay: Duration::ZERO,
        });
    }
    if stages.is_empty() {
        return Err("no stage given".into());
    }
    Ok(TimeControl {
        stages,
        repeating: true,
    })
}

impl TimeControl {
    /// Reads a time control from a form or an option, where an empty text, `none`, `-` or `?`
    /// (PDN's "unknown") means an untimed game.
    pub fn parse_optional(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
        match text.trim() {
            "" | "none" | "-" | "?" => Ok(None),
            t => TimeControl::parse(t).map(Some),
        }
    }

    /// Reads a time control in the syntax of this module's documentation (or the numeric form of
    /// PGN/PDN `TimeControl` tags, seconds: `300+3`, `50/7200:25/3600`).
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let err = |reason: String| TimeControlError {
            text: text.to_string(),
            reason,
        };
        let mut t = text.trim();
        if t.is_empty() {
            return Err(err("it is empty".into()));
        }
        if t.chars().all(|c| c.is_ascii_digit() || "+/:.".contains(c))
            && !t.contains("::")
            && let Some(tc) = parse_numeric(t)
        {
            return Ok(tc);
        }
        if t.to_ascii_lowercase().contains(" per ") {
            return parse_words(t).map_err(err);
        }
        let mut repeating = false;
        for word in ["repeating", "repeat"] {
            if t.len() >= word.len()
                && t.is_char_boundary(t.len() - word.len())
                && t[t.len() - word.len()..].eq_ignore_ascii_case(word)
            {
                repeating = true;
                t = t[..t.len() - word.len()].trim_end().trim_end_matches(',');
                break;
            }
        }
        let stages = t
            .split(',')
            .map(parse_stage)
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        for (i, s) in stages.iter().enumerate() {
            if s.moves.is_none() && i + 1 < stages.len() {
                return Err(err("only the last stage may be without a move count".into()));
            }
        }
        if repeating && stages.last().is_some_and(|s| s.moves.is_none()) {
            return Err(err("a repeating stage needs a move count".into()));
        }
        Ok(TimeControl { stages, repeating })
    }

    /// Sudden death with an increment per move.
    pub fn fischer(time: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            stages: vec![Stage {
                time,
                moves: None,
                increment,
                delay: Duration::ZERO,
            }],
            repeating: false,
        }
    }

    /// The stages in order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// Whether the last stage repeats.
    pub fn repeating(&self) -> bool {
        self.repeating
    }

    /// The stage in force after `moves` moves, and the moves made into it; `None` once past the
    /// last counted stage of a non-repeating control.
    fn stage_after(&self, moves: u32) -> (usize, Option<u32>) {
        let mut left = moves;
        for (i, s) in self.stages.iter().enumerate() {
            match s.moves {
                Some(n) if left >= n => {
                    let last = i + 1 == self.stages.len();
                    if last && self.repeating {
                        return (i, Some(left % n));
                    }
                    left -= n;
                    if last {
                        return (i, None);
                    }
                }
                _ => return (i, Some(left)),
            }
        }
        (self.stages.len() - 1, None)
    }

    /// Time added after the `moves`-th move (1-based) has been made: the increment of the stage
    /// it was made in, plus the next stage's time when it completes a stage.
    fn bonus_after(&self, moves: u32) -> Duration {
        let (stage, into) = self.stage_after(moves - 1);
        let s = &self.stages[stage];
        let mut bonus = if into.is_some() {
            s.increment
        } else {
            Duration::ZERO
        };
        if let (Some(n), Some(into)) = (s.moves, into)
            && into + 1 == n
        {
            let next = if stage + 1 < self.stages.len() {
                Some(&self.stages[stage + 1])
            } else if self.repeating {
                Some(s)
            } else {
                None
            };
            if let Some(next) = next {
                bonus += next.time;
            }
        }
        bonus
    }

    /// The delay for a move made after `moves` moves.
    fn delay_after(&self, moves: u32) -> Duration {
        let (stage, into) = self.stage_after(moves);
        into.map_or(Duration::ZERO, |_| self.stages[stage].delay)
    }

    /// A PGN/PDN numeric form (`300+3`, `50/7200:25/3600`) when the control has one: no delay and
    /// no repetition.
    pub fn pgn(&self) -> Option<String> {
        if self.repeating || self.stages.iter().any(|s| !s.delay.is_zero()) {
            return None;
        }
        let secs = |d: Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{}", s as u64)
            } else {
                format!("{s}")
            }
        };
        let fields: Vec<String> = self
            .stages
            .iter()
            .map(|s| {
                let mut f = String::new();
                if let Some(n) = s.moves {
                    f.push_str(&format!("{n}/"));
                }
                f.push_str(&secs(s.time));
                if !s.increment.is_zero() {
                    f.push_str(&format!("+{}", secs(s.increment)));
                }
                f
            })
            .collect();
        Some(fields.join(":"))
    }
}

fn write_time(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let ms = d.as_millis();
    if !ms.is_multiple_of(1000) {
        return write!(f, "{}s", d.as_secs_f64());
    }
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        write!(f, "{h}h")?;
    }
    if m > 0 {
        write!(f, "{m}m")?;
    }
    if s > 0 || (h == 0 && m == 0) {
        write!(f, "{s}s")?;
    }
    Ok(())
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stages.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_time(f, s.time)?;
            if let Some(n) = s.moves {
                write!(f, "/{n}")?;
            }
            if !s.increment.is_zero() {
                f.write_str("+")?;
                write_time(f, s.increment)?;
            }
            if !s.delay.is_zero() {
                f.write_str(" d")?;
                write_time(f, s.delay)?;
            }
        }
        if self.repeating {
            f.write_str(" repeating")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(s)
    }
}

/// A time on the clock's time line: how long since some fixed instant. The caller chooses the
/// instant (process start, server start); only differences matter.
pub type Tick = Duration;

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Side {
    /// Time left when its clock last stopped (before any running time is subtracted).
    left: Duration,
    /// Moves this side has completed.
    moves: u32,
}

/// A two-sided game clock under a time control.
///
/// The clock never reads the time itself: every call takes `now`, the caller's monotonic time.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    sides: [Side; 2],
    /// The side whose clock runs and since when; `None` when stopped or paused.
    running: Option<(Color, Tick)>,
    /// The side to move while paused.
    paused: Option<Color>,
    /// The side that ran out of time, once seen.
    flag: Option<Color>,
    stopped: bool,
}

impl Clock {
    /// A clock with both sides' first-stage time, not yet running.
    pub fn new(control: TimeControl) -> Clock {
        let first = control.stages[0].time;
        let side = Side {
            left: first,
            moves: 0,
        };
        Clock {
            control,
            sides: [side; 2],
            running: None,
            paused: None,
            flag: None,
            stopped: false,
        }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Starts `side`'s clock (the first move of the game).
    pub fn start(&mut self, side: Color, now: Tick) {
        if !self.stopped && self.flag.is_none() {
            self.running = Some((side, now));
            self.paused = None;
        }
    }

    /// The side whose clock is running.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    fn charge(&self, side: Color, since: Tick, now: Tick) -> Duration {
        let used = now.saturating_sub(since);
        let delay = self.control.delay_after(self.sides[side.index()].moves);
        used.saturating_sub(delay)
    }

    /// Time left for `side` at `now` (zero once flagged).
    pub fn remaining(&self, side: Color, now: Tick) -> Duration {
        let s = &self.sides[side.index()];
        match self.running {
            Some((c, since)) if c == side => s.left.saturating_sub(self.charge(side, since, now)),
            _ => s.left,
        }
    }

    /// The delay still to run for `side`'s current move at `now` (Bronstein), for display.
    pub fn delay_left(&self, side: Color, now: Tick) -> Duration {
        match self.running {
            Some((c, since)) if c == side => self
                .control
                .delay_after(self.sides[side.index()].moves)
                .saturating_sub(now.saturating_sub(since)),
            _ => Duration::ZERO,
        }
    }

    /// The side out of time at `now`, if any. Once a flag has fallen it stays down and the clock
    /// stops.
    pub fn flag(&mut self, now: Tick) -> Option<Color> {
        if self.flag.is_none()
            && let Some((side, _)) = self.running
            && self.remaining(side, now).is_zero()
        {
            self.sides[side.index()].left = Duration::ZERO;
            self.running = None;
            self.flag = Some(side);
        }
        self.flag
    }

    /// The running side has made its move at `now`: charge its time, add its increment (and the
    /// next stage's time when a stage is complete), start the opponent's clock. Returns the time
    /// the move took, or `None` if the mover's flag fell first (or the clock is not running).
    pub fn press(&mut self, now: Tick) -> Option<Duration> {
        if self.flag(now).is_some() {
            return None;
        }
        let (side, since) = self.running?;
        let charged = self.charge(side, since, now);
        let s = &mut self.sides[side.index()];
        s.left = s.left.saturating_sub(charged);
        s.moves += 1;
        s.left += self.control.bonus_after(s.moves);
        self.running = Some((side.opposite(), now));
        Some(now.saturating_sub(since))
    }

    /// Moves `side` has completed.
    pub fn moves(&self, side: Color) -> u32 {
        self.sides[side.index()].moves
    }

    /// The 1-based stage `side` is playing in, and the moves it still has to make in it.
    pub fn stage(&self, side: Color) -> (usize, Option<u32>) {
        let moves = self.sides[side.index()].moves;
        let (i, into) = self.control.stage_after(moves);
        let left = match (self.control.stages[i].moves, into) {
            (Some(n), Some(into)) => Some(n - into),
            _ => None,
        };
        (i + 1, left)
    }

    /// The stage `side` is playing in: its time, moves, increment and delay.
    pub fn current_stage(&self, side: Color) -> Stage {
        let (i, _) = self.control.stage_after(self.sides[side.index()].moves);
        self.control.stages[i]
    }

    /// Stops both clocks for good (the game is over).
    pub fn stop(&mut self, now: Tick) {
        self.pause(now);
        self.paused = None;
        self.stopped = true;
    }

    /// Whether the clock was stopped for good.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Pauses the running clock (casual games), keeping the time used so far.
    pub fn pause(&mut self, now: Tick) {
        if self.flag(now).is_some() {
            return;
        }
        if let Some((side, since)) = self.running.take() {
            let charged = self.charge(side, since, now);
            let s = &mut self.sides[side.index()];
            s.left = s.left.saturating_sub(charged);
            self.paused = Some(side);
        }
    }

    /// Whether the clock is paused.
    pub fn is_paused(&self) -> bool {
        self.paused.is_some()
    }

    /// Resumes a paused clock.
    pub fn resume(&mut self, now: Tick) {
        if let Some(side) = self.paused.take() {
            self.running = Some((side, now));
        }
    }

    /// Gives back a move (a takeback by agreement): the side that made it gets its clock again
    /// with the time it had before the move, minus nothing further.
    pub fn take_back(&mut self, side: Color, left_before: Duration, now: Tick) {
        let s = &mut self.sides[side.index()];
        s.moves = s.moves.saturating_sub(1);
        s.left = left_before;
        if self.running.is_some() {
            self.running = Some((side, now));
        }
    }

    /// Sets a side's time and completed moves (resuming a recorded game).
    pub fn set(&mut self, side: Color, left: Duration, moves: u32) {
        self.sides[side.index()] = Side { left, moves };
    }
}

/// A clock reading for players: `h:mm:ss` from an hour, `m:ss` below, `s.t` under ten seconds.
pub fn display(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = d.as_secs();
    if secs < 10 {
        format!("0:0{}.{}", tenths / 10, tenths % 10)
    } else if secs < 3600 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    }
}

/// How long until a running clock that has `d` left shows a different [`display`] reading: to
/// the next tenth under ten seconds, to the next second above.
pub fn display_changes_in(d: Duration) -> Duration {
    let step = if d.as_secs() < 10 {
        Duration::from_millis(100)
    } else {
        Duration::from_secs(1)
    };
    let into = Duration::from_nanos((d.as_nanos() % step.as_nanos()) as u64);
    // Just past the boundary, so that the reading has changed when the screen is drawn.
    into + Duration::from_millis(1)
}

/// A time as PDN clock comments write it: `h:mm:ss` with tenths when there are any.
pub fn pdn_time(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = tenths / 10;
    let base = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if tenths.is_multiple_of(10) {
        base
    } else {
        format!("{base}.{}", tenths % 10)
    }
}

/// Reads a time written by [`pdn_time`] (or `m:ss`).
pub fn parse_pdn_time(text: &str) -> Option<Duration> {
    let t = text.trim();
    if !t.contains(':') {
        return None;
    }
    parse_time(t).ok()
}

#[cfg(test)]
mod tests;
