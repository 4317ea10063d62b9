//! The analysis an engine sends with its move: which command asks for it
//! (KataGo's `kata-genmove_analyze`, Leela Zero's `lz-genmove_analyze`,
//! CGOS's `cgos-genmove_analyze`), and what its lines say: the `info`
//! lines of Leela Zero and KataGo (every candidate move on one line), or
//! CGOS's JSON line, read into candidates, and the analysis of the move
//! played. `docs/analysis-protocols.md` gives the formats and their sources.
//!
//! Only the move counts in a game: a line that cannot be read is an
//! [`AnalysisError`] for the trace, never a reason to forfeit.

use serde::Deserialize;

use crate::game::Color;

/// How many moves of a principal variation are kept.
pub const PV_KEPT: usize = 12;

/// The commands that ask for a move with analysis, in the order goref
/// prefers them: KataGo's gives the score lead too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalysisCommand {
    KataGo,
    LeelaZero,
    Cgos,
}

impl AnalysisCommand {
    const PREFERRED: [AnalysisCommand; 3] = [
        AnalysisCommand::KataGo,
        AnalysisCommand::LeelaZero,
        AnalysisCommand::Cgos,
    ];

    /// The command's name, as `list_commands` gives it.
    pub fn name(self) -> &'static str {
        match self {
            AnalysisCommand::KataGo => "kata-genmove_analyze",
            AnalysisCommand::LeelaZero => "lz-genmove_analyze",
            AnalysisCommand::Cgos => "cgos-genmove_analyze",
        }
    }

    /// The command to use with an engine that lists the commands `listed`
    /// says it does; none when it lists none of them.
    pub fn choose(listed: impl Fn(&str) -> bool) -> Option<AnalysisCommand> {
        Self::PREFERRED
            .into_iter()
            .find(|command| listed(command.name()))
    }

    /// The command, name and arguments, asking `color` for its move with
    /// an `info` line every `interval_cs` centiseconds (CGOS's takes no
    /// interval).
    pub fn request(self, color: Color, interval_cs: u32) -> (&'static str, Vec<String>) {
        let colour = match color {
            Color::Black => "b",
            Color::White => "w",
        };
        let args = match self {
            AnalysisCommand::Cgos => vec![colour.to_string()],
            _ => vec![colour.to_string(), interval_cs.max(1).to_string()],
        };
        (self.name(), args)
    }
}

/// One move an engine considered.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The move, as GTP writes it (`D4`, `pass`), upper case but `pass`.
    pub vertex: String,
    pub visits: u64,
    /// The mover's chance to win, from 0 to 1.
    pub winrate: f64,
    /// The mover's lead in points, when the engine gives one.
    pub score_lead: Option<f64>,
    /// The moves the engine expects from this one on, this one first.
    pub pv: Vec<String>,
}

/// What goref keeps of the analysis of the move played.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveAnalysis {
    /// The mover's chance to win, from 0 to 1.
    pub winrate: f64,
    pub score_lead: Option<f64>,
    pub visits: u64,
    /// At most [`PV_KEPT`] moves, the move played first.
    pub pv: Vec<String>,
}

impl MoveAnalysis {
    /// Black's chance to win, when `mover` moved.
    pub fn black_winrate(&self, mover: Color) -> f64 {
        match mover {
            Color::Black => self.winrate,
            Color::White => 1.0 - self.winrate,
        }
    }
}

