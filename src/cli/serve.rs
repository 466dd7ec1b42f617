//! `draughts serve`: the club's SSH server.

use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `draughts serve`.
#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on for SSH [default: 0.0.0.0:2222, unless --http alone is given].
    #[arg(long)]
    listen: Option<String>,
    /// Also serve the club's pages over HTTP on this address (read-only), e.g. 127.0.0.1:8080;
    /// without --listen, the web alone.
    #[arg(long, value_name = "ADDRESS")]
    http: Option<String>,
    /// The web pages' title: the club's name.
    #[arg(long, default_value = "Club results")]
    title: String,
    /// Web connections served at once; more are closed at once.
    #[arg(long, default_value_t = 512)]
    http_connections: usize,
    /// Seconds a web client has to send its request's head before it is closed.
    #[arg(long, default_value_t = 10)]
    http_header_seconds: u64,
    /// The club database [default: $DRAUGHTS_DB or ~/.local/share/draughts/club.sqlite].
    #[arg(long)]
    db: Option<PathBuf>,
    /// The server's host key (made on first start, mode 600) [default: next to the database].
    #[arg(long)]
    host_key: Option<PathBuf>,
    /// Tablebase directory for the games played.
    #[arg(long)]
    tablebases: Option<PathBuf>,
    /// Minutes a connection may stay idle before it is closed.
    #[arg(long, default_value_t = 60)]
    idle_minutes: u64,
    /// Let unknown keys in as guests (casual games only).
    #[arg(long)]
    guests: bool,
    /// Connections one address may hold at once.
    #[arg(long, default_value_t = 8)]
    per_ip: usize,
    /// Log file [default: draughts-serve.log next to the database].
    #[arg(long)]
    log: Option<PathBuf>,
    /// Seconds a game waits for a player whose connection dropped (their clock runs on);
    /// then the game is lost by forfeit.
    #[arg(long, default_value_t = 120)]
    reconnect_seconds: u64,
    /// What becomes of games in progress when the server restarts: resume (each clock
    /// starts again when both players are back) or adjourn (resumed from the lobby).
    #[arg(long, default_value = "resume", value_parser = ["resume", "adjourn"])]
    on_restart: String,
    /// Failed public-key sign-ins one address may make in a minute; one more blocks it.
    #[arg(long, default_value_t = 10)]
    signin_failures: usize,
    /// Minutes an address that failed too often stays blocked.
    #[arg(long, default_value_t = 5)]
    block_minutes: u64,
}

/// Runs the server until it is stopped.
pub(crate) fn run(args: ServeArgs) -> Result<ExitCode> {
    let ServeArgs {
        listen,
        db,
        host_key,
        tablebases,
        idle_minutes,
        guests,
        per_ip,
        log,
        reconnect_seconds,
        on_restart,
        signin_failures,
        block_minutes,
        http,
        title,
        http_connections,
        http_header_seconds,
    } = args;
    // SSH on its usual address unless the web alone was asked for.
    let listen = match (listen, &http) {
        (Some(l), _) => Some(l),
        (None, Some(_)) => None,
        (None, None) => Some("0.0.0.0:2222".to_string()),
    };
    let db = db.unwrap_or_else(draughts::club::store::default_path);
    let host_key = host_key.unwrap_or_else(|| db.with_file_name("ssh_host_ed25519_key"));
    let options = draughts::ssh::Options {
        listen,
        http: http.map(|at| {
            let web = draughts::web::http::HttpOptions {
                title,
                max_connections: http_connections.max(1),
                header_timeout: std::time::Duration::from_secs(http_header_seconds.max(1)),
                ..Default::default()
            };
            (at, web)
        }),
        host_key,
        tablebases,
        idle: std::time::Duration::from_secs(idle_minutes.max(1) * 60),
        guests,
        per_ip: per_ip.max(1),
        log: Some(log.unwrap_or_else(|| db.with_file_name("draughts-serve.log"))),
        reconnect: std::time::Duration::from_secs(reconnect_seconds),
        adjourn: on_restart == "adjourn",
        signins: draughts::ssh::gate::Limits {
            failures: signin_failures.max(1),
            block: std::time::Duration::from_secs(block_minutes.max(1) * 60),
        },
        db,
    };
    draughts::ssh::serve(options, |at| match at {
        draughts::ssh::Listening::Ssh(address) => outln!("listening on {address}"),
        draughts::ssh::Listening::Web(address) => outln!("web pages on http://{address}"),
    })?;
    Ok(ExitCode::SUCCESS)
}
