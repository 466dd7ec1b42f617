//! The club over SSH: `draughts serve` runs an SSH server (russh) whose only service is the club
//! TUI. Members sign in with a public key registered in the club database; each session gets its
//! own TUI, sized and coloured for its terminal. No shell, no commands, no forwarding, no agent,
//! no SFTP: those requests are refused. An address that fails to sign in too often is blocked
//! for a while (`gate`); a session ends when its member is deactivated or its key removed
//! (`revoke`).

pub mod gate;
pub mod input;
mod revoke;
mod session;

use crate::club::Store;
use crate::club::members::member_by_fingerprint;
use crate::lobby::Lobby;
use russh::keys::{HashAlg, PrivateKey};
use russh::server::{Auth, ChannelOpenHandle, Handle, Msg, Session};
use russh::{Channel, ChannelId, MethodKind, MethodSet};
use std::collections::HashMap;
use std::net::IpAddr;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Why the server could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The host key file.
    #[error("host key {path}: {reason}")]
    HostKey {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The club database.
    #[error("club database: {0}")]
    Club(String),
    /// The network.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Address to listen on for SSH (none: the web alone).
    pub listen: Option<String>,
    /// Address to serve the club's pages on over HTTP, and how (none: no web).
    pub http: Option<(String, crate::web::http::HttpOptions)>,
    /// The club database.
    pub db: PathBuf,
    /// The host key (generated on first start).
    pub host_key: PathBuf,
    /// Tablebases for the games played.
    pub tablebases: Option<PathBuf>,
    /// A connection idle this long is closed.
    pub idle: Duration,
    /// Let unknown keys in as guests (casual games only, no club records).
    pub guests: bool,
    /// Connections one address may hold at once.
    pub per_ip: usize,
    /// The log file (connections, sign-ins, errors; also on standard error).
    pub log: Option<PathBuf>,
    /// How long a game waits for a player whose connection dropped before it is forfeited.
    pub reconnect: Duration,
    /// Games in progress when the server stopped are adjourned (resumed from the lobby by
    /// their players) instead of resumed at once.
    pub adjourn: bool,
    /// Failed sign-ins an address may make in a minute, and how long it is blocked after.
    pub signins: gate::Limits,
}

/// Reads the host key, or makes one (Ed25519) readable by its owner only.
pub fn host_key(path: &Path) -> Result<PrivateKey, ServeError> {
    let err = |reason: String| ServeError::HostKey {
        path: path.to_path_buf(),
        reason,
    };
    if path.exists() {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path)
                .map_err(|e| err(e.to_string()))?
                .permissions()
                .mode();
            if mode & 0o077 != 0 {
                return Err(err(format!(
                    "readable by others (mode {:o}); chmod 600 it",
                    mode & 0o777
                )));
            }
        }
        return russh::keys::load_secret_key(path, None).map_err(|e| err(e.to_string()));
    }
    let key = PrivateKey::random(&mut rand::rng(), russh::keys::Algorithm::Ed25519)
        .map_err(|e| err(e.to_string()))?;
    let text = key
        .to_openssh(russh::keys::ssh_key::LineEnding::LF)
        .map_err(|e| err(e.to_string()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
    }
    // Written under a temporary name with owner-only permissions, then renamed into place.
    let tmp = path.with_extension("tmp");
    {
        use std::io::Write;
        let mut open = std::fs::OpenOptions::new();
        open.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            open.mode(0o600);
        }
        let mut f = open.open(&tmp).map_err(|e| err(e.to_string()))?;
        f.write_all(text.as_bytes())
            .and_then(|_| f.sync_all())
            .map_err(|e| err(e.to_string()))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| err(e.to_string()))?;
    Ok(key)
}

/// How often the server logs the move latency it measured.
const LATENCY_REPORT: Duration = Duration::from_secs(600);

/// What a session thread gets from its connection.
pub(crate) enum Input {
    /// Bytes typed, and when they arrived.
    Bytes(Vec<u8>, std::time::Instant),
    /// The terminal's new size.
    Resize(u16, u16),
    /// A game shown changed: redraw now.
    Wake,
}

