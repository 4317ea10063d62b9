//! `goref match` with real GNU Gos on 9x9: openings from an SGF file,
//! colour-swapped pairs, each game its own goref in its own folder; a
//! strong candidate against a weak one runs to the SPRT's H1, an engine
//! against itself stops at its pairs; the runner killed mid-match and run
//! again finishes with no game twice; the figures from the folders.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::tmux::{last_line, Tmux};
use common::{figures_of, gnugo, goref, journal, wait_until};

const LIMIT: Duration = Duration::from_secs(400);

/// Three 9x9 games to take openings from, a collection in one file.
const BOOK: &str = "(;GM[1]SZ[9];B[ee];W[cc];B[gg];W[gc])\n\
                    (;GM[1]SZ[9];B[cg];W[ec];B[ge];W[cc])\n\
                    (;GM[1]SZ[9];B[ec];W[ge];B[cc];W[eg])\n";

fn match_folder(root: &Path, candidate: u8, opponent: u8, stop: &str) -> PathBuf {
    let dir = root.join("m");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("book.sgf"), BOOK).unwrap();
    let text = format!(
        "name = \"level {candidate} vs level {opponent}\"\nboards = 2\nseed = 3\n\
         [game]\nrules = \"kgs\"\nsize = 9\nkomi = 5.5\n\
         [[engine]]\nname = \"level{candidate}\"\nplayer = \"gtp:{gnugo} --mode gtp --level {candidate}\"\n\
         [[engine]]\nname = \"level{opponent}-b\"\nplayer = \"gtp:{gnugo} --mode gtp --level {opponent}\"\n\
         [openings]\nsource = \"book.sgf\"\nplies = 2\n\
         [stop]\n{stop}\n",
        gnugo = gnugo()
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    dir
}

/// `goref match DIR --headless` working in DIR (its games and programs
/// too, for `common::EndsWithin`), its stderr piped.
pub(crate) fn spawn_match(dir: &Path) -> Child {
    Command::new(goref())
        .arg("match")
        .arg(dir)
        .arg("--headless")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(child: Child) -> String {
    let output = common::wait_with_watchdog(child, LIMIT);
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        common::say_past_capture(&format!("goref match ended {}", output.status), &said);
    }
    assert!(output.status.success(), "{said}");
    said
}

/// Every game folder's name and its result.
fn results(dir: &Path) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| {
            let events = journal(&e.path());
            let result = events
                .iter()
                .find(|e| e["type"] == "result")
                .map_or(String::new(), |r| r["result"].as_str().unwrap().to_string());
            (e.file_name().to_string_lossy().into_owned(), result)
        })
        .collect();
    found.sort();
    found
}

