//! A match's figures, computed from its game folders alone: each folder's
//! result (read from its journal's end) and what it counts for the
//! candidate, taken in the order the games ended into the core's ledger
//! (`matches::Ledger`: whole pairs, the SPRT's first decision), with what
//! only the folders know: colours, losses on time, by an illegal move and
//! by a program's crash or hang, and replays.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::path::Path;
use std::time::SystemTime;

use serde::Serialize;

use goref_core::game::Color;
use goref_core::matches::{Figures, Ledger, Outcome, Recorded, Sprt, SprtState, StopRule};

use super::file::MatchFile;
pub use super::games::{folder_result, FolderResult};
use super::games::{GameFolder, GamesFolder};
use super::plan::GameSlot;

/// What a finished game counts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counted {
    /// An outcome for the candidate, and how the game ended (`time`,
    /// `forfeit_illegal_move`, ...).
    Game { outcome: Outcome, end: String },
    /// Nothing: the game is played again (void, no game, a failure that
    /// is no program's, no result the match can take).
    Replay(String),
}

/// Ends that are a program's own failure in play: it crashed or exited,
/// or stopped answering. The game is that program's loss, as fastchess and
/// cutechess count it, and counted apart.
const CRASH_ENDS: [&str; 2] = ["forfeit_crash", "forfeit_hang"];

