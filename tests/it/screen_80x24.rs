//! The screen at exactly 80x24, as a director over SSH sees it: the real
//! binary in tmux. At a typed player's turn a move is typed straight in and
//! the letters that are keys are only part of it; the status line keeps the
//! state first; ctrl-c on a live game asks; the screen's last line names the
//! result and the folder; without UTF-8 the screen is ASCII; the demo says it
//! is one and offers no adjudication; the judge's keys are in sight. Each
//! test skips with a message when tmux is missing (tests/run.sh installs it).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::tmux::{last_line, Tmux};
use common::{goref, journal, shell_words, wait_until};
use serde_json::Value;

/// A human (Black) against the built-in engine on 19x19, its folder in
/// `dir`, once Black's move box is on screen; with that screen.
fn human_game(name: &str, dir: &Path, env: &str) -> Option<(Tmux, String)> {
    let command = format!(
        "{env} {} play --black human --white bot --size 19 --time absolute:50m --game-dir {}",
        shell_words(&goref()),
        shell_words(dir)
    );
    let tmux = Tmux::start(name, 80, 24, &command)?;
    let screen = tmux.wait_for("Black's move box", Duration::from_secs(20), |s| {
        s.contains("Black's move:")
    });
    Some((tmux, screen))
}

fn first_line(screen: &str) -> &str {
    screen.lines().next().unwrap_or_default()
}

fn moves_in(folder: &Path) -> Vec<String> {
    journal(folder)
        .iter()
        .filter(|e| e["type"] == "move")
        .map(|e| e["vertex"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn result_in(folder: &Path) -> Option<Value> {
    journal(folder).into_iter().find(|e| e["type"] == "result")
}

#[test]
fn a_move_is_typed_straight_in_and_q_is_part_of_it_not_a_quit() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let Some((tmux, screen)) = human_game("goref-typed", &folder, "") else {
        return;
    };
    assert!(
        last_line(&screen).contains("enter plays") && last_line(&screen).contains("esc keys"),
        "the keys of the box are in sight at 80 columns: {screen}"
    );
    tmux.keys(&["q"]);
    let screen = tmux.screen();
    assert!(
        !screen.contains("quit:") && last_line(&screen).contains("Black's move: q"),
        "q is typed into the move, it does not quit: {screen}"
    );
    tmux.keys(&["BSpace", "E5", "Enter"]);
    wait_until(
        Duration::from_secs(20),
        || {
            format!(
                "E5 and White's answer in the journal: {:?}",
                moves_in(&folder)
            )
        },
        || moves_in(&folder).len() >= 2,
    );
    assert_eq!(moves_in(&folder)[0], "E5");
    let screen = tmux.wait_for("Black's second move box", Duration::from_secs(20), |s| {
        s.contains("relay it. Black's move:")
    });
    let white = &moves_in(&folder)[1];
    assert!(
        last_line(&screen).contains(&format!("White played {white}, relay it.")),
        "the move to relay stays in sight: {screen}"
    );
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_for("the keys back", Duration::from_secs(5), |s| {
        last_line(s).contains("m type a move")
    });
    let hints = last_line(&screen);
    assert!(
        hints.find("m type a move") < hints.find("? help"),
        "what the moment needs comes first: {hints}"
    );
    assert!(!hints.contains("adjudicate"), "{hints}");
}

#[test]
fn the_status_line_keeps_the_state_and_ctrl_c_asks_before_it_voids() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let Some((tmux, _)) = human_game("goref-state", &folder, "") else {
        return;
    };
    tmux.keys(&["Escape", "c", "p"]);
    let screen = tmux.wait_for("the pause", Duration::from_secs(10), |s| {
        first_line(s).contains("PAUSED")
    });
    assert!(
        first_line(&screen).starts_with("play | move 0 | PAUSED"),
        "state first: {screen}"
    );
    tmux.keys(&["c", "r"]);
    tmux.wait_for("the clocks going again", Duration::from_secs(10), |s| {
        !first_line(s).contains("PAUSED")
    });

    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("ctrl-c to ask", Duration::from_secs(5), |s| {
        s.contains("ctrl-c: void the game")
    });
    assert!(screen.contains("ctrl-c again confirms"), "{screen}");
    tmux.keys(&["n"]);
    tmux.wait_for("the question gone", Duration::from_secs(5), |s| {
        !s.contains("ctrl-c: void the game")
    });
    std::thread::sleep(Duration::from_millis(500));
    assert!(result_in(&folder).is_none(), "one ctrl-c voids nothing");

    tmux.keys(&["C-c", "C-c"]);
    let screen = tmux.wait_for("goref to end", Duration::from_secs(20), |s| {
        s.contains("EXIT=")
    });
    let result = result_in(&folder).expect("a result");
    assert_eq!(result["result"], "Void");
    assert!(screen.contains("EXIT=1"), "a void game exits 1: {screen}");
    let closing = format!("thegameisin{}", folder.display());
    let joined: String = screen.split_whitespace().collect();
    assert!(
        joined.contains("goref:Void(") && joined.contains(&closing),
        "one closing line with the result and the folder: {screen}"
    );
}

#[test]
fn without_utf8_everything_on_screen_is_ascii() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let Some((tmux, _)) = human_game("goref-ascii", &folder, "LANG=C LC_ALL=C") else {
        return;
    };
    tmux.keys(&["E5", "Enter"]);
    tmux.wait_for("White's answer", Duration::from_secs(20), |s| {
        s.contains("relay it.")
    });
    tmux.keys(&["Escape", "?"]);
    let help = tmux.wait_for("the help", Duration::from_secs(5), |s| {
        s.contains("help: esc")
    });
    tmux.keys(&["Escape", "v"]);
    let reason = tmux.wait_for("the reason box", Duration::from_secs(5), |s| {
        s.contains("void the game: the reason")
    });
    for screen in [&help, &reason] {
        let odd: Vec<char> = screen.chars().filter(|c| !c.is_ascii()).collect();
        assert!(odd.is_empty(), "not ASCII: {odd:?} in\n{screen}");
        assert!(screen.lines().all(|l| l.chars().count() <= 80));
    }
    assert!(help.contains("+-") && help.contains("|General"), "{help}");
}

