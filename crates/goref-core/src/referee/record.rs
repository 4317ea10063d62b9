//! The game record: an SGF FF\[4\] text folded from the event stream.
//!
//! Like [`GameView`](super::GameView), the recorder sees only [`GameEvent`]s,
//! so what the record says is exactly what the referee decided. The shell
//! writes `Recorder::to_sgf` to disk atomically after every move. An
//! operator's command is a comment on the node it followed (the root before
//! the first move): a pause and its resumption sit where the game stood.
//!
//! A program's analysis of its move is a comment on the move, and, as
//! Sabaki reads and writes it, Black's chance to win in percent (`SBKV`)
//! and Black's lead in points (`SBKS`) on the node whose position was
//! analysed: the move before (the root for the first move).

use crate::game::sgf::{self, Date, Node};
use crate::game::{Color, Point};

use super::event::{attributed, AgreementEvent, GameEvent, GameStart, Phase};

/// Static facts for the root node that do not come from events.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordInfo {
    pub date: Date,
    pub event: Option<String>,
    pub place: Option<String>,
    pub round: Option<String>,
    pub game_name: Option<String>,
    pub main_time: Option<u64>,
    pub overtime: Option<String>,
}

/// The game as configured, for the record's root before the players are
/// ready, and for a record of a set-up that never became a game.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedGame {
    pub size: u8,
    pub komi: f64,
    /// The SGF `RU` name.
    pub ruleset: String,
    /// The players as specified, e.g. `gtp:gnugo --mode gtp`.
    pub black: String,
    pub white: String,
}

#[derive(Debug, Clone)]
pub struct Recorder {
    info: RecordInfo,
    plan: Option<PlannedGame>,
    start: Option<GameStart>,
    moves: Vec<Node>,
    result: Option<String>,
    root_comments: Vec<String>,
    final_comments: Vec<String>,
    territory: Option<(Vec<Point>, Vec<Point>)>,
    /// The node of the opening's last move so far, until the comment that
    /// says the opening ends there is written on it.
    opening_end: Option<usize>,
    /// `SBKV` and `SBKS` of the root: the analysis of the first move.
    root_analysis: Vec<(&'static str, String)>,
}

impl Recorder {
    pub fn new(info: RecordInfo) -> Recorder {
        Recorder {
            info,
            plan: None,
            start: None,
            moves: Vec::new(),
            result: None,
            root_comments: Vec::new(),
            final_comments: Vec::new(),
            territory: None,
            opening_end: None,
            root_analysis: Vec::new(),
        }
    }

    /// Says on the opening's last move that the opening ends there.
    fn close_opening(&mut self) {
        let Some(at) = self.opening_end.take() else {
            return;
        };
        if let Some(node) = self.moves.get_mut(at) {
            let text = format!(
                "End of the opening ({} moves played for both programs).",
                at + 1
            );
            append_comment(node, &text);
        }
    }

    /// Names the game as configured, until the game start names it as played.
    pub fn plan(&mut self, plan: PlannedGame) {
        self.plan = Some(plan);
    }

    /// The number of moves recorded, passes included.
    #[cfg(test)]
    pub(crate) fn move_count(&self) -> usize {
        self.moves.len()
    }

