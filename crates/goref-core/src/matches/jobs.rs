//! A match played by workers on other machines, as the match keeps its
//! books: the job a worker takes (one opening pair, its two games), the
//! result it sends back, and the book of every pair's tries, so that a
//! pair is counted once however many results arrive and a try that was
//! given up is named, never lost. Pure: the shell moves the messages
//! through the broker and the folders through its object store.
//!
//! A job names its engines by name only. Nothing in it is ever run as a
//! command: each worker maps the names through its own file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The version of the job and result messages.
pub const MESSAGE_VERSION: u32 = 1;
/// The longest `[game]` table a job may carry.
const GAME_TABLE_LIMIT: usize = 64 * 1024;
/// The longest engine or worker name.
const NAME_LIMIT: usize = 64;
/// The longest name a game is published under.
const LIVE_LIMIT: usize = 200;

/// One opening pair to play: the candidate Black in game 1, White in
/// game 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    pub version: u32,
    #[serde(rename = "match")]
    pub match_name: String,
    /// From 0, as the local match numbers its pairs.
    pub pair: u64,
    /// The opening's moves, played for both programs.
    pub opening: Vec<String>,
    /// The candidate's name and its opponent's, as the worker's file names
    /// them.
    pub engines: [String; 2],
    /// The match's `[game]` table, as TOML.
    pub game: String,
}

/// One finished game of a job, as its worker reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReport {
    /// 1 (the candidate Black) or 2.
    pub game: u8,
    /// The result as the game's journal ends with it, e.g. `B+3.5`.
    pub result: String,
    /// The SHA-256 of the game folder's manifest, in hex.
    pub manifest_sha256: String,
    /// The engines whose kept program the worker started again before
    /// this game (crashed, hung or not ready), a name a start; absent from
    /// older workers' results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarts: Vec<String>,
}

/// A worker's result for a job: both games, played on its `delivery`-th
/// delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobResult {
    pub version: u32,
    #[serde(rename = "match")]
    pub match_name: String,
    pub pair: u64,
    pub worker: String,
    pub delivery: u64,
    /// The try's own name, unique however the broker counts deliveries
    /// (a broker restarted may count one again): where its folders are in
    /// the object store, and the result's message id.
    pub try_id: String,
    pub games: Vec<GameReport>,
}

/// What a worker says about a job while it holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum NoticeKind {
    /// It plays the pair.
    Taken,
    /// It has no engine of that name, and handed the job back.
    Refused { engine: String },
    /// It could not play the pair, and handed it back.
    Failed { reason: String },
    /// Its goref began game `game` (1 or 2) of the pair, published live on
    /// the broker under the name `live`.
    Playing { game: u8, live: String },
}

/// A worker's notice about a job, on the broker beside the results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerNotice {
    pub version: u32,
    #[serde(rename = "match")]
    pub match_name: String,
    pub pair: u64,
    pub worker: String,
    pub delivery: u64,
    #[serde(flatten)]
    pub kind: NoticeKind,
}

/// The longest reason a notice carries; the rest is cut.
const REASON_LIMIT: usize = 300;

/// Why a job or a result is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("not a goref job or result: {0}")]
    Unreadable(String),
    #[error("written for message version {0}; this goref reads version {MESSAGE_VERSION}")]
    Version(u32),
    #[error("{what} {name:?} is not a name (1 to {NAME_LIMIT} letters, digits, '-', '_' or '.')")]
    BadName { what: &'static str, name: String },
    #[error("the [game] table is over {GAME_TABLE_LIMIT} bytes")]
    GameTooLong,
    #[error("an opening move {0:?} is not a vertex")]
    BadOpening(String),
    #[error("a result needs games 1 and 2 once each, with a result and a manifest's SHA-256")]
    BadGames,
    #[error("for match {found:?}, not {expected:?}")]
    OtherMatch { expected: String, found: String },
    #[error("game {game} published as {live:?}: a game is 1 or 2, its name a subject's token")]
    BadLive { game: u8, live: String },
}

