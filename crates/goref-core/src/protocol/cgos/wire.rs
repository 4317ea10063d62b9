//! The CGOS lines: what a CGOS server says ([`ServerLine`], one line each)
//! and how a client's lines read ([`Hello`], [`MoveReply`]), as the
//! servers and clients of `zakki/cgos` speak them.

use std::fmt;

use crate::game::Color;

/// The longest line either side accepts, terminator excluded: a move with
/// its `genmove_analyze` JSON fits.
pub const MAX_LINE: usize = 64 * 1024;

/// A colour as the CGOS wire and GTP write it: `b` or `w`.
pub fn letter(colour: Color) -> char {
    colour.letter().to_ascii_lowercase()
}

/// One side of a game, as `setup` names it: `NAME(RATING)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub rating: String,
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name, self.rating)
    }
}

/// A game as `setup` tells it.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub game: u64,
    pub size: u32,
    pub komi: f64,
    /// Each side's whole time.
    pub main_ms: u64,
    pub white: Named,
    pub black: Named,
    /// The game so far, each move with its mover's time left after it (a
    /// game told again).
    pub moves: Vec<(String, u64)>,
}

/// A line a CGOS server sends.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerLine {
    /// The first line: the server asks who connects. `genmove_analyze`:
    /// a move may carry its analysis.
    Protocol {
        analyze: bool,
    },
    Username,
    Password,
    /// A game: White first, as the servers send it.
    Setup(Setup),
    /// The client's move, with its time left.
    Genmove {
        colour: Color,
        ms_left: u64,
    },
    /// The opponent's move, with the opponent's time left after it.
    Play {
        colour: Color,
        vertex: String,
        ms_left: u64,
    },
    /// The game is over: the client answers `ready`.
    Gameover {
        date: String,
        result: String,
        reason: Option<String>,
    },
    Info(String),
    /// A refusal; the connection closes after it.
    Error(String),
}

impl fmt::Display for ServerLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerLine::Protocol { analyze: true } => f.write_str("protocol genmove_analyze"),
            ServerLine::Protocol { analyze: false } => f.write_str("protocol"),
            ServerLine::Username => f.write_str("username"),
            ServerLine::Password => f.write_str("password"),
            ServerLine::Setup(Setup {
                game,
                size,
                komi,
                main_ms,
                white,
                black,
                moves,
            }) => {
                let komi = komi_text(*komi);
                write!(f, "setup {game} {size} {komi} {main_ms} {white} {black}")?;
                for (vertex, ms) in moves {
                    write!(f, " {vertex} {ms}")?;
                }
                Ok(())
            }
            ServerLine::Genmove { colour, ms_left } => {
                write!(f, "genmove {} {ms_left}", letter(*colour))
            }
            ServerLine::Play {
                colour,
                vertex,
                ms_left,
            } => write!(f, "play {} {vertex} {ms_left}", letter(*colour)),
            ServerLine::Gameover {
                date,
                result,
                reason,
            } => match reason {
                Some(reason) => write!(f, "gameover {date} {result} {reason}"),
                None => write!(f, "gameover {date} {result}"),
            },
            ServerLine::Info(text) => write!(f, "info {}", one_line(text)),
            ServerLine::Error(text) => write!(f, "Error: {}", one_line(text)),
        }
    }
}

