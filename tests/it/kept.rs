//! A match's programs kept across its games: each started once for each
//! board (the check before the first game through board 1's), a crash
//! losing its game and the program started again for the next, a program
//! hung between games started again or, not ready twice, stopping the
//! match with its name, and a runner killed mid-match whose games wait
//! for its next run, held, and lose nothing. Leela Zero, whose network
//! loads before it answers, kept across its games.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::Duration;

use crate::engine_match::spawn_match;
use common::{figures_of, gnugo, journal, wait_until};

const LIMIT: Duration = Duration::from_secs(300);

/// A program that notes each of its starts in `starts`, then runs `argv`.
pub(crate) fn counted(root: &Path, name: &str, argv: &str) -> (String, PathBuf) {
    let starts = root.join(format!("{name}.starts"));
    let script = root.join(format!("{name}.sh"));
    let text = format!(
        "#!/bin/sh\necho started >> '{}'\nexec {argv}\n",
        starts.display()
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    (format!("gtp:{}", script.display()), starts)
}

pub(crate) fn starts(file: &Path) -> usize {
    std::fs::read_to_string(file).map_or(0, |text| text.lines().count())
}

/// A match of `pairs` pairs on `boards` boards between two engines, with
/// `extra` lines under the candidate.
fn match_folder(root: &Path, boards: u32, pairs: u32, engines: [&str; 2], extra: &str) -> PathBuf {
    let dir = root.join("m");
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "name = \"kept\"\nboards = {boards}\nseed = 3\n\
         [game]\nrules = \"kgs\"\nsize = 9\nkomi = 5.5\ntime = \"fischer:60s,1s\"\n\
         [[engine]]\nname = \"new\"\nplayer = \"{}\"\n{extra}\n\
         [[engine]]\nname = \"old\"\nplayer = \"{}\"\n\
         [openings]\nsource = \"random:2\"\n\
         [stop]\npairs = {pairs}\n",
        engines[0], engines[1]
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    dir
}

/// Every game folder's name, its result and how it ended.
fn results(dir: &Path) -> Vec<(String, String, String)> {
    let mut found: Vec<_> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| {
            let events = journal(&e.path());
            let result = events.iter().find(|e| e["type"] == "result");
            let text = |key: &str| {
                result.map_or(String::new(), |r| r[key].as_str().unwrap_or("").to_string())
            };
            let name = e.file_name().to_string_lossy().into_owned();
            (name, text("result"), text("end"))
        })
        .collect();
    found.sort();
    found
}

/// Runs the match in `dir` to its end, which must be a success with
/// `games` games, each with its result and none forfeited: what it said.
fn played_out(dir: &Path, games: usize) -> String {
    let output = common::wait_with_watchdog(spawn_match(dir), LIMIT);
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{said}");
    let found = results(dir);
    assert_eq!(found.len(), games, "{found:?}\n{said}");
    assert!(
        found
            .iter()
            .all(|(_, result, end)| !result.is_empty() && !end.starts_with("forfeit")),
        "{found:?}"
    );
    said
}

pub(crate) fn gnugo_level_0() -> String {
    format!("{} --mode gtp --level 0 --max-level 0", gnugo())
}

#[test]
fn each_program_is_started_once_a_board_and_every_game_of_the_match_counts() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (new, new_starts) = counted(root.path(), "new", &gnugo_level_0());
    let (old, old_starts) = counted(root.path(), "old", &gnugo_level_0());
    let dir = match_folder(root.path(), 2, 6, [&new, &old], "");
    played_out(&dir, 12);
    assert_eq!(figures_of(&dir)["games"], 12);
    assert_eq!(
        (starts(&new_starts), starts(&old_starts)),
        (2, 2),
        "once for each board, the check through board 1's"
    );
    let game = std::fs::read_to_string(dir.join("games/pair-0003-a.toml")).unwrap();
    assert!(game.contains("seat:board-"), "{game}");
    assert!(figures_of(&dir)["restarts"]
        .as_object()
        .is_some_and(|r| r.is_empty()));
}