/// Whether `name` is a plain name: what a worker looks up, never runs.
pub fn is_plain_name(name: &str) -> bool {
    (1..=NAME_LIMIT).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A message for `found`, read by match `expected`: refused unless the same.
fn same_match(found: &str, expected: &str) -> Result<(), MessageError> {
    match found == expected {
        true => Ok(()),
        false => Err(MessageError::OtherMatch {
            expected: expected.into(),
            found: found.chars().take(NAME_LIMIT).collect(),
        }),
    }
}

fn name(what: &'static str, name: &str) -> Result<(), MessageError> {
    match is_plain_name(name) {
        true => Ok(()),
        false => Err(MessageError::BadName {
            what,
            name: name.chars().take(NAME_LIMIT).collect(),
        }),
    }
}

fn read<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, MessageError> {
    let version: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| MessageError::Unreadable(e.to_string()))?;
    match version["version"].as_u64() {
        Some(v) if v == u64::from(MESSAGE_VERSION) => {}
        Some(v) => return Err(MessageError::Version(u32::try_from(v).unwrap_or(u32::MAX))),
        None => return Err(MessageError::Unreadable("no version".into())),
    }
    serde_json::from_slice(bytes).map_err(|e| MessageError::Unreadable(e.to_string()))
}

impl Job {
    /// The job's id, also its message id on the broker: `NAME/pair-K`.
    pub fn id(&self) -> String {
        Job::id_of(&self.match_name, self.pair)
    }

    /// The id of match `match_name`'s job for pair `pair`.
    pub fn id_of(match_name: &str, pair: u64) -> String {
        format!("{match_name}/pair-{pair}")
    }

    /// A job read from the broker, checked.
    pub fn from_json(bytes: &[u8]) -> Result<Job, MessageError> {
        let job: Job = read(bytes)?;
        job.check()?;
        Ok(job)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a job always serialises")
    }

    fn check(&self) -> Result<(), MessageError> {
        name("the match", &self.match_name)?;
        for engine in &self.engines {
            name("the engine", engine)?;
        }
        if self.game.len() > GAME_TABLE_LIMIT {
            return Err(MessageError::GameTooLong);
        }
        let vertex = |v: &str| {
            let (column, row) = v.split_at(v.chars().next().map_or(0, char::len_utf8));
            column.chars().all(|c| c.is_ascii_alphabetic())
                && !column.is_empty()
                && (1..=2).contains(&row.len())
                && row.chars().all(|c| c.is_ascii_digit())
        };
        match self.opening.iter().find(|v| !vertex(v)) {
            Some(bad) => Err(MessageError::BadOpening(bad.chars().take(8).collect())),
            None => Ok(()),
        }
    }
}

impl JobResult {
    /// A result read from the broker, checked against the match it is for.
    pub fn from_json(bytes: &[u8], match_name: &str) -> Result<JobResult, MessageError> {
        let result: JobResult = read(bytes)?;
        same_match(&result.match_name, match_name)?;
        name("the worker", &result.worker)?;
        name("the try", &result.try_id)?;
        let mut games: Vec<u8> = result.games.iter().map(|g| g.game).collect();
        games.sort_unstable();
        let whole = result.games.iter().all(|g| {
            !g.result.is_empty()
                && g.result.len() <= 32
                && g.manifest_sha256.len() == 64
                && g.manifest_sha256.chars().all(|c| c.is_ascii_hexdigit())
        });
        if games != [1, 2] || !whole {
            return Err(MessageError::BadGames);
        }
        Ok(result)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a result always serialises")
    }
}

impl WorkerNotice {
    /// A notice read from the broker, checked against the match it is
    /// for; a failure's reason is cut to one printable line.
    pub fn from_json(bytes: &[u8], match_name: &str) -> Result<WorkerNotice, MessageError> {
        let mut notice: WorkerNotice = read(bytes)?;
        same_match(&notice.match_name, match_name)?;
        name("the worker", &notice.worker)?;
        match &mut notice.kind {
            NoticeKind::Taken => {}
            NoticeKind::Refused { engine } => name("the engine", engine)?,
            NoticeKind::Failed { reason } => {
                *reason = reason
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .take(REASON_LIMIT)
                    .collect();
            }
            NoticeKind::Playing { game, live } => {
                let token = (1..=LIVE_LIMIT).contains(&live.len())
                    && live
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
                if !matches!(game, 1 | 2) || !token {
                    return Err(MessageError::BadLive {
                        game: *game,
                        live: live.chars().take(LIVE_LIMIT).collect(),
                    });
                }
            }
        }
        Ok(notice)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a notice always serialises")
    }
}

