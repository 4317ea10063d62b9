//! The full screen, end to end: the real binary in a real terminal (tmux).
//!
//! `goref` opens the demo at once; moves and hex packets appear; the screen
//! follows a resize to 80x24; the help opens; quitting voids the game after
//! a confirmation and gives the terminal back in cooked mode. A game of two
//! `human` players reaches the judge, who marks a stone dead with the board
//! cursor and counts the game. A Usenix game shows CPU and wall time side by
//! side and marks the lines a 1987 referee would have misread. Each test skips with a message when tmux is
//! missing (tests/run.sh installs it).

use crate::common;

use std::process::Command;
use std::time::Duration;

use common::tmux::Tmux;
use common::{goref, shell_words, wait_until};

/// A packet's bytes as the trace shows them: `01:8d:d4:b8`.
fn has_hex_packet(screen: &str) -> bool {
    screen.split_whitespace().any(|word| {
        let parts: Vec<&str> = word.split(':').collect();
        parts.len() == 4
            && parts
                .iter()
                .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_hexdigit()))
    })
}

#[test]
fn goref_opens_the_demo_follows_a_resize_shows_help_and_gives_the_terminal_back() {
    let log = tempfile::NamedTempFile::new().unwrap();
    let command = format!(
        "{} --log {}",
        shell_words(&goref()),
        shell_words(log.path())
    );
    let Some(tmux) = Tmux::start("goref-demo", 120, 40, &command) else {
        return;
    };
    let screen = tmux.wait_for("moves and hex packets", Duration::from_secs(60), |s| {
        has_hex_packet(s) && s.contains("MOVE") && s.contains(" B ") && s.contains("move ")
    });
    assert!(
        screen.contains("(sgmp)") && screen.contains("(gtp)"),
        "{screen}"
    );
    assert!(screen.contains("A B C D E F G H J"), "the board: {screen}");

    tmux.resize(80, 24);
    let screen = tmux.wait_for("the 80x24 layout", Duration::from_secs(10), |s| {
        s.lines().count() <= 24
            && s.lines().all(|l| l.chars().count() <= 80)
            && s.contains("A B C D E F G H J")
            && s.contains("trace")
            && s.lines().any(|l| l.contains("? help"))
    });
    assert!(
        screen.lines().count() <= 24 && screen.contains("? help"),
        "the hint bar: {screen}"
    );

    tmux.keys(&["?"]);
    let screen = tmux.wait_for("the help", Duration::from_secs(5), |s| s.contains("help:"));
    assert!(screen.contains("focus the next pane"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the help closed", Duration::from_secs(5), |s| {
        !s.contains("help:")
    });

    tmux.resize(30, 10);
    tmux.wait_for("the too-small screen", Duration::from_secs(5), |s| {
        s.contains("goref needs") && s.contains("q quits")
    });
    tmux.resize(80, 24);

    tmux.keys(&["q"]);
    tmux.wait_for("the confirmation", Duration::from_secs(5), |s| {
        s.contains("y confirms")
    });
    let confirmed = std::time::Instant::now();
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("goref to end", Duration::from_secs(30), |s| {
        s.contains("EXIT=") && s.contains("icanon")
    });
    let exit_took = confirmed.elapsed();
    assert!(screen.contains("EXIT=1"), "a voided game exits 1: {screen}");
    assert!(
        exit_took < Duration::from_millis(1500),
        "the line of a voided game is closed at once, not served 2 s more: {exit_took:?}"
    );
    assert!(
        screen.lines().any(|l| l.trim() == "icanon"),
        "the terminal is back in cooked mode: {screen}"
    );
    assert!(
        !screen.contains("A B C D E F G H J"),
        "the alternate screen is gone"
    );
}

