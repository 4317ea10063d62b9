//! A match's figures, computed from its game folders alone: each folder's
//! result (read from its journal's end), what it counts for the candidate,
//! the pairs both of whose games count, and the statistics of the core
//! (`matches`): wins, losses, draws, the pentanomial counts, Elo with its
//! error, nElo, LOS and the SPRT.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::Serialize;

use crate::game::Color;
use crate::journal::folder::JOURNAL;
use crate::matches::{Figures, Outcome, Pentanomial, Sprt, SprtState, Trinomial};

use super::file::MatchFile;
use super::plan::{GameSlot, GAMES_FOLDER};

/// How much of a journal's end is read for its result: a little first (the
/// result is among the last lines), more when it is not there.
const JOURNAL_TAILS: [u64; 2] = [8 * 1024, 256 * 1024];

/// What a finished game counts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counted {
    /// An outcome for the candidate, and how the game ended (`time`,
    /// `forfeit_illegal_move`, ...).
    Game { outcome: Outcome, end: String },
    /// Nothing: the game is played again (void, a crash, no result the
    /// match can take).
    Replay(String),
}

/// What a game's result counts for the candidate playing `candidate`.
pub fn count(result: &str, end: &str, reason: &str, candidate: Color) -> Counted {
    let replayed = matches!(
        end,
        "forfeit_crash" | "void" | "no_game" | "forfeit_failure"
    ) || matches!(result, "Void" | "?" | "");
    if replayed {
        return Counted::Replay(format!("{result} ({end}): {reason}"));
    }
    let outcome = match result.chars().next() {
        Some('B') if candidate == Color::Black => Outcome::Win,
        Some('W') if candidate == Color::White => Outcome::Win,
        Some('B' | 'W') => Outcome::Loss,
        _ => Outcome::Draw,
    };
    Counted::Game {
        outcome,
        end: end.to_string(),
    }
}

/// The result a game folder's journal ends with: (result, end, reason).
pub fn folder_result(dir: &Path) -> Option<(String, String, String)> {
    let mut journal = std::fs::File::open(dir.join(JOURNAL)).ok()?;
    let length = journal.metadata().ok()?.len();
    JOURNAL_TAILS.iter().find_map(|&tail| {
        journal
            .seek(SeekFrom::Start(length.saturating_sub(tail)))
            .ok()?;
        let mut text = Vec::new();
        (&mut journal).take(tail).read_to_end(&mut text).ok()?;
        result_line(&String::from_utf8_lossy(&text))
    })
}

/// The last `result` event among a journal's lines.
fn result_line(tail: &str) -> Option<(String, String, String)> {
    tail.lines().rev().find_map(|line| {
        if !line.contains("\"type\":\"result\"") {
            return None;
        }
        let value: serde_json::Value = serde_json::from_str(line).ok()?;
        let text = |key: &str| value[key].as_str().unwrap_or("").to_string();
        Some((text("result"), text("end"), text("reason")))
    })
}

/// The games of one pair as its folders say: the counted outcome of each
/// leg, if it has one, and the tries replayed.
#[derive(Debug, Default, Clone)]
struct PairGames {
    legs: [Option<(Outcome, String)>; 2],
    replayed: u32,
    /// When its last counted game ended (its journal's time).
    ended: Option<std::time::SystemTime>,
}

/// Every figure of a match, as `goref standings DIR --json` gives them.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MatchFigures {
    pub name: String,
    pub candidate: String,
    pub opponents: Vec<String>,
    /// Games counted, and pairs whose both games count.
    pub games: u64,
    pub pairs: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// As Black and as White: (wins, losses, draws).
    pub as_black: [u64; 3],
    pub as_white: [u64; 3],
    /// `[LL, LD, WL+DD, WD, WW]` of the complete pairs.
    pub penta: [u64; 5],
    pub score: Option<f64>,
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
    pub nelo: Option<f64>,
    pub los: Option<f64>,
    /// The games' own figures, counted one by one (for matches with draws).
    pub trinomial: Figures,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    /// `continue`, `accept_h0` or `accept_h1`; none without an SPRT.
    pub sprt: Option<SprtState>,
    /// Games lost on time and by an illegal move, the candidate's and its
    /// opponents'; games played again (void or crashed).
    pub time_losses: [u64; 2],
    pub illegal_losses: [u64; 2],
    pub replayed: u64,
    /// In a gauntlet, the candidate against each opponent (the figures
    /// above are against the field); empty for a head-to-head match.
    pub per_opponent: Vec<OpponentFigures>,
}