    pub fn apply(&mut self, event: &GameEvent) {
        match event {
            GameEvent::GameStart(start) => self.start = Some(start.as_ref().clone()),
            GameEvent::Move {
                color,
                vertex,
                clock,
                opening,
                ..
            } => {
                let Some(size) = self.start.as_ref().map(|s| s.size) else {
                    return;
                };
                if !opening {
                    self.close_opening();
                }
                if vertex == "resign" {
                    return;
                }
                if *opening {
                    self.opening_end = Some(self.moves.len());
                }
                let mut node = Node::default();
                let point = Point::parse_gtp(vertex, size).ok();
                node.push(
                    &color.letter().to_string(),
                    point.map(|p| p.to_sgf(size)).unwrap_or_default(),
                );
                let left = clock.period_left_ms.filter(|_| clock.in_overtime);
                let left = left.unwrap_or(clock.main_left_ms);
                if self.info.main_time.is_some() {
                    let time_prop = if *color == Color::Black { "BL" } else { "WL" };
                    node.push(time_prop, seconds(left));
                    if let Some(stones) = clock.stones_left.filter(|_| clock.in_overtime) {
                        let stones_prop = if *color == Color::Black { "OB" } else { "OW" };
                        node.push(stones_prop, stones.to_string());
                    }
                }
                self.moves.push(node);
            }
            GameEvent::Analysis {
                n,
                color,
                winrate,
                black_winrate,
                score_lead,
                visits,
                pv,
            } => {
                let Some(index) = (*n as usize).checked_sub(1) else {
                    return;
                };
                if index >= self.moves.len() {
                    return;
                }
                let lead = score_lead
                    .map(|lead| format!(", lead {lead:+.1}"))
                    .unwrap_or_default();
                let text = format!(
                    "{color}'s program: {:.1}% to win ({visits} visits{lead}); expects {}.",
                    winrate * 100.0,
                    pv.join(" ")
                );
                append_comment(&mut self.moves[index], &text);
                let mut values = vec![("SBKV", format!("{:.2}", black_winrate * 100.0))];
                if let Some(lead) = score_lead {
                    let black_lead = if *color == Color::Black { *lead } else { -lead };
                    values.push(("SBKS", format!("{black_lead:.2}")));
                }
                match index.checked_sub(1) {
                    Some(before) => {
                        let node = &mut self.moves[before];
                        node.props.retain(|(id, _)| id != "SBKV" && id != "SBKS");
                        for (id, value) in values {
                            node.push(id, value);
                        }
                    }
                    None => self.root_analysis = values,
                }
            }
            GameEvent::Illegal {
                n,
                color,
                vertex,
                reason,
            } => self.final_comments.push(format!(
                "Move {n}: {color} played {vertex}, which is illegal ({reason})."
            )),
            GameEvent::Phase {
                phase: Phase::Adjudication,
                reason,
            } => self
                .final_comments
                .push(format!("The game went to the judge: {reason}.")),
            GameEvent::Agreement(AgreementEvent::Disputed {
                black_only,
                white_only,
            }) => self.final_comments.push(format!(
                "Dead stones disputed: only Black claims [{}], only White claims [{}].",
                black_only.join(" "),
                white_only.join(" ")
            )),
            GameEvent::Error {
                color,
                message,
                fatal: true,
            } => self.final_comments.push(attributed(*color, message)),
            GameEvent::Operator {
                command, reason, ..
            } => {
                let text = format!("Operator: {command} ({reason}).");
                match self.moves.last_mut() {
                    _ if self.start.is_none() => self.final_comments.push(text),
                    Some(node) => append_comment(node, &text),
                    None => self.root_comments.push(text),
                }
            }
            GameEvent::Result(result) if self.start.is_none() => self
                .final_comments
                .push(format!("No game was played: {}.", result.reason)),
            GameEvent::Result(result) => {
                self.close_opening();
                self.result = Some(result.result.clone());
                self.final_comments
                    .push(format!("Result {}: {}.", result.result, result.reason));
                if let Some(score) = &result.score {
                    if !score.dead.is_empty() {
                        let dead: Vec<String> = score.dead.iter().map(|p| p.to_gtp()).collect();
                        self.final_comments
                            .push(format!("Dead stones removed: {}.", dead.join(" ")));
                    }
                    self.final_comments.push(format!(
                        "Score: Black {}, White {} (komi {}).",
                        score.black, score.white, score.komi
                    ));
                    self.territory =
                        Some((score.black_territory.clone(), score.white_territory.clone()));
                }
            }
            _ => {}
        }
    }

    /// Adds a comment to the root node, e.g. the referee's configuration.
    pub fn comment(&mut self, text: String) {
        self.root_comments.push(text);
    }

