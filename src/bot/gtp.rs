//! The built-in engine's GTP front end: `goref bot --gtp`.
//!
//! It answers the commands a referee sends (including the KGS end-of-game
//! pair `final_status_list` and `kgs-genmove_cleanup`) from a blocking loop
//! over any reader and writer, so tests can drive it in memory.

use std::io::{BufRead, Write};
use std::time::Instant;

use goref_core::game::board::fixed_handicap;
use goref_core::game::{Color, Move, Point};
use goref_core::protocol::gtp::codec::{format_response, parse_command_line, parse_vertex_list};

use super::engine::Engine;
use super::Settings;

const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "kgs-genmove_cleanup",
    "final_status_list",
    "fixed_handicap",
    "set_free_handicap",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "showboard",
];

/// Serves GTP on stdin and stdout until `quit` or end of input.
pub fn serve_stdio(size: u8, seed: u64, settings: Settings) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(stdin.lock(), stdout.lock(), size, seed, settings)
}

/// Serves GTP on `input` and `output` until `quit` or end of input. A move
/// (`genmove`, `kgs-genmove_cleanup`) is answered no sooner than
/// `settings.think` after its command was read.
pub fn serve(
    input: impl BufRead,
    mut output: impl Write,
    size: u8,
    seed: u64,
    settings: Settings,
) -> std::io::Result<()> {
    let mut engine = Engine::new(size, seed)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()))?
        .with_playouts(settings.playouts);
    for line in input.lines() {
        let Some(command) = parse_command_line(&line?) else {
            continue;
        };
        let asked = Instant::now();
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let answer = answer(&mut engine, &command.name, &args);
        if matches!(command.name.as_str(), "genmove" | "kgs-genmove_cleanup") {
            std::thread::sleep(settings.think.saturating_sub(asked.elapsed()));
        }
        let reply = match &answer {
            Ok(text) => format_response(command.id, Ok(text)),
            Err(text) => format_response(command.id, Err(text)),
        };
        output.write_all(reply.as_bytes())?;
        output.flush()?;
        if command.name == "quit" {
            break;
        }
    }
    Ok(())
}

fn answer(engine: &mut Engine, name: &str, args: &[&str]) -> Result<String, String> {
    let size = engine.board().size();
    match (name, args) {
        ("protocol_version", _) => Ok("2".into()),
        ("name", _) => Ok("goref-bot".into()),
        ("version", _) => Ok(env!("CARGO_PKG_VERSION").into()),
        ("known_command", [command]) => Ok(COMMANDS.contains(command).to_string()),
        ("list_commands", _) => Ok(COMMANDS.join("\n")),
        ("quit", _) => Ok(String::new()),
        ("boardsize", [n]) => {
            let n: u8 = n.parse().map_err(|_| "boardsize not an integer")?;
            engine
                .reset(n)
                .map(|_| String::new())
                .map_err(|_| "unacceptable size".into())
        }
        ("clear_board", _) => {
            engine.reset(size).map_err(|e| e.to_string())?;
            Ok(String::new())
        }
        ("komi", [komi]) => {
            engine.komi = komi.parse().map_err(|_| "komi not a float")?;
            Ok(String::new())
        }
        ("play", [color, vertex]) => {
            let color: Color = color.parse().map_err(|_| "invalid color")?;
            let mv = Move::parse_gtp(vertex, size).map_err(|_| "invalid coordinate")?;
            engine
                .play(color, mv)
                .map(|_| String::new())
                .map_err(|_| "illegal move".into())
        }
        ("genmove" | "kgs-genmove_cleanup", [color]) => {
            let color: Color = color.parse().map_err(|_| "invalid color")?;
            Ok(engine.genmove(color).to_gtp())
        }
        ("final_status_list", [status]) => {
            let dead = engine.dead_stones();
            let listed: Vec<Point> = match *status {
                "dead" => dead,
                "alive" => engine
                    .board()
                    .stones()
                    .map(|(p, _)| p)
                    .filter(|p| !dead.contains(p))
                    .collect(),
                "seki" => Vec::new(),
                _ => return Err("invalid status".into()),
            };
            Ok(listed
                .iter()
                .map(|p| p.to_gtp())
                .collect::<Vec<_>>()
                .join(" "))
        }
        ("fixed_handicap", [n]) => {
            let n: u8 = n.parse().map_err(|_| "invalid number of stones")?;
            let stones = fixed_handicap(size, n).map_err(|_| "invalid number of stones")?;
            engine
                .place(Color::Black, &stones)
                .map_err(|_| "board not empty")?;
            Ok(stones
                .iter()
                .map(|p| p.to_gtp())
                .collect::<Vec<_>>()
                .join(" "))
        }
        ("set_free_handicap", stones) => {
            let stones =
                parse_vertex_list(&stones.join(" "), size).map_err(|_| "bad vertex list")?;
            engine
                .place(Color::Black, &stones)
                .map(|_| String::new())
                .map_err(|_| "bad vertex list".into())
        }
        ("time_settings" | "kgs-time_settings" | "time_left", _) => Ok(String::new()),
        ("showboard", _) => Ok(format!("\n{}", engine.board())),
        (known, _) if COMMANDS.contains(&known) => Err("syntax error".into()),
        _ => Err("unknown command".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> String {
        let mut output = Vec::new();
        serve(input.as_bytes(), &mut output, 9, 1, Settings::default()).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn it_answers_the_referees_questions_with_ids() {
        let out = session(
            "1 protocol_version\n2 name\n\n# comment\n3 known_command kgs-genmove_cleanup\n4 foo\n",
        );
        assert_eq!(
            out,
            "=1 2\n\n=2 goref-bot\n\n=3 true\n\n?4 unknown command\n\n"
        );
    }

    #[test]
    fn it_plays_refuses_illegal_moves_and_stops_at_quit() {
        let out = session("boardsize 9\nclear_board\nplay b E5\nplay w E5\nplay w Z9\ngenmove w\nquit\ngenmove b\n");
        let replies: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(
            replies[..5],
            ["= ", "= ", "= ", "? illegal move", "? invalid coordinate"]
        );
        let mv = replies[5].trim_start_matches("= ");
        let point = Point::parse_gtp(mv, 9).unwrap();
        assert_ne!(point.to_gtp(), "E5");
        assert_eq!(replies[6], "= ");
        assert_eq!(replies.len(), 8, "nothing after quit: {out:?}");
    }

    #[test]
    fn a_move_waits_out_the_think_time_and_other_commands_do_not() {
        let think = std::time::Duration::from_millis(600);
        let settings = Settings { playouts: 8, think };
        let timed = |input: &str| {
            let started = Instant::now();
            let mut output = Vec::new();
            serve(input.as_bytes(), &mut output, 9, 1, settings).unwrap();
            started.elapsed()
        };
        assert!(timed("name\nplay b E5\nshowboard\n") < think);
        assert!(timed("genmove w\n") >= think);
        assert!(timed("genmove w\nkgs-genmove_cleanup b\n") >= 2 * think);
    }

    #[test]
    fn it_lists_the_kgs_end_of_game_commands() {
        let out = session("list_commands\n");
        for command in ["final_status_list", "kgs-genmove_cleanup", "time_left"] {
            assert!(
                out.lines().any(|l| l.trim_start_matches("= ") == command),
                "{command}"
            );
        }
    }
}
