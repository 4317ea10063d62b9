//! The hall, as a director sees it: the real binary in tmux at 80x24 and
//! 200x60 running a six-board round of the built-in engine. The pairing is
//! confirmed on screen; every board is a tile; the engine that crashes on
//! board 4 marks that tile and sorts it first; the board opens with its
//! number and `enter`, `a` adjudicates it through its own goref, `esc`
//! comes back; at 200x60 each tile shows its board; a spectator of the
//! hall at 80x24 (`--serve`) opens a board and sees the host's position;
//! and when the round is over the hall shows the results, the standings
//! and where the page is.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::tmux::{last_line, Tmux};
use common::{free_port, goref, journal};

/// A player that crashes at its third move and, started again, never
/// answers: a board that needs the director.
fn crasher(dir: &Path) -> String {
    let script = dir.join("crasher.sh");
    let fake = common::fake_gtp();
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             if [ -e '{marker}' ]; then exec '{fake}' --board --hang-at 1; fi\n\
             touch '{marker}'\n\
             exec '{fake}' --board --crash-at 3\n",
            marker = dir.join("crashed-once").display(),
            fake = fake.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    format!("gtp:{}", script.display())
}

/// A one-round Swiss of twelve entrants on 9x9: the built-in engine,
/// thinking `think_ms` a move, but the fourth, which plays board 4.
fn event_folder(dir: &Path, think_ms: u32) {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = "name = \"hall cup\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\n\
                    rules = \"kgs\"\nsize = 9\ntime = \"absolute:10m\"\nrestart_crashed = 1\n"
        .to_string();
    for n in 1..=12 {
        let player = match n {
            4 => crasher(dir),
            n => format!(
                "gtp:{} bot --seed {n} --think-ms {think_ms}",
                goref().display()
            ),
        };
        text.push_str(&format!(
            "[[entrant]]\nname = \"bot{n:02}\"\nplayer = \"{player}\"\n"
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
}

#[test]
fn the_director_confirms_the_round_sees_every_board_and_settles_the_one_that_needs_it() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = root.path().join("cup");
    event_folder(&dir, 300);
    let port = free_port();
    let command = format!(
        "cd '{}' && '{}' event cup --serve 127.0.0.1:{port}",
        root.path().display(),
        goref().display()
    );
    let Some(tmux) = Tmux::start("hall", 80, 24, &command) else {
        return;
    };
    let limit = Duration::from_secs(30);
    let pairing = tmux.wait_for("the pairing", limit, |s| s.contains("proposed:"));
    assert!(pairing.contains("round 1 of 1, proposed:"), "{pairing}");
    assert!(
        pairing.contains("board  4  bot10 (B) - bot04 (W)"),
        "{pairing}"
    );
    assert!(last_line(&pairing).starts_with("y start"), "{pairing}");
    assert!(!dir.join("round-1").exists(), "nothing starts before y");
    tmux.keys(&["y"]);

    let tiles = tmux.wait_for("six tiles", limit, |s| {
        (1..=6).all(|n| s.contains(&format!("board {n} "))) && s.contains("move ")
    });
    for line in tiles.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    assert!(
        tiles.starts_with("hall cup | round 1 of 1 | ")
            && tiles
                .lines()
                .next()
                .unwrap()
                .contains(&format!("6 playing, 0 over | serving :{port} | playing")),
        "{tiles}"
    );
    let watch = format!("'{}' --watch 127.0.0.1:{port}", goref().display());
    let spectator = Tmux::start("hall-watch", 80, 24, &watch).unwrap();
    let watching = spectator.wait_for("the spectator's hall", limit, |s| {
        s.starts_with("hall cup | round 1 of 1") && s.contains("board 6 ")
    });
    assert!(
        watching.lines().next().unwrap().contains("watching"),
        "{watching}"
    );
    let counted = tmux.wait_for("the director's title to count the spectator", limit, |s| {
        s.lines()
            .next()
            .unwrap_or_default()
            .contains("| 1 watching |")
    });
    let title = counted.lines().next().unwrap();
    assert!(
        title.contains(&format!("| serving :{port} | 1 watching |"))
            || title.contains("| served | 1 watching |"),
        "where it serves, shortened to fit 80 columns: {title}"
    );

    let marked = tmux.wait_for("board 4 marked", limit, |s| s.contains("! board 4"));
    let first_tiles = marked.lines().nth(1).unwrap_or_default();
    assert!(
        first_tiles.contains("! board 4"),
        "board 4 sorted first:\n{marked}"
    );
    assert!(
        last_line(&marked).starts_with("! board 4 needs you"),
        "{marked}"
    );
    assert!(marked.contains("crasher.sh"), "what happened:\n{marked}");

    tmux.resize(200, 60);
    let wide = tmux.wait_for("small boards", limit, |s| {
        s.lines().filter(|l| l.matches('·').count() >= 12).count() >= 9
    });
    assert!(
        (1..=6).all(|n| wide.contains(&format!("board {n} "))),
        "{wide}"
    );
    tmux.resize(80, 24);

    tmux.keys(&["4", "Enter"]);
    let board = tmux.wait_for("board 4 on the whole screen", limit, |s| {
        s.lines()
            .next()
            .unwrap_or_default()
            .contains("round 1 board 4")
            && last_line(s).contains("q/esc the hall")
    });
    assert_eq!(board.lines().count(), 24, "the board has the whole screen");
    assert!(
        board.contains("bot04") && !board.contains("Fake"),
        "board 4's players, by their entrants' names:\n{board}"
    );
    tmux.keys(&["a"]);
    tmux.wait_for("the result box", limit, |s| s.contains("result"));
    tmux.keys(&["B+F", "Enter"]);
    tmux.wait_for("the reason box", limit, |s| s.contains("the reason"));
    tmux.keys(&["crashed then silent", "Enter"]);
    tmux.wait_for("the confirmation", limit, |s| s.contains("y confirm"));
    tmux.keys(&["y"]);
    tmux.wait_for("the result on board 4", limit, |s| s.contains("result B+F"));
    tmux.keys(&["Escape"]);
    let back = tmux.wait_for("the hall again", limit, |s| s.starts_with("hall cup"));
    assert!(
        !back.contains("! board 4"),
        "settled, board 4 needs nothing:\n{back}"
    );

    for screen in [&spectator, &tmux] {
        screen.keys(&["1", "Enter"]);
    }
    let over = |s: &str| s.starts_with("result ");
    let host = tmux.wait_for("board 1's end on the host", Duration::from_secs(90), over);
    let seen = spectator.wait_for("board 1's end for the spectator", limit, over);
    let position = |screen: &str| -> Vec<String> {
        screen
            .lines()
            .skip(2)
            .take(11)
            .map(|l| l.chars().take(24).collect())
            .collect()
    };
    assert_eq!(
        position(&host),
        position(&seen),
        "host:\n{host}\nspectator:\n{seen}"
    );
    let result = |screen: &str| screen.split(" | ").next().unwrap_or_default().to_string();
    assert_eq!(result(&host), result(&seen), "the same result");
    for screen in [&spectator, &tmux] {
        screen.keys(&["Escape"]);
    }

    let result = journal(&dir.join("round-1/board-4"))
        .into_iter()
        .find(|e| e["type"] == "result")
        .expect("board 4 has its result");
    assert_eq!(result["result"], "B+F");
    assert_eq!(result["end"], "adjudicated");

    let over = tmux.wait_for("the event's end", Duration::from_secs(120), |s| {
        s.contains("the event is over")
    });
    assert!(over.contains("standings.html"), "{over}");
    assert!(over.contains("round 1 results:"), "{over}");
    assert!(over.contains("bot10 (B) - bot04 (W)  B+F"), "{over}");
    assert!(over.contains("SOS"), "the standings:\n{over}");
    tmux.keys(&["q"]);
    let left = tmux.wait_for("goref to end", limit, |s| s.contains("EXIT="));
    assert!(left.contains("EXIT=0"), "{left}");
    assert!(left.contains("the standings are in"), "{left}");
}

/// A headless event serves its hall as well: a spectator's `--headless
/// --json` gets the event's picture and every board's events tagged with
/// the board, down to each board's result as its journal has it.
#[test]
fn a_headless_event_serves_its_hall_and_a_spectator_prints_every_board_tagged() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = root.path().join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = "name = \"served cup\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\n\
                    rules = \"kgs\"\nsize = 9\ntime = \"absolute:10m\"\n"
        .to_string();
    for n in 1..=4 {
        text.push_str(&format!(
            "[[entrant]]\nname = \"bot{n}\"\nplayer = \"gtp:{} bot --seed {n} --think-ms 100\"\n",
            goref().display()
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    let mut watcher = std::process::Command::new(goref())
        .args(["--watch", &address, "--headless", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = watcher.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<String>>()
    });
    let event = std::process::Command::new(goref())
        .arg("event")
        .arg(&dir)
        .args(["--headless", "--yes", "--serve", &address])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&event.stderr);
    assert!(event.status.success(), "{stderr}");
    assert!(stderr.contains("serving spectators on"), "{stderr}");
    assert!(stderr.contains("served cup is over"), "{stderr}");
    std::thread::sleep(Duration::from_millis(500));
    watcher.kill().unwrap();
    let _ = watcher.wait();
    let lines = reader.join().unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(r#"{"type":"hall","picture":"#)),
        "{lines:?}"
    );
    for board in 1..=2 {
        let tag = format!("{{\"board\":{board},");
        let result = lines
            .iter()
            .rfind(|l| l.starts_with(&tag) && l.contains(r#""type":"result""#))
            .unwrap_or_else(|| panic!("no result of board {board}: {lines:?}"));
        let streamed: serde_json::Value = serde_json::from_str(result).unwrap();
        let recorded = journal(&dir.join(format!("round-1/board-{board}")))
            .into_iter()
            .find(|e| e["type"] == "result")
            .unwrap();
        assert_eq!(streamed["result"], recorded["result"], "board {board}");
        assert_eq!(streamed["seq"], recorded["seq"], "board {board}");
        let moves = lines
            .iter()
            .filter(|l| l.starts_with(&tag) && l.contains(r#""type":"move""#))
            .count();
        assert!(moves > 0, "board {board}'s moves come through");
    }
}

/// The event run again after its hall was killed (a lost SSH session, a
/// `kill`): a board that ended meanwhile is no longer followed, and its tile
/// still shows its last move, its stones and its result, read back from
/// its journal, as do the board opened on the whole screen and the hall's
/// spectators; the board still playing is followed again to its end.
#[test]
fn a_board_that_ended_before_the_hall_opened_again_shows_its_last_position() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = root.path().join("cup");
    std::fs::create_dir_all(&dir).unwrap();
    let bot = |n: u32| format!("gtp:{} bot --seed {n} --think-ms 150", goref().display());
    let entrants = [
        ("bot1", bot(1)),
        ("bot2", bot(2)),
        ("bot3", bot(3)),
        ("crasher", common::fake("--board --crash-at 3")),
    ];
    let mut text = "name = \"again cup\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\n\
                    rules = \"kgs\"\nsize = 9\ntime = \"absolute:10m\"\nrestart_crashed = 0\n"
        .to_string();
    for (name, player) in entrants {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\nplayer = \"{player}\"\n"
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let command = format!(
        "cd '{}' && '{}' event cup --yes",
        root.path().display(),
        goref().display()
    );
    let limit = Duration::from_secs(30);
    let Some(first) = Tmux::start("hall-first", 80, 24, &command) else {
        return;
    };
    let forfeit = |s: &str| s.contains("+F (");
    let seen = first.wait_for("the crasher's forfeit", limit, forfeit);
    assert!(
        seen.contains("playing"),
        "the other board plays on:\n{seen}"
    );
    drop(first);

    let ended = dir.join("round-1").join(
        ["board-1", "board-2"]
            .into_iter()
            .find(|b| {
                journal(&dir.join("round-1").join(b))
                    .iter()
                    .any(|e| e["end"] == "forfeit_crash")
            })
            .expect("a board ended by the crash"),
    );
    let events = journal(&ended);
    let last = events
        .iter()
        .rfind(|e| e["type"] == "move")
        .expect("the ended board has moves");
    let tile_move = format!(
        "move {}: {} {}",
        last["n"],
        last["color"].as_str().unwrap(),
        last["vertex"].as_str().unwrap()
    );

    let port = free_port();
    let served = format!("{command} --serve 127.0.0.1:{port}");
    let again = Tmux::start("hall-again", 80, 24, &served).unwrap();
    let shows_it =
        |s: &str| s.starts_with("again cup | round 1 of 1") && forfeit(s) && s.contains(&tile_move);
    let tiles = again.wait_for("the ended board's tile", limit, shows_it);
    let stones = tiles.matches('●').count() + tiles.matches('○').count();
    assert!(stones >= 4, "the ended board's stones are drawn:\n{tiles}");
    let watch = format!("'{}' --watch 127.0.0.1:{port}", goref().display());
    let spectator = Tmux::start("hall-again-watch", 80, 24, &watch).unwrap();
    spectator.wait_for("the ended board for a spectator", limit, shows_it);
    drop(spectator);

    let number = ended
        .file_name()
        .unwrap()
        .to_string_lossy()
        .replace("board-", "");
    again.keys(&[&number, "Enter"]);
    let board = again.wait_for("the ended board on the whole screen", limit, |s| {
        s.starts_with("result ") && s.contains("forfeit_crash")
    });
    assert!(board.contains(&format!("move {}", last["n"])), "{board}");
    again.keys(&["Escape"]);

    let over = again.wait_for("the event's end", Duration::from_secs(120), |s| {
        s.contains("the event is over")
    });
    assert!(over.contains("round 1 results:"), "{over}");
    again.keys(&["q"]);
    let left = again.wait_for("goref to end", limit, |s| s.contains("EXIT="));
    assert!(left.contains("EXIT=0"), "{left}");
}

/// The last board of a round, 19x19, at exactly 80x24: it opens from the
/// hall on the whole screen with the hall's word on its status line, and
/// the director's `R` on it ends its game void with her result and reason
/// before the event says it is over.
#[test]
fn the_last_board_opens_at_80x24_and_the_directors_result_ends_its_game_void() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = root.path().join("big");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = "name = \"big cup\"\nsystem = \"swiss\"\nrounds = 1\n\n[game]\n\
                    rules = \"kgs\"\nsize = 19\ntime = \"absolute:30m\"\n"
        .to_string();
    for n in 1..=2 {
        text.push_str(&format!(
            "[[entrant]]\nname = \"bot{n}\"\nplayer = \"gtp:{} bot --seed {n} --think-ms 300\"\n",
            goref().display()
        ));
    }
    std::fs::write(dir.join("event.toml"), text).unwrap();
    let command = format!(
        "cd '{}' && '{}' event big --yes",
        root.path().display(),
        goref().display()
    );
    let Some(tmux) = Tmux::start("hall-big", 80, 24, &command) else {
        return;
    };
    let limit = Duration::from_secs(30);
    tmux.wait_for("the tile", limit, |s| {
        s.contains("board 1 ") && s.contains("move ")
    });
    tmux.keys(&["1", "Enter"]);
    let board = tmux.wait_for("the 19x19 board", limit, |s| {
        s.lines()
            .next()
            .unwrap_or_default()
            .contains("round 1 board 1")
    });
    assert!(!board.contains("needs 44x24"), "{board}");
    assert!(board.contains("19"), "the board's coordinates:\n{board}");
    assert!(last_line(&board).contains("q/esc the hall"), "{board}");
    tmux.keys(&["q"]);
    let hall = tmux.wait_for("the hall again", limit, |s| s.starts_with("big cup"));
    assert!(
        !hall.contains("void it"),
        "q went back without asking:\n{hall}"
    );
    tmux.keys(&["R"]);
    tmux.wait_for("the result box", limit, |s| s.contains("RESULT REASON"));
    tmux.keys(&["B+R its operator resigned", "Enter"]);
    tmux.wait_for("the confirmation", limit, |s| {
        s.contains("B+R (its operator resigned)?")
    });
    tmux.keys(&["y"]);
    let over = tmux.wait_for("the event's end", Duration::from_secs(60), |s| {
        s.contains("the event is over")
    });
    assert!(over.contains("B+R (set by the director)"), "{over}");
    let board_dir = dir.join("round-1/board-1");
    let result = journal(&board_dir)
        .into_iter()
        .rfind(|e| e["type"] == "result")
        .expect("board 1 has its result");
    assert_eq!(result["result"], "Void", "{result}");
    let why = result["reason"].as_str().unwrap();
    assert!(
        why.contains("B+R") && why.contains("its operator resigned"),
        "{why}"
    );
    let sgf = std::fs::read_to_string(board_dir.join("game.sgf")).unwrap();
    assert!(sgf.contains("RE[Void]"), "{sgf}");
    tmux.keys(&["q"]);
    let left = tmux.wait_for("goref to end", limit, |s| s.contains("EXIT="));
    assert!(left.contains("EXIT=0"), "{left}");
}

/// A terminal that a killed hall left on the alternate screen, full of its
/// old frame: a new hall clears it whole before it draws, and ctrl-l
/// clears whatever scribbles on it later (here the blank end of the hint
/// bar, which the hall never redraws by itself).
#[test]
fn a_hall_clears_what_a_killed_one_left_and_ctrl_l_repaints() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let dir = root.path().join("cup");
    event_folder(&dir, 300);
    let command = format!(
        "cd '{}' && printf '\\033[?1049h'; for i in $(seq 1 24); do printf 'LEFTOVER%.0s' $(seq 1 10); done; \
         (sleep 5; printf '\\033[24;66HSCRIBBLED') & '{}' event cup --yes",
        root.path().display(),
        goref().display()
    );
    let Some(tmux) = Tmux::start("hall-clear", 80, 24, &command) else {
        return;
    };
    let limit = Duration::from_secs(30);
    let hall = tmux.wait_for("the hall", limit, |s| {
        s.starts_with("hall cup") && s.contains("board 1 ")
    });
    assert!(!hall.contains("LEFTOVER"), "{hall}");
    tmux.wait_for("the scribble", limit, |s| s.contains("SCRIBBLED"));
    tmux.keys(&["C-l"]);
    let clean = tmux.wait_for("the hall repainted", limit, |s| !s.contains("SCRIBBLED"));
    assert!(clean.starts_with("hall cup"), "{clean}");
    tmux.keys(&["q"]);
}
