//! Programs on GMP lines: GNU Go in `--mode sgmp`/`--mode gmp` on a socat
//! pty, as Black and as White, against the built-in engine and against GNU
//! Go over GTP. The referee's record must equal GNU Go's own `-o` record,
//! move for move. The built-in engine on a line shows what a program's
//! clock is charged on a line at its baud rate and on one faster than it,
//! and a trace of its game is read back by `goref decode`.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::pty::LineProgram;
use common::{
    gnugo_seeded, journal_moves, run_goref, run_goref_answering, sgf_file_moves, spawn_goref,
    wait_for_moves, Run,
};
use goref_core::game::sgf;
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

/// The arguments of a 9x9 CGF game between `black` and `white`.
fn cgf_args<'a>(black: &'a str, white: &'a str, sgf_path: &'a Path) -> Vec<&'a str> {
    vec![
        "play",
        "--json",
        "--rules",
        "cgf",
        "--size",
        "9",
        "--black",
        black,
        "--white",
        white,
        "--sgf",
        sgf_path.to_str().unwrap(),
    ]
}

fn referee(black: &str, white: &str, sgf_path: &Path, extra: &[&str]) -> Run {
    let mut args = cgf_args(black, white, sgf_path);
    args.extend_from_slice(extra);
    let run = run_goref(&args, LIMIT);
    run.assert_status_matches_result();
    run
}

/// Both records hold the same moves; GNU Go's may lack the very last pass
/// when it exits before writing it.
fn assert_same_game(referee: &[(String, String)], gnugo: &[(String, String)]) {
    assert!(referee.len() > 10, "a real game: {referee:?}");
    assert_eq!(&referee[..gnugo.len()], gnugo, "the records differ");
    assert!(referee.len() - gnugo.len() <= 1, "{referee:?}\n{gnugo:?}");
}

#[test]
fn gnugo_as_black_on_a_line_against_the_builtin_engine() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::start(dir.path(), "black", "sgmp", "black", 1);
    let sgf_path = dir.path().join("referee.sgf");
    let run = referee(&black.spec("sgmp"), "bot:4", &sgf_path, &[]);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["protocol"], "sgmp");
    // Without name=, the line's description is the program's name.
    assert_eq!(
        start["black"]["name"],
        format!("{} 2400 8N1 flow none", black.link.display())
    );
    assert!(
        !run.of_type("packet").is_empty(),
        "every packet is an event"
    );
    // Set-up was announced once, and not again once the game was under way.
    assert_eq!(setup_notices(&run).len(), 1, "{}", run.stdout);
    assert_same_game(&sgf_file_moves(&sgf_path, 9), &black.moves());
}

#[test]
fn gnugo_as_white_on_a_line_against_gnugo_over_gtp() {
    let dir = tempfile::tempdir().unwrap();
    let white = LineProgram::start(dir.path(), "white", "sgmp", "white", 2);
    let sgf_path = dir.path().join("referee.sgf");
    let trace_path = dir.path().join("trace.jsonl");
    let black = gnugo_seeded(3);
    let trace = trace_path.to_str().unwrap();
    let run = referee(&black, &white.spec("sgmp"), &sgf_path, &["--trace", trace]);
    let packets = run.of_type("packet");
    let first: Vec<&str> = packets
        .iter()
        .take(6)
        .map(|p| p["hex"].as_str().unwrap())
        .collect();
    assert_eq!(
        first,
        [
            "01:a1:a0:80",
            "03:be:b0:8b",
            "02:c4:c0:82",
            "00:b8:b0:88",
            "01:c2:c0:81",
            "02:88:87:ff"
        ],
        "the CGF handshake, byte for byte"
    );
    let wire = packets[0]["wire_ms"].as_f64().unwrap();
    assert!((wire - 16.67).abs() < 0.01, "4 bytes at 2400 baud: {wire}");
    assert_same_game(&sgf_file_moves(&sgf_path, 9), &white.moves());

    let decoded = run_goref(&["decode", trace], LIMIT);
    assert_eq!(decoded.status, 0, "{}", decoded.stderr);
    let lines: Vec<&str> = decoded.stdout.lines().collect();
    assert_eq!(lines.len(), packets.len(), "one line a packet");
    assert!(lines[0].ends_with("01:a1:a0:80  NEWGAME"), "{}", lines[0]);
    assert!(
        lines[1].contains("W in  03:be:b0:8b  QUERY 11 (colour)"),
        "{}",
        lines[1]
    );
    let moves = lines.iter().filter(|l| l.contains(" MOVE ")).count();
    assert!(moves >= run.moves().len(), "{moves} MOVE lines");
}