/// Why an analysis line was not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AnalysisError {
    #[error("not an analysis line")]
    NotAnalysis,
    #[error("{field} {value:?} is not a number in range")]
    BadValue { field: &'static str, value: String },
    #[error("a candidate without {0}")]
    Missing(&'static str),
    #[error("not the JSON CGOS asks for: {0}")]
    BadJson(String),
}

/// The candidates of one analysis line of `command`'s engine: Leela
/// Zero's or KataGo's `info` line, or CGOS's JSON line.
pub fn parse_line(line: &str, command: AnalysisCommand) -> Result<Vec<Candidate>, AnalysisError> {
    match command {
        AnalysisCommand::Cgos => parse_cgos(line),
        AnalysisCommand::LeelaZero => parse_info(line, 10_000.0),
        AnalysisCommand::KataGo => parse_info(line, 1.0),
    }
}

/// The analysis of `played` among `candidates`: its own candidate, with
/// its variation cut to [`PV_KEPT`] moves. None when the engine did not
/// consider the move it played (a resignation).
pub fn of_move(candidates: &[Candidate], played: &str) -> Option<MoveAnalysis> {
    let chosen = candidates
        .iter()
        .find(|c| c.vertex.eq_ignore_ascii_case(played))?;
    let mut pv = chosen.pv.clone();
    if pv
        .first()
        .is_none_or(|first| !first.eq_ignore_ascii_case(played))
    {
        pv.insert(0, chosen.vertex.clone());
    }
    pv.truncate(PV_KEPT);
    Some(MoveAnalysis {
        winrate: chosen.winrate,
        score_lead: chosen.score_lead,
        visits: chosen.visits,
        pv,
    })
}

/// A vertex as GTP writes it (any case) on a board up to 25x25: a column
/// letter but `I` and a row from 1 to 25, or `pass`.
fn vertex(token: &str) -> Option<String> {
    if token.eq_ignore_ascii_case("pass") {
        return Some("pass".into());
    }
    let mut chars = token.chars();
    let column = chars.next()?.to_ascii_uppercase();
    let row = chars.as_str();
    let row: u8 = row.parse().ok().filter(|row| (1..=25).contains(row))?;
    (column.is_ascii_uppercase() && column != 'I').then(|| format!("{column}{row}"))
}

fn number(field: &'static str, value: Option<&str>) -> Result<f64, AnalysisError> {
    let value = value.ok_or(AnalysisError::Missing(field))?;
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| AnalysisError::BadValue {
            field,
            value: value.into(),
        })
}

fn winrate(value: f64, scale: f64) -> Result<f64, AnalysisError> {
    let rate = value / scale;
    match (0.0..=1.0).contains(&rate) {
        true => Ok(rate),
        false => Err(AnalysisError::BadValue {
            field: "winrate",
            value: value.to_string(),
        }),
    }
}

/// A candidate being read from an `info` line.
#[derive(Default)]
struct Partial {
    vertex: Option<String>,
    visits: Option<u64>,
    winrate: Option<f64>,
    score_lead: Option<f64>,
    score_mean: Option<f64>,
    pv: Vec<String>,
}

impl Partial {
    fn done(self) -> Result<Candidate, AnalysisError> {
        Ok(Candidate {
            vertex: self.vertex.ok_or(AnalysisError::Missing("move"))?,
            visits: self.visits.ok_or(AnalysisError::Missing("visits"))?,
            winrate: self.winrate.ok_or(AnalysisError::Missing("winrate"))?,
            score_lead: self.score_lead.or(self.score_mean),
            pv: self.pv,
        })
    }
}

/// Leela Zero's and KataGo's `info move V visits N winrate W ... pv V V
/// ...`, every candidate on one line; winrates divided by `scale`. Keys it
/// does not know are passed over with their numbers; what follows the
/// candidates (`rootInfo`, `ownership`) is passed over.
fn parse_info(line: &str, scale: f64) -> Result<Vec<Candidate>, AnalysisError> {
    let mut tokens = line.split_whitespace().peekable();
    if tokens.peek() != Some(&"info") {
        return Err(AnalysisError::NotAnalysis);
    }
    let mut candidates = Vec::new();
    let mut current: Option<Partial> = None;
    while let Some(token) = tokens.next() {
        match token {
            "info" => {
                if let Some(done) = current.replace(Partial::default()) {
                    candidates.push(done.done()?);
                }
            }
            "rootInfo" | "ownership" | "ownershipStdev" => break,
            _ => {
                let Some(partial) = current.as_mut() else {
                    return Err(AnalysisError::NotAnalysis);
                };
                match token {
                    "move" => {
                        let value = tokens.next().ok_or(AnalysisError::Missing("move"))?;
                        partial.vertex = Some(vertex(value).ok_or(AnalysisError::BadValue {
                            field: "move",
                            value: value.into(),
                        })?);
                    }
                    "visits" => {
                        let visits = number("visits", tokens.next())?;
                        partial.visits = Some(visits.max(0.0) as u64);
                    }
                    "winrate" => {
                        partial.winrate = Some(winrate(number("winrate", tokens.next())?, scale)?)
                    }
                    "scoreLead" => partial.score_lead = Some(number("scoreLead", tokens.next())?),
                    "scoreMean" => partial.score_mean = Some(number("scoreMean", tokens.next())?),
                    "pv" => {
                        while let Some(move_) = tokens.peek().and_then(|t| vertex(t)) {
                            partial.pv.push(move_);
                            tokens.next();
                        }
                    }
                    _ => {
                        while tokens.peek().is_some_and(|t| t.parse::<f64>().is_ok()) {
                            tokens.next();
                        }
                    }
                }
            }
        }
    }
    if let Some(last) = current {
        candidates.push(last.done()?);
    }
    Ok(candidates)
}

