//! Which games a match plays, and where: pair `k` is two games of one
//! opening against one opponent, the candidate Black in the first (`a`)
//! and White in the second (`b`), in `games/pair-KKKK-a` and `-b`; a game
//! played again (void, or a crash) gets `-2`, `-3`, .... Each folder's game
//! file says everything the game's goref needs.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use goref_core::game::Color;
use goref_core::matches::openings::{self, Opening};
use goref_core::matches::{gauntlet_opponent, OpeningOrder};

use super::file::{Engine, MatchFile, OpeningSource};

/// The most random openings a match makes.
const MAX_RANDOM_OPENINGS: usize = 1000;

/// The match's report in its folder, written by `goref match`.
pub const REPORT_PAGE: &str = "report.html";

/// When a match's games sync their journals, unless its `[game]` says: at
/// the result only. A kill loses nothing; a power cut may take the last
/// moves of the games in play, which are resumed from what is left; the
/// sync a move would otherwise cost is half a match game's own CPU.
pub const MATCH_JOURNAL_SYNC: &str = "result";

/// One game of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameSlot {
    pub pair: u64,
    /// The candidate's colour: Black in the pair's first game.
    pub candidate: Color,
}

impl GameSlot {
    /// The pair's two games.
    pub fn of_pair(pair: u64) -> [GameSlot; 2] {
        [Color::Black, Color::White].map(|candidate| GameSlot { pair, candidate })
    }

    /// Game `game` of the pair: 1, the candidate Black, or 2, White.
    pub fn in_game(pair: u64, game: u8) -> GameSlot {
        let candidate = match game {
            1 => Color::Black,
            _ => Color::White,
        };
        GameSlot { pair, candidate }
    }

    /// Which game of its pair it is: 1, the candidate Black, or 2.
    pub fn game(&self) -> u8 {
        match self.candidate {
            Color::Black => 1,
            Color::White => 2,
        }
    }

    /// The candidate and its opponent as (Black, White) in this game.
    pub fn colours<'a, T>(&self, candidate: &'a T, opponent: &'a T) -> (&'a T, &'a T) {
        match self.candidate {
            Color::Black => (candidate, opponent),
            Color::White => (opponent, candidate),
        }
    }

    /// `pair-0007-a`: the folder's name of its first try.
    pub fn name(&self) -> String {
        let leg = match self.candidate {
            Color::Black => 'a',
            Color::White => 'b',
        };
        format!("pair-{:04}-{leg}", self.pair + 1)
    }

    /// The board a screen shows it on: `2k + 1` for pair `k + 1`'s first
    /// game, `2k + 2` for its second.
    pub fn board(&self) -> u32 {
        (self.pair * 2 + u64::from(self.game())) as u32
    }

    /// The folder's name of try `attempt` (from 1): `pair-0007-a`,
    /// `pair-0007-a-2`.
    pub fn folder(&self, attempt: u32) -> String {
        match attempt {
            1 => self.name(),
            n => format!("{}-{n}", self.name()),
        }
    }
}

/// The match's plan: its openings, in their seeded order, and its
/// opponents.
pub struct Plan {
    pub openings: Vec<Opening>,
    order: OpeningOrder,
    opponents: NonZeroUsize,
}

impl Plan {
    pub fn new(file: &MatchFile, openings: Vec<Opening>) -> Plan {
        let count = NonZeroUsize::new(openings.len()).unwrap_or(NonZeroUsize::MIN);
        let opponents = NonZeroUsize::new(file.engines.len() - 1).unwrap_or(NonZeroUsize::MIN);
        Plan {
            openings,
            order: OpeningOrder::new(count, file.seed),
            opponents,
        }
    }

    /// The opening pair `pair` plays, if there are openings.
    pub fn opening(&self, pair: u64) -> Option<&Opening> {
        self.openings.get(self.order.opening(pair))
    }

    /// The index among the engines of pair `pair`'s opponent.
    pub fn opponent(&self, pair: u64) -> usize {
        1 + gauntlet_opponent(self.opponents, pair)
    }

    /// The game file of `slot`: the match's `[game]`, the two engines in
    /// their colours, the opening, and the game's name.
    pub fn game_file(&self, file: &MatchFile, slot: &GameSlot) -> String {
        self.game_file_with(file, slot, |engine| engine.clone())
    }