#[test]
fn two_programs_each_on_its_own_line() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::start(dir.path(), "black", "sgmp", "black", 5);
    let white = LineProgram::start(dir.path(), "white", "sgmp", "white", 6);
    let sgf_path = dir.path().join("referee.sgf");
    let run = referee(&black.spec("sgmp"), &white.spec("sgmp"), &sgf_path, &[]);
    let recorded = sgf_file_moves(&sgf_path, 9);
    assert_same_game(&recorded, &black.moves());
    assert_same_game(&recorded, &white.moves());
    let result = run.result();
    assert_eq!(result["result"], "?", "neither line can claim: {result}");
    let reason = result["reason"].as_str().unwrap();
    assert!(reason.contains("cannot claim dead stones"), "{reason}");
    assert!(reason.contains("no operator is attached"), "{reason}");
    assert!(!run
        .of_type("agreement")
        .iter()
        .any(|a| a["kind"] == "agreed"));
}

#[test]
fn with_two_lines_under_cgf_the_operator_marks_the_dead_stones() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::start(dir.path(), "black", "sgmp", "black", 5);
    let white = LineProgram::start(dir.path(), "white", "sgmp", "white", 6);
    let sgf_path = dir.path().join("referee.sgf");
    let (black, white) = (black.spec("sgmp"), white.spec("sgmp"));
    let args = cgf_args(&black, &white, &sgf_path);
    let run = run_goref_answering(&args, "needs the judge", "score\n", LIMIT);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let phase = run
        .of_type("phase")
        .into_iter()
        .find(|p| p["phase"] == "adjudication")
        .expect("the game went to the judge");
    assert!(phase["reason"]
        .as_str()
        .unwrap()
        .contains("a GMP line has no dead-stone question"));
    let result = run.result();
    assert_eq!(
        result["reason"], "scored by the operator: counted with the stones marked dead",
        "{result}"
    );
    assert!(result["score"].is_object());
}

#[test]
fn full_gmp_where_the_referee_answers_the_board_size() {
    let dir = tempfile::tempdir().unwrap();
    let white = LineProgram::start(dir.path(), "white", "gmp", "white", 7);
    let sgf_path = dir.path().join("referee.sgf");
    let run = referee("bot:8", &white.spec("gmp"), &sgf_path, &[]);
    let size_answered = run
        .of_type("packet")
        .iter()
        .any(|p| p["direction"] == "out" && p["meaning"].as_str().unwrap_or("") == "ANSWER 9");
    assert!(size_answered, "goref told GNU Go the board size");
    assert_eq!(run.of_type("game_start")[0]["white"]["protocol"], "gmp");
    assert_same_game(&sgf_file_moves(&sgf_path, 9), &white.moves());
}

/// goref with these arguments, expected to stop before any game.
fn no_game(args: &[&str], limit: Duration) -> Run {
    let run = run_goref(args, limit);
    assert_eq!(run.status, 2, "no game was played\n{}", run.stderr);
    assert!(run.moves().is_empty(), "no move: {:?}", run.moves());
    assert!(run.of_type("game_start").is_empty(), "{}", run.stdout);
    run
}

/// The last line of stderr: the one-line reason no game was played.
fn reason(run: &Run) -> &str {
    run.stderr.lines().last().unwrap_or_default()
}

