//! The terminal user interface: a model ([`App`]) changed by keys, mouse and time, and a pure
//! view drawn from it. The event loop is generic over the terminal backend and the event source,
//! so the same code runs on a local terminal and under `TestBackend` in tests.

pub mod app;
pub mod board;
pub mod club;
pub mod home;
pub mod load;
pub mod lobby;
pub mod new_game;
pub mod play;
pub mod settings;
pub mod setup;
pub mod view;
pub mod widgets;

pub use view::draw;

#[cfg(test)]
mod tests;

/// A test terminal's screen as text, a line per row (for tests of the screens).
#[cfg(test)]
pub(crate) fn screen_text(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

pub use app::App;
pub use board::ColorDepth;
pub use setup::{GameSetup, PlayerKind};

use crate::clock::Tick;
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use std::io;
use std::time::{Duration, Instant};

/// At most this many waiting events are handled between two frames, so that a long paste still
/// shows progress.
const EVENTS_PER_FRAME: usize = 64;

/// Runs the app until it quits: draw, wait for an event or the next frame, update.
/// `next_event` waits at most the given time and returns `None` when nothing came.
pub fn run<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    mut next_event: impl FnMut(Duration) -> io::Result<Option<Event>>,
    now: impl Fn() -> Tick,
) -> io::Result<()>
where
    B::Error: Into<io::Error>,
{
    while !app.quit {
        app.tick(now());
        terminal
            .draw(|f| view::draw(f, app, now()))
            .map_err(Into::into)?;
        // Every event already waiting is handled before the next frame: a move typed or pasted
        // at once (`32-28` and Enter come as one packet over SSH) costs one frame, not six.
        let mut wait = app.refresh_in(now());
        for _ in 0..EVENTS_PER_FRAME {
            let Some(ev) = next_event(wait)? else {
                break;
            };
            let t = now();
            match ev {
                Event::Key(k) => app.key(k, t),
                Event::Mouse(m) => app.mouse(m, t),
                // A remote terminal's new size (a local one resizes itself on the next draw).
                Event::Resize(w, h) => terminal
                    .resize(ratatui::layout::Rect::new(0, 0, w, h))
                    .map_err(Into::into)?,
                _ => {}
            }
            if app.quit {
                break;
            }
            wait = Duration::ZERO;
        }
    }
    Ok(())
}

/// Runs the app on the process's terminal (raw mode, alternate screen, mouse where supported),
/// restoring the terminal afterwards, also on a panic.
pub fn run_local(app: &mut App) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    // Mouse reporting is a convenience; a terminal without it still works by keys.
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let start = Instant::now();
    let result = run(
        &mut terminal,
        app,
        |wait| {
            if event::poll(wait)? {
                event::read().map(Some)
            } else {
                Ok(None)
            }
        },
        || start.elapsed(),
    );
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}
