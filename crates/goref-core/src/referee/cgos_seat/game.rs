//! One game as a CGOS server tells a seat: its settings, its moves with
//! the times told, goref's own board and clocks, and goref's check of the
//! server's verdict.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use super::program::Program;
use crate::game::board::{Board, KoRule};
use crate::game::clock::ClockReading;
use crate::game::score::{score, Scoring};
use crate::game::Color;
use crate::protocol::cgos::wire::Named;
use crate::referee::event::{GameStart, PlayerInfo, TimeSettings};

/// How far goref's clock may be from the server's flag before it says so:
/// the link's delay and the server's gift are not known here.
const FLAG_SLACK: Duration = Duration::from_secs(2);

/// The move the server asked for.
#[derive(Debug, Clone)]
pub(super) struct Asked {
    pub(super) color: Color,
    pub(super) ms_left: u64,
    pub(super) at: Instant,
    pub(super) bad_answers: u32,
    /// The operator's resignation was sent for it: the program's answer is
    /// dropped.
    pub(super) resigned: bool,
}

/// One game as the server tells it.
#[derive(Debug, Clone)]
pub(super) struct Game {
    pub(super) id: u64,
    pub(super) size: u8,
    pub(super) komi: f64,
    pub(super) main_ms: u64,
    pub(super) ours: Color,
    pub(super) white: Named,
    pub(super) black: Named,
    /// Every move told, with its mover's time left after it.
    pub(super) moves: Vec<(String, u64)>,
    /// goref's board; none once goref's rules and the server's part.
    pub(super) board: Option<Board>,
    /// Each side's time left as last told, and when its turn began.
    pub(super) left_ms: [u64; 2],
    pub(super) used_ms: [u64; 2],
    pub(super) turn_since: Option<(Color, Instant)>,
    pub(super) asked: Option<Asked>,
    pub(super) over: bool,
}

impl Game {
    pub(super) fn to_move(&self) -> Color {
        match self.moves.len() % 2 {
            0 => Color::Black,
            _ => Color::White,
        }
    }

    pub(super) fn named(&self, color: Color) -> &Named {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    pub(super) fn title(&self) -> String {
        format!(
            "game {} on {s}x{s}: {} (W) - {} (B)",
            self.id,
            self.white,
            self.black,
            s = self.size
        )
    }

    pub(super) fn reading(&self, color: Color, running: bool) -> ClockReading {
        ClockReading {
            main_left_ms: self.left_ms[color.index()],
            period_left_ms: None,
            periods_left: None,
            stones_left: None,
            in_overtime: false,
            running,
            flagged: false,
            used_ms: self.used_ms[color.index()],
            last_move_ms: 0,
            wall_ms: None,
        }
    }
}

impl Game {
    /// The game as goref's events start it: `user` runs `program`.
    pub(super) fn start_event(&self, user: &str, program: &Program) -> GameStart {
        let game = self;
        let opponent = |named: &Named| PlayerInfo {
            protocol: "cgos".into(),
            spec: format!("cgos:{}", named),
            name: named.name.clone(),
            version: format!("({})", named.rating),
            ..PlayerInfo::default()
        };
        let own = PlayerInfo {
            protocol: "gtp".into(),
            spec: format!("seat:{}", user),
            name: match program.name.is_empty() {
                true => user.to_string(),
                false => format!("{} ({})", user, program.name),
            },
            version: program.version.clone(),
            ..PlayerInfo::default()
        };
        let (black, white) = match game.ours {
            Color::Black => (own, opponent(&game.white)),
            Color::White => (opponent(&game.black), own),
        };
        let time = TimeSettings {
            kind: "absolute".into(),
            main_ms: game.main_ms,
            ..TimeSettings::default()
        };
        GameStart {
            size: game.size,
            komi: game.komi,
            rules: "cgos".into(),
            ruleset: "Chinese".into(),
            time: format!("absolute:{}s", game.main_ms / 1000),
            handicap: Vec::new(),
            black,
            white,
            first_to_move: Color::Black,
            time_settings: time,
            limits: Default::default(),
            ko: Some(KoRule::PositionalSuperko),
            suicide_allowed: false,
            folder: None,
            published: None,
        }
    }

    /// Where goref's own rules and clocks disagree with the server's
    /// verdict, in words.
    pub(super) fn check_verdict(&self, now: Instant, result: &str) -> Vec<String> {
        let game = self;
        let Some((winner, how)) = result.split_once('+') else {
            return Vec::new();
        };
        let mut checks = Vec::new();
        if how.eq_ignore_ascii_case("time") {
            let loser = match winner {
                "B" | "b" => Color::White,
                _ => Color::Black,
            };
            let left = game.left_ms[loser.index()];
            let since = match game.turn_since {
                Some((color, at)) if color == loser => now.saturating_duration_since(at),
                _ => Duration::ZERO,
            };
            let spare = Duration::from_millis(left).saturating_sub(since);
            if spare > FLAG_SLACK {
                checks.push(format!(
                    "goref's clock disagrees with the server's flag: {loser} had {left} ms \
                     left when its turn began {} ms before, {} ms more than it used",
                    since.as_millis(),
                    spare.as_millis()
                ));
            }
        } else if let (Ok(margin), Some(board)) = (how.parse::<f64>(), &game.board) {
            let count = score(board, &BTreeSet::new(), Scoring::Area, game.komi);
            let ours = count.margin();
            let theirs = match winner {
                "B" | "b" => margin,
                _ => -margin,
            };
            if (ours - theirs).abs() > 1e-6 {
                let counted = match count.result() {
                    (_, None) => "a draw".to_string(),
                    (text, Some(_)) => text,
                };
                checks.push(format!(
                    "goref's count differs from the server's: {counted} by area with every \
                     stone alive, against the server's {result}"
                ));
            }
        } else if how.eq_ignore_ascii_case("illegal") && game.board.is_some() {
            checks.push(
                "the server called a move illegal that it does not tell: goref cannot check it"
                    .into(),
            );
        }
        checks
    }
}