/// Issue #7: `--handicap 2` against GNU Go started without a handicap. It
/// answers QUERY 8 with 1, an even game: the set-up stops there, naming both
/// values, before GNU Go's first move can be played or relayed.
#[test]
fn a_handicap_gnugo_was_not_given_stops_the_set_up_before_any_move() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::start(dir.path(), "black", "sgmp", "black", 1);
    let sgf_path = dir.path().join("referee.sgf");
    let run = no_game(
        &[
            "play",
            "--json",
            "--rules",
            "cgf",
            "--size",
            "9",
            "--handicap",
            "2",
            "--black",
            &black.spec("sgmp"),
            "--white",
            "bot",
            "--sgf",
            sgf_path.to_str().unwrap(),
        ],
        LIMIT,
    );
    let reason = reason(&run);
    assert!(reason.contains("handicap mismatch"), "{reason}");
    assert!(
        reason.contains("the program says an even game (ANSWER 1 to QUERY 8)"),
        "{reason}"
    );
    assert!(reason.contains("the game has handicap 2"), "{reason}");
    assert!(
        reason.contains(&black.link.display().to_string()),
        "{reason}"
    );
    // The handshake OK that would have handed GNU Go the move never left.
    let sent_ok = run
        .of_type("packet")
        .iter()
        .any(|p| p["direction"] == "out" && p["meaning"] == "OK");
    assert!(!sent_ok, "{}", run.stdout);
    if sgf_path.exists() {
        assert!(sgf_file_moves(&sgf_path, 9).is_empty());
    }
    eprintln!("handicap mismatch found in {:?}", run.elapsed);
}

/// Full GMP: goref asks GNU Go (Black) the rules too. Its Japanese rules
/// fit `cgf` (territory scoring) and the game is played; under `kgs` (area
/// scoring, Chinese rules) the set-up stops, naming both.
#[test]
fn full_gmp_with_gnugo_black_checks_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::start(dir.path(), "black", "gmp", "black", 9);
    let sgf_path = dir.path().join("referee.sgf");
    let run = referee(&black.spec("gmp"), "bot:10", &sgf_path, &[]);
    let rules_asked = run
        .of_type("packet")
        .iter()
        .any(|p| p["direction"] == "out" && p["meaning"] == "QUERY 7 (rules)");
    assert!(rules_asked, "goref asked GNU Go its rules");
    assert_same_game(&sgf_file_moves(&sgf_path, 9), &black.moves());

    let black = LineProgram::start(dir.path(), "black2", "gmp", "black", 9);
    let run = no_game(
        &[
            "play",
            "--json",
            "--rules",
            "kgs",
            "--size",
            "9",
            "--black",
            &black.spec("gmp"),
            "--white",
            "bot",
        ],
        LIMIT,
    );
    let reason = reason(&run);
    assert!(
        reason.contains(
            "rules mismatch: the program says Japanese rules (ANSWER 1 to QUERY 7); the game \
             is played under Chinese rules"
        ),
        "{reason}"
    );
}

/// GNU Go set to Black on the line given to `--white`: in SGMP only Black
/// sends NEWGAME, so its NEWGAME says its colour is wrong.
#[test]
fn gnugo_set_to_black_on_the_white_line_is_a_colour_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let white = LineProgram::start(dir.path(), "white", "sgmp", "black", 1);
    let run = no_game(
        &[
            "play",
            "--json",
            "--rules",
            "cgf",
            "--size",
            "9",
            "--black",
            "bot",
            "--white",
            &white.spec("sgmp"),
        ],
        LIMIT,
    );
    let reason = reason(&run);
    assert!(
        reason.contains("colour mismatch: the program sent NEWGAME"),
        "{reason}"
    );
    assert!(reason.contains("the game has it play White"), "{reason}");
    eprintln!("colour mismatch found in {:?}", run.elapsed);
}

/// The notices that say what set-up waits for.
fn setup_notices(run: &Run) -> Vec<String> {
    run.of_type("notice")
        .iter()
        .filter_map(|n| n["message"].as_str())
        .filter(|m| m.contains("set-up deadline"))
        .map(String::from)
        .collect()
}