#[test]
fn init_writes_a_commented_match_file_once() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("new");
    let first = Command::new(goref())
        .args(["match", "init"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(first.status.success(), "{first:?}");
    let text = std::fs::read_to_string(dir.join("match.toml")).unwrap();
    assert!(
        text.contains("[[engine]]") && text.contains("sprt = {"),
        "{text}"
    );
    assert!(
        text.contains("--level 5 --max-level 5") && text.contains("--level 0 --max-level 0"),
        "GNU Go's levels are pinned, or a clock makes them alike: {text}"
    );
    let again = Command::new(goref())
        .args(["match", "init"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
}

#[test]
fn a_strong_candidate_is_found_stronger_by_the_sprt_in_colour_swapped_pairs() {
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(
        root.path(),
        8,
        0,
        "pairs = 40\nsprt = { elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.05, model = \"logistic\" }",
    );
    let said = finish(spawn_match(&dir));
    let figures = figures_of(&dir);
    let pairs = figures["pairs"].as_u64().unwrap();
    assert_ne!(figures["sprt"], "accept_h0", "{said}\n{figures}");
    match figures["sprt"].as_str() {
        // The decision may come on the very last pair: it stops the match
        // there all the same, and no pair begins after it.
        Some("accept_h1") => {
            assert!(said.contains("H1 accepted"), "{said}");
            assert!(pairs <= 40, "decided within the pairs asked for: {figures}");
        }
        // GNU Go's play varies from run to run: a match the SPRT has not
        // decided by its last pair still stops there, the candidate ahead.
        _ => assert_eq!(pairs, 40, "{said}\n{figures}"),
    }
    let penta: Vec<u64> = serde_json::from_value(figures["penta"].clone()).unwrap();
    assert_eq!(penta.iter().sum::<u64>(), pairs);
    assert!(figures["elo"].as_f64().unwrap() > 0.0, "{figures}");
    for key in [
        "wins",
        "losses",
        "draws",
        "score",
        "elo_error",
        "nelo",
        "los",
        "llr",
        "llr_lower",
        "llr_upper",
    ] {
        assert!(!figures[key].is_null(), "{key} in {figures}");
    }
    let games = results(&dir);
    assert_eq!(games.len() as u64, 2 * pairs, "every pair whole: {games:?}");
    for pair in 1..=pairs {
        let a = dir.join(format!("games/pair-{pair:04}-a"));
        let b = dir.join(format!("games/pair-{pair:04}-b"));
        let opening = |folder: &Path| -> Vec<String> {
            journal(folder)
                .iter()
                .filter(|e| e["type"] == "move" && e["opening"] == true)
                .map(|e| e["vertex"].as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(opening(&a).len(), 2, "the opening's two moves, marked");
        assert_eq!(opening(&a), opening(&b), "one opening, both colours");
        let start = |folder: &Path| {
            journal(folder)
                .into_iter()
                .find(|e| e["type"] == "game_start")
                .unwrap()
        };
        let seat = |folder: &Path, colour: &str| {
            start(folder)[colour]["spec"].as_str().unwrap().to_string()
        };
        assert!(
            seat(&a, "black").ends_with("-level8"),
            "the candidate's program kept for its board: {}",
            seat(&a, "black")
        );
        assert!(seat(&b, "white").ends_with("-level8"));
        let sgf = std::fs::read_to_string(a.join("game.sgf")).unwrap();
        assert!(sgf.contains("End of the opening"), "{sgf}");
        let config = std::fs::read_to_string(a.join("config.toml")).unwrap();
        assert!(config.contains("journal_sync = \"result\""), "{config}");
    }
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let decision = match figures["sprt"].as_str() {
        Some("accept_h1") => "H1 accepted",
        _ => "undecided",
    };
    assert!(report.contains(decision), "the figures: {decision}");
    assert!(report.contains("<svg class=\"llr\"") && report.contains("<svg class=\"elo\""));
    assert!(report.contains("href=\"games/pair-0001-a/game.sgf\""));
    assert_eq!(
        report.matches("<tr><td><a href=").count() as u64,
        2 * pairs,
        "every game linked"
    );
    for what in [
        "date: 20",
        "game: kgs rules, 9x9, komi 5.5",
        "candidate level8: gtp:",
        "(GNU Go 3.",
        "openings: the first 2 moves of the games in /",
        "SPRT: elo0 ",
        "for Elo [",
        "games: ",
        "<td>Black</td>",
        "<td>White</td>",
        "book.sgf, game ",
    ] {
        assert!(report.contains(what), "{what} in the report: {report}");
    }
}

#[test]
fn a_candidate_that_crashes_in_its_games_loses_them_and_its_crashes_are_counted() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("m");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("book.sgf"), BOOK).unwrap();
    let crasher = common::fake("--board --crash-at 6");
    let text = format!(
        "name = \"crasher\"\nboards = 2\nseed = 3\n\
         [game]\nrules = \"kgs\"\nsize = 9\nkomi = 5.5\nrestart_crashed = 0\n\
         [[engine]]\nname = \"crasher\"\nplayer = \"{crasher}\"\n\
         [[engine]]\nname = \"gnugo\"\nplayer = \"gtp:{gnugo} --mode gtp --level 0\"\n\
         [openings]\nsource = \"book.sgf\"\nplies = 2\n\
         [stop]\npairs = 2\n",
        gnugo = gnugo()
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    let said = finish(spawn_match(&dir));
    let games = results(&dir);
    assert_eq!(games.len(), 4, "no game played again: {games:?} {said}");
    let figures = figures_of(&dir);
    assert_eq!(figures["games"], 4, "{figures}");
    assert_eq!(
        (figures["wins"].as_u64(), figures["losses"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(figures["crashes"], serde_json::json!([4, 0]), "{figures}");
    assert_eq!(figures["replayed"], 0);
    let text = common::standings_text(&dir);
    assert!(
        text.contains("lost by a crash or hang 4 (opponents 0)"),
        "{text}"
    );
}

#[test]
fn an_engine_against_itself_stops_at_its_pairs_and_a_killed_match_plays_no_game_twice() {
    let root = tempfile::tempdir().unwrap();
    let dir = match_folder(root.path(), 0, 0, "pairs = 3");
    let first = spawn_match(&dir);
    let some_game = dir.join("games/pair-0001-a");
    wait_until(
        LIMIT,
        || "the first game under way".into(),
        || common::journal_moves(&some_game).len() >= 4,
    );
    let mut first = first;
    unsafe { libc::kill(first.id() as i32, libc::SIGHUP) };
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        first.try_wait().unwrap().is_none(),
        "a hangup (a dropped SSH session) does not stop the match"
    );
    unsafe { libc::kill(first.id() as i32, libc::SIGKILL) };
    first.wait().unwrap();
    let told_before = std::fs::read_to_string(dir.join("told.txt")).unwrap_or_default();
    let said = finish(spawn_match(&dir));
    let games = results(&dir);
    let names: Vec<&str> = games.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "pair-0001-a",
            "pair-0001-b",
            "pair-0002-a",
            "pair-0002-b",
            "pair-0003-a",
            "pair-0003-b"
        ],
        "{said}"
    );
    assert!(
        games.iter().all(|(_, result)| !result.is_empty()),
        "{games:?}"
    );
    for name in &names {
        assert!(
            told_before.lines().any(|l| l == *name) || said.contains(&format!("{name}: ")),
            "each game has its line, those that ended while no runner followed too: \
             {name}\n{said}"
        );
    }
    let figures = figures_of(&dir);
    assert_eq!(figures["pairs"], 3);
    assert_eq!(figures["games"], 6);
    assert!(figures["sprt"].is_null());
    let csv = Command::new(goref())
        .arg("standings")
        .arg(&dir)
        .arg("--csv")
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&csv.stdout);
    assert!(
        csv.starts_with("games,pairs,wins,losses,draws,ll,ld,wl_dd,wd,ww"),
        "{csv}"
    );
    let text = common::standings_text(&dir);
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert!(text.contains("pairs 3"), "{text}");
}

#[test]
fn the_match_on_a_terminal_shows_its_games_figures_and_plots_and_q_leaves_them_playing() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("m");
    std::fs::create_dir_all(&dir).unwrap();
    let engine = format!("gtp:{} bot --think-ms 100", goref().display());
    let text = format!(
        "name = \"bots\"\nboards = 2\nseed = 5\n[game]\nsize = 9\nkomi = 7.5\n\
         [[engine]]\nname = \"bot-a\"\nplayer = \"{engine}\"\n\
         [[engine]]\nname = \"bot-b\"\nplayer = \"{engine}\"\n\
         [openings]\nsource = \"random:2\"\n\
         [stop]\npairs = 2\nsprt = {{ elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.05, model = \"logistic\" }}\n"
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    let stderr = root.path().join("stderr.txt");
    let command = format!(
        "'{}' match '{}' 2>'{}'",
        goref().display(),
        dir.display(),
        stderr.display()
    );
    let Some(tmux) = Tmux::start("match", 80, 24, &command) else {
        return;
    };
    let limit = Duration::from_secs(120);
    let fits = |screen: &str| {
        assert!(screen.lines().count() <= 24, "{screen}");
        for line in screen.lines() {
            assert!(line.chars().count() <= 80, "{line}\n{screen}");
        }
    };
    let tiles = tmux.wait_for("both games of pair 1 as tiles", limit, |s| {
        s.contains("pair 1 game 1") && s.contains("pair 1 game 2") && s.contains("move ")
    });
    fits(&tiles);
    assert!(
        tiles.starts_with("bots | games 0 of 4 | "),
        "the match's name and games on the status line:\n{tiles}"
    );

    tmux.keys(&["Enter"]);
    let board = tmux.wait_for("a game on the whole screen", limit, |s| {
        last_line(s).contains("q/esc the hall")
    });
    fits(&board);
    assert!(
        board.lines().next().unwrap().contains("pair 1 game 1"),
        "{board}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("the match again", limit, |s| s.starts_with("bots | "));

    let plotted = tmux.wait_for("a pair plotted", limit, |s| {
        s.contains("penta [LL LD WL+DD WD WW]") && s.contains('•')
    });
    fits(&plotted);
    assert!(
        plotted.contains("LLR ") && plotted.contains("Elo ") && plotted.contains('┄'),
        "both plots, the SPRT's bounds dashed:\n{plotted}"
    );
    tmux.keys(&["s"]);
    let figures = tmux.wait_for("every figure", limit, |s| s.contains("SPRT LLR"));
    assert!(figures.contains("lost on time"), "{figures}");
    tmux.keys(&["Escape", "q"]);
    let left = tmux.wait_for("goref to end", limit, |s| {
        s.contains("EXIT=") && s.contains("icanon")
    });
    assert!(
        left.lines().any(|l| l.trim() == "icanon"),
        "the terminal given back as it was:\n{left}"
    );
    assert!(
        left.contains("EXIT=1"),
        "a match left with q is undecided, not failed:\n{left}"
    );
    let said = std::fs::read_to_string(&stderr).unwrap();
    assert!(said.contains("the screen was left with q"), "{said}");
    let card = std::fs::read_to_string(dir.join("cards/bot-a.txt")).unwrap();
    assert!(
        card.contains("genmove"),
        "the engines checked first:\n{card}"
    );
    drop(tmux);
    let again = finish(spawn_match(&dir));
    assert!(
        !again.contains("checking the engines"),
        "checked once: {again}"
    );
    let games = results(&dir);
    let names: Vec<&str> = games.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["pair-0001-a", "pair-0001-b", "pair-0002-a", "pair-0002-b"],
        "no game twice: {games:?}"
    );
    assert!(
        games.iter().all(|(_, result)| !result.is_empty()),
        "{games:?}"
    );
}

#[test]
fn ctrl_c_stops_a_match_whose_engine_hangs_in_its_check_before_any_game() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("m");
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "name = \"hung\"\nboards = 1\n[game]\nsize = 9\n\
         [[engine]]\nname = \"new\"\nplayer = \"{}\"\n\
         [[engine]]\nname = \"old\"\nplayer = \"bot\"\n[stop]\npairs = 1\n",
        common::fake("--moves E5 --hang-at 1")
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    let child = spawn_match(&dir);
    std::thread::sleep(Duration::from_secs(12));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let started = std::time::Instant::now();
    let output = common::wait_with_watchdog(child, Duration::from_secs(30));
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "a match its player stopped is undecided, not a failure: {said}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "stopped at once, not after the check's move limit: {said}"
    );
    assert!(
        said.contains("SIGINT") && said.contains("while engine new was being checked"),
        "{said}"
    );
    assert!(
        said.contains("goref: checking engine new")
            && said.contains("goref: still checking engine new (10 s)"),
        "a hanging check is not silent: {said}"
    );
    assert!(!dir.join("games").exists(), "no game begun");
}