/// The candidate against one opponent of a gauntlet.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct OpponentFigures {
    pub name: String,
    pub pairs: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub penta: [u64; 5],
    pub score: Option<f64>,
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
}

/// The figures of the match in `dir` from its game folders.
pub fn figures(dir: &Path, file: &MatchFile) -> MatchFigures {
    let mut pairs: BTreeMap<u64, PairGames> = BTreeMap::new();
    let games = dir.join(GAMES_FOLDER);
    let mut folders: Vec<(GameSlot, u32, std::path::PathBuf)> = std::fs::read_dir(&games)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (slot, attempt) = parse_folder_name(&name)?;
            Some((slot, attempt, entry.path()))
        })
        .collect();
    folders.sort();
    let mut figures = MatchFigures {
        name: file.name.clone(),
        candidate: file.engines[0].name.clone(),
        opponents: file.engines[1..].iter().map(|e| e.name.clone()).collect(),
        games: 0,
        pairs: 0,
        wins: 0,
        losses: 0,
        draws: 0,
        as_black: [0; 3],
        as_white: [0; 3],
        penta: [0; 5],
        score: None,
        elo: None,
        elo_error: None,
        nelo: None,
        los: None,
        trinomial: Trinomial::default().figures(),
        llr: None,
        llr_lower: None,
        llr_upper: None,
        sprt: None,
        time_losses: [0; 2],
        illegal_losses: [0; 2],
        replayed: 0,
        per_opponent: Vec::new(),
    };
    let mut trinomial = Trinomial::default();
    for (slot, _, path) in folders {
        let Some((result, end, reason)) = folder_result(&path) else {
            continue;
        };
        let pair = pairs.entry(slot.pair).or_default();
        let ended = std::fs::metadata(path.join(JOURNAL))
            .and_then(|m| m.modified())
            .ok();
        match count(&result, &end, &reason, slot.candidate) {
            Counted::Replay(_) => {
                pair.replayed += 1;
                figures.replayed += 1;
            }
            Counted::Game { outcome, end } => {
                let leg = slot.candidate.index();
                if pair.legs[leg].is_some() {
                    continue;
                }
                trinomial.add(outcome);
                let by_colour = match slot.candidate {
                    Color::Black => &mut figures.as_black,
                    Color::White => &mut figures.as_white,
                };
                let (column, loser) = match outcome {
                    Outcome::Win => (0, 1),
                    Outcome::Loss => (1, 0),
                    Outcome::Draw => (2, 2),
                };
                by_colour[column] += 1;
                if loser < 2 {
                    match end.as_str() {
                        "time" => figures.time_losses[loser] += 1,
                        "forfeit_illegal_move" => figures.illegal_losses[loser] += 1,
                        _ => {}
                    }
                }
                pair.legs[leg] = Some((outcome, end));
                pair.ended = pair.ended.max(ended);
            }
        }
    }
    let opponents = file.engines.len() - 1;
    let mut penta = Pentanomial::default();
    let mut each = vec![(Pentanomial::default(), Trinomial::default()); opponents];
    for (number, pair) in &pairs {
        let (against, games) = &mut each[(*number % opponents as u64) as usize];
        for (outcome, _) in pair.legs.iter().flatten() {
            games.add(*outcome);
        }
        if let [Some((first, _)), Some((second, _))] = &pair.legs {
            penta.add_pair(*first, *second);
            against.add_pair(*first, *second);
        }
    }
    if opponents > 1 {
        figures.per_opponent = each
            .iter()
            .zip(&file.engines[1..])
            .map(|((against, games), engine)| {
                let stats = against.figures();
                OpponentFigures {
                    name: engine.name.clone(),
                    pairs: against.pairs(),
                    wins: games.wins,
                    losses: games.losses,
                    draws: games.draws,
                    penta: against.as_array(),
                    score: stats.score,
                    elo: stats.elo,
                    elo_error: stats.elo_error,
                }
            })
            .collect();
    }
    figures.games = trinomial.games();
    figures.wins = trinomial.wins;
    figures.losses = trinomial.losses;
    figures.draws = trinomial.draws;
    figures.pairs = penta.pairs();
    figures.penta = penta.as_array();
    let stats = penta.figures();
    figures.score = stats.score;
    figures.elo = stats.elo;
    figures.elo_error = stats.elo_error;
    figures.nelo = stats.nelo;
    figures.los = stats.los;
    figures.trinomial = trinomial.figures();
    if let Some(sprt) = file.sprt.and_then(|s| Sprt::new(s).ok()) {
        let llr = sprt.llr_pentanomial(&penta);
        figures.llr = Some(llr);
        figures.llr_lower = Some(sprt.lower_bound());
        figures.llr_upper = Some(sprt.upper_bound());
        figures.sprt = Some(first_decision(&sprt, &pairs).unwrap_or(SprtState::Continue));
    }
    figures
}