/// Issue #9: a line with nothing on it. The operator is told once what
/// set-up waits for, and at the deadline the player fails saying so.
#[test]
fn a_silent_line_fails_at_the_set_up_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let line = LineProgram::program(dir.path(), "silent", "exec cat >/dev/null");
    let place = line.link.display().to_string();
    let black = format!("{},setup=2s", line.spec("sgmp"));
    let run = no_game(
        &[
            "play", "--json", "--rules", "cgf", "--size", "9", "--black", &black, "--white", "bot",
        ],
        Duration::from_secs(20),
    );
    assert_eq!(
        reason(&run),
        format!(
            "goref: no game was played: Black's program on {place} sent no NEWGAME within 2s: \
             is it set to play Black, and is the line right?"
        )
    );
    assert_eq!(
        setup_notices(&run),
        [format!(
            "waiting for the program on {place} to send NEWGAME (set-up deadline 2s)"
        )]
    );
    assert!(run.elapsed < Duration::from_secs(8), "{:?}", run.elapsed);
    eprintln!("silent line, program Black: failed after {:?}", run.elapsed);
    drop(line);

    // The program White: goref sends NEWGAME, resends it, and gives up.
    let line = LineProgram::program(dir.path(), "silent2", "exec cat >/dev/null");
    let place = line.link.display().to_string();
    let white = format!("{},setup=2s,resend=500ms", line.spec("sgmp"));
    let run = no_game(
        &[
            "play", "--json", "--rules", "cgf", "--size", "9", "--black", "bot", "--white", &white,
        ],
        Duration::from_secs(20),
    );
    assert_eq!(
        reason(&run),
        format!(
            "goref: no game was played: White's program on {place} did not answer our NEWGAME \
             within 2s: is it set to play White, and is the line right?"
        )
    );
    assert_eq!(setup_notices(&run).len(), 1, "{}", run.stdout);
    assert!(run.elapsed < Duration::from_secs(8), "{:?}", run.elapsed);
    eprintln!("silent line, program White: failed after {:?}", run.elapsed);
}

/// Issue #9: GNU Go set to White on the line given to `--black`. Both
/// sides wait for a NEWGAME; the deadline ends it with the likely cause.
#[test]
fn gnugo_set_to_white_on_the_black_line_fails_at_the_set_up_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let line = LineProgram::start(dir.path(), "black", "sgmp", "white", 1);
    let place = line.link.display().to_string();
    let black = format!("{},setup=3s", line.spec("sgmp"));
    let run = no_game(
        &[
            "play", "--json", "--rules", "cgf", "--size", "9", "--black", &black, "--white", "bot",
        ],
        Duration::from_secs(30),
    );
    assert!(
        reason(&run).ends_with(&format!(
            "Black's program on {place} sent no NEWGAME within 3s: is it set to play Black, \
             and is the line right?"
        )),
        "{}",
        run.stderr
    );
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    eprintln!(
        "GNU Go White on the Black line: failed after {:?}",
        run.elapsed
    );
}

/// Issue #9: 200 KB of random bytes on the line, then the line closes. The
/// trace summarises the noise: a few hundred packet events, not one for
/// every two bytes (random bytes hold a few packets too, which are traced
/// and answered like any other).
#[test]
fn random_bytes_on_a_line_are_summarised_in_the_trace() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let noise_path = dir.path().join("noise.bin");
    let mut noise = vec![0u8; 200_000];
    rand::rngs::StdRng::seed_from_u64(9).fill(noise.as_mut_slice());
    std::fs::write(&noise_path, &noise).unwrap();
    // The noise, a second of silence, and the line closes.
    let line = LineProgram::program(
        dir.path(),
        "noisy",
        &format!("cat {}; sleep 1", noise_path.display()),
    );
    let run = no_game(
        &[
            "play",
            "--json",
            "--rules",
            "cgf",
            "--size",
            "9",
            "--black",
            &line.spec("sgmp"),
            "--white",
            "bot",
        ],
        Duration::from_secs(60),
    );
    let packets = run.of_type("packet");
    let noise_entries = packets
        .iter()
        .filter(|p| p["meaning"].as_str().unwrap_or("").contains("bytes"))
        .count();
    eprintln!(
        "200 KB of noise: {} packet events ({noise_entries} of noise), {} bytes of JSON, {:?}",
        packets.len(),
        run.stdout.len(),
        run.elapsed
    );
    assert!(packets.len() < 300, "{} packet events", packets.len());
    assert!(run.stdout.len() < 100_000, "{} bytes", run.stdout.len());
}