#[derive(Deserialize)]
struct CgosLine {
    #[serde(default)]
    moves: Vec<CgosMove>,
}

#[derive(Deserialize)]
struct CgosMove {
    #[serde(rename = "move")]
    vertex: String,
    #[serde(default)]
    visits: f64,
    winrate: f64,
    #[serde(default)]
    score: Option<f64>,
    #[serde(default)]
    pv: String,
}

/// CGOS's JSON line: `{"winrate":…,"moves":[{"move":"O15","winrate":…,
/// "score":…,"visits":…,"pv":"P17 O18"}]}`, each variation after its move.
fn parse_cgos(line: &str) -> Result<Vec<Candidate>, AnalysisError> {
    let parsed: CgosLine =
        serde_json::from_str(line.trim()).map_err(|e| AnalysisError::BadJson(e.to_string()))?;
    parsed
        .moves
        .into_iter()
        .map(|m| {
            let vertex = vertex(&m.vertex).ok_or(AnalysisError::BadValue {
                field: "move",
                value: m.vertex.clone(),
            })?;
            let mut pv = vec![vertex.clone()];
            pv.extend(m.pv.split_whitespace().map_while(self::vertex));
            if pv.len() > 1 && pv[1] == vertex {
                pv.remove(0);
            }
            Ok(Candidate {
                vertex,
                visits: m.visits.max(0.0) as u64,
                winrate: winrate(m.winrate, 1.0)?,
                score_lead: m.score.filter(|s| s.is_finite()),
                pv,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kata_go_is_preferred_then_leela_zero_then_cgos() {
        const ALL: [&str; 3] = [
            "cgos-genmove_analyze",
            "lz-genmove_analyze",
            "kata-genmove_analyze",
        ];
        let lists = |names: &'static [&'static str]| move |c: &str| names.contains(&c);
        assert_eq!(
            AnalysisCommand::choose(lists(&ALL)),
            Some(AnalysisCommand::KataGo)
        );
        assert_eq!(
            AnalysisCommand::choose(lists(&ALL[..2])),
            Some(AnalysisCommand::LeelaZero)
        );
        assert_eq!(AnalysisCommand::choose(lists(&["genmove"])), None);
        assert_eq!(
            AnalysisCommand::LeelaZero.request(Color::White, 100),
            (
                "lz-genmove_analyze",
                vec!["w".to_string(), "100".to_string()]
            )
        );
        assert_eq!(
            AnalysisCommand::Cgos.request(Color::Black, 100),
            ("cgos-genmove_analyze", vec!["b".to_string()])
        );
    }

    /// Seen from Leela Zero 0.17 (docs/analysis-protocols.md §1).
    #[test]
    fn a_leela_zero_line_gives_every_candidate_its_winrate_in_ten_thousandths() {
        let line = "info move G10 visits 9 winrate 4999 prior 27 lcb 4894 order 0 pv G10 J10 N10 \
                    info move D4 visits 2 winrate 5120 prior 30 lcb 0 order 1 pv D4";
        let candidates = parse_line(line, AnalysisCommand::LeelaZero).unwrap();
        assert_eq!(candidates.len(), 2);
        assert_eq!(candidates[0].vertex, "G10");
        assert_eq!(candidates[0].visits, 9);
        assert!((candidates[0].winrate - 0.4999).abs() < 1e-12);
        assert_eq!(candidates[0].pv, ["G10", "J10", "N10"]);
        assert_eq!(candidates[1].score_lead, None);
        let played = of_move(&candidates, "d4").unwrap();
        assert_eq!(
            (played.visits, played.pv.clone()),
            (2, vec!["D4".to_string()])
        );
        assert!((played.black_winrate(Color::White) - 0.488).abs() < 1e-12);
        assert_eq!(of_move(&candidates, "resign"), None);
    }

    /// KataGo's fields as its GTP extensions document them.
    #[test]
    fn a_kata_go_line_gives_the_score_lead_and_passes_over_what_it_does_not_know() {
        let line = "info move E4 visits 487 edgeVisits 487 utility -0.0408 winrate 0.480018 \
                    scoreMean -0.61 scoreStdev 24.7 scoreLead -0.55 prior 0.221 lcb 0.477 \
                    order 0 pv E4 E3 F3 pvVisits 487 200 90 info move pass visits 3 \
                    winrate 0.2 scoreMean -3.0 order 1 pv pass D4 \
                    rootInfo visits 500 winrate 0.47 ownership 0.1 -0.2 0.3";
        let candidates = parse_line(line, AnalysisCommand::KataGo).unwrap();
        assert_eq!(candidates.len(), 2);
        assert_eq!(candidates[0].score_lead, Some(-0.55));
        assert_eq!(candidates[0].pv, ["E4", "E3", "F3"]);
        assert_eq!(candidates[1].vertex, "pass");
        assert_eq!(
            candidates[1].score_lead,
            Some(-3.0),
            "scoreMean, the old name"
        );
    }

    #[test]
    fn a_long_variation_is_cut_and_the_move_comes_first() {
        let pv: Vec<String> = (1..=19).map(|row| format!("A{row}")).collect();
        let line = format!("info move A1 visits 1 winrate 0.5 pv {}", pv.join(" "));
        let candidates = parse_line(&line, AnalysisCommand::KataGo).unwrap();
        let played = of_move(&candidates, "A1").unwrap();
        assert_eq!(played.pv.len(), PV_KEPT);
        assert_eq!(played.pv[0], "A1");
    }

    #[test]
    fn broken_lines_are_errors_not_candidates() {
        for (line, command) in [
            ("= D4", AnalysisCommand::KataGo),
            ("info move D4 visits 1 winrate 1.5", AnalysisCommand::KataGo),
            (
                "info move D4 visits 1 winrate 12000",
                AnalysisCommand::LeelaZero,
            ),
            ("info move D4 visits 1 winrate NaN", AnalysisCommand::KataGo),
            (
                "info move Z99 visits 1 winrate 0.5",
                AnalysisCommand::KataGo,
            ),
            ("info move D4 winrate 0.5", AnalysisCommand::KataGo),
            ("info visits", AnalysisCommand::KataGo),
            ("{\"moves\": 3}", AnalysisCommand::Cgos),
            ("not json", AnalysisCommand::Cgos),
        ] {
            assert!(parse_line(line, command).is_err(), "{line}");
        }
    }

    /// The CGOS wiki's example (docs/analysis-protocols.md §3).
    #[test]
    fn a_cgos_line_gives_each_move_with_its_variation_after_it() {
        let line = r#"{"winrate":0.13,"score":-11.5,"visits":258,"moves":[{"move":"O15","winrate":0.1355,"score":-11.2142,"prior":0.831028,"pv":"P17 O18 N17","visits":189},{"move":"q16","winrate":0.1,"visits":20,"pv":""}],"ownership":"AAB"}"#;
        let candidates = parse_line(line, AnalysisCommand::Cgos).unwrap();
        assert_eq!(candidates.len(), 2);
        assert_eq!(candidates[0].pv, ["O15", "P17", "O18", "N17"]);
        assert_eq!(candidates[0].score_lead, Some(-11.2142));
        assert_eq!(candidates[1].vertex, "Q16");
        assert_eq!(candidates[1].pv, ["Q16"]);
    }
}
