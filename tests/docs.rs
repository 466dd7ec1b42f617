//! The documentation's examples, run.
//!
//! Every ```console block in the README and the guides is a session: each `$ ` line is run by
//! `sh` (in a directory of its own per file, so a guide's commands build on each other as a
//! reader's would) and what it prints, standard output then standard error, must be what the
//! block shows. Parts that vary are written as snapbox's wildcards: `[..]` for the rest of a
//! line's part, `...` for lines left out, `[ROOT]` for the session's directory. A block whose
//! info string names a file (```` ```csv file=members.csv ````) is written to that file in the
//! session's directory when the reader reaches it, as the reader would save it.
//!
//! Every other `draughts …` line in a code block, and every `draughts <command> …` in inline
//! code, is held to `--help`: its commands must exist and its options must belong to them, so a
//! renamed option breaks this test, not a reader's evening.
//!
//! A runner of our own over snapbox's matching rather than trycmd: trycmd's Markdown mode has
//! no per-file working directory or environment, and the club's examples need a fresh club
//! database per guide and a fixed name for the acting user.

#[path = "support/help.rs"]
mod help;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// No documented example may take longer than this.
const LIMIT: Duration = Duration::from_secs(120);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A Markdown file: where it is, its name in the repository, its text.
struct Doc {
    path: PathBuf,
    name: String,
    text: String,
}

/// The Markdown files of the repository (the build's and version control's folders aside).
fn documents() -> Vec<Doc> {
    let mut files = Vec::new();
    let mut dirs = vec![root()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a folder of the repository") {
            let path = entry.expect("entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                if !name.starts_with('.') && name != "target" {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|path| Doc {
            name: path
                .strip_prefix(root())
                .unwrap_or(&path)
                .display()
                .to_string(),
            text: std::fs::read_to_string(&path).expect("a Markdown file"),
            path,
        })
        .collect()
}

/// A code block: its info string, the line of its first line, and its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

/// Fenced blocks (with their info string) and indented blocks (info "indented").
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut previous_blank = true;
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            let indent = line.len() - trimmed.len();
            let mut body = Vec::new();
            for (_, l) in lines.by_ref() {
                if l.trim_start().starts_with("```") {
                    break;
                }
                body.push(l.get(indent..).unwrap_or(l.trim_start()).to_string());
            }
            out.push(Block {
                info: info.trim().to_string(),
                line: i + 2,
                lines: body,
            });
            previous_blank = false;
        } else if previous_blank && line.starts_with("    ") && !line.trim().is_empty() {
            let mut body = vec![line[4..].to_string()];
            while let Some((_, l)) = lines.peek() {
                if l.starts_with("    ") || l.trim().is_empty() {
                    body.push(l.get(4..).unwrap_or("").to_string());
                    lines.next();
                } else {
                    break;
                }
            }
            while body.last().is_some_and(|l| l.trim().is_empty()) {
                body.pop();
            }
            out.push(Block {
                info: "indented".into(),
                line: i + 1,
                lines: body,
            });
            previous_blank = true;
        } else {
            previous_blank = line.trim().is_empty();
        }
    }
    out
}

/// One command of a console block and what it must print.
struct Step {
    line: usize,
    command: String,
    expected: String,
}

fn steps(block: &Block) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut continued = false;
    for (k, l) in block.lines.iter().enumerate() {
        if continued {
            let step = out.last_mut().expect("a continued command");
            step.command.push('\n');
            step.command.push_str(l);
            continued = l.ends_with('\\');
        } else if let Some(cmd) = l.strip_prefix("$ ") {
            out.push(Step {
                line: block.line + k,
                command: cmd.to_string(),
                expected: String::new(),
            });
            continued = cmd.ends_with('\\');
        } else if let Some(step) = out.last_mut() {
            step.expected.push_str(l);
            step.expected.push('\n');
        }
    }
    out
}