/// Issue #16: `name=` names the program on the line in the record and the
/// event stream; without it, the line's description stays its name.
#[test]
fn a_line_program_is_named_by_its_spec() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::start(dir.path(), "black", "sgmp", "black", 3);
    let sgf_path = dir.path().join("referee.sgf");
    let spec = format!("{},name=GNU Go", black.spec("sgmp"));
    let run = referee(&spec, "bot:4", &sgf_path, &[]);
    let start = &run.of_type("game_start")[0];
    assert_eq!(start["black"]["name"], "GNU Go");
    assert_eq!(start["black"]["spec"], spec.as_str());
    let text = std::fs::read_to_string(&sgf_path).unwrap();
    let nodes = sgf::parse(&text).unwrap();
    assert_eq!(nodes[0].get("PB"), Some("GNU Go"));
    assert_same_game(&sgf_file_moves(&sgf_path, 9), &black.moves());
}

#[test]
fn the_builtin_engine_on_a_line_plays_handicap_games_in_both_colours() {
    for (black, white) in [("bot-sgmp:3", "bot:4"), ("bot:5", "bot-gmp:6")] {
        let run = run_goref(
            &[
                "play",
                "--json",
                "--size",
                "9",
                "--handicap",
                "2",
                "--black",
                black,
                "--white",
                white,
            ],
            LIMIT,
        );
        run.assert_status_matches_result();
        let moves = run.moves();
        assert!(moves.len() > 10, "{moves:?}");
        assert_eq!(moves[0].0, "W", "White moves first in a handicap game");
        let end = run.result()["end"].as_str().unwrap().to_string();
        assert!(
            ["double_pass_agreed", "no_operator"].contains(&end.as_str()),
            "scored, or sent to the judge over the dead stones: {end}"
        );
    }
}

#[test]
fn a_white_line_programs_first_move_in_a_handicap_game_waits_for_the_game() {
    let black = common::fake("--start-delay-ms 700");
    let run = run_goref(
        &[
            "play",
            "--json",
            "--size",
            "9",
            "--handicap",
            "2",
            "--black",
            &black,
            "--white",
            "bot-gmp:6",
        ],
        Duration::from_secs(30),
    );
    run.assert_status_matches_result();
    assert!(
        run.of_type("error").is_empty(),
        "no move is unasked: {:?}",
        run.of_type("error")
    );
    let moves = run.moves();
    assert_eq!(moves[0].0, "W", "{moves:?}");
    assert!(moves.len() >= 8, "{moves:?}");
}

/// A CGF game of `black` (a line) against `white` in `folder`, its referee
/// killed with SIGKILL once `moves` are played and `last` holds for the
/// last one; the moves it got to.
fn kill_mid_game(
    black: &LineProgram,
    white: &str,
    folder: &Path,
    moves: usize,
    last: impl Fn(&serde_json::Value) -> bool,
) -> usize {
    let (line, folder_arg) = (black.spec("sgmp"), folder.to_str().unwrap());
    let mut referee = spawn_goref([
        "play",
        "--headless",
        "--rules",
        "cgf",
        "--size",
        "9",
        "--black",
        &line,
        "--white",
        white,
        "--game-dir",
        folder_arg,
    ]);
    wait_for_moves(folder, moves, last);
    referee.kill().unwrap();
    referee.wait().unwrap();
    journal_moves(folder).len()
}

#[test]
fn gnugo_on_a_line_plays_on_when_the_referee_is_killed_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::gnugo_lasting(dir.path(), "black", "black", 5);
    let folder = dir.path().join("game");
    // Killed while White thinks, just after a move of GNU Go's.
    let killed_after = kill_mid_game(&black, "bot:7,think=300ms", &folder, 7, |m| {
        m["color"] == "B"
    });
    let folder_arg = folder.to_str().unwrap();

    let run = run_goref(&["resume", folder_arg, "--headless", "--json"], LIMIT);
    run.assert_status_matches_result();
    let taken_back: Vec<_> = run
        .of_type("notice")
        .into_iter()
        .filter(|n| n["message"].as_str().unwrap().contains("taken back"))
        .collect();
    assert_eq!(taken_back.len(), 1, "{}", run.stdout);
    assert!(run.of_type("session")[0]["message"]
        .as_str()
        .unwrap()
        .contains(&format!("after move {killed_after}")));
    assert!(run.result()["end"] != "judge", "{}", run.result());
    let numbers: Vec<u64> = journal_moves(&folder)
        .iter()
        .map(|e| e["n"].as_u64().unwrap())
        .collect();
    assert!(
        numbers.len() > killed_after + 4,
        "the game went on: {numbers:?}"
    );
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
    // GNU Go, which never stopped, saw the same game as the referee.
    let record = sgf_file_moves(&folder.join("game.sgf"), 9);
    assert_same_game(&record, &black.moves());
}

