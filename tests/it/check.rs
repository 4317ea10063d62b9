//! `goref check`: the real binary checks GNU Go over GTP and on an SGMP
//! pty in both colours, the scripted fake engine in each of its faulty
//! modes, a line program that ignores sequence bits, and Usenix test
//! programs. Each card is read as JSON; the text
//! card must fit 80 columns.

use crate::common;

use std::time::Duration;

use common::pty::LineProgram;
use common::{example, fake, gnugo, goref, run_goref, start_relay};
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(120);

/// A card read back from `--json`, with the exit status.
struct Card {
    json: Value,
    status: i32,
    stderr: String,
}

impl Card {
    /// The check named `name`, in whichever section it is.
    fn check(&self, name: &str) -> &Value {
        self.checks()
            .into_iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no check '{name}' in {:#}", self.json))
    }

    fn verdict(&self, name: &str) -> String {
        self.check(name)["verdict"].as_str().unwrap().to_string()
    }

    fn reason(&self, name: &str) -> String {
        self.check(name)["reason"].as_str().unwrap().to_string()
    }

    fn checks(&self) -> Vec<&Value> {
        let sections = self.json["sections"].as_array().expect("sections");
        sections
            .iter()
            .flat_map(|s| s["checks"].as_array().unwrap())
            .collect()
    }

    fn failing(&self) -> Vec<String> {
        self.checks()
            .into_iter()
            .filter(|c| c["verdict"] == "fail")
            .map(|c| format!("{}: {}", c["name"], c["reason"]))
            .collect()
    }

    fn ready(&self) -> bool {
        self.json["ready"] == true
    }
}

fn check(spec: &str, args: &[&str]) -> Card {
    let mut all = vec!["check", spec, "--json"];
    all.extend_from_slice(args);
    let run = run_goref(&all, LIMIT);
    let json = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("no card ({e}): {}\n{}", run.stdout, run.stderr));
    Card {
        json,
        status: run.status,
        stderr: run.stderr,
    }
}

fn gnugo_gtp() -> String {
    format!("gtp:{} --mode gtp --level 0", gnugo())
}

