//! The live site: the club server answers HTTP with the published site's pages, made from the
//! database as it is at each request, and with the games in progress, each followed by its
//! event stream (server-sent events). Written on hyper directly, on the SSH server's tokio
//! runtime, because the bounds are set per connection there: a limit on connections, a time to
//! send a request's head, a cap on its size, and nothing but GET and HEAD.
//!
//! Read-only: no request changes the club. No path reaches the file system: a path is one of the
//! site's own or it is not found. Pages carry an ETag (answering a matching `If-None-Match` with
//! 304) and a strict Content-Security-Policy.

use super::layout::Frame;
use super::live;
use super::site::{Options, Site};
use crate::club::Store;
use crate::lobby::Lobby;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use std::collections::HashMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The live site's bounds.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// The site's title: the club's name.
    pub title: String,
    /// Connections served at once; more are closed at once.
    pub max_connections: usize,
    /// Time a client has to send a request's head.
    pub header_timeout: Duration,
    /// Time a page may take to be made.
    pub request_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            title: "Club results".into(),
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
        }
    }
}

/// The policy every answer carries: the pages load only their own style sheet and scripts, and
/// talk only to this server.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The largest request head taken, in bytes.
const MAX_HEAD: usize = 16 * 1024;

/// The longest a connection is kept, however it is used (a reader that stops reading holds its
/// slot no longer than this).
const CONNECTION_LIFETIME: Duration = Duration::from_secs(3600);

/// How often a followed game is looked at for changes.
const LIVE_POLL: Duration = Duration::from_millis(200);

type Body = BoxBody<Bytes, Infallible>;

/// A page made once for a state of the club: its bytes, type and ETag.
#[derive(Clone)]
struct Made {
    mime: &'static str,
    bytes: Bytes,
    etag: String,
}

/// What the connections share: the database (a few read connections), the lobby, and the pages
/// made for the club's current state.
struct Server {
    db: PathBuf,
    stores: Mutex<Vec<Store>>,
    lobby: Arc<Lobby>,
    options: HttpOptions,
    site: Options,
    /// Pages made, with the club's state they were made for (the audit's last row: every change
    /// that a page shows writes one).
    made: Mutex<(i64, HashMap<String, Made>)>,
    /// Held while a page is made: pages are made one at a time (the rest wait, then find it
    /// made), so a crowd arriving at once makes each page once instead of all at once.
    making: Mutex<()>,
}

/// The most pages kept made at once (a club's whole site is a few thousand).
const MADE_MAX: usize = 20_000;

impl Server {
    /// Runs `f` on a read connection to the club database (opened when none is free).
    fn with_store<T>(&self, f: impl FnOnce(&Store) -> T) -> Result<T, String> {
        let taken = self.stores.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let store = match taken {
            Some(s) => s,
            None => Store::open(&self.db).map_err(|e| e.to_string())?,
        };
        let out = f(&store);
        let mut free = self.stores.lock().unwrap_or_else(|e| e.into_inner());
        if free.len() < 8 {
            free.push(store);
        }
        Ok(out)
    }

    /// The page or file at `path` for the club as it is now.
    fn page(&self, path: &str) -> Result<Option<Made>, String> {
        self.with_store(|store| {
            let state: i64 = store
                .conn()
                .query_row("SELECT coalesce(max(id), 0) FROM audit", [], |r| r.get(0))
                .map_err(|e| e.to_string())?;
            let cached = || {
                let made = self.made.lock().unwrap_or_else(|e| e.into_inner());
                (made.0 == state)
                    .then(|| made.1.get(path).cloned())
                    .flatten()
            };
            if let Some(m) = cached() {
                return Ok(Some(m));
            }
            let _making = self.making.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(m) = cached() {
                return Ok(Some(m));
            }
            let site = Site::new(store, &self.site).map_err(|e| e.to_string())?;
            let Some(file) = site.render(path).map_err(|e| e.to_string())? else {
                return Ok(None);
            };
            let etag = format!("\"{:016x}\"", xxhash_rust::xxh3::xxh3_64(&file.bytes));
            let made = Made {
                mime: file.mime,
                bytes: Bytes::from(file.bytes),
                etag,
            };
            let mut cache = self.made.lock().unwrap_or_else(|e| e.into_inner());
            if cache.0 != state || cache.1.len() >= MADE_MAX {
                *cache = (state, HashMap::new());
            }
            cache.1.insert(path.to_string(), made.clone());
            Ok(Some(made))
        })?
    }

