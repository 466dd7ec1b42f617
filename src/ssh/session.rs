//! One member's TUI over an SSH channel: the same app and event loop as on a local terminal,
//! drawing into the channel and fed by the decoded bytes the client sends.

use super::Input;
use super::input::Decoder;
use crate::config::Config;
use crate::lobby::latency;
use crate::tui::{App, ColorDepth};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What a member whose access ended reads as their session closes.
const REVOKED: &str = "your access to the club has ended (membership or key withdrawn)";

/// How long a lone Esc waits for the rest of a sequence.
const ESC_WAIT: Duration = Duration::from_millis(50);

/// What a session starts with.
pub(crate) struct Setup {
    pub name: String,
    pub member: Option<i64>,
    pub lobby: std::sync::Arc<crate::lobby::Lobby>,
    pub db: PathBuf,
    pub tablebases: Option<PathBuf>,
    pub size: (u16, u16),
    pub depth: ColorDepth,
    pub wake: crate::lobby::Waker,
    /// A member's place among the signed-in sessions: ended when their access is.
    pub access: Option<super::revoke::Registration>,
}

/// The screen's bytes, sent to the channel at each flush (a bounded queue: a client that does
/// not read stalls only its own session).
struct Screen {
    buffer: Vec<u8>,
    out: tokio::sync::mpsc::Sender<Option<Vec<u8>>>,
}

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.buffer.is_empty() {
            let bytes = std::mem::take(&mut self.buffer);
            self.out
                .blocking_send(Some(bytes))
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the connection is gone"))?;
        }
        latency::frame_written();
        Ok(())
    }
}

/// Runs the member's TUI until they quit or the connection goes.
pub(crate) fn run(
    setup: Setup,
    events: Receiver<Input>,
    out: tokio::sync::mpsc::Sender<Option<Vec<u8>>>,
) {
    let mut config = Config::default();
    if let Some(dir) = &setup.tablebases {
        config.tablebases = Some(dir.clone());
    }
    let mut app = App::new(config, None, setup.depth);
    let guest = setup.member.is_none();
    app.user = setup.name.clone();
    app.actor = match setup.member {
        Some(id) => crate::club::access::Actor::Member {
            id,
            name: setup.name.clone(),
        },
        None => crate::club::access::Actor::Guest(setup.name.clone()),
    };
    // Guests play casual games; the club's records are for members.
    app.club_db = (!guest).then(|| setup.db.clone());
    app.guest = guest;
    app.presence = Some(crate::lobby::Lobby::join(&setup.lobby, &setup.name, guest));
    app.remote = true;
    let lobby = Arc::clone(&setup.lobby);
    app.server = Some((
        Arc::clone(&lobby),
        crate::lobby::Who {
            name: setup.name.clone(),
            member: setup.member,
        },
    ));
    app.waker = Some(setup.wake.clone());
    app.open_lobby(lobby.now());
    let mut screen = Screen {
        buffer: Vec::new(),
        out: out.clone(),
    };
    let _ = execute!(screen, EnterAlternateScreen, EnableMouseCapture);
    let (w, h) = setup.size;
    let options = TerminalOptions {
        viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
    };
    let result =
        Terminal::with_options(CrosstermBackend::new(screen), options).and_then(|mut terminal| {
            let mut decoder = Decoder::default();
            let mut queue: VecDeque<(Event, Option<Instant>)> = VecDeque::new();
            // The server's time, so that the shared game clocks read the same everywhere.
            let ended = setup.access.as_ref().map(|a| Arc::clone(a.ended()));
            let r = crate::tui::run(
                &mut terminal,
                &mut app,
                |wait| {
                    if ended.as_ref().is_some_and(|e| e.load(Ordering::Relaxed)) {
                        return Err(io::Error::new(io::ErrorKind::PermissionDenied, REVOKED));
                    }
                    next_event(&events, &mut decoder, &mut queue, wait)
                },
                || lobby.now(),
            );
            let _ = terminal.show_cursor();
            let _ = execute!(
                terminal.backend_mut(),
                DisableMouseCapture,
                LeaveAlternateScreen
            );
            if r.as_ref()
                .is_err_and(|e| e.kind() == io::ErrorKind::PermissionDenied)
            {
                let backend = terminal.backend_mut();
                let _ = write!(backend, "\r\ndraughts: {REVOKED}\r\n");
                let _ = backend.flush();
            }
            r
        });
    match result {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {}
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            tracing::warn!("{}: session ended: {e}", setup.name);
        }
        _ => {}
    }
    tracing::info!("{} left", setup.name);
    let _ = out.blocking_send(None);
}

/// The next event within `wait`, with when its bytes arrived (for the latency measured in the
/// server); a closed connection ends the loop as an error.
fn next_event(
    events: &Receiver<Input>,
    decoder: &mut Decoder,
    queue: &mut VecDeque<(Event, Option<Instant>)>,
    wait: Duration,
) -> io::Result<Option<Event>> {
    latency::input_arrived(None);
    if let Some((e, at)) = queue.pop_front() {
        latency::input_arrived(at);
        return Ok(Some(e));
    }
    let wait = if decoder.is_pending() {
        wait.min(ESC_WAIT)
    } else {
        wait
    };
    match events.recv_timeout(wait) {
        Ok(Input::Bytes(bytes, at)) => {
            queue.extend(decoder.feed(&bytes).into_iter().map(|e| (e, Some(at))));
        }
        Ok(Input::Resize(w, h)) => queue.push_back((Event::Resize(w, h), None)),
        Ok(Input::Wake) => {}
        // A lone Esc is given up on only after a real wait, not when the loop merely asks
        // whether more input is waiting.
        Err(RecvTimeoutError::Timeout) if !wait.is_zero() => {
            queue.extend(decoder.flush().into_iter().map(|e| (e, None)));
        }
        Err(RecvTimeoutError::Timeout) => {}
        Err(RecvTimeoutError::Disconnected) => {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the connection is gone",
            ));
        }
    }
    Ok(queue.pop_front().map(|(e, at)| {
        latency::input_arrived(at);
        e
    }))
}