/// Who played a try of a pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Try {
    pub worker: String,
    pub delivery: u64,
}

/// What the book makes of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The pair's first result: its games count.
    Count,
    /// The pair was counted already, from `counted`: this one is kept in
    /// the match's journal and not counted.
    Duplicate { counted: Try },
    /// A pair the match never published.
    Unknown,
}

/// One pair's record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PairRecord {
    /// The tries begun, in the order they were heard of.
    tries: Vec<Try>,
    counted: Option<Try>,
}

/// Every published pair's tries and which one counted.
#[derive(Debug, Clone, Default)]
pub struct JobBook {
    pairs: BTreeMap<u64, PairRecord>,
}

impl JobBook {
    pub fn new() -> JobBook {
        JobBook::default()
    }

    /// The pair is on the work queue.
    pub fn published(&mut self, pair: u64) {
        self.pairs.entry(pair).or_default();
    }

    /// Whether the pair was published.
    pub fn is_published(&self, pair: u64) -> bool {
        self.pairs.contains_key(&pair)
    }

    /// A worker said it plays `pair` on its `delivery`-th delivery.
    pub fn taken(&mut self, pair: u64, worker: &str, delivery: u64) {
        let Some(record) = self.pairs.get_mut(&pair) else {
            return;
        };
        let heard = record
            .tries
            .iter()
            .any(|t| t.worker == worker && t.delivery == delivery);
        if !heard {
            record.tries.push(Try {
                worker: worker.into(),
                delivery,
            });
        }
    }

    /// A result arrived.
    pub fn result(&mut self, result: &JobResult) -> Verdict {
        self.taken(result.pair, &result.worker, result.delivery);
        let Some(record) = self.pairs.get_mut(&result.pair) else {
            return Verdict::Unknown;
        };
        match &record.counted {
            Some(counted) => Verdict::Duplicate {
                counted: counted.clone(),
            },
            None => {
                record.counted = Some(Try {
                    worker: result.worker.clone(),
                    delivery: result.delivery,
                });
                Verdict::Count
            }
        }
    }

    /// The pair was counted from `counted` before this book was opened
    /// (read back from the match's journal after a restart).
    pub fn counted_before(&mut self, pair: u64, counted: Try) {
        let record = self.pairs.entry(pair).or_default();
        if !record.tries.contains(&counted) {
            record.tries.push(counted.clone());
        }
        record.counted.get_or_insert(counted);
    }

    /// Whether the pair is counted.
    pub fn is_counted(&self, pair: u64) -> bool {
        self.pairs.get(&pair).is_some_and(|r| r.counted.is_some())
    }

    /// The pair's latest try, if a worker took it.
    pub fn latest(&self, pair: u64) -> Option<&Try> {
        self.pairs
            .get(&pair)?
            .tries
            .iter()
            .max_by_key(|t| t.delivery)
    }

    /// The pairs published and not yet counted.
    pub fn waiting(&self) -> Vec<u64> {
        self.pairs
            .iter()
            .filter(|(_, r)| r.counted.is_none())
            .map(|(pair, _)| *pair)
            .collect()
    }

    /// The tries of a pair that did not count: given up when a later
    /// delivery took the pair, or beaten by the try that counted.
    pub fn abandoned(&self, pair: u64) -> Vec<Try> {
        let Some(record) = self.pairs.get(&pair) else {
            return Vec::new();
        };
        let latest = record.tries.iter().map(|t| t.delivery).max();
        record
            .tries
            .iter()
            .filter(|t| match &record.counted {
                Some(counted) => *t != counted,
                None => Some(t.delivery) != latest,
            })
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests;
