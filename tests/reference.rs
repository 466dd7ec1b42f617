//! The generated reference: the man pages and the shell completions are made from the same
//! definition as `--help`, and these tests hold them to it.

#[path = "support/help.rs"]
mod help;

use std::process::Command;

#[test]
fn there_is_a_man_page_for_every_command_with_every_option() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = Command::new(help::draughts())
        .arg("man")
        .arg(dir.path())
        .output()
        .expect("run draughts man");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = help::tree();
    let mut pages: Vec<String> = std::fs::read_dir(dir.path())
        .expect("pages")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    let mut expected: Vec<String> = tree
        .keys()
        .map(|path| {
            let mut name = vec!["draughts".to_string()];
            name.extend(path.iter().cloned());
            format!("{}.1", name.join("-"))
        })
        .collect();
    expected.sort();
    assert_eq!(pages, expected, "one page per command, nothing else");
    assert!(pages.len() > 60, "the whole tree: {} pages", pages.len());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("{} man pages written", pages.len())),
        "{stdout}"
    );
    for (path, options) in &tree {
        let mut name = vec!["draughts".to_string()];
        name.extend(path.iter().cloned());
        let file = dir.path().join(format!("{}.1", name.join("-")));
        let page = std::fs::read_to_string(&file).expect("page");
        assert!(
            page.starts_with(".ie") || page.contains(".TH"),
            "{}: roff",
            file.display()
        );
        for option in options {
            // roff escapes each dash: --variant is \-\-variant.
            let roff = option.replace('-', "\\-");
            assert!(
                page.contains(&roff),
                "{} lacks {option}, which `--help` lists",
                file.display()
            );
        }
    }
}

#[test]
fn man_renders_the_pages_when_man_is_installed() {
    if Command::new("man").arg("--version").output().is_err() {
        eprintln!("skipped: no `man` on this machine (the page text is checked by the test above)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let made = Command::new(help::draughts())
        .arg("man")
        .arg(dir.path())
        .output()
        .expect("run draughts man");
    assert!(made.status.success());
    let out = Command::new("man")
        .arg("-l")
        .arg(dir.path().join("draughts-club-tournament-pair.1"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "80")
        .output()
        .expect("run man");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("NAME"), "{text}");
    assert!(text.contains("draughts-club-tournament-pair"), "{text}");
    assert!(text.contains("SYNOPSIS"), "{text}");
}

/// What bash offers after `words` (the last word is the one being completed).
fn bash_complete(words: &[&str]) -> Vec<String> {
    let script = Command::new(help::draughts())
        .args(["completions", "bash"])
        .output()
        .expect("run draughts completions bash");
    assert!(script.status.success());
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("draughts.bash");
    std::fs::write(&file, &script.stdout).expect("script");
    let line = words.join(" ");
    let program = format!(
        "source {}\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{}'\nCOMP_POINT=${{#COMP_LINE}}\n_draughts draughts '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        file.display(),
        words
            .iter()
            .map(|w| format!("'{w}'"))
            .collect::<Vec<_>>()
            .join(" "),
        words.len() - 1,
        line,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .expect("run bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_commands_and_options() {
    assert_eq!(bash_complete(&["draughts", "cl"]), ["club"]);
    assert_eq!(bash_complete(&["draughts", "club", "tou"]), ["tournament"]);
    assert_eq!(
        bash_complete(&["draughts", "club", "tournament", "st"]),
        ["standings"]
    );
    assert!(bash_complete(&["draughts", "tb", "generate", "--"]).contains(&"--pieces".to_string()));
    assert_eq!(bash_complete(&["draughts", "completions", "fi"]), ["fish"]);
}

#[test]
fn every_shell_gets_a_script_that_its_shell_accepts() {
    for (shell, checker) in [
        ("bash", Some(("bash", "-n"))),
        ("zsh", Some(("zsh", "-n"))),
        ("fish", Some(("fish", "--no-execute"))),
        ("powershell", None),
        ("elvish", None),
    ] {
        let out = Command::new(help::draughts())
            .args(["completions", shell])
            .output()
            .expect("run draughts completions");
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(
            script.contains("tournament"),
            "{shell}: the commands are in it"
        );
        if let Some((program, flag)) = checker {
            let dir = tempfile::tempdir().expect("temp dir");
            let file = dir.path().join("script");
            std::fs::write(&file, &script).expect("script");
            match Command::new(program).arg(flag).arg(&file).output() {
                Ok(check) => assert!(
                    check.status.success(),
                    "{program} refuses the {shell} script: {}",
                    String::from_utf8_lossy(&check.stderr)
                ),
                Err(_) => eprintln!(
                    "{program} is not installed: the {shell} script's syntax is not checked"
                ),
            }
        }
    }
    let bad = Command::new(help::draughts())
        .args(["completions", "tcsh"])
        .output()
        .expect("run");
    assert_eq!(bad.status.code(), Some(2));
}