#[test]
fn the_judge_marks_a_stone_dead_with_the_cursor_and_counts_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("game.sgf");
    let command = format!(
        "{} play --size 9 --rules cgf --black human --white human --sgf {}",
        shell_words(&goref()),
        shell_words(&sgf)
    );
    let Some(tmux) = Tmux::start("goref-judge", 100, 30, &command) else {
        return;
    };
    tmux.wait_for("Black's move box", Duration::from_secs(20), |s| {
        s.contains("Black's move:")
    });
    for (color, mv) in [("Black", "E5"), ("White", "pass"), ("Black", "pass")] {
        tmux.open_move_box(color);
        tmux.keys(&[mv, "Enter"]);
    }
    tmux.wait_for("the judge's call", Duration::from_secs(10), |s| {
        s.contains("ALERT") && s.contains("judge")
    });
    tmux.keys(&["Enter", "x"]);
    let screen = tmux.wait_for("E5 marked dead", Duration::from_secs(5), |s| {
        s.contains("[x]")
    });
    assert!(
        screen.contains("marked:       E5"),
        "the agreement pane keeps what the judge marked in sight: {screen}"
    );
    tmux.keys(&["S"]);
    tmux.keys(&["counted by the judge", "Enter", "y"]);
    let screen = tmux.wait_for("the result", Duration::from_secs(10), |s| {
        s.contains("result W+")
    });
    assert!(screen.contains("scored_by_judge"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for("goref to end", Duration::from_secs(20), |s| {
        s.contains("EXIT=0")
    });
    let record = std::fs::read_to_string(&sgf).unwrap();
    assert!(record.contains("RE[W+"), "{record}");
    assert!(
        record.contains("Operator: dead E5") && record.contains("Operator: score"),
        "each command is in the record: {record}"
    );
}

#[test]
fn a_replay_stepped_to_move_n_shows_the_board_the_host_had_at_move_n() {
    use goref_core::game::Point;
    use goref_core::referee::{GameEvent, GameView, StampedEvent};
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("game.jsonl");
    let played = Command::new(goref())
        .args([
            "play",
            "--headless",
            "--size",
            "9",
            "--black",
            "bot:3",
            "--white",
            "bot:4",
        ])
        .arg("--trace")
        .arg(&trace)
        .output()
        .unwrap();
    assert!(played.status.success(), "{played:?}");
    const N: usize = 12;
    let mut host = GameView::new();
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut moves = 0;
    for line in text.lines().skip(1) {
        let stamped: StampedEvent = serde_json::from_str(line).unwrap();
        host.apply_stamped(&stamped);
        if matches!(stamped.event, GameEvent::Move { .. }) {
            moves += 1;
            if moves == N {
                break;
            }
        }
    }
    assert_eq!(moves, N, "the game is long enough");

    let command = format!("{} replay {}", shell_words(&goref()), shell_words(&trace));
    let Some(tmux) = Tmux::start("goref-replay", 100, 30, &command) else {
        return;
    };
    tmux.wait_for("the replay", Duration::from_secs(10), |s| {
        s.contains("next move")
    });
    tmux.keys(&["g"]);
    for _ in 0..N {
        tmux.keys(&["]"]);
    }
    let screen = tmux.wait_for("move 12", Duration::from_secs(5), |s| {
        s.contains(&format!("| move {N} |"))
    });
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    for row in 0..9u8 {
        let label = format!("{:>2} ", row + 1);
        let line = lines
            .iter()
            .find(|l| l.iter().collect::<String>().starts_with(&label))
            .unwrap_or_else(|| panic!("row {} on screen:\n{screen}", row + 1));
        for col in 0..9u8 {
            let shown = line[4 + 2 * usize::from(col)];
            let expected = match host.stone(Point::new(col, row)) {
                Some(goref_core::game::Color::Black) => '●',
                Some(goref_core::game::Color::White) => '○',
                None => shown,
            };
            assert_eq!(shown, expected, "{col},{row}:\n{screen}");
            if host.stone(Point::new(col, row)).is_none() {
                assert!(!"●○".contains(shown), "{col},{row} is empty:\n{screen}");
            }
        }
    }
    tmux.keys(&["q"]);
    tmux.wait_for("goref to end", Duration::from_secs(10), |s| {
        s.contains("EXIT=0")
    });
}

#[test]
fn a_panic_gives_the_terminal_back_before_its_message() {
    let example = common::example("screen_panic");
    let Some(tmux) = Tmux::start("goref-panic", 100, 30, &shell_words(&example)) else {
        return;
    };
    let screen = tmux.wait_for("the panic to end it", Duration::from_secs(20), |s| {
        s.contains("EXIT=") && s.contains("icanon")
    });
    assert!(
        screen.contains("a deliberate panic"),
        "the message is readable: {screen}"
    );
    assert!(
        screen.lines().any(|l| l.trim() == "icanon"),
        "the terminal is back in cooked mode: {screen}"
    );
    assert!(
        !screen.contains("the screen before the panic"),
        "the alternate screen is gone: {screen}"
    );
}

#[test]
fn a_spectator_watches_at_its_own_size_and_its_keys_never_reach_the_host() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = free.local_addr().unwrap().to_string();
    drop(free);
    let host_command = format!(
        "{} demo --think 300ms --serve {address}",
        shell_words(&goref())
    );
    let Some(host) = Tmux::start("goref-served", 120, 36, &host_command) else {
        return;
    };
    host.wait_for("the host serving", Duration::from_secs(30), |s| {
        s.contains(&format!("serving {address}")) && s.contains("move ")
    });
    let spectator_command = format!("{} --watch {address}", shell_words(&goref()));
    let spectator = Tmux::start("goref-watch", 80, 24, &spectator_command).unwrap();
    let screen = spectator.wait_for("the game, live", Duration::from_secs(30), |s| {
        s.contains("A B C D E F G H J") && s.contains("live")
    });
    assert!(screen.lines().all(|l| l.chars().count() <= 80), "{screen}");
    assert!(
        !screen.contains("adjudicate"),
        "no operator command: {screen}"
    );
    host.wait_for("the audience", Duration::from_secs(10), |s| {
        s.contains("1 watching")
    });

    spectator.keys(&["z"]);
    spectator.wait_for("the zoomed board", Duration::from_secs(5), |s| {
        !s.contains("trace") && s.contains("A B C D E F G H J")
    });
    spectator.keys(&["a", "v", "r", "b", "?"]);
    let help = spectator.wait_for("the spectator's help", Duration::from_secs(5), |s| {
        s.contains("esc or ? closes")
    });
    assert!(help.contains("q              quit "), "{help}");
    assert!(!help.contains("void"), "{help}");
    let host_screen = host.screen();
    for pane in ["board", "clocks", "trace", "moves"] {
        assert!(
            host_screen.contains(pane),
            "the host keeps {pane}: {host_screen}"
        );
    }
    assert!(
        !host_screen.contains("reason") && !host_screen.contains("esc or ? closes"),
        "no dialog or help on the host: {host_screen}"
    );
    assert!(
        host_screen.lines().next().unwrap().starts_with("play |"),
        "{host_screen}"
    );

    spectator.keys(&["Escape", "q"]);
    spectator.wait_for("the spectator gone", Duration::from_secs(10), |s| {
        s.contains("EXIT=0") && s.contains("icanon") && !s.contains("-icanon")
    });
    host.wait_for("the audience gone", Duration::from_secs(10), |s| {
        s.contains("0 watching")
    });
}