/// The SPRT's first decision, the pairs taken in the order they were
/// completed: once the test decides it stays decided, whatever the pairs
/// that were in play then (finished so that every pair counts whole) do to
/// the LLR after.
fn first_decision(sprt: &Sprt, pairs: &BTreeMap<u64, PairGames>) -> Option<SprtState> {
    let mut whole: Vec<(std::time::SystemTime, u64, Outcome, Outcome)> = pairs
        .iter()
        .filter_map(|(number, pair)| match &pair.legs {
            [Some((first, _)), Some((second, _))] => Some((
                pair.ended.unwrap_or(std::time::UNIX_EPOCH),
                *number,
                *first,
                *second,
            )),
            _ => None,
        })
        .collect();
    whole.sort_by_key(|(ended, number, ..)| (*ended, *number));
    let mut penta = Pentanomial::default();
    whole.iter().find_map(|(_, _, first, second)| {
        penta.add_pair(*first, *second);
        match sprt.state(sprt.llr_pentanomial(&penta)) {
            SprtState::Continue => None,
            decided => Some(decided),
        }
    })
}

/// `pair-0007-b-2` → the slot and the try.
pub fn parse_folder_name(name: &str) -> Option<(GameSlot, u32)> {
    let rest = name.strip_prefix("pair-")?;
    let mut parts = rest.split('-');
    let pair: u64 = parts.next()?.parse().ok()?;
    let candidate = match parts.next()? {
        "a" => Color::Black,
        "b" => Color::White,
        _ => return None,
    };
    let attempt = match parts.next() {
        Some(n) => n.parse().ok()?,
        None => 1,
    };
    if parts.next().is_some() || pair == 0 {
        return None;
    }
    Some((
        GameSlot {
            pair: pair - 1,
            candidate,
        },
        attempt,
    ))
}

impl MatchFigures {
    /// The figures as CSV: a header line, then one line.
    pub fn csv(&self) -> String {
        let opt = |value: Option<f64>| value.map_or(String::new(), |v| format!("{v:.6}"));
        let sprt = match self.sprt {
            Some(SprtState::AcceptH0) => "accept_h0",
            Some(SprtState::AcceptH1) => "accept_h1",
            Some(SprtState::Continue) => "continue",
            None => "",
        };
        let [ll, ld, half, wd, ww] = self.penta;
        format!(
            "games,pairs,wins,losses,draws,ll,ld,wl_dd,wd,ww,score,elo,elo_error,nelo,los,llr,sprt\n\
             {},{},{},{},{},{ll},{ld},{half},{wd},{ww},{},{},{},{},{},{},{sprt}\n",
            self.games,
            self.pairs,
            self.wins,
            self.losses,
            self.draws,
            opt(self.score),
            opt(self.elo),
            opt(self.elo_error),
            opt(self.nelo),
            opt(self.los),
            opt(self.llr)
        )
    }