#[test]
fn a_line_program_started_again_while_the_referee_was_down_calls_the_judge() {
    let dir = tempfile::tempdir().unwrap();
    let black = LineProgram::gnugo_lasting(dir.path(), "black", "black", 6);
    let folder = dir.path().join("game");
    let killed_after = kill_mid_game(&black, "bot:8,think=300ms", &folder, 6, |_| true);
    let folder_arg = folder.to_str().unwrap();
    // The program is started again on the same line: it sends NEWGAME.
    drop(black);
    let _again = LineProgram::gnugo_lasting(dir.path(), "black", "black", 6);

    let run = run_goref(&["resume", folder_arg, "--headless", "--json"], LIMIT);
    let lost: Vec<_> = run
        .of_type("error")
        .into_iter()
        .filter(|e| e["message"].as_str().unwrap().contains("lost the position"))
        .collect();
    assert_eq!(lost.len(), 1, "{}", run.stdout);
    assert_eq!(lost[0]["color"], "B");
    let judged = run
        .of_type("phase")
        .into_iter()
        .any(|p| p["phase"] == "adjudication" && p["reason"].as_str().unwrap().contains("NEWGAME"));
    assert!(judged, "{}", run.stdout);
    assert_eq!(run.result()["result"], "?", "{}", run.result());
    // No move was played once the referee came back.
    assert_eq!(journal_moves(&folder).len(), killed_after);
}

/// A Black program on a line moves as soon as its handshake ends: with a
/// White engine slow to start, its first MOVE is in the trace before
/// `game_start`. `goref decode` still reads every packet of the trace on the
/// game's 9x9 board, as the referee read it; a capture of the same bytes,
/// which names no size, is read on the board `--size` gives.
#[test]
fn decode_reads_a_move_made_before_game_start_on_the_games_board() {
    let dir = tempfile::tempdir().unwrap();
    let trace_path = dir.path().join("trace.jsonl");
    let trace = trace_path.to_str().unwrap();
    let white = common::fake("--start-delay-ms 700");
    let run = run_goref(
        &[
            "play",
            "--json",
            "--size",
            "9",
            "--stop-at",
            "4",
            "--black",
            "bot-sgmp:2",
            "--white",
            &white,
            "--trace",
            trace,
        ],
        LIMIT,
    );
    let events = run.events();
    let kind = |e: &serde_json::Value| e["type"].as_str().unwrap_or_default().to_string();
    let early = events
        .iter()
        .position(|e| kind(e) == "packet" && e["meaning"].as_str().unwrap().starts_with("MOVE B"));
    let start = events.iter().position(|e| kind(e) == "game_start");
    assert!(
        early < start,
        "the first move came before game_start: {early:?} {start:?}"
    );
    let packets = run.of_type("packet");
    let meanings: Vec<&str> = packets
        .iter()
        .map(|p| p["meaning"].as_str().unwrap())
        .collect();
    let first_move = meanings
        .iter()
        .find(|m| m.starts_with("MOVE B"))
        .unwrap()
        .to_string();

    let decoded = run_goref(&["decode", trace], LIMIT);
    assert_eq!(decoded.status, 0, "{}", decoded.stderr);
    let lines: Vec<&str> = decoded.stdout.lines().collect();
    assert_eq!(lines.len(), packets.len(), "one line a packet");
    for (line, meaning) in lines.iter().zip(&meanings) {
        assert!(line.ends_with(meaning), "{line} is not {meaning}");
    }

    let log_path = dir.path().join("capture.log");
    let log: String = packets
        .iter()
        .filter(|p| p["direction"] == "in")
        .map(|p| format!("Read  <--    {} :\n", p["hex"].as_str().unwrap()))
        .collect();
    std::fs::write(&log_path, log).unwrap();
    let log = log_path.to_str().unwrap();
    let on_9x9 = run_goref(&["decode", "--size", "9", log], LIMIT);
    assert!(on_9x9.stdout.contains(&first_move), "{}", on_9x9.stdout);
    let on_19x19 = run_goref(&["decode", log], LIMIT);
    assert!(
        !on_19x19.stdout.contains(&first_move),
        "{}",
        on_19x19.stdout
    );
}

