//! Faults during writes: club writers killed (SIGKILL) at random moments while they add members,
//! pair rounds and enter results in one database; afterwards the database is intact, every write
//! a process reported done is there exactly once, and no round is half paired.

mod common;

use common::{club, stderr};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the writers run while being killed.
const CHAOS: Duration = Duration::from_secs(30);
const LANES: usize = 8;
/// Tournaments made ready for each lane before the chaos (6 players, 3 rounds each).
const TOURNAMENTS: usize = 8;
const PLAYERS: usize = 6;
const ROUNDS: usize = 3;

/// How a writer process ended.
#[derive(Clone, Debug, PartialEq)]
enum End {
    Done,
    Killed,
    Refused(String),
}

/// Running writers' process ids, by lane, for the killer to choose from.
type Running = Arc<Mutex<HashMap<usize, u32>>>;

/// Runs one writer for `lane`, registered so the killer can reach it.
fn write(db: &Path, lane: usize, running: &Running, args: &[&str]) -> End {
    let child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["club", "--db"])
        .arg(db)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    running.lock().unwrap().insert(lane, child.id());
    let out = child.wait_with_output().expect("the writer is waited for");
    running.lock().unwrap().remove(&lane);
    use std::os::unix::process::ExitStatusExt;
    match (out.status.code(), out.status.signal()) {
        (Some(0), _) => End::Done,
        (_, Some(9)) => End::Killed,
        _ => End::Refused(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

/// A game of a round: white, black, and whether it has a result.
struct Game {
    white: String,
    black: String,
    played: bool,
}

/// The games of a tournament's round (none when it is not paired).
fn round_games(db: &Path, tournament: &str, round: usize) -> Vec<Game> {
    let r = round.to_string();
    let o = club(
        db,
        &["tournament", "show", tournament, "--round", &r, "--json"],
    );
    let games: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
    games
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|g| {
                    Some(Game {
                        white: g["white"].as_str()?.to_string(),
                        black: g["black"].as_str()?.to_string(),
                        played: !g["result"].is_null(),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What one lane did: members added (name → how it ended) and results entered (tournament,
/// round, white, black → how it ended).
#[derive(Default)]
struct Log {
    members: Vec<(String, End)>,
    results: Vec<((String, usize, String, String), End)>,
    pairings: Vec<((String, usize), End)>,
}

fn lane(db: PathBuf, i: usize, running: Running, until: Instant) -> Log {
    let mut log = Log::default();
    let mut seq = 0;
    let mut tournament = 0;
    let mut round = 0;
    while Instant::now() < until {
        // A member.
        let name = format!("L{i}-M{seq}");
        seq += 1;
        let end = write(&db, i, &running, &["member", "add", &name]);
        log.members.push((name, end));
        if tournament == TOURNAMENTS {
            continue;
        }
        let t = format!("L{i}-T{tournament}");
        // The next round, when the last one is complete.
        let games = round_games(&db, &t, round);
        let complete = round == 0 || games.iter().all(|g| g.played);
        if complete {
            if round == ROUNDS {
                tournament += 1;
                round = 0;
                continue;
            }
            let end = write(&db, i, &running, &["tournament", "pair", &t]);
            if matches!(&end, End::Refused(e) if e.contains("cannot be paired")) {
                // The results left no legal pairing: the Swiss ends there, nothing written.
                tournament += 1;
                round = 0;
                continue;
            }
            log.pairings.push(((t.clone(), round + 1), end));
            // Paired or not, the database says; a killed pairing is all there or not at all.
            if !round_games(&db, &t, round + 1).is_empty() {
                round += 1;
            }
            continue;
        }
        // A result for the first game of the round without one.
        let open = games
            .into_iter()
            .find(|g| !g.played)
            .map(|g| (g.white, g.black));
        if let Some((w, b)) = open {
            let result = ["2-0", "1-1", "0-2"][seq % 3];
            let end = write(
                &db,
                i,
                &running,
                &[
                    "tournament",
                    "result",
                    &t,
                    "--round",
                    &round.to_string(),
                    &w,
                    result,
                    &b,
                ],
            );
            log.results.push(((t, round, w, b), end));
        }
    }
    log
}

#[test]
fn killed_club_writers_lose_nothing_they_reported_done() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.sqlite");
    // Each lane plays its own tournaments, so the lanes' writes never depend on each other's;
    // they share the database file, its locks and its log.
    for i in 0..LANES {
        let names: Vec<String> = (0..PLAYERS).map(|p| format!("L{i}-P{p}")).collect();
        for n in &names {
            assert!(club(&db, &["member", "add", n]).status.success());
        }
        for k in 0..TOURNAMENTS {
            let t = format!("L{i}-T{k}");
            let o = club(
                &db,
                &[
                    "tournament",
                    "create",
                    &t,
                    "--system",
                    "swiss",
                    "--rounds",
                    "5",
                ],
            );
            assert!(o.status.success(), "{}", stderr(&o));
            let mut enter = vec!["tournament", "enter", t.as_str()];
            enter.extend(names.iter().map(String::as_str));
            assert!(club(&db, &enter).status.success());
        }
    }
    let running: Running = Arc::default();
    let until = Instant::now() + CHAOS;
    let lanes: Vec<_> = (0..LANES)
        .map(|i| {
            let (db, running) = (db.clone(), Arc::clone(&running));
            std::thread::spawn(move || lane(db, i, running, until))
        })
        .collect();
    // The killer: a running writer every 10–60 ms.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut kills = 0;
    while Instant::now() < until {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_millis(10 + seed % 50));
        let victim = {
            let r = running.lock().unwrap();
            let pids: Vec<u32> = r.values().copied().collect();
            (!pids.is_empty()).then(|| pids[(seed >> 20) as usize % pids.len()])
        };
        if let Some(pid) = victim {
            let _ = Command::new("kill")
                .args(["-9", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
            kills += 1;
        }
    }
    let logs: Vec<Log> = lanes.into_iter().map(|h| h.join().unwrap()).collect();

    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let count = |sql: &str, p: &[&dyn rusqlite::ToSql]| -> i64 {
        conn.query_row(sql, p, |r| r.get(0)).unwrap()
    };
    let mut done = 0;
    let mut killed = 0;
    let mut refused = Vec::new();
    for log in &logs {
        for (name, end) in &log.members {
            let n = count("SELECT COUNT(*) FROM members WHERE name = ?1", &[name]);
            match end {
                End::Done => {
                    assert_eq!(n, 1, "member {name} was reported added");
                    done += 1;
                }
                End::Killed => {
                    assert!(n <= 1, "member {name} twice");
                    killed += 1;
                }
                End::Refused(e) => refused.push(e.clone()),
            }
        }
        for ((t, round, w, b), end) in &log.results {
            let n = count(
                "SELECT COUNT(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id
                 JOIN members mw ON mw.id = g.white_id JOIN members mb ON mb.id = g.black_id
                 WHERE t.name = ?1 AND g.round = ?2 AND mw.name = ?3 AND mb.name = ?4
                 AND g.result IS NOT NULL",
                &[t, &(*round as i64), w, b],
            );
            match end {
                End::Done => {
                    assert_eq!(
                        n, 1,
                        "the result of {w}-{b} in {t} round {round} was reported"
                    );
                    done += 1;
                }
                End::Killed => killed += 1,
                End::Refused(e) => refused.push(e.clone()),
            }
        }
        for ((t, round), end) in &log.pairings {
            match end {
                End::Done => {
                    done += 1;
                    assert!(
                        !round_games(&db, t, *round).is_empty(),
                        "{t} round {round} was paired"
                    );
                }
                End::Killed => killed += 1,
                End::Refused(e) => refused.push(e.clone()),
            }
        }
    }
    // No round is half there, none twice: every round of every tournament has its three boards.
    let mut rounds = conn
        .prepare(
            "SELECT t.name, g.round, COUNT(*), COUNT(DISTINCT g.board) FROM games g
             JOIN tournaments t ON t.id = g.tournament_id GROUP BY t.id, g.round",
        )
        .unwrap();
    let shapes: Vec<(String, i64, i64, i64)> = rounds
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (t, round, games, boards) in &shapes {
        assert_eq!((*games, *boards), (3, 3), "{t} round {round}");
    }
    assert!(
        kills >= 100 && killed >= 50,
        "the test killed enough: {kills} kills, {killed} writes"
    );
    assert!(done >= 500, "the test wrote enough: {done} writes done");
    assert!(
        refused.is_empty(),
        "{} writes refused (a write must succeed or be killed), the first: {:?}",
        refused.len(),
        refused.iter().take(3).collect::<Vec<_>>()
    );
    eprintln!(
        "{done} writes done, {killed} killed ({kills} kills), {} rounds paired",
        shapes.len()
    );
}

/// Every file under `dir` by name, with its bytes.
fn files(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn tablebase_generation_killed_at_random_moments_ends_with_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let generate = |dir: &Path| {
        Command::new(env!("CARGO_BIN_EXE_draughts"))
            .args([
                "tb",
                "generate",
                "--variant",
                "english",
                "--pieces",
                "4",
                "--dir",
            ])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs")
    };
    let whole = tmp.path().join("whole");
    assert!(generate(&whole).wait().unwrap().success());
    let killed = tmp.path().join("killed");
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut kills = 0;
    for _ in 0..12 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut child = generate(&killed);
        std::thread::sleep(Duration::from_millis(30 + seed % 700));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(kills >= 3, "only {kills} runs were cut short");
    assert!(generate(&killed).wait().unwrap().success());
    let (a, b) = (files(&whole), files(&killed));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files, no leftovers"
    );
    for (name, bytes) in &a {
        assert!(&b[name] == bytes, "{name} differs after {kills} kills");
    }
}
