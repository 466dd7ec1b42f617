//! The `tb` commands end to end: generate, probe, stats, verify, plan (with GNU make), damage.

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{draughts, stderr, stdout};

fn generate(variant: &str, pieces: &str, dir: &Path) -> Output {
    generate_with(variant, pieces, dir, &[])
}

/// What `tb probe` prints for `fen` with the tables in `dir`.
fn probe(variant: &str, dir: &str, fen: &str) -> String {
    stdout(&draughts(&[
        "tb",
        "probe",
        "--variant",
        variant,
        "--dir",
        dir,
        "--fen",
        fen,
    ]))
}

/// `tb generate` of every slice up to `pieces`, with more options.
fn generate_with(variant: &str, pieces: &str, dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "tb",
        "generate",
        "--variant",
        variant,
        "--pieces",
        pieces,
        "--dir",
        dir.to_str().unwrap(),
    ];
    args.extend(extra);
    let o = draughts(&args);
    assert!(o.status.success(), "generate failed: {}", stderr(&o));
    o
}

#[test]
fn generate_probe_stats_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("international");
    let d = dir.to_str().unwrap();
    let out = stdout(&generate("international", "3", &dir));
    // Standard output is not a terminal here: plain lines, a start, every tenth and an end per job.
    assert!(out.contains("k-kk kk-k: started"), "{out}");
    assert!(out.contains("k-kk kk-k: 50% ("), "{out}");
    assert!(
        out.contains("generated 9 jobs (0 already present)"),
        "{out}"
    );

    let o = draughts(&["tb", "probe", "--fen", "W:WK1,K2:BK50", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines[0], "result=draw dtw=0");
    assert!(
        lines.iter().any(|l| l == "1-6 result=draw dtw=0"),
        "{lines:?}"
    );

    // Capturing the last piece wins at once, on any of the eight landing squares.
    let o = draughts(&["tb", "probe", "--fen", "W:WK46:BK41", "--dir", d]);
    let text = stdout(&o);
    assert!(
        text.starts_with("result=win dtw=1\n46x37 result=win dtw=1\n"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 9, "{text}");

    let o = draughts(&["tb", "stats", "--dir", d]);
    let text = stdout(&o);
    assert!(text.contains("kk-k "), "{text}");
    let total = text.lines().last().unwrap();
    // 2 and 3 pieces on 10×10 with men off their promotion rows, side to move fixed.
    assert!(
        total.starts_with("total slices=16 positions=815145 "),
        "{total}"
    );

    let o = draughts(&["tb", "verify", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("verified slices=16 positions=815145"));

    // A second run keeps every finished job.
    let out = stdout(&generate("international", "3", &dir));
    assert!(
        out.contains("generated 0 jobs (9 already present)"),
        "{out}"
    );
}

#[test]
fn damage_makes_probe_and_verify_fail_with_the_file_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let d = dir.to_str().unwrap();
    generate("international", "3", dir);
    let file = dir.join("kk-k.wdl");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    for args in [
        vec!["tb", "probe", "--fen", "W:WK1,K2:BK50", "--dir", d],
        vec!["tb", "verify", "--dir", d],
    ] {
        let o = draughts(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("kk-k.wdl") && err.contains("checksum"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn bad_arguments_and_missing_tables_exit_2_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().to_str().unwrap();
    generate("english", "2", tmp.path());
    for ext in ["wdl", "dtw"] {
        std::fs::remove_file(tmp.path().join(format!("m-k.{ext}"))).unwrap();
    }
    let probe = format!("tb probe --variant english --dir {d} --fen");
    let cases = [
        (format!("{probe} W:W21:BK5"), "no wdl table for m-k"),
        (format!("{probe} W:WK1,K2:BK30"), "3 pieces"),
        (format!("{probe} nonsense"), "bad FEN"),
        (
            format!("tb probe --dir {d} --fen W:WK1:BK50"),
            "for english, not international",
        ),
        (
            "tb stats --dir /nonexistent/tables".into(),
            "/nonexistent/tables",
        ),
        ("tb generate --variant chess --pieces 3".into(), "chess"),
        (format!("tb generate --pieces 1 --dir {d}"), "--pieces"),
        (format!("tb generate --slice kkk-kk --dir {d}"), "missing"),
        (
            format!("tb generate --slice kx-k --dir {d}"),
            "bad material",
        ),
        ("tb plan --pieces 3 --format yaml".into(), "yaml"),
    ];
    for (line, needle) in cases {
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = draughts(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_budget_too_small_for_a_job_refuses_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tables");
    let d = dir.to_str().unwrap();
    let o = draughts(&[
        "tb", "generate", "--pieces", "3", "--memory", "1M", "--dir", d,
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("budget of 1.0 MiB"), "{err}");
    // Each job is named with what it needs, the largest three-piece ones among them.
    assert!(err.contains("k-km needs"), "{err}");
    assert!(err.contains("nothing was generated"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!dir.exists() || file_names(&dir).is_empty());
    // A budget that fits runs, and reports the peak it measured.
    let o = draughts(&[
        "tb", "generate", "--pieces", "3", "--memory", "2G", "--dir", d,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("peak memory"), "{}", stdout(&o));
    let bad = draughts(&[
        "tb", "generate", "--pieces", "3", "--memory", "lots", "--dir", d,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("12G"), "{}", stderr(&bad));
}

fn file_names(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    names
}

/// `tb plan` of English up to four pieces in `format`, for tables in `dir`, written to `file`.
fn english_plan(format: &str, dir: &Path, file: &Path) {
    let plan = draughts(&[
        "tb",
        "plan",
        "--variant",
        "english",
        "--pieces",
        "4",
        "--format",
        format,
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(plan.status.success(), "{}", stderr(&plan));
    std::fs::write(file, &plan.stdout).unwrap();
}

/// The two folders hold the same files, byte for byte.
fn assert_same_files(a: &Path, b: &Path) {
    let names = file_names(a);
    assert_eq!(names, file_names(b));
    assert!(names.len() > 40, "{} files", names.len());
    for name in names {
        let x = std::fs::read(a.join(&name)).unwrap();
        let y = std::fs::read(b.join(&name)).unwrap();
        assert!(x == y, "{name:?} differs");
    }
}

#[test]
fn make_from_the_plan_builds_the_same_files_as_generate() {
    if Command::new("make").arg("--version").output().is_err() {
        panic!("GNU make is needed for this test (apt-get install make)");
    }
    let tmp = tempfile::tempdir().unwrap();
    let by_generate = tmp.path().join("generate");
    let by_make = tmp.path().join("make");
    generate("english", "4", &by_generate);
    let makefile = tmp.path().join("plan.mk");
    english_plan("make", &by_make, &makefile);
    let o = Command::new("make")
        .args(["-j2", "-f", makefile.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "make failed: {}", stderr(&o));
    assert_same_files(&by_generate, &by_make);

    let json = draughts(&[
        "tb",
        "plan",
        "--variant",
        "english",
        "--pieces",
        "3",
        "--format",
        "json",
    ]);
    let text = stdout(&json);
    assert!(text.contains("\"job\": \"k-kk\""), "{text}");
    assert!(text.contains("\"needs\": [\"k-k\"]"), "{text}");
}

/// A stand-in for Slurm's `sbatch` on a machine without Slurm: it takes the options the plan
/// uses, refuses a dependency on anything but the array submitted just before (so the script's
/// order is the graph's), runs each task of the array with `sh` and `SLURM_ARRAY_TASK_ID` as a
/// node would, and prints the new array's id as `--parsable` does.
const SBATCH: &str = r#"#!/usr/bin/env bash
set -eu
log="$SBATCH_LOG"
last=$(tail -n 1 "$log" 2>/dev/null | cut -d' ' -f1 || true)
array="" dependency="" wrap="" mem="" cpus=""
for a in "$@"; do
  case "$a" in
    --array=*) array="${a#--array=}" ;;
    --dependency=*) dependency="${a#--dependency=}" ;;
    --wrap=*) wrap="${a#--wrap=}" ;;
    --mem=*) mem="${a#--mem=}" ;;
    --cpus-per-task=*) cpus="${a#--cpus-per-task=}" ;;
    --parsable|--job-name=*) ;;
    *) echo "sbatch: unexpected argument $a" >&2; exit 1 ;;
  esac
done
[ -n "$array" ] && [ -n "$wrap" ] && [ -n "$mem" ] && [ -n "$cpus" ] || { echo "sbatch: missing option" >&2; exit 1; }
if [ -n "$last" ]; then
  [ "$dependency" = "afterok:$last" ] || { echo "sbatch: dependency $dependency, expected afterok:$last" >&2; exit 1; }
else
  [ -z "$dependency" ] || { echo "sbatch: the first array depends on $dependency" >&2; exit 1; }
fi
id=$(( ${last:-1000} + 1 ))
for t in $(seq "${array%-*}" "${array#*-}"); do
  SLURM_ARRAY_TASK_ID=$t sh -c "$wrap" > /dev/null
done
echo "$id $array $mem" >> "$log"
echo "$id;cluster"
"#;

#[test]
fn the_slurm_plan_submits_the_graph_level_by_level_and_builds_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let by_generate = tmp.path().join("generate");
    let by_slurm = tmp.path().join("slurm");
    generate("english", "4", &by_generate);
    let script = tmp.path().join("submit.sh");
    english_plan("slurm", &by_slurm, &script);
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(syntax.status.success(), "{}", stderr(&syntax));
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(bin.join("sbatch"), SBATCH).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let log = tmp.path().join("sbatch.log");
    let o = Command::new("bash")
        .arg(&script)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("SBATCH_LOG", &log)
        .env("CPUS", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "the plan failed: {}", stderr(&o));
    let submitted = std::fs::read_to_string(&log).unwrap();
    // One array per level, more than one level, every job once.
    assert!(submitted.lines().count() > 3, "{submitted}");
    assert!(
        stdout(&o).contains("level 1: job array 1001, 1 job(s): k-k"),
        "{}",
        stdout(&o)
    );
    assert_same_files(&by_generate, &by_slurm);
}

#[test]
fn adjudicate_joins_the_tables_and_the_move_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let int = tmp.path().join("international");
    generate("international", "3", &int);
    let o = draughts(&[
        "tb",
        "generate",
        "--slice",
        "kkk-k",
        "--dir",
        int.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let judge = |variant: &str, fen: &str, dir: &Path, extra: &[&str]| {
        let mut args = vec![
            "adjudicate",
            "--variant",
            variant,
            "--fen",
            fen,
            "--tablebases",
            dir.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = draughts(&args);
        assert!(o.status.success(), "{fen}: {}", stderr(&o));
        stdout(&o)
    };
    // Two kings against one: a draw (FMJD 6.4 in force, no win in the tables).
    let out = judge("international", "W:WK47,K48:BK3", &int, &[]);
    assert!(
        out.contains("5-move rule (FMJD 6.4): 5 moves each left"),
        "{out}"
    );
    assert!(
        out.contains("Decision: draw: no side can force a win"),
        "{out}"
    );
    // Three kings against one, won in 3 plies: within the 16-move rule, a win, proved by PDN.
    let out = judge("international", "W:WK46,K47,K48:BK5", &int, &[]);
    assert!(
        out.contains("16-move rule (FMJD 6.3): 16 moves each left"),
        "{out}"
    );
    assert!(out.contains("Decision: White wins (in 3 plies)"), "{out}");
    assert!(out.contains("[FEN \"W:WK46,K47,K48:BK5\"]"), "{out}");
    assert!(out.contains("1. 47-41 5-10 2. 41x5 2-0"), "{out}");
    // The moves given count: the same two kings against one after two moves each.
    let out = judge(
        "international",
        "W:WK47,K48:BK3",
        &int,
        &["--moves", "1. 47-41 3-9 2. 41-47 9-3"],
    );
    assert!(out.contains("3 moves each left (6 plies)"), "{out}");
    // Three kings against one after 15 moves each without progress (FMJD 6.3): the tables'
    // win needs two more White moves, the rule allows one: a draw.
    let walk = "47-36 23-12 36-31 12-7 31-26 7-1 26-21 1-6 21-16 6-1 16-11 1-6 11-7 6-1 7-2 1-6 \
                2-8 6-1 8-3 1-6 3-12 6-1 12-8 1-6 8-2 6-1 2-16 1-6 48-34 6-1";
    let out = judge(
        "international",
        "W:WK47,K48,K49:BK23",
        &int,
        &["--moves", walk],
    );
    assert!(out.contains("Position: W:WK16,K34,K49:BK1"), "{out}");
    assert!(
        out.contains("16-move rule (FMJD 6.3): 1 move each left (2 plies)"),
        "{out}"
    );
    assert!(out.contains("Tablebase: White wins in"), "{out}");
    assert!(
        out.contains("Decision: draw: White's shortest win takes")
            && out.contains("the 16-move rule (FMJD 6.3) ends the game first"),
        "{out}"
    );
    // A move that is not legal there is refused with where it is.
    let o = draughts(&[
        "adjudicate",
        "--fen",
        "W:WK47,K48:BK3",
        "--moves",
        "47-41 3-4",
        "--tablebases",
        int.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--moves: 3-4 after 1 plies"),
        "{}",
        stderr(&o)
    );
    // Frisian Art. 18: two kings against one won in 17 plies, White's ninth move: too late.
    let fri = tmp.path().join("frisian");
    generate("frisian", "3", &fri);
    let out = judge("frisian", "W:WK31,K4:BK23", &fri, &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tablebase"]["value"], "win");
    assert_eq!(v["tablebase"]["plies"], 17);
    assert_eq!(v["decision"]["result"], "draw");
    assert_eq!(
        v["decision"]["by"],
        "two kings against one not won in 7 moves (Art. 18)"
    );
    assert_eq!(v["limits"][0]["left"], 7);
    // Outside the tables: the engine's assessment, said to be one.
    let out = judge(
        "international",
        "W:W31,32,33:B18,19",
        &int,
        &["--time", "0.2"],
    );
    assert!(out.contains("not held (5 pieces"), "{out}");
    assert!(out.contains("Assessment (the engine's opinion"), "{out}");
}

/// Tables of results only (`--metric wdl`, as the six-piece set is built): probe gives each
/// move's result without a distance, and the arbiter decides draws and wins, except a win while
/// an ending against a lone king is being counted, which only a distance can settle.
#[test]
fn results_only_tables_answer_probe_and_the_arbiter() {
    let tmp = tempfile::tempdir().unwrap();
    let eng = tmp.path().join("english");
    let fri = tmp.path().join("frisian");
    for (variant, dir) in [("english", &eng), ("frisian", &fri)] {
        generate_with(variant, "3", dir, &["--metric", "wdl"]);
    }
    let run = |args: &[&str]| {
        let o = draughts(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let e = eng.to_str().unwrap();
    let probed = probe("english", e, "W:WK1,K2:BK32");
    let mut lines = probed.lines();
    assert_eq!(lines.next(), Some("result=win dtw=none"), "{probed}");
    let moves: Vec<&str> = lines.collect();
    assert!(!moves.is_empty(), "{probed}");
    assert!(moves.iter().all(|l| l.ends_with(" dtw=none")), "{probed}");
    assert!(moves[0].ends_with(" result=win dtw=none"), "{probed}");

    let out = run(&[
        "adjudicate",
        "--variant",
        "english",
        "--fen",
        "W:WK1,K2:BK32",
        "--tablebases",
        e,
    ]);
    assert!(
        out.contains("Tablebase: White wins with best play (move limits aside; results only"),
        "{out}"
    );
    assert!(
        out.contains("Decision: White wins with best play (tables of results only"),
        "{out}"
    );
    let out = run(&[
        "adjudicate",
        "--variant",
        "english",
        "--fen",
        "W:WK1:BK32",
        "--tablebases",
        e,
    ]);
    assert!(
        out.contains("Decision: draw: no side can force a win"),
        "{out}"
    );
    // Frisian Art. 18 counts two kings against one: results alone cannot say the win is in time.
    let out = run(&[
        "adjudicate",
        "--variant",
        "frisian",
        "--fen",
        "W:WK31,K4:BK23",
        "--tablebases",
        fri.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["tablebase"]["value"], "win");
    assert_eq!(v["tablebase"]["plies"], serde_json::Value::Null);
    assert_eq!(v["decision"]["result"], "undecided");
    assert_eq!(v["decision"]["winner_without_it"], "white");
}

/// Six pieces: English kings alone are small enough for the test suite (56 million positions).
/// Built job by job as a workstation builds the six-piece set, verified, and then every face
/// that reads tables — probe, the arbiter's verdict, the engine — uses them and agrees: four
/// kings beat two (as checkers players know), three against three is a draw.
#[test]
fn six_piece_tables_are_built_verified_and_used_by_probe_adjudicate_and_the_engine() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("english");
    let d = dir.to_str().unwrap();
    for job in [
        "k-k", "kk-k", "kk-kk", "kkk-k", "kkk-kk", "kkkk-k", "kkk-kkk", "kkkk-kk", "kkkkk-k",
    ] {
        let o = draughts(&[
            "tb",
            "generate",
            "--variant",
            "english",
            "--dir",
            d,
            "--slice",
            job,
            "--memory",
            "1G",
        ]);
        assert!(o.status.success(), "{job}: {}", stderr(&o));
    }
    let verify = draughts(&["tb", "verify", "--variant", "english", "--dir", d]);
    assert!(verify.status.success(), "{}", stderr(&verify));
    assert!(
        stdout(&verify).contains("all consistent"),
        "{}",
        stdout(&verify)
    );

    // The probe's line and the engine's report for an English position, with these tables.
    let probe = |fen: &str| probe("english", d, fen);
    let engine = |fen: &str| {
        stdout(&draughts(&[
            "engine",
            "analyse",
            "--variant",
            "english",
            "--fen",
            fen,
            "--tablebases",
            d,
            "--depth",
            "3",
        ]))
    };

    let won = "W:WK1,K2,K3,K4:BK29,K30";
    let probed = probe(won);
    let first = probed.lines().next().unwrap_or_default();
    let dtw: u32 = first
        .strip_prefix("result=win dtw=")
        .unwrap_or_else(|| panic!("four kings against two win: {probed}"))
        .parse()
        .unwrap();
    let verdict = stdout(&draughts(&[
        "adjudicate",
        "--variant",
        "english",
        "--fen",
        won,
        "--tablebases",
        d,
    ]));
    assert!(
        verdict.contains(&format!("Decision: White wins (in {dtw} plies)")),
        "{verdict}"
    );
    let analysis = engine(won);
    assert!(
        analysis.contains(&format!("score=win-tb-in-{dtw}")),
        "{analysis}"
    );
    let best = analysis
        .lines()
        .find_map(|l| l.strip_prefix("best="))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("{analysis}"));
    assert!(
        probed.contains(&format!("\n{best} result=win dtw={dtw}\n")),
        "the engine's move {best} keeps the fastest win:\n{probed}"
    );

    let drawn = "W:WK1,K2,K3:BK30,K31,K32";
    assert!(probe(drawn).starts_with("result=draw"), "{}", probe(drawn));
    let analysis = engine(drawn);
    assert!(analysis.contains("score=+0.00"), "{analysis}");
}

/// A run killed in the middle of a sub-slice takes up after the last sub-slice it finished and
/// writes the tables an unbroken run writes.
#[test]
fn a_run_killed_in_a_sub_slice_resumes_to_the_same_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let cut = tmp.path().join("cut");
    let slice = |dir: &Path, job: &str, extra: &[&str]| {
        let mut args = vec![
            "tb",
            "generate",
            "--variant",
            "english",
            "--dir",
            dir.to_str().unwrap(),
            "--slice",
            job,
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    for dir in [&whole, &cut] {
        generate("english", "4", dir);
        let o = draughts(&slice(dir, "kk-kkk", &[]));
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = draughts(&slice(&whole, "kk-kkm", &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("sub_slices=0"), "{}", stdout(&o));

    // One sub-slice for each placement of the man (and its twin with the other side to move).
    let args = slice(&cut, "kk-kkm", &["--split", "1"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let progress = cut.join(".kk-kkm.scratch-done");
    let done = |text: &str| -> usize {
        text.lines()
            .find_map(|l| l.strip_prefix("done "))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&progress).map_or(0, |t| done(&t)) < 3 {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(started.elapsed().as_secs() < 300, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = std::fs::read_to_string(&progress).unwrap();
    let finished = done(&left);
    assert!(finished >= 3 && left.contains("units 28"), "{left}");
    assert!(!cut.join("kk-kkm.wdl").exists(), "killed before the end");

    let o = draughts(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(&format!("28 sub-slices (resumed after {finished})")),
        "{text}"
    );
    assert_same_files(&whole, &cut);
}