/// A program that crashes at its 8th move the first time it is started,
/// and plays well after; each start noted in the file given back.
pub(crate) fn crashing_once(root: &Path) -> (String, PathBuf) {
    let fake = common::fake_gtp();
    let crashed_once = root.join("crashed");
    let script = root.join("crasher.sh");
    let starts_file = root.join("crasher.starts");
    let text = format!(
        "#!/bin/sh\necho started >> '{starts}'\n\
         if [ -e '{mark}' ]; then exec '{fake}' --board; fi\n\
         : > '{mark}'\nexec '{fake}' --board --crash-at 8\n",
        starts = starts_file.display(),
        mark = crashed_once.display(),
        fake = fake.display()
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    (format!("gtp:{}", script.display()), starts_file)
}

#[test]
fn a_kept_program_that_crashes_loses_that_game_and_the_next_is_played_by_it_started_again() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (crasher, starts_file) = crashing_once(root.path());
    let dir = match_folder(
        root.path(),
        1,
        2,
        [&crasher, &format!("gtp:{}", gnugo_level_0())],
        "",
    );
    let output = common::wait_with_watchdog(spawn_match(&dir), LIMIT);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    let games = results(&dir);
    assert_eq!(games.len(), 4, "no game played again: {games:?}\n{said}");
    assert_eq!(games[0].2, "forfeit_crash", "{games:?}");
    assert!(
        games[1..].iter().all(|(_, _, end)| end != "forfeit_crash"),
        "the next games are played by the program started again: {games:?}"
    );
    assert_eq!(starts(&starts_file), 2, "started again once");
    let figures = figures_of(&dir);
    assert_eq!(figures["crashes"], serde_json::json!([1, 0]), "{figures}");
    assert_eq!(figures["restarts"]["new"], 1, "{figures}");
    let text = common::standings_text(&dir);
    assert!(
        text.contains("kept programs started again: new 1"),
        "{text}"
    );
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(report.contains("kept programs started again: new 1"));
}

/// A candidate that thinks a little on a board of its own, and hangs at
/// `protocol_version` while `hang` exists (`once`: it removes it).
fn hanging(hang: &Path, once: bool) -> String {
    let once = if once { " --version-hang-once" } else { "" };
    common::fake(&format!(
        "--board --think-ms 40 --version-hang-file {}{once}",
        hang.display()
    ))
}

/// A match of `pairs` on one board whose candidate hangs at
/// `protocol_version` (`once`, or for good) from the first game on: the
/// runner, once the file that makes it hang is written.
fn hung_between_games(root: &Path, pairs: u32, once: bool) -> (PathBuf, PathBuf, Child) {
    let hang = root.join("hang");
    let candidate = hanging(&hang, once);
    let opponent = format!("gtp:{}", gnugo_level_0());
    let dir = match_folder(
        root,
        1,
        pairs,
        [&candidate, &opponent],
        "ready_timeout = \"1s\"",
    );
    let running = spawn_match(&dir);
    let first = dir.join("games/pair-0001-a");
    wait_until(
        LIMIT,
        || "the first game under way".into(),
        || common::journal_moves(&first).len() >= 6,
    );
    std::fs::write(&hang, "").unwrap();
    (dir, hang, running)
}

#[test]
fn a_kept_program_hung_between_games_is_started_again_and_the_match_goes_on() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, hang, running) = hung_between_games(root.path(), 1, true);
    let output = common::wait_with_watchdog(running, LIMIT);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(!hang.exists(), "the readiness check met the hang");
    let games = results(&dir);
    assert_eq!(games.len(), 2, "{games:?}\n{said}");
    assert!(games.iter().all(|(_, result, _)| !result.is_empty()));
    assert_eq!(figures_of(&dir)["restarts"]["new"], 1);
    let restarts = std::fs::read_to_string(dir.join("programs/restarts.jsonl")).unwrap_or_default();
    assert!(
        restarts.contains("not ready: no answer to protocol_version within 1.0 s"),
        "{restarts}"
    );
}

