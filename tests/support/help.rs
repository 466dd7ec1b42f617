//! The command line as `--help` describes it: the commands under a command and the options of
//! each, read from the real binary's help text (the reference the docs and man pages must match).

use std::collections::BTreeMap;
use std::process::Command;

/// The binary under test.
pub fn draughts() -> &'static str {
    env!("CARGO_BIN_EXE_draughts")
}

/// The help text of `draughts <path…> --help`.
pub fn help(path: &[String]) -> String {
    let out = Command::new(draughts())
        .args(path)
        .arg("--help")
        .output()
        .expect("run draughts --help");
    assert!(
        out.status.success(),
        "draughts {} --help failed",
        path.join(" ")
    );
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The lines of one section of a help text (`Commands:`, `Options:`).
fn section<'a>(help: &'a str, title: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|l| *l != title)
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .collect()
}

/// The commands directly under `path`, without clap's `help`.
pub fn subcommands(help: &str) -> Vec<String> {
    section(help, "Commands:")
        .iter()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The long options (`--variant`) a help text lists.
pub fn options(help: &str) -> Vec<String> {
    section(help, "Options:")
        .iter()
        .flat_map(|l| l.split([' ', ',', '=', '[', '<']))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_string)
        .collect()
}

/// Every command of the program, as its path of names, with its options.
pub fn tree() -> BTreeMap<Vec<String>, Vec<String>> {
    let mut all = BTreeMap::new();
    let mut todo = vec![Vec::new()];
    while let Some(path) = todo.pop() {
        let text = help(&path);
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        all.insert(path, options(&text));
    }
    all
}