    /// The record as SGF text: the moves are written from where they are
    /// kept, not copied, as this runs after every change.
    pub fn to_sgf(&self) -> String {
        let root = self.root();
        let game_played = self.start.is_some();
        let remarks = !self.final_comments.is_empty() || self.territory.is_some();
        if !(game_played && remarks) {
            return sgf::write(std::iter::once(&root).chain(&self.moves));
        }
        let (mut last, before) = match self.moves.split_last() {
            Some((last, before)) => (last.clone(), before),
            None => (Node::default(), &[][..]),
        };
        if let (Some((black, white)), Some(start)) = (&self.territory, &self.start) {
            let size = start.size;
            let spell = |points: &[Point]| points.iter().map(|p| p.to_sgf(size)).collect();
            if !black.is_empty() {
                last.push_many("TB", spell(black));
            }
            if !white.is_empty() {
                last.push_many("TW", spell(white));
            }
        }
        if !self.final_comments.is_empty() {
            append_comment(&mut last, &self.final_comments.join("\n"));
        }
        sgf::write(std::iter::once(&root).chain(before).chain([&last]))
    }

    fn root(&self) -> Node {
        let mut root = Node::default();
        root.push("GM", "1");
        root.push("FF", "4");
        root.push("CA", "UTF-8");
        root.push("AP", format!("goref:{}", env!("CARGO_PKG_VERSION")));
        let info = &self.info;
        if let Some(start) = &self.start {
            root.push("SZ", start.size.to_string());
            root.push("KM", start.komi.to_string());
            root.push("RU", start.ruleset.clone());
            root.push("PB", start.black.full_name());
            root.push("PW", start.white.full_name());
        } else if let Some(plan) = &self.plan {
            root.push("SZ", plan.size.to_string());
            root.push("KM", plan.komi.to_string());
            root.push("RU", plan.ruleset.clone());
            root.push("PB", plan.black.clone());
            root.push("PW", plan.white.clone());
        }
        root.push("DT", info.date.to_string());
        for (id, value) in [
            ("EV", &info.event),
            ("PC", &info.place),
            ("RO", &info.round),
            ("GN", &info.game_name),
        ] {
            if let Some(value) = value {
                root.push(id, value.clone());
            }
        }
        if let Some(main) = info.main_time {
            root.push("TM", main.to_string());
        }
        if let Some(overtime) = &info.overtime {
            root.push("OT", overtime.clone());
        }
        if let Some(result) = &self.result {
            root.push("RE", result.clone());
        }
        root.push("US", "goref");
        for (id, value) in &self.root_analysis {
            root.push(id, value.clone());
        }
        if let Some(start) = &self.start {
            if start.handicap.len() >= 2 {
                root.push("HA", start.handicap.len().to_string());
            }
            if !start.handicap.is_empty() {
                let stones = start
                    .handicap
                    .iter()
                    .filter_map(|v| Point::parse_gtp(v, start.size).ok())
                    .map(|p| p.to_sgf(start.size))
                    .collect();
                root.push_many("AB", stones);
                if start.first_to_move == Color::White {
                    root.push("PL", "W");
                }
            }
        }
        let mut comments = self.root_comments.clone();
        if self.start.is_none() {
            comments.extend(self.final_comments.iter().cloned());
        }
        if !comments.is_empty() {
            root.push("C", comments.join("\n"));
        }
        root
    }
}

fn seconds(ms: u64) -> String {
    format!("{}.{}", ms / 1000, (ms % 1000) / 100)
}

/// Adds `text` to the node's comment, on a line of its own: SGF allows one
/// `C` value per node.
fn append_comment(node: &mut Node, text: &str) {
    match node.props.iter_mut().find(|(id, _)| id == "C") {
        Some((_, values)) => match values.first_mut() {
            Some(comment) => {
                comment.push('\n');
                comment.push_str(text);
            }
            None => values.push(text.to_string()),
        },
        None => node.push("C", text),
    }
}

#[cfg(test)]
mod tests;