#[test]
fn a_kept_program_not_ready_twice_stops_the_match_naming_it_once_the_games_in_play_end() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (dir, hang, running) = hung_between_games(root.path(), 2, false);
    let output = common::wait_with_watchdog(running, LIMIT);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{said}");
    assert!(
        said.contains(
            "engine new is not ready twice on board 1: no answer to protocol_version within 1.0 s"
        ),
        "{said}"
    );
    let games = results(&dir);
    assert_eq!(
        games.len(),
        1,
        "the game in play finished, none begun: {games:?}"
    );
    assert!(!games[0].1.is_empty(), "{games:?}");
    std::fs::remove_file(&hang).unwrap();
    let output = common::wait_with_watchdog(spawn_match(&dir), LIMIT);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the next run finishes it: {said}");
    assert_eq!(results(&dir).len(), 4);
}

#[test]
fn a_runner_killed_mid_match_holds_its_games_and_its_next_run_finishes_them_once() {
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let (new, new_starts) = counted(root.path(), "new", &gnugo_level_0());
    let (old, old_starts) = counted(root.path(), "old", &gnugo_level_0());
    let dir = match_folder(root.path(), 2, 3, [&new, &old], "");
    let mut first = spawn_match(&dir);
    let game = dir.join("games/pair-0001-b");
    wait_until(
        LIMIT,
        || "a game under way on each board".into(),
        || common::journal_moves(&game).len() >= 4,
    );
    unsafe { libc::kill(first.id() as i32, libc::SIGKILL) };
    first.wait().unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let output = common::wait_with_watchdog(spawn_match(&dir), LIMIT);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    let games = results(&dir);
    let names: Vec<&str> = games.iter().map(|(name, ..)| name.as_str()).collect();
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
        "no game twice: {said}"
    );
    assert!(
        games.iter().all(|(_, result, end)| !result.is_empty()
            && !end.starts_with("forfeit")
            && end != "time"),
        "no game lost to the kill: {games:?}"
    );
    let held = journal(&game);
    assert!(
        held.iter().any(|e| e["what"] == "venue_away"),
        "the game in play was held while no runner kept its programs"
    );
    assert_eq!(
        (starts(&new_starts), starts(&old_starts)),
        (4, 4),
        "started once a board by each run"
    );
}

#[test]
fn leela_zero_is_started_once_a_board_and_kept_across_its_games() {
    let leelaz = common::leela_network::LEELAZ;
    if !Path::new(leelaz).exists() {
        panic!("Leela Zero is not installed: run the tests with tests/run.sh, which installs it");
    }
    let root = tempfile::tempdir().unwrap();
    let _ends = common::EndsWithin(root.path().to_path_buf());
    let network = root.path().join("tiny.txt");
    common::leela_network::random_network(&network).unwrap();
    let argv = format!(
        "{leelaz} -w {} --gtp --noponder -p 1 -t 1 --seed 7 --cpu-only -r 0 -q",
        network.display()
    );
    let (leela, leela_starts) = counted(root.path(), "leela", &argv);
    let dir = root.path().join("m");
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "name = \"leela\"\nboards = 2\nseed = 3\n\
         [game]\nrules = \"kgs\"\nsize = 19\nkomi = 7.5\ntime = \"absolute:6s\"\n\
         [[engine]]\nname = \"leela\"\nplayer = \"{leela}\"\n\
         [[engine]]\nname = \"gnugo\"\nplayer = \"gtp:{}\"\n\
         [openings]\nsource = \"random:2\"\n\
         [stop]\npairs = 2\n",
        gnugo_level_0()
    );
    std::fs::write(dir.join("match.toml"), text).unwrap();
    let said = played_out(&dir, 4);
    assert_eq!(
        starts(&leela_starts),
        2,
        "once for each board, its network loaded once each: {said}"
    );
}