    /// The figures at 80 columns, for `goref standings DIR` and the end of
    /// a headless match.
    pub fn lines(&self) -> Vec<String> {
        let opt = |value: Option<f64>, digits: usize| {
            value.map_or("-".to_string(), |v| format!("{v:.digits$}"))
        };
        let mut lines = vec![
            format!(
                "{}: {} against {}",
                self.name,
                self.candidate,
                self.opponents.join(", ")
            ),
            format!(
                "games {}: {} wins, {} losses, {} draws; as Black {}-{}-{}, as White {}-{}-{}",
                self.games,
                self.wins,
                self.losses,
                self.draws,
                self.as_black[0],
                self.as_black[1],
                self.as_black[2],
                self.as_white[0],
                self.as_white[1],
                self.as_white[2]
            ),
            format!(
                "pairs {}: penta [LL LD WL+DD WD WW] {:?}",
                self.pairs, self.penta
            ),
            format!(
                "score {}  Elo {} +/- {}  nElo {}  LOS {}",
                opt(self.score, 3),
                opt(self.elo, 1),
                opt(self.elo_error, 1),
                opt(self.nelo, 1),
                self.los
                    .map_or("-".to_string(), |l| format!("{:.1} %", l * 100.0))
            ),
        ];
        if let (Some(llr), Some(lower), Some(upper)) = (self.llr, self.llr_lower, self.llr_upper) {
            let state = match self.sprt {
                Some(SprtState::AcceptH1) => "H1 accepted: the candidate is stronger",
                Some(SprtState::AcceptH0) => "H0 accepted: not the gain hoped for",
                _ => "undecided",
            };
            lines.push(format!(
                "SPRT LLR {llr:.2} in [{lower:.2}, {upper:.2}]: {state}"
            ));
        }
        for against in &self.per_opponent {
            lines.push(format!(
                "  against {}: pairs {}, +{} -{} ={}, Elo {} +/- {}",
                against.name,
                against.pairs,
                against.wins,
                against.losses,
                against.draws,
                opt(against.elo, 1),
                opt(against.elo_error, 1)
            ));
        }
        let [mine, theirs] = self.time_losses;
        let [mine_illegal, theirs_illegal] = self.illegal_losses;
        lines.push(format!(
            "lost on time {mine} (opponents {theirs}), by an illegal move {mine_illegal} \
             (opponents {theirs_illegal}); played again {}",
            self.replayed
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_counts_for_the_candidates_colour_and_voids_and_crashes_are_replayed() {
        let win = count("B+R", "resign", "", Color::Black);
        assert_eq!(
            win,
            Counted::Game {
                outcome: Outcome::Win,
                end: "resign".into()
            }
        );
        assert!(matches!(
            count("B+T", "time", "", Color::White),
            Counted::Game {
                outcome: Outcome::Loss,
                ..
            }
        ));
        assert!(matches!(
            count("0", "double_pass_agreed", "", Color::White),
            Counted::Game {
                outcome: Outcome::Draw,
                ..
            }
        ));
        for (result, end) in [
            ("W+F", "forfeit_crash"),
            ("Void", "void"),
            ("?", "adjudication"),
        ] {
            assert!(matches!(
                count(result, end, "", Color::Black),
                Counted::Replay(_)
            ));
        }
    }

    #[test]
    fn the_figures_count_whole_pairs_from_the_folders_and_replayed_games_apart() {
        let root = tempfile::tempdir().unwrap();
        let games = root.path().join(GAMES_FOLDER);
        let game = |name: &str, result: &str, end: &str| {
            let dir = games.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let lines = format!(
                "{{\"type\":\"stream\",\"schema\":1}}\n\
                 {{\"seq\":9,\"t_ms\":5,\"type\":\"result\",\"result\":\"{result}\",\"reason\":\"r\",\"end\":\"{end}\"}}\n\
                 {{\"seq\":10,\"t_ms\":6,\"after_result\":true,\"type\":\"gtp\",\"color\":\"B\",\"direction\":\"out\",\"line\":\"quit\"}}\n"
            );
            std::fs::write(dir.join(JOURNAL), lines).unwrap();
        };
        game("pair-0001-a", "B+R", "resign");
        game("pair-0001-b", "W+3.5", "double_pass_agreed");
        game("pair-0002-a", "Void", "void");
        game("pair-0002-a-2", "W+R", "resign");
        game("pair-0002-b", "B+T", "time");
        game("pair-0003-a", "B+R", "resign");
        std::fs::create_dir_all(games.join("pair-0003-b")).unwrap();
        let file = super::super::file::parse(super::super::file::TEMPLATE).unwrap();
        let figures = figures(root.path(), &file);
        assert_eq!((figures.games, figures.pairs), (5, 2));
        assert_eq!(
            figures.penta,
            [1, 0, 0, 0, 1],
            "LL then WW; pair 3 is not whole"
        );
        assert_eq!((figures.wins, figures.losses, figures.draws), (3, 2, 0));
        assert_eq!(figures.as_black, [2, 1, 0]);
        assert_eq!(figures.as_white, [1, 1, 0]);
        assert_eq!(figures.time_losses, [1, 0], "the candidate's, as White");
        assert_eq!(figures.replayed, 1);
        assert_eq!(figures.score, Some(0.5));
        assert!(figures.llr.is_some() && figures.sprt == Some(SprtState::Continue));
        assert!(
            figures.lines().iter().all(|l| l.chars().count() <= 80),
            "{:?}",
            figures.lines()
        );
        let csv = figures.csv();
        assert!(
            csv.lines()
                .nth(1)
                .unwrap()
                .starts_with("5,2,3,2,0,1,0,0,0,1,0.500000"),
            "{csv}"
        );
    }

    #[test]
    fn a_gauntlet_has_figures_against_each_opponent_and_the_field() {
        let root = tempfile::tempdir().unwrap();
        let games = root.path().join(GAMES_FOLDER);
        for (name, result) in [
            ("pair-0001-a", "B+R"),
            ("pair-0001-b", "W+R"),
            ("pair-0002-a", "W+R"),
            ("pair-0002-b", "B+R"),
            ("pair-0003-a", "B+R"),
            ("pair-0003-b", "B+R"),
        ] {
            let dir = games.join(name);
            std::fs::create_dir_all(&dir).unwrap();
            let line = format!(
                "{{\"seq\":1,\"t_ms\":1,\"type\":\"result\",\"result\":\"{result}\",\"reason\":\"r\",\"end\":\"resign\"}}\n"
            );
            std::fs::write(dir.join(JOURNAL), line).unwrap();
        }
        let text = super::super::file::TEMPLATE.replace(
            "[openings]",
            "[[engine]]\nname = \"older\"\nplayer = \"bot\"\n\n[openings]",
        );
        let file = super::super::file::parse(&text).unwrap();
        let figures = figures(root.path(), &file);
        assert_eq!(figures.pairs, 3);
        assert_eq!(figures.per_opponent.len(), 2);
        let old = &figures.per_opponent[0];
        assert_eq!((old.name.as_str(), old.pairs), ("old", 2), "pairs 1 and 3");
        assert_eq!((old.wins, old.losses), (3, 1));
        let older = &figures.per_opponent[1];
        assert_eq!(
            (older.name.as_str(), older.pairs, older.losses),
            ("older", 1, 2)
        );
        assert_eq!(older.penta, [1, 0, 0, 0, 0]);
        assert!(figures
            .lines()
            .iter()
            .any(|l| l.starts_with("  against older: pairs 1")));
    }

    #[test]
    fn folder_names_read_back_as_their_slots() {
        let slot = GameSlot {
            pair: 6,
            candidate: Color::White,
        };
        assert_eq!(parse_folder_name(&slot.name()), Some((slot.clone(), 1)));
        assert_eq!(parse_folder_name("pair-0007-b-3"), Some((slot, 3)));
        for junk in [
            "pair-0000-a",
            "pair-7-c",
            "pair-0007-a-x",
            "notes",
            "pair-0001-a-2-1",
        ] {
            assert_eq!(parse_folder_name(junk), None, "{junk}");
        }
    }
}
