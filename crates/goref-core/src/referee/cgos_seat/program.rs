//! The program a CGOS seat keeps, as it said it is, and what its
//! answers hold: the move, and its analysis made into the JSON CGOS takes.

use std::collections::BTreeSet;

use crate::game::Color;
use crate::protocol::cgos::wire::parse_move;
use crate::protocol::gtp::analysis::{AnalysisCommand, Candidate};

/// Why a GTP command went to the program.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Purpose {
    Name,
    Version,
    ListCommands,
    /// Telling the game: any failure is a notice.
    Tell,
    /// The move the server asked for.
    Move(MoveAsked),
}

/// The move the server asked for in game `game`, with the analysis command
/// it was asked with, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct MoveAsked {
    pub(super) game: u64,
    pub(super) color: Color,
    pub(super) command: Option<AnalysisCommand>,
}

/// The program's answer to a command: `success` for `=`, its text without
/// the mark, and how long it took.
#[derive(Debug, Clone, Copy)]
pub(super) struct Answer<'a> {
    pub(super) success: bool,
    pub(super) text: &'a str,
    pub(super) think: std::time::Duration,
}

/// A GTP command for the program, and why.
#[derive(Debug, Clone)]
pub(super) struct Command {
    pub(super) line: String,
    pub(super) purpose: Purpose,
    /// Traced in the game's events.
    pub(super) traced: bool,
}

/// The program as it said it is.
#[derive(Debug, Clone, Default)]
pub(super) struct Program {
    pub(super) name: String,
    pub(super) version: String,
    pub(super) listed: BTreeSet<String>,
}

impl Program {
    pub(super) fn lists(&self, command: &str) -> bool {
        self.listed.contains(command)
    }

    pub(super) fn analysis(&self, offered: bool) -> Option<AnalysisCommand> {
        match offered {
            true => AnalysisCommand::choose(|c| self.lists(c)),
            false => None,
        }
    }

    pub(super) fn tells_time(&self) -> bool {
        self.lists("time_settings") && self.lists("time_left")
    }
}

/// The move in a program's answer, and the answer's other lines: a
/// `*-genmove_analyze` answer ends with `play MOVE`, a plain one is the
/// move.
pub(super) fn answer_of(text: &str, analysis: bool) -> (Option<String>, Vec<String>) {
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let word = match analysis {
        true => lines
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("play "))
            .or_else(|| lines.last().map(String::as_str)),
        false => lines.first().map(String::as_str),
    };
    let vertex = word
        .and_then(|w| parse_move(w.trim()).ok())
        .filter(|reply| reply.analysis.is_none())
        .map(|reply| reply.vertex);
    (vertex, lines)
}

/// A vertex as goref's events write it: `D4`, `pass`, `resign`.
pub(super) fn normal_vertex(vertex: &str) -> String {
    match parse_move(vertex) {
        Ok(reply) => reply.vertex,
        Err(_) => vertex.to_string(),
    }
}

pub(super) fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").trim().to_string()
}

/// The candidates as the CGOS JSON cgos-client-python makes of KataGo's
/// and Leela Zero's lines: the mover's winrate, lead and visits, and each
/// candidate with its variation after it.
pub(super) fn cgos_json(candidates: &[Candidate]) -> String {
    let visits: u64 = candidates.iter().map(|c| c.visits).sum();
    let weight = visits.max(1) as f64;
    let winrate = candidates
        .iter()
        .map(|c| c.winrate * c.visits as f64)
        .sum::<f64>()
        / weight;
    let moves: Vec<serde_json::Value> = candidates
        .iter()
        .map(|c| {
            let mut entry = serde_json::json!({
                "move": c.vertex,
                "visits": c.visits,
                "winrate": c.winrate,
                "pv": c.pv.iter().skip(1).cloned().collect::<Vec<_>>().join(" "),
            });
            if let Some(lead) = c.score_lead {
                entry["score"] = serde_json::json!(lead);
            }
            entry
        })
        .collect();
    let mut json = serde_json::json!({"winrate": winrate, "visits": visits, "moves": moves});
    let leads: Vec<(f64, u64)> = candidates
        .iter()
        .filter_map(|c| Some((c.score_lead?, c.visits)))
        .collect();
    if !leads.is_empty() {
        let lead = leads.iter().map(|(l, v)| l * *v as f64).sum::<f64>() / weight;
        json["score"] = serde_json::json!(lead);
    }
    json.to_string()
}