    fn frame(&self) -> Frame<'_> {
        Frame {
            title: &self.site.title,
            base_url: None,
            live: true,
        }
    }
}

fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed()
}

/// A plain answer with the headers every answer carries.
fn answer(status: StatusCode, mime: &'static str, body: Body) -> Response<Body> {
    let mut r = Response::new(body);
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

fn text(status: StatusCode, words: &'static str) -> Response<Body> {
    answer(status, "text/plain; charset=utf-8", full(words))
}

/// A made page, or 304 when the client has it already.
fn made(req: &Request<Incoming>, m: Made) -> Response<Body> {
    let fresh = req
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == m.etag || t.trim() == "*");
    let head = req.method() == Method::HEAD;
    let (status, body) = if fresh {
        (StatusCode::NOT_MODIFIED, full(Bytes::new()))
    } else if head {
        (StatusCode::OK, full(Bytes::new()))
    } else {
        (StatusCode::OK, full(m.bytes.clone()))
    };
    let mut r = answer(status, m.mime, body);
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&m.etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if head && !fresh {
        h.insert(header::CONTENT_LENGTH, HeaderValue::from(m.bytes.len()));
    }
    r
}

/// A site path from a request's: the leading `/` gone, `/` itself the home page; anything with
/// a dot-segment, an escape, a backslash or an empty segment is no path of the site.
fn site_path(uri_path: &str) -> Option<String> {
    let p = uri_path.strip_prefix('/')?;
    if p.is_empty() {
        return Some("index.html".into());
    }
    let bad = p.contains(['%', '\\', '\0'])
        || p.split('/').any(|s| s.is_empty() || s == "." || s == "..");
    (!bad && p.len() <= 512).then(|| p.to_string())
}

async fn handle(server: Arc<Server>, req: Request<Incoming>) -> Response<Body> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = text(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD here\n");
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let has_body = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim() != "0")
        || req.headers().contains_key(header::TRANSFER_ENCODING);
    if has_body {
        return text(
            StatusCode::PAYLOAD_TOO_LARGE,
            "requests here carry no body\n",
        );
    }
    let Some(path) = site_path(req.uri().path()) else {
        return text(StatusCode::NOT_FOUND, "no such page\n");
    };
    if let Some(r) = live_answer(&server, &path) {
        return r;
    }
    let work = {
        let server = Arc::clone(&server);
        let path = path.clone();
        tokio::task::spawn_blocking(move || server.page(&path))
    };
    match tokio::time::timeout(server.options.request_timeout, work).await {
        Ok(Ok(Ok(Some(m)))) => made(&req, m),
        Ok(Ok(Ok(None))) => text(StatusCode::NOT_FOUND, "no such page\n"),
        Ok(Ok(Err(e))) => {
            tracing::error!("web: {path}: {e}");
            text(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the club's records could not be read\n",
            )
        }
        Ok(Err(_)) | Err(_) => text(StatusCode::SERVICE_UNAVAILABLE, "the page took too long\n"),
    }
}