#[derive(Clone)]
struct Club {
    options: Arc<Options>,
    per_ip: Arc<Mutex<HashMap<IpAddr, usize>>>,
    guests: Arc<AtomicUsize>,
    lobby: Arc<Lobby>,
    gate: Arc<Mutex<gate::Gate>>,
    signed_in: Arc<revoke::SignedIn>,
}

/// A connection's place in the per-address count, given back when it closes.
struct Slot {
    ip: Option<IpAddr>,
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    over: bool,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let (Some(ip), Ok(mut counts)) = (self.ip, self.counts.lock()) else {
            return;
        };
        if let Some(n) = counts.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&ip);
            }
        }
    }
}

/// Who is signed in on a connection.
#[derive(Clone, Debug)]
enum Who {
    /// A member: name, id, and the fingerprint of the key they signed in with.
    Member(String, i64, String),
    Guest(String),
}

struct Terminal {
    size: (u16, u16),
    term: String,
    colorterm: Option<String>,
    no_color: bool,
    input: Option<SyncSender<Input>>,
    /// The sender games use to wake the session; emptied when the channel goes, so that the
    /// session sees its input end.
    wake: Arc<Mutex<Option<SyncSender<Input>>>>,
}

impl Drop for Terminal {
    fn drop(&mut self) {
        if let Ok(mut w) = self.wake.lock() {
            *w = None;
        }
    }
}

/// One connection.
struct Connection {
    options: Arc<Options>,
    peer: Option<SocketAddr>,
    who: Option<Who>,
    guests: Arc<AtomicUsize>,
    lobby: Arc<Lobby>,
    slot: Slot,
    terminals: HashMap<ChannelId, Terminal>,
    gate: Arc<Mutex<gate::Gate>>,
    signed_in: Arc<revoke::SignedIn>,
}

impl Connection {
    /// Whether the connection's address is blocked for failed sign-ins.
    fn blocked(&self) -> bool {
        let Some(ip) = self.peer.map(|p| p.ip()) else {
            return false;
        };
        let mut gate = self.gate.lock().unwrap_or_else(|e| e.into_inner());
        gate.blocked(ip, std::time::Instant::now())
    }

    /// Counts a failed sign-in against the connection's address, and says when it blocks it.
    fn failed(&self) {
        let Some(ip) = self.peer.map(|p| p.ip()) else {
            return;
        };
        let mut gate = self.gate.lock().unwrap_or_else(|e| e.into_inner());
        if gate.failed(ip, std::time::Instant::now()) == gate::Failed::Blocked {
            let limits = gate.limits();
            tracing::warn!(
                "{ip}: blocked for {} min after {} failed sign-ins in a minute",
                limits.block.as_secs().div_ceil(60),
                limits.failures
            );
        }
    }
}

impl russh::server::Server for Club {
    type Handler = Connection;
    fn new_client(&mut self, peer: Option<SocketAddr>) -> Connection {
        let ip = peer.map(|p| p.ip());
        let mut over = false;
        if let (Some(ip), Ok(mut counts)) = (ip, self.per_ip.lock()) {
            let n = counts.entry(ip).or_insert(0);
            *n += 1;
            over = *n > self.options.per_ip;
        }
        let from = peer.map_or("?".into(), |p| p.to_string());
        if over {
            tracing::warn!(
                "{from}: refused, more than {} connections",
                self.options.per_ip
            );
        } else {
            tracing::info!("{from}: connected");
        }
        Connection {
            options: Arc::clone(&self.options),
            peer,
            who: None,
            guests: Arc::clone(&self.guests),
            lobby: Arc::clone(&self.lobby),
            slot: Slot {
                ip,
                counts: Arc::clone(&self.per_ip),
                over,
            },
            terminals: HashMap::new(),
            gate: Arc::clone(&self.gate),
            signed_in: Arc::clone(&self.signed_in),
        }
    }

    fn handle_session_error(&mut self, error: russh::Error) {
        tracing::warn!("connection ended with an error: {error}");
    }
}

