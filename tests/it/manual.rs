//! `goref man` and `goref completions`, through the real binary: the man
//! page renders in `man` without a warning and documents every command and
//! flag; the bash script loads in a real bash and completes the rules
//! presets, the players' kinds and the themes; a reader that stops early
//! is no error.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{goref, succeeded};

fn run(args: &[&str]) -> std::process::Output {
    Command::new(goref()).args(args).output().unwrap()
}

#[test]
fn the_man_page_renders_and_documents_every_command() {
    let page = run(&["man"]);
    assert!(page.status.success());
    let mut man = Command::new("man")
        .args(["--warnings", "-l", "-"])
        .env("MANWIDTH", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("man is installed (tests/run.sh installs man-db)");
    man.stdin.take().unwrap().write_all(&page.stdout).unwrap();
    let shown = man.wait_with_output().unwrap();
    assert!(shown.status.success());
    let warnings = String::from_utf8_lossy(&shown.stderr);
    assert!(warnings.trim().is_empty(), "man warns: {warnings}");
    let text = plain(&String::from_utf8_lossy(&shown.stdout));
    for section in [
        "NAME",
        "SYNOPSIS",
        "COMMANDS",
        "GOREF PLAY",
        "GOREF EVENT",
        "GOREF CHECK",
        "GOREF COMPLETIONS",
        "VERSION",
    ] {
        assert!(
            text.lines().any(|line| line.trim_end() == section),
            "the page has a section {section}"
        );
    }
    for flag in ["--watch", "--rules", "--publish", "--web", "--game-dir"] {
        assert!(text.contains(flag), "the page documents {flag}");
    }
    assert!(
        !text.contains("goref-play(1)"),
        "no pages that do not exist"
    );
}

/// `man`'s output without its overstrikes (bold as `X\bX`).
fn plain(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\u{8}' => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// What bash completes after `line` (its last word the one completed).
fn bash_completes(script: &str, words: &[&str]) -> Vec<String> {
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source {script}\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\nCOMP_LINE='{}'\n\
         COMP_POINT=${{#COMP_LINE}}\n_goref goref '{}' '{}'\necho \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words.join(" "),
        words[cword],
        words[cword - 1],
    );
    let out = succeeded(Command::new("bash").arg("-c").arg(program));
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn event_help_says_that_serve_web_and_publish_serve_the_event() {
    let help = String::from_utf8(run(&["event", "--help"]).stdout).unwrap();
    for flag in ["--serve <ADDR>", "--web <ADDR>", "--publish <nats://"] {
        assert!(
            help.contains(flag),
            "goref event --help shows {flag}: {help}"
        );
    }
    assert!(
        help.contains("--serve, --web and --publish serve the event"),
        "{help}"
    );
    assert!(help.contains("[--serve ADDR] [--web ADDR]"), "{help}");
}

#[test]
fn the_bash_script_loads_and_completes_values() {
    let folder = tempfile::tempdir().unwrap();
    let script = folder.path().join("goref.bash");
    let generated = run(&["completions", "bash"]);
    assert!(generated.status.success());
    std::fs::write(&script, &generated.stdout).unwrap();
    let script = script.display().to_string();

    let rules = bash_completes(&script, &["goref", "play", "--rules", ""]);
    assert_eq!(rules, ["kgs", "cgf", "usenix"]);
    let players = bash_completes(&script, &["goref", "play", "--black", ""]);
    for kind in ["gtp:", "sgmp:", "usenix:", "bot", "human"] {
        assert!(players.iter().any(|p| p == kind), "{kind} in {players:?}");
    }
    let themes = bash_completes(&script, &["goref", "demo", "--theme", ""]);
    assert!(themes.iter().any(|t| t == "high-contrast"), "{themes:?}");
    let commands = bash_completes(&script, &["goref", "st"]);
    assert_eq!(commands, ["standings"]);
    let flags = bash_completes(&script, &["goref", "play", "--pub"]);
    assert_eq!(flags, ["--publish"]);
}

#[test]
fn every_shell_gets_a_script_and_a_wrong_one_a_clear_error() {
    for (shell, mark) in [
        ("zsh", "#compdef goref"),
        ("fish", "complete -c goref"),
        ("bash", "complete -F _goref"),
    ] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        assert!(script.contains(mark), "{shell} script has {mark}");
        assert!(script.contains("--publish"), "{shell} knows the flags");
    }
    let wrong = run(&["completions", "tcsh"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("possible values: bash"));
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    for args in [&["man"][..], &["completions", "bash"]] {
        let mut child = Command::new(goref())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}: nothing said");
    }
}