/// The answers about games in progress (`live.html`, `live/3.html`, `live/3/events`, the live
/// script), or `None` for the site's other paths.
fn live_answer(server: &Arc<Server>, path: &str) -> Option<Response<Body>> {
    const HTML: &str = "text/html; charset=utf-8";
    if path == "assets/live.js" {
        return Some(answer(
            StatusCode::OK,
            "text/javascript; charset=utf-8",
            full(include_str!("assets/live.js")),
        ));
    }
    if path == "live.html" {
        let page = live::list_page(&server.frame(), &server.lobby);
        return Some(answer(StatusCode::OK, HTML, full(page.into_string())));
    }
    let rest = path.strip_prefix("live/")?;
    let (id, tail) = rest.split_once(['.', '/']).unwrap_or((rest, ""));
    let Ok(id) = id.parse::<u64>() else {
        return Some(text(StatusCode::NOT_FOUND, "no such game\n"));
    };
    let Some(room) = live::room(&server.lobby, id) else {
        return Some(text(StatusCode::NOT_FOUND, "no such game in progress\n"));
    };
    match tail {
        "html" => {
            let page = live::game_page(&server.frame(), &server.lobby, &room);
            Some(answer(StatusCode::OK, HTML, full(page.into_string())))
        }
        "events" => Some(events(Arc::clone(server), room)),
        _ => Some(text(StatusCode::NOT_FOUND, "no such page\n")),
    }
}

/// A game's event stream: its state now, then each time it changes (and once a second with the
/// clocks running, so readers stay in step), until it ends or the reader goes.
fn events(server: Arc<Server>, room: Arc<crate::lobby::Room>) -> Response<Body> {
    let (mut tx, body) = http_body_util::Channel::<Bytes, Infallible>::new(4);
    tokio::spawn(async move {
        let mut sent: Option<(u64, u64)> = None;
        let mut tick = tokio::time::interval(LIVE_POLL);
        let mut quiet = 0u32;
        loop {
            tick.tick().await;
            let s = live::snapshot(&server.lobby, &room);
            let second = server.lobby.now().as_secs();
            let key = (s.version, if s.running.is_some() { second } else { 0 });
            if sent != Some(key) {
                sent = Some(key);
                quiet = 0;
                let Ok(json) = serde_json::to_string(&s) else {
                    return;
                };
                if tx
                    .send_data(Bytes::from(format!("data: {json}\n\n")))
                    .await
                    .is_err()
                {
                    return;
                }
                if s.over {
                    return;
                }
            } else {
                quiet += 1;
                // A comment now and then keeps proxies from closing a quiet stream.
                if quiet.is_multiple_of(75)
                    && tx
                        .send_data(Bytes::from_static(b": still here\n\n"))
                        .await
                        .is_err()
                {
                    return;
                }
            }
        }
    });
    let mut r = answer(StatusCode::OK, "text/event-stream", body.boxed());
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// Serves the live site on `listener` until `stop` says so.
pub async fn serve(
    listener: tokio::net::TcpListener,
    db: PathBuf,
    lobby: Arc<Lobby>,
    options: HttpOptions,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let server = Arc::new(Server {
        db,
        stores: Mutex::new(Vec::new()),
        lobby,
        site: Options {
            title: options.title.clone(),
            live: true,
            ..Options::default()
        },
        made: Mutex::new((-1, HashMap::new())),
        making: Mutex::new(()),
        options,
    });
    let slots = Arc::new(tokio::sync::Semaphore::new(server.options.max_connections));
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => return,
        };
        let Ok((stream, peer)) = accepted else {
            continue;
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tracing::warn!(
                "web: {peer}: refused, {} connections already",
                server.options.max_connections
            );
            drop(stream);
            continue;
        };
        let header_timeout = server.options.header_timeout;
        let server = Arc::clone(&server);
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let service = hyper::service::service_fn(move |req| {
                let server = Arc::clone(&server);
                async move { Ok::<_, Infallible>(handle(server, req).await) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(MAX_HEAD)
                .serve_connection(io, service);
            tokio::pin!(conn);
            tokio::select! {
                _ = tokio::time::timeout(CONNECTION_LIFETIME, conn.as_mut()) => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(Duration::from_secs(2), conn.as_mut()).await;
                }
            }
            drop(slot);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_sites_own_paths_get_through() {
        assert_eq!(site_path("/").as_deref(), Some("index.html"));
        assert_eq!(
            site_path("/games/12.html").as_deref(),
            Some("games/12.html")
        );
        for bad in [
            "/../etc/passwd",
            "/games/../../x",
            "/%2e%2e/x",
            "/a//b",
            "/games/./12.html",
            "/x\\y",
            "relative",
        ] {
            assert_eq!(site_path(bad), None, "{bad}");
        }
    }
}