/// A line on a channel, then the channel closed (for requests the server does not serve).
fn refuse(session: &mut Session, channel: ChannelId, words: &str) -> Result<(), russh::Error> {
    session.channel_failure(channel)?;
    session.data(channel, format!("{words}\r\n").into_bytes())?;
    session.exit_status_request(channel, 1)?;
    session.close(channel)
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let peer = self.peer.map_or("?".into(), |p| p.to_string());
        if self.slot.over {
            return Ok(Auth::reject());
        }
        if self.blocked() {
            tracing::info!("{peer}: {user:?} refused: the address is blocked for failed sign-ins");
            return Ok(Auth::reject());
        }
        let fingerprint = key.public_key.fingerprint(HashAlg::Sha256).to_string();
        let db = self.options.db.clone();
        let print = fingerprint.clone();
        let found = tokio::task::spawn_blocking(move || {
            let store = Store::open(&db).map_err(|e| e.to_string())?;
            member_by_fingerprint(&store, &print).map_err(|e| e.to_string())
        })
        .await
        .map_err(|_| russh::Error::Disconnect)?;
        match found {
            Ok(Some(member)) => {
                tracing::info!("{peer}: {user:?} signed in as {}", member.name);
                self.who = Some(Who::Member(member.name, member.id, fingerprint));
                Ok(Auth::Accept)
            }
            Ok(None) if self.options.guests => {
                let n = self.guests.fetch_add(1, Ordering::Relaxed) + 1;
                let name = format!("Guest {n}");
                tracing::info!("{peer}: {user:?} ({fingerprint}) let in as {name}");
                self.who = Some(Who::Guest(name));
                Ok(Auth::Accept)
            }
            Ok(None) => {
                tracing::info!("{peer}: {user:?} refused: unknown key {fingerprint}");
                self.failed();
                Ok(Auth::reject())
            }
            Err(e) => {
                tracing::error!("{peer}: club database: {e}");
                Ok(Auth::reject())
            }
        }
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.terminals.insert(
            channel.id(),
            Terminal {
                size: (80, 24),
                term: String::new(),
                colorterm: None,
                no_color: false,
                input: None,
                wake: Arc::default(),
            },
        );
        reply.accept().await;
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _: u32,
        _: u32,
        _: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(t) = self.terminals.get_mut(&channel) {
            t.size = clamp_size(col_width, row_height);
            t.term = term.chars().take(64).collect();
        }
        session.channel_success(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(t) = self.terminals.get_mut(&channel) {
            match name {
                "COLORTERM" => t.colorterm = Some(value.chars().take(64).collect()),
                "NO_COLOR" => t.no_color = !value.is_empty(),
                _ => {}
            }
        }
        session.channel_success(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let (Some(who), Some(t)) = (self.who.clone(), self.terminals.get_mut(&channel)) else {
            return refuse(session, channel, "draughts: not signed in");
        };
        if t.term.is_empty() {
            return refuse(
                session,
                channel,
                "draughts: the club needs a terminal; connect with ssh -t",
            );
        }
        let depth = {
            let (term, colorterm, no_color) = (t.term.clone(), t.colorterm.clone(), t.no_color);
            crate::tui::ColorDepth::detect(|name| match name {
                "TERM" => Some(term.clone()),
                "COLORTERM" => colorterm.clone(),
                "NO_COLOR" => no_color.then(|| "1".to_string()),
                _ => None,
            })
        };
        let (input, events) = std::sync::mpsc::sync_channel(256);
        if let Ok(mut w) = t.wake.lock() {
            *w = Some(input.clone());
        }
        let waker = Arc::clone(&t.wake);
        t.input = Some(input);
        let (output, outgoing) = tokio::sync::mpsc::channel(64);
        let wake: crate::lobby::Waker = Arc::new(move || {
            if let Ok(w) = waker.lock()
                && let Some(w) = w.as_ref()
            {
                // A full queue already wakes the session.
                let _ = w.try_send(Input::Wake);
            }
        });
        let (name, member, access) = match who {
            Who::Member(n, id, fingerprint) => {
                let access =
                    revoke::SignedIn::register(&self.signed_in, id, &n, &fingerprint, wake.clone());
                (n, Some(id), Some(access))
            }
            Who::Guest(n) => (n, None, None),
        };
        let setup = session::Setup {
            name,
            member,
            lobby: Arc::clone(&self.lobby),
            db: self.options.db.clone(),
            tablebases: self.options.tablebases.clone(),
            size: t.size,
            depth,
            wake,
            access,
        };
        session.channel_success(channel)?;
        tokio::spawn(forward(session.handle(), channel, outgoing));
        std::thread::spawn(move || session::run(setup, events, output));
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        refuse(session, channel, "draughts: the club runs no commands")
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let name: String = name.chars().take(32).collect();
        refuse(session, channel, &format!("draughts: no {name} here"))
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(input) = self.terminals.get(&channel).and_then(|t| t.input.as_ref()) else {
            return Ok(());
        };
        match input.try_send(Input::Bytes(data.to_vec(), std::time::Instant::now())) {
            // A client typing faster than its session reads loses the excess, not the server.
            Ok(()) | Err(TrySendError::Full(_)) => Ok(()),
            Err(TrySendError::Disconnected(_)) => session.close(channel),
        }
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _: u32,
        _: u32,
        _: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(t) = self.terminals.get_mut(&channel) {
            t.size = clamp_size(col_width, row_height);
            if let Some(input) = &t.input {
                let _ = input.try_send(Input::Resize(t.size.0, t.size.1));
            }
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _: &mut Session,
    ) -> Result<(), Self::Error> {
        // Dropping the sender ends the session thread.
        self.terminals.remove(&channel);
        Ok(())
    }
}

/// A terminal size within what the screen can sensibly draw (a huge one is cut down).
fn clamp_size(cols: u32, rows: u32) -> (u16, u16) {
    (cols.clamp(1, 500) as u16, rows.clamp(1, 300) as u16)
}

/// Sends a session's screen output to its channel; `None` ends the channel.
async fn forward(
    handle: Handle,
    channel: ChannelId,
    mut outgoing: tokio::sync::mpsc::Receiver<Option<Vec<u8>>>,
) {
    while let Some(Some(bytes)) = outgoing.recv().await {
        if handle.data(channel, bytes).await.is_err() {
            return;
        }
    }
    let _ = handle.exit_status_request(channel, 0).await;
    let _ = handle.eof(channel).await;
    let _ = handle.close(channel).await;
}

/// What the server listens on, as it tells its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listening {
    /// The SSH server's address.
    Ssh(std::net::SocketAddr),
    /// The web server's address.
    Web(std::net::SocketAddr),
}

/// Runs the server until the process is told to stop (SIGTERM or Ctrl-C); `listening` is told
/// each address once its socket is bound, SSH first (the caller says so where its user reads).
pub fn serve(options: Options, mut listening: impl FnMut(Listening)) -> Result<(), ServeError> {
    Store::open(&options.db).map_err(|e| ServeError::Club(e.to_string()))?;
    start_log(options.log.as_deref())?;
    let key = host_key(&options.host_key)?;
    let config = russh::server::Config {
        methods: MethodSet::from(&[MethodKind::PublicKey][..]),
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        inactivity_timeout: Some(options.idle),
        keys: vec![key],
        nodelay: true,
        ..Default::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = match &options.listen {
            Some(at) => {
                let l = tokio::net::TcpListener::bind(at).await?;
                let address = l.local_addr()?;
                listening(Listening::Ssh(address));
                tracing::info!("listening on {address}");
                Some(l)
            }
            None => None,
        };
        let web = match &options.http {
            Some((at, web_options)) => {
                let l = tokio::net::TcpListener::bind(at).await?;
                let address = l.local_addr()?;
                listening(Listening::Web(address));
                tracing::info!("web pages on http://{address}");
                Some((l, web_options.clone()))
            }
            None => None,
        };
        let lobby = Arc::new(Lobby::new(crate::lobby::Settings {
            db: Some(options.db.clone()),
            tablebases: options.tablebases.clone(),
            reconnect: options.reconnect,
        }));
        match lobby.restore(options.adjourn) {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} games in progress resumed"),
            Err(e) => tracing::error!("games in progress not resumed: {e}"),
        }
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let referee = {
            let (lobby, stop) = (Arc::clone(&lobby), Arc::clone(&stop));
            // Flags fall and absent players forfeit even when no terminal shows the game.
            // It also logs the move latency measured in the server every few minutes.
            std::thread::spawn(move || {
                let mut reported = std::time::Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    lobby.referee();
                    if reported.elapsed() >= LATENCY_REPORT {
                        reported = std::time::Instant::now();
                        if let Some(s) = lobby.latency().report(false) {
                            tracing::info!(
                                "in the last {} minutes: {s}",
                                LATENCY_REPORT.as_secs() / 60
                            );
                        }
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        };
        let gate = Arc::new(Mutex::new(gate::Gate::new(options.signins)));
        let signed_in = Arc::new(revoke::SignedIn::default());
        let warden = {
            let (gate, signed_in, stop) =
                (Arc::clone(&gate), Arc::clone(&signed_in), Arc::clone(&stop));
            let store = Store::open(&options.db).map_err(|e| ServeError::Club(e.to_string()))?;
            // Sessions end when their access does; blocks that are over are forgotten.
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    for name in signed_in.check(&store) {
                        tracing::info!(
                            "{name}: session ended (the member was deactivated or the key removed)"
                        );
                    }
                    gate.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .sweep(std::time::Instant::now());
                    std::thread::sleep(Duration::from_secs(1));
                }
            })
        };
        let mut club = Club {
            gate,
            options: Arc::new(options),
            per_ip: Arc::default(),
            guests: Arc::default(),
            lobby: Arc::clone(&lobby),
            signed_in,
        };
        let (web_stop, web_stopped) = tokio::sync::watch::channel(false);
        if let Some((l, web_options)) = web {
            tokio::spawn(crate::web::http::serve(
                l,
                club.options.db.clone(),
                Arc::clone(&lobby),
                web_options,
                web_stopped,
            ));
        }
        let result = match listener {
            Some(listener) => {
                let running =
                    russh::server::Server::run_on_socket(&mut club, Arc::new(config), &listener);
                let handle = running.handle();
                tokio::spawn(async move {
                    stop_signal().await;
                    tracing::info!("stopping");
                    handle.shutdown("the club server is stopping".into());
                });
                running.await
            }
            None => {
                stop_signal().await;
                tracing::info!("stopping");
                Ok(())
            }
        };
        let _ = web_stop.send(true);
        stop.store(true, Ordering::Relaxed);
        let _ = referee.join();
        let _ = warden.join();
        lobby.save_all();
        tracing::info!("games in progress saved");
        if let Some(s) = lobby.latency().report(true) {
            tracing::info!("since the server started: {s}");
        }
        result?;
        Ok(())
    })
}