#[test]
fn gnugo_over_gtp_passes_with_the_warnings_it_deserves() {
    let args = [
        "--rules",
        "kgs",
        "--size",
        "19",
        "--time",
        "byoyomi:5m,30s,3",
    ];
    let card = check(&gnugo_gtp(), &args);
    assert!(card.ready(), "{:?}\n{}", card.failing(), card.stderr);
    assert_eq!(card.status, 0);
    assert_eq!(card.verdict("clock"), "warn");
    assert!(card.reason("clock").contains("no kgs-time_settings"));
    assert!(card.reason("clock").contains("2 spare periods"));
    for name in [
        "start-up",
        "protocol_version",
        "list_commands",
        "boardsize",
        "clear_board",
        "komi",
        "time_settings",
        "time_left",
        "play",
        "genmove (empty board)",
        "genmove (mid-game)",
        "rest of a game",
        "final_status_list",
        "kgs-genmove_cleanup",
        "at the end",
        "unknown command",
        "illegal play",
        "ids echoed",
        "quit",
        "stderr",
    ] {
        assert_eq!(card.verdict(name), "pass", "{name}: {}", card.reason(name));
    }
    assert_eq!(card.reason("name"), "GNU Go");
    assert!(card.reason("genmove (mid-game)").starts_with("5 moves"));
    assert!(card.check("genmove (empty board)")["ms"].is_u64());
    assert!(card.reason("at the end").contains("kgs-genmove_cleanup"));

    let run = run_goref(
        &["check", &gnugo_gtp(), "--rules", "kgs", "--size", "19"],
        LIMIT,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    for line in run.stdout.lines() {
        assert!(line.chars().count() <= 80, "wider than 80: {line:?}");
    }
    assert!(run.stdout.contains("KGS end of game"));
    assert!(run.stdout.trim_end().ends_with("ready for the round"));
}

#[test]
fn gnugo_under_the_judges_end_is_asked_its_dead_stones() {
    let card = check(&gnugo_gtp(), &["--rules", "cgf", "--size", "9"]);
    assert!(card.ready(), "{:?}", card.failing());
    assert_eq!(card.verdict("final_status_list"), "pass");
    assert!(card.reason("at the end").contains("the judge"));
    assert!(card
        .checks()
        .iter()
        .all(|c| c["name"] != "kgs-genmove_cleanup"));
    assert_eq!(
        card.json["sections"][2]["title"], "End of game (the judge's)",
        "{:#}",
        card.json
    );
}

#[test]
fn a_handicap_game_places_the_stones_as_a_game_does_and_white_moves_first() {
    let args = [
        "--size",
        "9",
        "--handicap",
        "3",
        "--color",
        "white",
        "--time",
        "canadian:10m,5m,25",
    ];
    let card = check(&gnugo_gtp(), &args);
    assert!(card.ready(), "{:?}", card.failing());
    assert_eq!(card.verdict("set_free_handicap"), "pass");
    assert!(card
        .reason("set_free_handicap")
        .contains("set_free_handicap C3 G7 C7"));
    assert_eq!(card.verdict("genmove (handicap)"), "pass");
    assert_eq!(card.reason("clock"), "told 'time_settings 600 300 25'");
    assert!(card.json["game"].as_str().unwrap().contains("handicap 3"));
}

#[test]
fn gnugo_on_an_sgmp_line_passes_in_both_colours() {
    let dir = tempfile::tempdir().unwrap();
    for color in ["black", "white"] {
        let program = LineProgram::start(dir.path(), color, "sgmp", color, 3);
        let spec = program.spec("sgmp");
        let card = check(&spec, &["--color", color, "--rules", "cgf", "--size", "9"]);
        assert!(
            card.ready(),
            "{color}: {:?}\n{}",
            card.failing(),
            card.stderr
        );
        assert_eq!(card.status, 0);
        for name in [
            "open",
            "bytes",
            "as expected",
            "its answers",
            "first move",
            "later moves",
            "duplicate",
            "OK handling",
            "speed",
            "stray bytes",
        ] {
            assert_eq!(
                card.verdict(name),
                "pass",
                "{color} {name}: {}",
                card.reason(name)
            );
        }
        assert!(card.reason("as expected").contains("CGF fixed handshake"));
        let answers = card.reason("its answers");
        match color {
            "black" => assert_eq!(
                answers,
                "colour: 2 (I am Black); handicap: 1 (an even game)"
            ),
            _ => assert!(
                answers.contains("it asked colour, told 2 (goref is Black)"),
                "{answers}"
            ),
        }
        assert!(card.reason("later moves").starts_with("5 moves"));
        assert!(card.reason("duplicate").contains("sent twice"));
    }
}

/// GNU Go behind the fault relay, which paces the line at `baud`; the
/// relay's far end is the line goref checks.
/// GNU Go behind the relay, pacing its bytes at `baud`, on a line set to `set`.
fn paced_gnugo(
    dir: &std::path::Path,
    baud: u32,
    set: u32,
) -> (LineProgram, std::process::Child, String) {
    let program = LineProgram::start(dir, &format!("gnugo-{baud}"), "sgmp", "black", 5);
    let line = dir.join(format!("line-{baud}"));
    let relay = start_relay([
        "--a".as_ref(),
        program.link.as_os_str(),
        "--create-b".as_ref(),
        line.as_os_str(),
        "--baud".as_ref(),
        baud.to_string().as_ref(),
    ]);
    (
        program,
        relay,
        format!("sgmp:{},baud={set}", line.display()),
    )
}

#[test]
fn the_line_speed_is_measured_against_its_baud_rate() {
    let dir = tempfile::tempdir().unwrap();
    // 1200 baud, not 2400: a packet's last three bytes then take 25 ms, so a
    // late wake-up of a few ms on a loaded machine stays within the margins.
    for (baud, verdict) in [(1200, "pass"), (300, "warn")] {
        let (_program, mut relay, spec) = paced_gnugo(dir.path(), baud, 1200);
        let card = check(&spec, &["--rules", "cgf", "--size", "9"]);
        let _ = relay.kill();
        let _ = relay.wait();
        assert!(card.ready(), "{baud}: {:?}", card.failing());
        let reason = card.reason("speed");
        assert_eq!(card.verdict("speed"), verdict, "{baud}: {reason}");
        let measured: f64 = reason
            .strip_prefix("about ")
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{baud}: {reason}"));
        let ratio = measured / f64::from(baud);
        assert!((0.8..1.3).contains(&ratio), "{baud}: {reason}");
        assert!(reason.contains("1200 set"), "{reason}");
    }
}

#[test]
fn a_full_gmp_program_that_does_not_say_its_board_size_gets_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let program = LineProgram::start(dir.path(), "black", "gmp", "black", 4);
    let card = check(
        &program.spec("gmp"),
        &["--color", "black", "--rules", "cgf", "--size", "9"],
    );
    assert!(card.ready(), "{:?}", card.failing());
    assert_eq!(card.verdict("its answers"), "warn");
    assert!(card
        .reason("its answers")
        .contains("board size: 0 (unknown)"));
    assert_eq!(card.verdict("as expected"), "pass");
}