impl ServerLine {
    /// Reads a server's line as a client does; `None` for a line no
    /// server sends (a client ignores it and says so).
    pub fn parse(line: &str) -> Option<ServerLine> {
        if let Some(text) = line.strip_prefix("Error:") {
            return Some(ServerLine::Error(text.trim().to_string()));
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let words: Vec<&str> = rest.split_whitespace().collect();
        let colour = |word: &str| match word {
            "b" | "B" => Some(Color::Black),
            "w" | "W" => Some(Color::White),
            _ => None,
        };
        Some(match (word, words.as_slice()) {
            ("protocol", _) => ServerLine::Protocol {
                analyze: words.contains(&"genmove_analyze"),
            },
            ("username", _) => ServerLine::Username,
            ("password", _) => ServerLine::Password,
            ("setup", [game, size, komi, main_ms, white, black, moves @ ..])
                if moves.len() % 2 == 0 =>
            {
                ServerLine::Setup(Setup {
                    game: game.parse().ok()?,
                    size: size.parse().ok()?,
                    komi: komi.parse().ok().filter(|k: &f64| k.is_finite())?,
                    main_ms: main_ms.parse().ok()?,
                    white: parse_named(white),
                    black: parse_named(black),
                    moves: moves
                        .chunks(2)
                        .map(|pair| Some((pair[0].to_string(), pair[1].parse().ok()?)))
                        .collect::<Option<Vec<_>>>()?,
                })
            }
            ("genmove", [c, ms]) => ServerLine::Genmove {
                colour: colour(c)?,
                ms_left: ms.parse().ok()?,
            },
            ("play", [c, vertex, ms]) => ServerLine::Play {
                colour: colour(c)?,
                vertex: vertex.to_string(),
                ms_left: ms.parse().ok()?,
            },
            ("gameover", [date, result, reason @ ..]) => ServerLine::Gameover {
                date: date.to_string(),
                result: result.to_string(),
                reason: (!reason.is_empty()).then(|| reason.join(" ")),
            },
            ("info", _) => ServerLine::Info(rest.trim().to_string()),
            _ => return None,
        })
    }
}

/// `NAME(RATING)` as `setup` writes a side; a bare name has no rating.
fn parse_named(text: &str) -> Named {
    match text.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((name, rating)) => Named {
            name: name.to_string(),
            rating: rating.to_string(),
        },
        None => Named {
            name: text.to_string(),
            rating: String::new(),
        },
    }
}

/// Komi as the Python server writes it: `7.0`, `6.5`.
fn komi_text(komi: f64) -> String {
    if komi.fract() == 0.0 {
        format!("{komi:.1}")
    } else {
        komi.to_string()
    }
}

/// `text` with its line breaks made spaces: a server's line is one line.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// What a client answers `protocol`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hello {
    /// A player: `e1 FREE TEXT`, its last word `genmove_analyze` when its
    /// moves may carry analysis. `client` is the free text.
    Engine { client: String, analyze: bool },
    /// A viewer (`v1`).
    Viewer,
}

/// Why a client's line is not what the protocol allows there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CgosError {
    #[error("a line of {0} bytes, longer than the protocol allows")]
    TooLong(usize),
    #[error("not text: {0}")]
    NotText(String),
    #[error("'{0}' is not e1 or v1")]
    NotAHello(String),
    #[error("'{0}' is not a move")]
    NotAMove(String),
}

/// A client's line as text, terminator and surrounding blanks removed.
pub fn text_of(line: &[u8]) -> Result<&str, CgosError> {
    if line.len() > MAX_LINE {
        return Err(CgosError::TooLong(line.len()));
    }
    std::str::from_utf8(line).map(str::trim).map_err(|_| {
        CgosError::NotText(String::from_utf8_lossy(&line[..line.len().min(40)]).into())
    })
}

/// The client's answer to `protocol`.
pub fn parse_hello(line: &str) -> Result<Hello, CgosError> {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("e1") => {
            let rest: Vec<&str> = words.collect();
            let analyze = rest.last() == Some(&"genmove_analyze");
            Ok(Hello::Engine {
                client: rest.join(" "),
                analyze,
            })
        }
        Some("v1") => Ok(Hello::Viewer),
        _ => Err(CgosError::NotAHello(shown(line))),
    }
}

/// A client's answer to `genmove`: the move, and with `genmove_analyze`
/// the JSON that may follow it on the same line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveReply {
    /// `D4` in capitals, `pass` or `resign`.
    pub vertex: String,
    pub analysis: Option<String>,
}

/// Reads a move as the servers do: any case, anything starting `pa` a
/// pass; a column letter (no `I`) and a row from 1 to 25 otherwise.
pub fn parse_move(line: &str) -> Result<MoveReply, CgosError> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    let lower = word.to_ascii_lowercase();
    let vertex = if lower.starts_with("pa") {
        "pass".to_string()
    } else if lower == "resign" {
        "resign".to_string()
    } else if is_vertex(&lower) {
        lower.to_ascii_uppercase()
    } else {
        return Err(CgosError::NotAMove(shown(line)));
    };
    let analysis = (!rest.is_empty()).then(|| rest.to_string());
    Ok(MoveReply { vertex, analysis })
}

fn is_vertex(lower: &str) -> bool {
    let mut chars = lower.chars();
    let Some(column) = chars.next() else {
        return false;
    };
    let row: String = chars.collect();
    column.is_ascii_lowercase()
        && column != 'i'
        && row.parse::<u32>().is_ok_and(|row| (1..=25).contains(&row))
        && !row.starts_with('0')
}