/// Log lines go to standard error and, when given, are appended to a file.
fn start_log(file: Option<&Path>) -> Result<(), ServeError> {
    use tracing_subscriber::fmt::writer::MakeWriterExt;
    let builder = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_target(false);
    let result = match file {
        Some(path) => {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| ServeError::Club(format!("log {}: {e}", path.display())))?;
            builder
                .with_writer(std::io::stderr.and(Mutex::new(f)))
                .try_init()
        }
        None => builder.with_writer(std::io::stderr).try_init(),
    };
    // A logger already set (tests, embedding) keeps logging; that is not an error.
    drop(result);
    Ok(())
}

async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_key_is_made_private_once_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys").join("host_ed25519");
        let first = host_key(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            let again = host_key(&path).unwrap();
            assert_eq!(first.public_key(), again.public_key());
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let e = host_key(&path).unwrap_err().to_string();
            assert!(e.contains("readable by others"), "{e}");
        }
        std::fs::write(dir.path().join("bad"), "not a key").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(
                dir.path().join("bad"),
                std::fs::Permissions::from_mode(0o600),
            )
            .unwrap();
        }
        assert!(host_key(&dir.path().join("bad")).is_err());
    }

    #[test]
    fn sizes_are_kept_sane() {
        assert_eq!(clamp_size(0, 0), (1, 1));
        assert_eq!(clamp_size(100_000, 100_000), (500, 300));
        assert_eq!(clamp_size(80, 24), (80, 24));
    }
}