/// What a game's result counts for the candidate playing `candidate`. A
/// program that crashed or hung has lost; only a game that failed for
/// goref's own reasons (void, no game, a failure of the set-up) is played
/// again.
pub fn count(result: &str, end: &str, reason: &str, candidate: Color) -> Counted {
    let replayed = matches!(end, "void" | "no_game" | "forfeit_failure")
        || matches!(result, "Void" | "?" | "");
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

/// How a game ends whose loser's program crashed, hung or wrote garbage:
/// a kept program is started again before its next game.
const FAILED_PROGRAM: [&str; 3] = ["forfeit_crash", "forfeit_hang", "forfeit_garbage"];

/// The engine whose program failed the game in `folder` (its crash, hang
/// or garbage lost it), given the engines' names in their colours.
pub(crate) fn failed_program<'a>(folder: &Path, black: &'a str, white: &'a str) -> Option<&'a str> {
    let (result, end, _) = folder_result(folder)?;
    FAILED_PROGRAM
        .contains(&end.as_str())
        .then(|| match result.starts_with('W') {
            true => black,
            false => white,
        })
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
    /// The SPRT's hypotheses, `[elo0, elo1]`; none without an SPRT.
    pub sprt_elo: Option<[f64; 2]>,
    /// `continue`, `accept_h0` or `accept_h1`; none without an SPRT.
    pub sprt: Option<SprtState>,
    /// Games lost on time and by an illegal move, the candidate's and its
    /// opponents'; games lost because the program crashed, exited or
    /// stopped answering, the same way; games played again (void, or failed
    /// for no program's fault).
    pub time_losses: [u64; 2],
    pub illegal_losses: [u64; 2],
    pub crashes: [u64; 2],
    pub replayed: u64,
    /// Each engine's kept programs started again (after a crash, a hang or
    /// a readiness not met), from `DIR/programs/`; empty when none was.
    pub restarts: BTreeMap<String, u32>,
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

/// A finished game as the report lists it.
#[derive(Debug, Clone)]
pub struct Played {
    pub name: String,
    pub result: String,
    pub counted: Counted,
}

/// The match's games as they ended: the core's ledger of counted games,
/// with what only the folders know (colours, how games were lost, the
/// games played again) and the list the report links.
#[derive(Debug, Clone)]
pub struct Tally {
    ledger: Ledger,
    /// The candidate as Black and as White: (wins, losses, draws).
    by_colour: [[u64; 3]; 2],
    time_losses: [u64; 2],
    illegal_losses: [u64; 2],
    crashes: [u64; 2],
    replayed: u64,
    played: Vec<Played>,
}

/// The figures of the match in `dir` from its game folders.
pub fn figures(dir: &Path, file: &MatchFile) -> MatchFigures {
    let mut figures = Tally::from_folders(dir, file).figures(file);
    figures.restarts = super::kept::restarts(dir);
    figures
}

impl Tally {
    /// A match with no game ended.
    pub fn new(file: &MatchFile) -> Tally {
        let rule = StopRule {
            pairs: file.pairs,
            sprt: file.sprt.and_then(|s| Sprt::new(s).ok()),
        };
        let opponents = NonZeroUsize::new(file.engines.len() - 1).unwrap_or(NonZeroUsize::MIN);
        Tally {
            ledger: Ledger::new(rule, opponents),
            by_colour: [[0; 3]; 2],
            time_losses: [0; 2],
            illegal_losses: [0; 2],
            crashes: [0; 2],
            replayed: 0,
            played: Vec::new(),
        }
    }

    /// Every game ended in `dir`'s folders, in the order their journals
    /// were last written: the order they ended.
    pub fn from_folders(dir: &Path, file: &MatchFile) -> Tally {
        let mut ended: Vec<(SystemTime, GameFolder, FolderResult)> = GamesFolder::of(dir)
            .games()
            .into_iter()
            .filter_map(|game| Some((game.last_written(), game.clone(), game.result()?)))
            .collect();
        ended.sort_by(|a, b| (a.0, &a.1.name).cmp(&(b.0, &b.1.name)));
        let mut tally = Tally::new(file);
        for (_, game, (result, end, reason)) in ended {
            let counted = count(&result, &end, &reason, game.slot.candidate);
            tally.add(&game.slot, game.name, result, counted);
        }
        tally
    }

    /// Counts one ended game, from its folder `name`; false when its
    /// pair's game of that colour counts already, or it is played again.
    pub fn add(&mut self, slot: &GameSlot, name: String, result: String, counted: Counted) -> bool {
        let fresh = match &counted {
            Counted::Replay(_) => {
                self.replayed += 1;
                false
            }
            Counted::Game { outcome, end } => {
                let fresh =
                    self.ledger.record(slot.pair, slot.candidate, *outcome) != Recorded::Duplicate;
                if fresh {
                    let (column, loser) = match outcome {
                        Outcome::Win => (0, 1),
                        Outcome::Loss => (1, 0),
                        Outcome::Draw => (2, 2),
                    };
                    self.by_colour[slot.candidate.index()][column] += 1;
                    match (end.as_str(), loser) {
                        (_, 2) => {}
                        ("time", _) => self.time_losses[loser] += 1,
                        ("forfeit_illegal_move", _) => self.illegal_losses[loser] += 1,
                        (end, _) if CRASH_ENDS.contains(&end) => self.crashes[loser] += 1,
                        _ => {}
                    }
                }
                fresh
            }
        };
        self.played.push(Played {
            name,
            result,
            counted,
        });
        fresh
    }

    /// How many game folders were added, counted or played again: what
    /// changes whenever the figures may.
    pub fn folders(&self) -> usize {
        self.played.len()
    }

    /// The counted games and the stop rule.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Every ended game, in the order it ended.
    pub fn played(&self) -> &[Played] {
        &self.played
    }

    /// Every figure of the match.
    pub fn figures(&self, file: &MatchFile) -> MatchFigures {
        let games = self.ledger.games();
        let penta = self.ledger.pairs();
        let stats = penta.figures();
        let sprt = self.ledger.rule().sprt;
        let per_opponent = match file.engines.len() > 2 {
            false => Vec::new(),
            true => self
                .ledger
                .against()
                .iter()
                .zip(&file.engines[1..])
                .map(|(against, engine)| {
                    let stats = against.pairs.figures();
                    OpponentFigures {
                        name: engine.name.clone(),
                        pairs: against.pairs.pairs(),
                        wins: against.games.wins,
                        losses: against.games.losses,
                        draws: against.games.draws,
                        penta: against.pairs.as_array(),
                        score: stats.score,
                        elo: stats.elo,
                        elo_error: stats.elo_error,
                    }
                })
                .collect(),
        };
        MatchFigures {
            name: file.name.clone(),
            candidate: file.engines[0].name.clone(),
            opponents: file.engines[1..].iter().map(|e| e.name.clone()).collect(),
            games: games.games(),
            pairs: penta.pairs(),
            wins: games.wins,
            losses: games.losses,
            draws: games.draws,
            as_black: self.by_colour[0],
            as_white: self.by_colour[1],
            penta: penta.as_array(),
            score: stats.score,
            elo: stats.elo,
            elo_error: stats.elo_error,
            nelo: stats.nelo,
            los: stats.los,
            trinomial: games.figures(),
            llr: self.ledger.llr(),
            llr_lower: sprt.map(|s| s.lower_bound()),
            llr_upper: sprt.map(|s| s.upper_bound()),
            sprt_elo: file.sprt.map(|s| [s.elo0, s.elo1]),
            sprt: self.ledger.sprt_state(),
            time_losses: self.time_losses,
            illegal_losses: self.illegal_losses,
            crashes: self.crashes,
            replayed: self.replayed,
            restarts: BTreeMap::new(),
            per_opponent,
        }
    }
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

    /// The SPRT in a few words: `LLR 1.21 [-2.94, 2.94]`; none without one.
    pub fn llr_text(&self) -> Option<String> {
        let (llr, lower, upper) = (self.llr?, self.llr_lower?, self.llr_upper?);
        Some(format!("LLR {llr:.2} [{lower:.2}, {upper:.2}]"))
    }

    /// Elo in a few words, with `digits` decimals: `Elo 58.5 +/- 120.3`.
    /// An interval of no width (every pair alike) says nothing of the
    /// error: it is shown undefined.
    pub fn elo_text(&self, digits: usize) -> Option<String> {
        let elo = unsigned_zero(format!("{:.digits$}", self.elo?));
        Some(match error_text(self.elo_error, digits) {
            Some(error) => format!("Elo {elo} +/- {error}"),
            None => format!("Elo {elo}"),
        })
    }

    /// The figures at 80 columns, for `goref standings DIR` and the end of
    /// a headless match.
    pub fn lines(&self) -> Vec<String> {
        self.sorted_lines()
            .into_iter()
            .map(|(line, _)| line)
            .collect()
    }

    /// The figures for a screen, without the title: those it shows under
    /// the games, and the details it shows on the figures' own page (the
    /// games one by one, an undecided SPRT its plot shows, each opponent of
    /// a gauntlet).
    pub fn screen_lines(&self) -> (Vec<String>, Vec<String>) {
        let (details, main): (Vec<_>, Vec<_>) = self
            .sorted_lines()
            .into_iter()
            .skip(1)
            .partition(|(_, detail)| *detail);
        (
            main.into_iter().map(|(line, _)| line).collect(),
            details.into_iter().map(|(line, _)| line).collect(),
        )
    }

    /// Every line, each marked when it is a detail.
    fn sorted_lines(&self) -> Vec<(String, bool)> {
        let opt = |value: Option<f64>, digits: usize| {
            value.map_or("-".to_string(), |v| unsigned_zero(format!("{v:.digits$}")))
        };
        let mut lines: Vec<(String, bool)> = [
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
                error_text(self.elo_error, 1).unwrap_or_else(|| "-".into()),
                opt(self.nelo, 1),
                self.los
                    .map_or("-".to_string(), |l| format!("{:.1} %", l * 100.0))
            ),
        ]
        .into_iter()
        .map(|line| (line, false))
        .collect();
        if self.draws > 0 {
            let games = &self.trinomial;
            let line = format!(
                "game by game (trinomial): score {}  Elo {} +/- {}  LOS {}",
                opt(games.score, 3),
                opt(games.elo, 1),
                opt(games.elo_error, 1),
                games
                    .los
                    .map_or("-".to_string(), |l| format!("{:.1} %", l * 100.0))
            );
            lines.push((line, true));
        }
        if let (Some(llr), Some(lower), Some(upper)) = (self.llr, self.llr_lower, self.llr_upper) {
            let state = match self.sprt {
                Some(SprtState::AcceptH1) => "H1 accepted: the candidate is stronger",
                Some(SprtState::AcceptH0) => "H0 accepted: not the gain hoped for",
                _ => "undecided",
            };
            let hypotheses = self.sprt_elo.map_or(String::new(), |[elo0, elo1]| {
                format!(" for Elo [{elo0}, {elo1}]")
            });
            let line =
                format!("SPRT LLR {llr:.2} in [{lower:.2}, {upper:.2}]{hypotheses}: {state}");
            lines.push((line, self.sprt == Some(SprtState::Continue)));
        }
        for against in &self.per_opponent {
            let line = format!(
                "  against {}: pairs {}, +{} -{} ={}, Elo {} +/- {}",
                against.name,
                against.pairs,
                against.wins,
                against.losses,
                against.draws,
                opt(against.elo, 1),
                opt(against.elo_error, 1)
            );
            lines.push((line, true));
        }
        let [mine, theirs] = self.time_losses;
        let [mine_illegal, theirs_illegal] = self.illegal_losses;
        let line = format!(
            "lost on time {mine} (opponents {theirs}), by an illegal move {mine_illegal} \
             (opponents {theirs_illegal})"
        );
        lines.push((line, false));
        let [mine_crashed, theirs_crashed] = self.crashes;
        let line = format!(
            "lost by a crash or hang {mine_crashed} (opponents {theirs_crashed}); \
             played again {}",
            self.replayed
        );
        lines.push((line, false));
        if !self.restarts.is_empty() {
            let each: Vec<String> = self
                .restarts
                .iter()
                .map(|(engine, count)| format!("{engine} {count}"))
                .collect();
            let line = format!("kept programs started again: {}", each.join(", "));
            lines.push((line, false));
        }
        lines
    }
}

/// The Elo error with `digits` decimals; `undefined` for an interval of no
/// width, which only says that every pair came out alike.
fn error_text(error: Option<f64>, digits: usize) -> Option<String> {
    error.map(|error| match error == 0.0 {
        true => "undefined".to_string(),
        false => format!("{error:.digits$}"),
    })
}

/// `-0.0` as `0.0`: a figure rounded to nothing has no sign.
fn unsigned_zero(text: String) -> String {
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::folder::JOURNAL;

    #[test]
    fn a_result_counts_for_the_candidates_colour_and_only_goref_s_own_failures_are_replayed() {
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
        for (end, candidate, outcome) in [
            ("forfeit_crash", Color::Black, Outcome::Loss),
            ("forfeit_hang", Color::White, Outcome::Win),
        ] {
            assert_eq!(
                count("W+F", end, "", candidate),
                Counted::Game {
                    outcome,
                    end: end.into()
                },
                "a program that crashed or hung has lost"
            );
        }
        for (result, end) in [
            ("Void", "void"),
            ("Void", "no_game"),
            ("B+F", "forfeit_failure"),
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
        let games = GamesFolder::of(root.path()).path().to_path_buf();
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
        game("pair-0004-a", "W+F", "forfeit_crash");
        let file = super::super::file::parse(super::super::file::TEMPLATE).unwrap();
        let figures = figures(root.path(), &file);
        assert_eq!((figures.games, figures.pairs), (6, 2));
        assert_eq!(
            figures.penta,
            [1, 0, 0, 0, 1],
            "LL then WW; pairs 3 and 4 are not whole"
        );
        assert_eq!((figures.wins, figures.losses, figures.draws), (3, 3, 0));
        assert_eq!(figures.as_black, [2, 2, 0]);
        assert_eq!(figures.as_white, [1, 1, 0]);
        assert_eq!(figures.time_losses, [1, 0], "the candidate's, as White");
        assert_eq!(figures.crashes, [1, 0], "the candidate crashed as Black");
        assert_eq!(figures.replayed, 1);
        assert_eq!(figures.score, Some(0.5));
        assert!(
            figures
                .lines()
                .iter()
                .any(|l| l == "lost by a crash or hang 1 (opponents 0); played again 1"),
            "{:?}",
            figures.lines()
        );
        assert!(figures.llr.is_some() && figures.sprt == Some(SprtState::Continue));
        let (under_the_games, details) = figures.screen_lines();
        assert!(under_the_games[0].starts_with("games 6:"), "no title");
        assert!(
            details.len() == 1 && details[0].starts_with("SPRT LLR"),
            "an undecided SPRT is its plot's: {details:?}"
        );
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
                .starts_with("6,2,3,3,0,1,0,0,0,1,0.500000"),
            "{csv}"
        );
    }

    #[test]
    fn a_gauntlet_has_figures_against_each_opponent_and_the_field() {
        let root = tempfile::tempdir().unwrap();
        let games = GamesFolder::of(root.path()).path().to_path_buf();
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
        let (_, details) = figures.screen_lines();
        let against = details.iter().filter(|l| l.starts_with("  against "));
        assert_eq!(against.count(), 2, "each opponent on the figures' page");
    }

    #[test]
    fn an_interval_of_no_width_is_shown_undefined_not_as_certainty() {
        assert_eq!(error_text(Some(0.0), 1).as_deref(), Some("undefined"));
        assert_eq!(error_text(Some(12.25), 1).as_deref(), Some("12.2"));
        assert_eq!(error_text(None, 1), None);
    }

    #[test]
    fn a_figure_rounded_to_nothing_has_no_sign() {
        assert_eq!(unsigned_zero("-0.0".into()), "0.0");
        assert_eq!(unsigned_zero("-0.1".into()), "-0.1");
        assert_eq!(unsigned_zero("-12".into()), "-12");
    }
}
