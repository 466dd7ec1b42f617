//! Readers of the live site (run by `scripts/web-bench.sh`): N clients at once, each on its own
//! keep-alive HTTP/1.1 connection, ask for pages of the site one after another (chosen at random,
//! reproducibly, from a list of paths) for a number of seconds; then the requests a second and
//! the latency of a request, from the first byte sent to the last byte of the page read.
//!
//! `cargo run --release --example web_load -- <host:port> <paths file> [readers] [seconds]`

use hdrhistogram::Histogram;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// One request on a kept-alive connection: the status, and the body's length.
async fn get(
    conn: &mut BufReader<TcpStream>,
    host: &str,
    path: &str,
) -> std::io::Result<(u16, usize)> {
    let request = format!("GET /{path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    conn.get_mut().write_all(request.as_bytes()).await?;
    let mut line = String::new();
    let mut status = 0;
    let mut length = 0usize;
    loop {
        line.clear();
        if conn.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if status == 0 {
            status = l
                .split_whitespace()
                .nth(1)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
        } else if let Some((k, v)) = l.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    conn.read_exact(&mut body).await?;
    Ok((status, length))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let host = args
        .first()
        .ok_or("usage: web_load <host:port> <paths> [readers] [seconds]")?
        .clone();
    let paths: Vec<String> = std::fs::read_to_string(args.get(1).ok_or("a paths file")?)?
        .lines()
        .map(|l| l.trim().trim_start_matches('/').to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let readers: usize = args.get(2).map_or(Ok(200), |s| s.parse())?;
    let seconds: u64 = args.get(3).map_or(Ok(20), |s| s.parse())?;
    let paths = Arc::new(paths);
    let latency = Arc::new(Mutex::new(Histogram::<u64>::new_with_bounds(
        1, 60_000_000, 3,
    )?));
    let errors = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let bytes = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let end = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for r in 0..readers {
        let (paths, latency, errors, bytes, host) = (
            Arc::clone(&paths),
            Arc::clone(&latency),
            Arc::clone(&errors),
            Arc::clone(&bytes),
            host.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(r as u64);
            let mut conn = None;
            while Instant::now() < end {
                if conn.is_none() {
                    match TcpStream::connect(&host).await {
                        Ok(s) => conn = Some(BufReader::new(s)),
                        Err(_) => {
                            errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_millis(10)).await;
                            continue;
                        }
                    }
                }
                let path = &paths[rng.random_range(0..paths.len())];
                let t = Instant::now();
                let Some(c) = conn.as_mut() else { continue };
                match get(c, &host, path).await {
                    Ok((200, n)) => {
                        let us = t.elapsed().as_micros() as u64;
                        let _ = latency.lock().map(|mut h| h.record(us.max(1)));
                        bytes.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
                    }
                    _ => {
                        errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        conn = None;
                    }
                }
            }
        }));
    }
    for t in tasks {
        t.await?;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let h = latency.lock().map_err(|_| "the histogram")?.clone();
    let ms = |q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "{readers} readers for {seconds} s: {} pages ({:.0} a second, {:.1} MB/s), {} errors",
        h.len(),
        h.len() as f64 / elapsed,
        bytes.load(std::sync::atomic::Ordering::Relaxed) as f64 / elapsed / 1e6,
        errors.load(std::sync::atomic::Ordering::Relaxed)
    );
    println!(
        "latency ms: median {:.1}, p95 {:.1}, p99 {:.1}, max {:.1}",
        ms(0.5),
        ms(0.95),
        ms(0.99),
        h.max() as f64 / 1000.0
    );
    Ok(())
}