/// Runs a command as a reader would, in `dir`, with the binary first on the path.
fn run(command: &str, dir: &Path) -> Result<String, String> {
    let bin = Path::new(help::draughts()).parent().expect("bin dir");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env_clear()
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("USER", "olga")
        .env("LANG", "C.UTF-8")
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .env("TZ", "UTC")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stdout.read_to_end(&mut text);
        text
    });
    let started = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {} s", LIMIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = reader.join().expect("reader");
    Ok(String::from_utf8_lossy(&text).into_owned())
}

#[test]
fn the_console_examples_print_what_the_docs_show() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for Doc { name, text, .. } in documents() {
        let sessions: Vec<Block> = blocks(&text)
            .into_iter()
            .filter(|b| b.info == "console" || file_name(&b.info).is_some())
            .collect();
        if sessions.iter().all(|b| b.info != "console") {
            continue;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).expect("home");
        let mut redactions = snapbox::Redactions::new();
        redactions
            .insert("[ROOT]", dir.path().display().to_string())
            .expect("placeholder");
        let assert = snapbox::Assert::new().redact_with(redactions);
        for block in &sessions {
            if let Some(saved) = file_name(&block.info) {
                let mut content = block.lines.join("\n");
                content.push('\n');
                std::fs::write(dir.path().join(saved), content).expect("session file");
                continue;
            }
            for step in steps(block) {
                ran += 1;
                let where_ = format!("{name}:{}: $ {}", step.line, step.command);
                match run(&step.command, dir.path()) {
                    Err(e) => failures.push(format!("{where_}\n{e}")),
                    Ok(actual) => {
                        // Blank lines at the end are invisible to a reader, and a blank line
                        // before the next `$` is only spacing.
                        let tidy = |t: &str| format!("{}\n", t.trim_end_matches(['\n', ' ']));
                        if let Err(e) = assert.try_eq(
                            Some(&where_),
                            snapbox::Data::text(tidy(&actual)),
                            snapbox::Data::text(tidy(&step.expected)),
                        ) {
                            failures.push(format!("{where_}\n{e}"));
                        }
                    }
                }
            }
        }
    }
    assert!(ran >= 20, "only {ran} documented commands found");
    assert!(
        failures.is_empty(),
        "{} of {ran} documented commands print something else:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The file a block is saved as: `file=NAME` in its info string.
fn file_name(info: &str) -> Option<&str> {
    info.split_whitespace()
        .find_map(|w| w.strip_prefix("file="))
        .filter(|n| !n.is_empty() && !n.contains('/'))
}

/// The words of a command line, without prompt, comment, quotes and placeholders' brackets.
fn words(line: &str) -> Vec<String> {
    let line = line.split(" #").next().unwrap_or(line);
    // A double-quoted span is one argument, as the shell reads it (another command's line,
    // such as a match's `--engine-a "hub:draughts hub --threads 2"`): its words are not this
    // command's options.
    line.split('"')
        .enumerate()
        .flat_map(|(k, part)| {
            if k % 2 == 1 {
                vec![part.to_string()]
            } else {
                part.split_whitespace().map(str::to_string).collect()
            }
        })
        .map(|w| w.trim_matches(|c| "[]|()'`,".contains(c)).to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The problems of one `draughts …` command line against the help tree.
fn check_line(
    tree: &BTreeMap<Vec<String>, Vec<String>>,
    words: &[String],
    strict: bool,
) -> Option<String> {
    let mut path: Vec<String> = Vec::new();
    let mut options: Vec<String> = tree[&path].clone();
    let rest = words.iter().skip(1);
    let mut flags = Vec::new();
    let mut first = true;
    for w in rest {
        if let Some(flag) = w.strip_prefix("--").filter(|f| !f.is_empty()) {
            let flag = flag.split('=').next().unwrap_or(flag);
            if flag
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                flags.push(format!("--{flag}"));
            }
            continue;
        }
        let mut next = path.clone();
        next.push(w.clone());
        if let Some(opts) = tree.get(&next) {
            path = next;
            options.extend(opts.iter().cloned());
        } else if first && strict && !w.starts_with('-') {
            return Some(format!("`draughts {w}` is not a command"));
        }
        first = false;
    }
    let unknown: Vec<&String> = flags.iter().filter(|f| !options.contains(f)).collect();
    if unknown.is_empty() {
        None
    } else {
        Some(format!(
            "`draughts {}` has no option {}",
            path.join(" "),
            unknown
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

#[test]
fn every_documented_command_line_uses_commands_and_options_that_exist() {
    let tree = help::tree();
    let top: Vec<String> = tree
        .keys()
        .filter(|p| p.len() == 1)
        .map(|p| p[0].clone())
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for Doc { name, text, .. } in documents() {
        for block in blocks(&text) {
            let prompted = block.lines.iter().any(|l| l.starts_with("$ "));
            let mut current: Option<(usize, String)> = None;
            let mut lines: Vec<(usize, String)> = Vec::new();
            for (k, l) in block.lines.iter().enumerate() {
                let candidate = if prompted {
                    l.strip_prefix("$ ")
                } else {
                    Some(l.as_str())
                };
                let continues = current.is_some()
                    && (current.as_ref().is_some_and(|(_, c)| c.ends_with('\\'))
                        || l.trim_start().starts_with('[')
                        || l.trim_start().starts_with("--"));
                if continues {
                    let (_, c) = current.as_mut().expect("current");
                    c.push(' ');
                    c.push_str(l.trim());
                } else {
                    if let Some(done) = current.take() {
                        lines.push(done);
                    }
                    if let Some(c) = candidate.filter(|c| {
                        let c = c.trim_start().trim_start_matches("sudo -u draughts ");
                        c.starts_with("draughts ") || c.starts_with("/usr/local/bin/draughts ")
                    }) {
                        current = Some((block.line + k, c.to_string()));
                    }
                }
            }
            lines.extend(current);
            for (line, command) in lines {
                let command = command.trim_start().trim_start_matches("sudo -u draughts ");
                let start = command.find("draughts ").expect("draughts");
                let w = words(&command[start..]);
                checked += 1;
                if let Some(p) = check_line(&tree, &w, true) {
                    problems.push(format!("{name}:{line}: {p}\n    {command}"));
                }
            }
        }
        // Inline code naming a command: `draughts club tournament pair`.
        for (i, line) in text.lines().enumerate() {
            for (k, span) in line.split('`').enumerate() {
                if k % 2 == 1 && span.starts_with("draughts ") {
                    let w = words(span);
                    if w.len() > 1 && top.contains(&w[1]) {
                        checked += 1;
                        if let Some(p) = check_line(&tree, &w, false) {
                            problems.push(format!("{name}:{}: {p}\n    {span}", i + 1));
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 100, "only {checked} command lines found");
    assert!(
        problems.is_empty(),
        "{} documented command lines disagree with --help:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_link_between_the_docs_leads_to_a_file_and_a_heading() {
    let mut problems = Vec::new();
    for Doc {
        path: file,
        name,
        text,
    } in documents()
    {
        for (i, line) in text.lines().enumerate() {
            for link in line.split("](").skip(1) {
                let Some(target) = link.split(')').next() else {
                    continue;
                };
                if target.starts_with("http") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let dest = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().expect("dir").join(path)
                };
                if !dest.exists() {
                    problems.push(format!("{name}:{}: no file {target}", i + 1));
                    continue;
                }
                if !anchor.is_empty() && dest.extension().is_some_and(|e| e == "md") {
                    let headings = anchors(&std::fs::read_to_string(&dest).expect("target"));
                    if !headings.iter().any(|h| h == anchor) {
                        problems.push(format!("{name}:{}: no heading #{anchor} in {path}", i + 1));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

/// The anchors GitHub gives a file's headings.
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out: Vec<String> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let base: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 { base } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

#[test]
fn no_markdown_file_runs_past_600_lines_without_saying_why() {
    let mut long = Vec::new();
    for Doc { name, text, .. } in documents() {
        let lines = text.lines().count();
        let head: String = text.lines().take(5).collect::<Vec<_>>().join("\n");
        if lines > 600 && !head.contains("kept whole") {
            long.push(format!("{name} ({lines} lines)"));
        }
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    assert!(
        readme.lines().count() <= 260,
        "the README is a front door: {} lines",
        readme.lines().count()
    );
    assert!(
        long.is_empty(),
        "too long without a reason at the top: {long:?}"
    );
}