    /// The engines of `slot`'s game, the candidate first.
    pub fn engines<'a>(&self, file: &'a MatchFile, slot: &GameSlot) -> [&'a Engine; 2] {
        [&file.engines[0], &file.engines[self.opponent(slot.pair)]]
    }

    /// `slot`'s game file, each engine as `player_of` gives it (a program
    /// kept by the runner is played as its seat).
    pub fn game_file_with(
        &self,
        file: &MatchFile,
        slot: &GameSlot,
        player_of: impl Fn(&Engine) -> Engine,
    ) -> String {
        let [candidate, opponent] = self.engines(file, slot).map(player_of);
        let (candidate, opponent) = (&candidate, &opponent);
        let opening = self.opening(slot.pair);
        let moves: Vec<String> =
            opening.map_or_else(Vec::new, |o| o.moves.iter().map(|p| p.to_gtp()).collect());
        let source = opening.map_or("no opening".to_string(), |o| o.source.clone());
        game_file(
            &file.game_table,
            &file.name,
            slot,
            [candidate, opponent],
            &moves,
            &source,
            "goref match from match.toml",
        )
    }
}

/// The game file of `slot` of match `match_name`: its `[game]` table, the
/// candidate and its opponent (`engines`) in their colours, the opening's
/// moves, and the game's name; the header says where the opening came
/// from (`source`) and who wrote the file (`writer`). A worker writes the
/// same file from a job.
pub fn game_file(
    game_table: &toml::Table,
    match_name: &str,
    slot: &GameSlot,
    engines: [&Engine; 2],
    opening: &[String],
    source: &str,
    writer: &str,
) -> String {
    let [candidate, opponent] = engines;
    let (black, white) = slot.colours(candidate, opponent);
    let mut table = game_table.clone();
    table.insert("black".into(), black.player.clone().into());
    table.insert("white".into(), white.player.clone().into());
    table.insert("event".into(), match_name.into());
    if !table.contains_key("journal_sync") {
        table.insert("journal_sync".into(), MATCH_JOURNAL_SYNC.into());
    }
    if !opening.is_empty() {
        table.insert("opening".into(), opening.join(",").into());
    }
    let game = slot.game();
    table.insert(
        "game_name".into(),
        format!(
            "pair {} game {game}: {} (B) - {} (W)",
            slot.pair + 1,
            black.name,
            white.name
        )
        .into(),
    );
    let header = format!(
        "# Pair {} of {match_name}, game {}: {} (Black) against {} (White), opening {source},\n\
         # written by {writer}.\n",
        slot.pair + 1,
        slot.name(),
        black.name,
        white.name
    );
    header + &toml::to_string(&table).expect("a TOML table serializes")
}

/// The match's openings: from its SGF files, or made from its seed; one
/// empty opening when it has none.
pub fn load_openings(file: &MatchFile) -> Result<Vec<Opening>, String> {
    let size = file.size();
    match &file.openings {
        OpeningSource::Random { plies: 0 } => Ok(vec![Opening {
            source: "the empty board".into(),
            moves: Vec::new(),
        }]),
        OpeningSource::Random { plies } => {
            let count = file
                .pairs
                .map_or(MAX_RANDOM_OPENINGS, |p| p as usize)
                .clamp(1, MAX_RANDOM_OPENINGS);
            let made = openings::random(count, *plies, size, file.seed);
            match made.is_empty() {
                true => Err(format!(
                    "[openings] random:{plies}: no opening of {plies} quiet moves fits a {size}x{size} board"
                )),
                false => Ok(made),
            }
        }
        OpeningSource::Sgf { path, plies } => {
            let files: Vec<PathBuf> = match path.is_dir() {
                true => {
                    let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                        .map_err(|e| format!("[openings] {}: {e}", path.display()))?
                        .flatten()
                        .map(|entry| entry.path())
                        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
                        .collect();
                    found.sort();
                    found
                }
                false => vec![path.clone()],
            };
            let mut all = Vec::new();
            for sgf in &files {
                let text = crate::files::read_text(sgf, crate::files::OPENINGS_MAX)
                    .map_err(|e| format!("[openings] {}: {e}", sgf.display()))?;
                let name = sgf.display().to_string();
                let found = openings::from_sgf(&text, &name, size, *plies)
                    .map_err(|e| format!("[openings] {e}"))?;
                all.extend(found);
            }
            match all.is_empty() {
                true => Err(format!("[openings] {}: no SGF game in it", path.display())),
                false => Ok(all),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairs_games_are_numbered_one_and_two_and_boarded_in_order() {
        for (slot, game) in GameSlot::of_pair(6).into_iter().zip([1, 2]) {
            assert_eq!(slot.game(), game);
            assert_eq!(GameSlot::in_game(6, game), slot);
        }
        let [first, second] = GameSlot::of_pair(6);
        assert_eq!((first.board(), second.board()), (13, 14));
        assert_eq!(first.colours(&"new", &"old"), (&"new", &"old"));
        assert_eq!(second.colours(&"new", &"old"), (&"old", &"new"));
    }
}