/// A program that ignores sequence bits: the built-in engine on a line, the
/// relay passing goref's repeated MOVE on to it as a new packet, or
/// answering it with a DENY in the program's name (GNU Go checks the bits,
/// so it cannot play this part).
#[test]
fn a_program_that_takes_a_repeated_move_for_a_new_one_fails_the_duplicate_check() {
    let dir = tempfile::tempdir().unwrap();
    // Taken as new, the repeat is answered with a move and the exchange
    // stops; denied, the link is mended and the moves go on.
    let faults = [
        (
            "--take-repeats-as-new",
            "repeat taken as new",
            "took the repeat for a new move",
            &["moves", "duplicate"][..],
        ),
        (
            "--deny-repeats",
            "repeat denied",
            "it DENIED the repeat",
            &["duplicate"][..],
        ),
    ];
    for (fault, relayed_says, card_says, failing) in faults {
        for color in ["black", "white"] {
            let case = format!("{fault} {color}");
            let line = dir.path().join(format!("line{fault}-{color}"));
            let bot_end = dir.path().join(format!("bot{fault}-{color}"));
            let log = dir.path().join(format!("relay{fault}-{color}.log"));
            let mut relay = start_relay([
                "--create-a".as_ref(),
                line.as_os_str(),
                "--create-b".as_ref(),
                bot_end.as_os_str(),
                fault.as_ref(),
                "--log".as_ref(),
                log.as_os_str(),
            ]);
            let mut bot = std::process::Command::new(goref())
                .args(["bot", "--size", "9", "--think-ms", "0", "--color", color])
                .arg("--sgmp")
                .arg(&bot_end)
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let spec = format!("sgmp:{}", line.display());
            let card = check(&spec, &["--rules", "cgf", "--size", "9", "--color", color]);
            let _ = bot.kill();
            let _ = bot.wait();
            let _ = relay.kill();
            let _ = relay.wait();
            let relayed = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(relayed.contains(relayed_says), "{case}: {relayed}");
            assert_eq!(card.status, 1, "{case}");
            assert_eq!(card.verdict("as expected"), "pass", "{case}");
            let failed: Vec<String> = card
                .checks()
                .into_iter()
                .filter(|c| c["verdict"] == "fail")
                .map(|c| c["name"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(failed, failing, "{case}: {:?}", card.failing());
            assert!(
                card.reason("duplicate").contains(card_says),
                "{case}: {}",
                card.reason("duplicate")
            );
        }
    }
}

#[test]
fn a_line_that_is_not_there_fails_to_open_and_a_silent_one_fails_the_handshake() {
    let card = check("sgmp:/dev/nonexistent-goref-line", &[]);
    assert_eq!(card.status, 1);
    assert_eq!(card.verdict("open"), "fail");
    let dir = tempfile::tempdir().unwrap();
    let silent = LineProgram::program(dir.path(), "silent", "exec sleep 30");
    let spec = format!("{},setup=2s", silent.spec("sgmp"));
    let card = check(&spec, &["--size", "9"]);
    assert_eq!(card.status, 1);
    assert_eq!(card.verdict("handshake"), "fail");
    assert!(card.reason("handshake").contains("nothing came"));
}

/// The fake engine that passes: it keeps a board, so it refuses an illegal
/// `play` and answers legal moves.
const SOUND: &str = "--board --moves D4,E5,F6,C3";

#[test]
fn the_sound_fake_engine_passes_and_each_faulty_mode_fails_the_check_that_catches_it() {
    let card = check(&fake(SOUND), &["--size", "9"]);
    assert!(card.ready(), "{:?}", card.failing());
    assert!(card.checks().iter().all(|c| c["verdict"] == "pass"));

    let cases: [(&str, &[&str], &str, &str); 17] = [
        ("--moves D4", &[], "illegal play", "fail"),
        ("--id-echo false", &[], "ids echoed", "fail"),
        ("--accept-unknown", &[], "unknown command", "fail"),
        ("--stubborn", &[], "quit", "fail"),
        ("--hang-at 2", &["--move-timeout", "2s"], "genmove", "fail"),
        ("--crash-at 2", &[], "moves", "fail"),
        ("--garbage-at 1", &[], "moves", "fail"),
        ("--stderr-flood 3000000", &[], "stderr", "fail"),
        ("--fail-command boardsize", &[], "boardsize", "fail"),
        ("--reject-play", &[], "play", "fail"),
        (
            "--start-delay-ms 3000",
            &["--command-timeout", "1s"],
            "start-up",
            "fail",
        ),
        ("--abort-at-start", &[], "start-up", "fail"),
        (
            "--fail-command final_status_list",
            &[],
            "final_status_list",
            "fail",
        ),
        ("--no-kgs", &[], "at the end", "warn"),
        ("--fail-command komi", &[], "komi", "warn"),
        ("--stderr-lines 600", &[], "stderr", "warn"),
        (
            "--think-ms 1200",
            &["--time", "byoyomi:1m,1s,3", "--moves", "2"],
            "genmove (empty board)",
            "warn",
        ),
    ];
    for (flags, args, name, verdict) in cases {
        let flags = match flags.starts_with("--moves") {
            true => flags.to_string(),
            false => format!("{SOUND} {flags}"),
        };
        let mut all = vec!["--size", "9"];
        all.extend_from_slice(args);
        let card = check(&fake(&flags), &all);
        assert_eq!(
            card.verdict(name),
            verdict,
            "{flags}: {name}: {}",
            card.reason(name)
        );
        let expected_status = if verdict == "fail" { 1 } else { 0 };
        assert_eq!(
            card.status,
            expected_status,
            "{flags}: {:?}",
            card.failing()
        );
    }
}

#[test]
fn an_engine_without_known_command_is_judged_by_its_list_commands() {
    let flags = format!("{SOUND} --fail-command known_command");
    let card = check(
        &fake(&flags),
        &["--size", "9", "--time", "byoyomi:5m,30s,3"],
    );
    assert!(card.ready(), "{:?}", card.failing());
    assert!(card.reason("known_command").contains("list_commands"));
    assert!(
        card.reason("clock")
            .contains("is told as 'time_settings 300 30 1'"),
        "{}",
        card.reason("clock")
    );
    assert_eq!(card.verdict("time_left"), "pass");
    assert!(card
        .reason("time_left")
        .starts_with("'time_left black 300 0'"));
}

#[test]
fn usenix_programs_get_a_card_of_their_own() {
    let strict = format!("usenix:{}", example("usenix_strict").display());
    let card = check(&strict, &["--rules", "usenix"]);
    assert!(card.ready(), "{:?}\n{}", card.failing(), card.stderr);
    assert_eq!(card.reason("colour line"), "'black' sent");
    assert_eq!(card.verdict("its lines"), "pass");
    assert_eq!(card.verdict("CPU time"), "pass");
    assert_eq!(card.verdict("one process"), "pass");

    let sloppy = format!("usenix:{}", example("usenix_sloppy").display());
    let card = check(&sloppy, &["--rules", "usenix", "--color", "white"]);
    assert!(card.ready(), "{:?}", card.failing());
    assert_eq!(card.reason("colour line"), "'white' sent");
    assert_eq!(card.verdict("its lines"), "warn");
    assert!(card.reason("its lines").contains("would have read it as"));

    let forking = format!("{strict} --fork");
    let card = check(&forking, &["--rules", "usenix"]);
    assert_eq!(card.status, 1);
    assert_eq!(card.verdict("one process"), "fail");
    assert_eq!(
        card.reason("CPU time"),
        "it made no move, so none was charged",
        "seen at its first turn, before any move"
    );

    let illegal = format!("{strict} --illegal-at 3");
    let card = check(&illegal, &["--rules", "usenix"]);
    assert_eq!(card.verdict("moves"), "fail");
    assert!(
        card.reason("moves").contains("illegal"),
        "{}",
        card.reason("moves")
    );
}

#[test]
fn what_cannot_be_checked_is_refused_with_a_reason() {
    for (args, says) in [
        (&["check", "human"][..], "nothing to check"),
        (&["check", "nonsense:x"], "is not a player"),
        (&["check", "bot", "--color", "purple"], "--color purple"),
        (&["check", "bot", "--size", "40"], "board size"),
    ] {
        let run = run_goref(args, LIMIT);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    let card = check("bot", &["--size", "9"]);
    assert!(card.ready(), "the built-in engine: {:?}", card.failing());
}