/// The SSH session drops: tmux kills the pane under the full screen, and
/// goref gets SIGHUP. The game plays on without a screen; `goref attach`
/// in a new terminal brings the operator's screen back, whose commands
/// reach the game, and quitting it leaves the game playing to its result,
/// the record and the journal complete; then goref ends by itself.
#[test]
fn a_game_whose_terminal_is_killed_plays_on_and_goref_attach_brings_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("game");
    let black = common::fake("--moves D4,E5,F6,G7,H8,J9,pass --think-ms 700");
    let white = common::fake("--moves C3,C4,C5,C6,C7,C8,pass --think-ms 700");
    let command = format!(
        "{} play --size 9 --black \"{black}\" --white \"{white}\" --game-dir {}",
        shell_words(&goref()),
        shell_words(&folder)
    );
    let Some(host) = Tmux::start("goref-hup", 100, 30, &command) else {
        return;
    };
    host.wait_for("the game on screen", Duration::from_secs(20), |s| {
        s.contains("D4") && s.contains("C3")
    });
    let status = host
        .command()
        .args(["kill-session", "-t", &host.name])
        .status()
        .unwrap();
    assert!(status.success());
    let journal = folder.join("journal.jsonl");
    let attach = format!("{} attach {}", shell_words(&goref()), shell_words(&folder));
    let attached = Tmux::start("goref-attach", 90, 28, &attach).unwrap();
    attached.wait_for("the attached screen", Duration::from_secs(20), |s| {
        s.contains("live") && s.contains("E5")
    });
    attached.keys(&["c", "p"]);
    attached.wait_for("the clocks paused", Duration::from_secs(10), |s| {
        s.contains("PAUSED")
    });
    attached.keys(&["c", "r", "q"]);
    attached.wait_for("attach to end", Duration::from_secs(10), |s| {
        s.contains("EXIT=0")
    });
    let finished = || {
        format!(
            "the game to finish after its terminal went; the journal:\n{}",
            std::fs::read_to_string(&journal).unwrap_or_default()
        )
    };
    wait_until(Duration::from_secs(40), finished, || {
        folder.join("MANIFEST.sha256").exists()
    });
    let text = std::fs::read_to_string(&journal).unwrap();
    for what in ["detached", "attached", "left"] {
        assert!(
            text.contains(&format!(r#""what":"{what}""#)),
            "{what}:\n{text}"
        );
    }
    assert!(text.contains("goref attach"), "the detached event says how");
    assert!(text.contains(r#""command":"pause""#) && text.contains(r#""command":"resume""#));
    let result = text
        .lines()
        .find(|l| l.contains(r#""type":"result""#))
        .expect("a result");
    assert!(!result.contains("Void"), "{result}");
    assert_eq!(text.matches(r#""type":"move""#).count(), 14);
    let record = std::fs::read_to_string(folder.join("game.sgf")).unwrap();
    assert!(record.contains("RE["), "{record}");
    let this_game = format!(
        "^{} play .*--game-dir {}",
        goref().display(),
        folder.display()
    );
    let ended = || {
        let found = Command::new("pgrep").args(["-f", &this_game]).output();
        !found.unwrap().stdout.iter().any(|b| b.is_ascii_digit())
    };
    wait_until(Duration::from_secs(15), || "goref to end".into(), ended);
    let socket = folder.join("attach.sock");
    let gone = || "the socket to go with the game".to_string();
    wait_until(Duration::from_secs(10), gone, || !socket.exists());
}

/// A Usenix game on the same screen: the clocks pane shows the CPU time
/// charged and the real time side by side, and the trace marks the sloppy
/// program's lines that a 1987 referee would have misread, with the note.
#[test]
fn a_usenix_game_shows_cpu_and_wall_time_and_marks_what_1987_misread() {
    let dir = tempfile::tempdir().unwrap();
    let program = |name: &str, flags: &str| {
        format!(
            "usenix:{} --size 9 {flags}",
            common::example(name).display()
        )
    };
    let command = format!(
        "{} play --rules usenix --size 9 --black \"{}\" --white \"{}\" --game-dir {}",
        shell_words(&goref()),
        program("usenix_strict", "--burn-each-ms 300"),
        program("usenix_sloppy", "--seed 2"),
        shell_words(&dir.path().join("game"))
    );
    let Some(tmux) = Tmux::start("goref-usenix", 100, 30, &command) else {
        return;
    };
    let screen = tmux.wait_for("a few moves", Duration::from_secs(30), |s| {
        s.contains("would have read it as") && s.contains("wall 0:0")
    });
    let clocks: Vec<&str> = screen.lines().filter(|l| l.contains("usenix_")).collect();
    assert!(
        clocks
            .iter()
            .any(|l| l.contains("usenix_strict") && l.contains("cpu 0:0") && l.contains("wall")),
        "{screen}"
    );
    assert!(
        screen
            .lines()
            .any(|l| l.contains('✗') && l.contains("W ←") && l.contains('␍')),
        "a misread line is marked, its CR shown: {screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("the confirmation", Duration::from_secs(5), |s| {
        s.contains("y confirms")
    });
    tmux.keys(&["y"]);
    tmux.wait_for("goref to end", Duration::from_secs(30), |s| {
        s.contains("EXIT=")
    });
}