/// The built-in engine on a pty, behind goref's line at its nominal 2400
/// baud: the pty carries bytes at once, so the 33 ms two packets take at
/// 2400 baud are not there to take off. The first answer that comes back
/// sooner than that shows the line faster than its rate (the operator is
/// told), and from then on the program is charged the time measured: its
/// 50 ms of thinking, not 50 ms less 33 ms.
#[test]
fn a_line_faster_than_its_baud_rate_charges_the_time_measured() {
    let dir = tempfile::tempdir().unwrap();
    let (referee_end, bot_end) = (dir.path().join("referee-end"), dir.path().join("bot-end"));
    let mut relay = common::start_relay([
        "--create-a".as_ref(),
        referee_end.as_os_str(),
        "--create-b".as_ref(),
        bot_end.as_os_str(),
    ]);
    let mut bot = std::process::Command::new(common::goref())
        .args(["bot", "--size", "9", "--seed", "1", "--color", "black"])
        .args(["--think-ms", "50", "--sgmp"])
        .arg(&bot_end)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let black = format!("sgmp:{}", referee_end.display());
    let run = run_goref(
        &[
            "play",
            "--json",
            "--rules",
            "cgf",
            "--size",
            "9",
            "--stop-at",
            "12",
            "--black",
            &black,
            "--white",
            "bot",
        ],
        LIMIT,
    );
    let _ = bot.kill();
    let _ = bot.wait();
    let _ = relay.kill();
    let _ = relay.wait();
    assert_charged_about(&run, "B", 50);
    let faster: Vec<Value> = run
        .of_type("notice")
        .into_iter()
        .filter(|n| {
            n["message"]
                .as_str()
                .unwrap()
                .contains("faster than 2400 baud")
        })
        .collect();
    assert_eq!(faster.len(), 1, "told once: {}", run.stdout);
}

/// The built-in engine on the demo's virtual line at 2400 baud, which
/// carries bytes at that rate both ways: the wire time is on the wire, not
/// on the program's clock, and the program is charged its 50 ms.
#[test]
fn a_line_at_its_baud_rate_charges_the_thinking_and_shows_the_wire_apart() {
    let run = run_goref(
        &[
            "play",
            "--json",
            "--rules",
            "cgf",
            "--size",
            "9",
            "--stop-at",
            "12",
            "--black",
            "bot-sgmp:1,think=50ms,baud=2400",
            "--white",
            "bot",
        ],
        LIMIT,
    );
    let notices = run.of_type("notice");
    assert!(
        !notices
            .iter()
            .any(|n| n["message"].as_str().unwrap().contains("faster than")),
        "{notices:?}"
    );
    assert!(run
        .of_type("packet")
        .iter()
        .all(|p| (p["wire_ms"].as_f64().unwrap() - 16.67).abs() < 0.01));
    assert_charged_about(&run, "B", 50);
}

/// Every move of `color` was charged at least `think_ms` (the program holds
/// each move that long once it has it), and the middle one not far above:
/// less than the 33 ms two packets take at 2400 baud above it.
fn assert_charged_about(run: &Run, color: &str, think_ms: u64) {
    let mut charged: Vec<u64> = run
        .of_type("move")
        .iter()
        .filter(|m| m["color"] == color)
        .map(|m| m["ms"].as_u64().unwrap())
        .collect();
    assert!(charged.len() >= 5, "{}", run.stderr);
    eprintln!("{color} charged (ms): {charged:?}");
    assert!(
        charged.iter().all(|&ms| ms + 1 >= think_ms),
        "charged less than the {think_ms} ms it thought: {charged:?}"
    );
    charged.sort_unstable();
    let middle = charged[charged.len() / 2];
    assert!(
        middle < think_ms + 25,
        "charged far more than it thought: {charged:?}"
    );
}
