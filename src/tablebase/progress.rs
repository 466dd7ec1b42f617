//! Progress of long tablebase work: a bar on a terminal, plain lines otherwise.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// A live bar on standard output (for a terminal).
    Bar,
    /// One line when a step starts, one at every tenth of it, and one when it ends (for logs
    /// and pipes).
    Lines,
    /// Nothing.
    Quiet,
}

impl Report {
    /// A bar when standard output is a terminal, else plain lines.
    pub fn for_stdout() -> Report {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() {
            Report::Bar
        } else {
            Report::Lines
        }
    }
}

/// Progress of one step (a slice being generated or verified).
pub struct Progress {
    bar: Option<ProgressBar>,
    report: Report,
    label: String,
    started: Instant,
    total: u64,
    done: AtomicU64,
    /// Tenths of the step reported in lines.
    tenths: AtomicU64,
}

impl Progress {
    /// Starts a step of `total` units of work.
    pub fn start(report: Report, label: &str, total: u64) -> Progress {
        let bar = match report {
            Report::Bar => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stdout());
                bar.set_style(
                    ProgressStyle::with_template(
                        "{prefix:>14} [{bar:30}] {percent:>3}% {human_pos}/{human_len} {per_sec} eta {eta}",
                    )
                    .expect("the template is valid")
                    .progress_chars("=> "),
                );
                bar.set_prefix(label.to_string());
                bar.enable_steady_tick(Duration::from_millis(200));
                Some(bar)
            }
            Report::Lines => {
                line(format_args!("{label}: started, {total} steps"));
                None
            }
            Report::Quiet => None,
        };
        Progress {
            bar,
            report,
            label: label.to_string(),
            started: Instant::now(),
            total,
            done: AtomicU64::new(0),
            tenths: AtomicU64::new(0),
        }
    }

    /// Records `n` more units done.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
        if self.report == Report::Lines && self.total > 0 {
            let done = self.done.fetch_add(n, Relaxed) + n;
            let tenth = (done.min(self.total) * 10 / self.total).min(9);
            let seen = self.tenths.load(Relaxed);
            // One thread wins each tenth, so each is reported once.
            if tenth > seen
                && self
                    .tenths
                    .compare_exchange(seen, tenth, Relaxed, Relaxed)
                    .is_ok()
            {
                let secs = self.started.elapsed().as_secs_f64();
                line(format_args!(
                    "{}: {}% ({done} of {} steps, {secs:.0} s)",
                    self.label,
                    tenth * 10,
                    self.total
                ));
            }
        }
    }

    /// Ends the step with a one-line summary.
    pub fn finish(self, summary: &str) {
        let secs = self.started.elapsed().as_secs_f64();
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if self.report != Report::Quiet {
            line(format_args!("{}: {summary} ({secs:.2} s)", self.label));
        }
    }
}

/// Writes one progress line. Progress is only news: when standard output has gone (a reader
/// that stopped early) the work goes on without it rather than stopping.
fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{args}").and_then(|()| out.flush());
}