/// The start of a line, for an error message.
fn shown(line: &str) -> String {
    line.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_lines_read_as_the_servers_write_them() {
        let setup = ServerLine::Setup(Setup {
            game: 12,
            size: 9,
            komi: 7.0,
            main_ms: 300_000,
            white: Named {
                name: "beta".into(),
                rating: "1800".into(),
            },
            black: Named {
                name: "alpha".into(),
                rating: "1500?".into(),
            },
            moves: vec![("E5".into(), 299_100), ("pass".into(), 298_000)],
        });
        assert_eq!(
            setup.to_string(),
            "setup 12 9 7.0 300000 beta(1800) alpha(1500?) E5 299100 pass 298000"
        );
        assert_eq!(
            ServerLine::Genmove {
                colour: Color::Black,
                ms_left: 299_100
            }
            .to_string(),
            "genmove b 299100"
        );
        assert_eq!(
            ServerLine::Gameover {
                date: "2026-11-30".into(),
                result: "W+Resign".into(),
                reason: None
            }
            .to_string(),
            "gameover 2026-11-30 W+Resign"
        );
        assert_eq!(
            ServerLine::Error("a\nb".into()).to_string(),
            "Error: a b",
            "one line"
        );
        assert_eq!(
            ServerLine::Protocol { analyze: true }.to_string(),
            "protocol genmove_analyze"
        );
    }

    #[test]
    fn a_client_reads_back_every_line_a_server_writes() {
        let lines = [
            "protocol genmove_analyze",
            "protocol",
            "username",
            "password",
            "setup 12 9 7.0 300000 beta(1800) alpha(1500?) E5 299100 pass 298000",
            "setup 3 19 6.5 60000 w(?) b(?)",
            "genmove w 12",
            "play b PASS 19786",
            "gameover 2026-11-30 W+15.0 second double pass",
            "gameover 2026-11-30 B+Resign",
            "info the next round starts in 5 minutes",
            "Error: Sorry, password doesn't match",
        ];
        for line in lines {
            let parsed = ServerLine::parse(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(parsed.to_string(), line);
        }
        for junk in [
            "setup 1 9 7.0",
            "setup 1 9 7.0 1000 a(1) b(2) E5",
            "genmove x 10",
            "genmove b ten",
            "play b",
            "hello",
            "",
        ] {
            assert_eq!(ServerLine::parse(junk), None, "{junk}");
        }
    }

    #[test]
    fn hellos_of_the_real_clients_are_read() {
        assert_eq!(
            parse_hello("e1 cgosPython 1.0.0 genmove_analyze"),
            Ok(Hello::Engine {
                client: "cgosPython 1.0.0 genmove_analyze".into(),
                analyze: true
            })
        );
        assert_eq!(
            parse_hello("e1 cgosGtp 0.98 beta"),
            Ok(Hello::Engine {
                client: "cgosGtp 0.98 beta".into(),
                analyze: false
            })
        );
        assert_eq!(parse_hello("v1 viewer"), Ok(Hello::Viewer));
        assert!(parse_hello("GET / HTTP/1.1").is_err());
        assert!(parse_hello("").is_err());
    }

    #[test]
    fn moves_are_read_in_any_case_and_a_pass_by_its_first_letters() {
        let mv = |line| parse_move(line).map(|reply| reply.vertex);
        assert_eq!(mv("d4"), Ok("D4".into()));
        assert_eq!(mv("T19"), Ok("T19".into()));
        assert_eq!(mv("PASS"), Ok("pass".into()));
        assert_eq!(mv("pas"), Ok("pass".into()));
        assert_eq!(mv("Resign"), Ok("resign".into()));
        for junk in ["i5", "d0", "d04", "z99", "", "4d", "hello"] {
            assert!(mv(junk).is_err(), "{junk}");
        }
        assert_eq!(
            parse_move("q16 {\"winrate\":0.5,\"moves\":[]}"),
            Ok(MoveReply {
                vertex: "Q16".into(),
                analysis: Some("{\"winrate\":0.5,\"moves\":[]}".into())
            })
        );
    }

    #[test]
    fn an_overlong_or_binary_line_is_an_error() {
        assert!(matches!(
            text_of(&vec![b'x'; MAX_LINE + 1]),
            Err(CgosError::TooLong(_))
        ));
        assert!(matches!(text_of(b"\xff\xfe"), Err(CgosError::NotText(_))));
        assert_eq!(text_of(b"  ready \r"), Ok("ready"));
    }
}