#[test]
fn the_demo_says_it_is_one_and_offers_no_adjudication() {
    let command = format!("{} demo --think 200ms", shell_words(&goref()));
    let Some(tmux) = Tmux::start("goref-demo80", 80, 24, &command) else {
        return;
    };
    let screen = tmux.wait_for("the demo under way", Duration::from_secs(30), |s| {
        first_line(s).contains("move ") && !first_line(s).contains("move 0 ")
    });
    assert!(first_line(&screen).contains("DEMO"), "{screen}");
    assert!(
        !last_line(&screen).contains("adjudicate"),
        "{}",
        last_line(&screen)
    );
    tmux.keys(&["q", "y"]);
    let screen = tmux.wait_for("goref to end", Duration::from_secs(20), |s| {
        s.contains("EXIT=")
    });
    let joined: String = screen.split_whitespace().collect();
    assert!(joined.contains("thatwasthedemo"), "{screen}");
}

#[test]
fn the_judges_keys_are_in_sight_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let command = format!(
        "{} play --size 9 --rules cgf --black human --white human --game-dir {}",
        shell_words(&goref()),
        shell_words(&folder)
    );
    let Some(tmux) = Tmux::start("goref-judge80", 80, 24, &command) else {
        return;
    };
    for (color, mv) in [("Black", "E5"), ("White", "pass"), ("Black", "pass")] {
        tmux.open_move_box(color);
        tmux.keys(&[mv, "Enter"]);
    }
    tmux.wait_for("the judge's call", Duration::from_secs(10), |s| {
        s.contains("ALERT") && s.contains("judge")
    });
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the judge's keys", Duration::from_secs(5), |s| {
        last_line(s).contains("mark dead")
    });
    let hints = last_line(&screen);
    assert!(
        hints.contains("space mark dead") && hints.contains("S score"),
        "{screen}"
    );
    assert!(
        screen.contains("next: the judge: space marks dead, S scores"),
        "the end-of-game pane names the screen's keys: {screen}"
    );
}
