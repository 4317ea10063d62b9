//! The rules of a match played by workers, without the broker: which pairs
//! to publish and how far ahead of the results, what a worker's notice or
//! result means (a try that another try has overtaken is stale), failures
//! counted a pair and the match failed past the limit, the engines no
//! worker has, the pairs the stop rule makes unneeded withdrawn while no
//! worker holds them, the tries given up, and when the match is over.
//!
//! Sans-IO, as the referee: the shell hands it what happened
//! (`handle_notice`, `handle_result`, `handle_fetched`, `handle_published`,
//! `handle_withdrawn`, `handle_broker_error`, `handle_link`,
//! `handle_stop_rule`) and carries out what [`Supervisor::poll_action`]
//! returns, in order. Every line it says and every [`Entry`] it journals
//! are the match's own, word for word.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::jobs::{Job, JobBook, JobResult, NoticeKind, Try, Verdict, WorkerNotice};

/// How long a result whose games cannot be copied now waits to come again.
pub const COPY_AGAIN: Duration = Duration::from_secs(5);

/// One thing the match did or heard: a line of its journal,
/// `DIR/match.jsonl`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Entry {
    /// The pair's job is on the queue.
    Published { pair: u64 },
    /// A worker plays the pair, on the broker's `delivery`-th delivery.
    Taken {
        pair: u64,
        worker: String,
        delivery: u64,
    },
    /// The pair's games are in `games/` and counted.
    Counted {
        pair: u64,
        worker: String,
        delivery: u64,
    },
    /// Another result for a pair counted already: kept here, not counted.
    Duplicate {
        pair: u64,
        worker: String,
        delivery: u64,
        counted_worker: String,
        counted_delivery: u64,
    },
    /// A try given up: its worker fell silent or handed the job back, and
    /// the job went out again.
    Abandoned {
        pair: u64,
        worker: String,
        delivery: u64,
    },
    /// A worker has no engine of the name and handed the job back.
    Refused {
        pair: u64,
        worker: String,
        engine: String,
    },
    /// A worker could not play the pair.
    Failed {
        pair: u64,
        worker: String,
        delivery: u64,
        reason: String,
    },
    /// A result whose games did not check out: not counted, the pair
    /// published again.
    Rejected {
        pair: u64,
        worker: String,
        delivery: u64,
        reason: String,
    },
    /// The SPRT decided: the pair's job, not yet taken, is off the queue.
    Withdrawn { pair: u64 },
    /// A message on the match's subjects that is not a result or notice.
    Unreadable { why: String },
}

/// Why a result's games were not copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotFetched {
    /// The result does not check out: it is refused.
    Refused(String),
    /// The copy cannot be made now, here or on the broker: tried again.
    Later(String),
}

/// What the shell does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Put the pair's job on the queue under its id, then journal
    /// [`Entry::Published`]; answer with `handle_published` or
    /// `handle_broker_error`.
    Publish { pair: u64 },
    /// Put the pair's job on the queue again under `id`; the match stops if
    /// the broker cannot take it.
    PublishAgain { pair: u64, id: String },
    /// Take the pair's job off the queue if it is there, then journal
    /// [`Entry::Withdrawn`]; answer with `handle_withdrawn` or
    /// `handle_broker_error`.
    Withdraw { pair: u64 },
    /// Copy the result's games into `games/`; answer with `handle_fetched`.
    Fetch { result: JobResult },
    /// Count the pair's games, in the folders `names` (game 1's first),
    /// and say the figures: the pair was played by `worker`, which started
    /// the kept programs of `restarts` again for them (a name a start).
    Count {
        pair: u64,
        worker: String,
        names: Vec<String>,
        restarts: Vec<String>,
    },
    /// Append the entry to the journal; the match stops if it cannot.
    Journal(Entry),
    /// Say the line.
    Say(String),
    /// The message in hand is taken: acknowledge it.
    Ack,
    /// The message in hand cannot be taken now: hand it back, to come
    /// again after `delay`.
    Nak { delay: Duration },
}

/// What the supervisor is told once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The match's id on the broker.
    pub match_id: String,
    /// The broker's address as said, without credentials.
    pub broker_shown: String,
    /// How many pairs may be published and not yet counted.
    pub queued: usize,
    /// How many failures of one pair fail the match.
    pub failures: usize,
}

/// The game a worker says it plays: whose try, game 1 or 2, and its name
/// on the broker. A worker plays a pair's games one after the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveGame {
    pub by: Try,
    pub game: u8,
    pub name: String,
}

/// Where the round of publishing and withdrawing stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Round {
    /// None under way: it begins with `begin_round`.
    Idle,
    /// Under way: the next pair to publish or withdraw is asked for.
    Going,
    /// A pair is being published or withdrawn: its answer is awaited.
    Awaiting,
}

/// A match played by workers: its book of pairs and tries, and the rules.
#[derive(Debug)]
pub struct Supervisor {
    settings: Settings,
    book: JobBook,
    /// The first pair not yet published.
    next_pair: u64,
    /// How many pairs, from the first, the stop rule lets begin.
    may_begin: Option<u64>,
    /// Each pair's failures, with the workers' reasons.
    failures: BTreeMap<u64, Vec<String>>,
    /// Each waiting pair's refusals: the engines no worker that took it had.
    refusals: BTreeMap<u64, BTreeSet<String>>,
    withdrawn: BTreeSet<u64>,
    /// The tries named given up.
    abandoned_said: BTreeSet<(u64, String, u64)>,
    failed: Option<String>,
    /// Why the last result's games could not be copied, until one is.
    copy_trouble: Option<String>,
    /// The games the workers say they play, by pair.
    live: BTreeMap<u64, LiveGame>,
    /// Whether the broker is in trouble as last said.
    broker_trouble: bool,
    round: Round,
    /// The result whose games are being copied.
    fetching: Option<JobResult>,
    actions: VecDeque<Action>,
}

impl Supervisor {
    /// A match with nothing published; its stop rule lets every pair begin
    /// until `handle_stop_rule` says otherwise.
    pub fn new(settings: Settings) -> Supervisor {
        Supervisor {
            settings,
            book: JobBook::new(),
            next_pair: 0,
            may_begin: None,
            failures: BTreeMap::new(),
            refusals: BTreeMap::new(),
            withdrawn: BTreeSet::new(),
            abandoned_said: BTreeSet::new(),
            failed: None,
            copy_trouble: None,
            live: BTreeMap::new(),
            broker_trouble: false,
            round: Round::Idle,
            fetching: None,
            actions: VecDeque::new(),
        }
    }

    /// Where the match stood when it was stopped: the journal's entries,
    /// then the pairs with both games in `games/`, counted from there.
    pub fn read_back(&mut self, heard: Vec<Entry>, pairs_in_folders: BTreeSet<u64>) {
        for entry in heard {
            match entry {
                Entry::Published { pair } => {
                    self.book.published(pair);
                    self.next_pair = self.next_pair.max(pair + 1);
                }
                Entry::Taken {
                    pair,
                    worker,
                    delivery,
                } => self.book.taken(pair, &worker, delivery),
                Entry::Counted {
                    pair,
                    worker,
                    delivery,
                } => self.book.counted_before(pair, Try { worker, delivery }),
                Entry::Withdrawn { pair } => {
                    self.withdrawn.insert(pair);
                }
                Entry::Abandoned {
                    pair,
                    worker,
                    delivery,
                } => {
                    self.abandoned_said.insert((pair, worker, delivery));
                }
                Entry::Failed {
                    pair,
                    worker,
                    delivery,
                    reason,
                } => {
                    let by = Try { worker, delivery };
                    if !self.is_stale(pair, &by) {
                        self.failures.entry(pair).or_default().push(reason);
                    }
                }
                _ => {}
            }
        }
        for pair in pairs_in_folders {
            if !self.book.is_counted(pair) {
                self.book.counted_before(
                    pair,
                    Try {
                        worker: "(from its folders)".into(),
                        delivery: 0,
                    },
                );
            }
            self.next_pair = self.next_pair.max(pair + 1);
        }
    }

    /// A pair published before and found neither on the queue nor among
    /// the results (never stored, or the broker's store wiped): published
    /// again.
    pub fn handle_lost(&mut self, pair: u64) {
        self.say(format!(
            "goref: pair {} is not on the broker: published again",
            pair + 1
        ));
        let id = Job::id_of(&self.settings.match_id, pair);
        self.actions.push_back(Action::PublishAgain { pair, id });
    }

    /// How many pairs, from the first, the stop rule lets begin now
    /// (`Ledger::pairs_that_may_begin`).
    pub fn handle_stop_rule(&mut self, pairs_that_may_begin: Option<u64>) {
        self.may_begin = pairs_that_may_begin;
    }

    /// The broker's link went away (`false`) or answers again (`true`).
    pub fn handle_link(&mut self, up: bool) {
        match up {
            false => {
                self.say(format!(
                    "goref: the broker at {} went away: the workers' games go on, \
                     their results wait for it",
                    self.settings.broker_shown
                ));
                self.broker_trouble = true;
            }
            true if std::mem::take(&mut self.broker_trouble) => {
                self.say("goref: the broker answers again".into());
            }
            true => {}
        }
    }

    /// Begins a round: pairs are published while fewer than `queued` are
    /// outstanding and the stop rule lets them begin, then the outstanding
    /// pairs it forbids and no worker has taken are withdrawn.
    pub fn begin_round(&mut self) {
        if self.round == Round::Idle {
            self.round = Round::Going;
        }
    }

    /// The pair's job is on the queue, and journaled.
    pub fn handle_published(&mut self, pair: u64) {
        self.book.published(pair);
        self.next_pair = self.next_pair.max(pair + 1);
        self.round_goes_on();
    }

    /// The pair's job is off the queue, and journaled.
    pub fn handle_withdrawn(&mut self, pair: u64) {
        self.withdrawn.insert(pair);
        self.say(format!(
            "goref: pair {}: withdrawn, the stop rule is met",
            pair + 1
        ));
        self.round_goes_on();
    }

    /// A pair could not be published or withdrawn: the round ends, and is
    /// tried again with the next.
    pub fn handle_broker_error(&mut self, why: String) {
        self.round = Round::Idle;
        if !self.broker_trouble {
            self.say(format!("goref: {why}; trying again"));
            self.broker_trouble = true;
        }
    }

    fn round_goes_on(&mut self) {
        if self.round == Round::Awaiting {
            self.round = Round::Going;
        }
    }

    /// The next pair of the round to publish or withdraw, or the round's
    /// end.
    fn next_of_round(&mut self) -> Option<Action> {
        if self.outstanding().len() < self.settings.queued && self.may_begin(self.next_pair) {
            self.round = Round::Awaiting;
            return Some(Action::Publish {
                pair: self.next_pair,
            });
        }
        let untaken = self
            .outstanding()
            .into_iter()
            .find(|&pair| !self.may_begin(pair) && self.book.latest(pair).is_none());
        if let Some(pair) = untaken {
            self.round = Round::Awaiting;
            return Some(Action::Withdraw { pair });
        }
        self.round = Round::Idle;
        match std::mem::take(&mut self.broker_trouble) {
            true => Some(Action::Say("goref: the broker answers again".into())),
            false => None,
        }
    }

    /// What to do next, in order; `None` until something more happens.
    pub fn poll_action(&mut self) -> Option<Action> {
        if let Some(action) = self.actions.pop_front() {
            return Some(action);
        }
        match self.round {
            Round::Going => self.next_of_round(),
            Round::Idle | Round::Awaiting => None,
        }
    }

    /// Whether pair `pair` may begin by the stop rule.
    fn may_begin(&self, pair: u64) -> bool {
        self.may_begin.is_none_or(|limit| pair < limit)
    }

    /// The pairs published and neither counted nor withdrawn.
    pub fn outstanding(&self) -> Vec<u64> {
        self.book
            .waiting()
            .into_iter()
            .filter(|pair| !self.withdrawn.contains(pair))
            .collect()
    }

    /// Why the match failed, once it has.
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Whether the match is over: nothing outstanding, and no pair left
    /// that may begin.
    pub fn is_finished(&self) -> bool {
        self.outstanding().is_empty() && !self.may_begin(self.next_pair)
    }

    /// The games the workers say they play now, by pair.
    pub fn live(&self) -> &BTreeMap<u64, LiveGame> {
        &self.live
    }

    fn say(&mut self, line: String) {
        self.actions.push_back(Action::Say(line));
    }

    fn journal(&mut self, entry: Entry) {
        self.actions.push_back(Action::Journal(entry));
    }

    /// Whether `by` is not the pair's try that counts now: the pair is
    /// counted, or a later try has taken it.
    fn is_stale(&self, pair: u64, by: &Try) -> bool {
        self.book.is_counted(pair) || self.book.latest(pair).is_some_and(|latest| latest != by)
    }

    /// A worker's notice, as it came from the broker: journaled, said, and
    /// acknowledged.
    pub fn handle_notice(&mut self, payload: &[u8]) {
        match WorkerNotice::from_json(payload, &self.settings.match_id) {
            Ok(notice) => self.notice(notice),
            Err(why) => self.journal(Entry::Unreadable {
                why: why.to_string(),
            }),
        }
        self.actions.push_back(Action::Ack);
    }

    fn notice(&mut self, notice: WorkerNotice) {
        let (pair, worker, delivery) = (notice.pair, notice.worker, notice.delivery);
        match notice.kind {
            NoticeKind::Taken => self.taken(pair, worker, delivery),
            NoticeKind::Refused { engine } => {
                let fresh = self
                    .refusals
                    .entry(pair)
                    .or_default()
                    .insert(engine.clone());
                if fresh {
                    self.journal(Entry::Refused {
                        pair,
                        worker: worker.clone(),
                        engine: engine.clone(),
                    });
                    self.say(format!(
                        "pair {} waits: worker {worker} has no engine '{engine}'",
                        pair + 1
                    ));
                }
            }
            NoticeKind::Playing { game, live } => {
                let by = Try { worker, delivery };
                if !self.book.is_counted(pair) && self.book.latest(pair) == Some(&by) {
                    let name = live;
                    self.live.insert(pair, LiveGame { by, game, name });
                }
            }
            NoticeKind::Failed { reason } => self.failed_try(pair, worker, delivery, reason),
        }
    }

    fn taken(&mut self, pair: u64, worker: String, delivery: u64) {
        if self.book.is_counted(pair) {
            return;
        }
        let before = self.book.latest(pair).cloned();
        self.book.taken(pair, &worker, delivery);
        self.live.remove(&pair);
        if let Some(before) = before.filter(|b| b.delivery < delivery) {
            self.say(format!(
                "pair {}: handed out again, to {worker} (delivery {delivery}), while \
                 {}'s try (delivery {}) was not heard of; the first result counts",
                pair + 1,
                before.worker,
                before.delivery
            ));
        }
        self.journal(Entry::Taken {
            pair,
            worker: worker.clone(),
            delivery,
        });
        self.refusals.remove(&pair);
        let again = match delivery {
            1 => String::new(),
            n => format!(" (delivery {n})"),
        };
        self.say(format!("pair {}: taken by {worker}{again}", pair + 1));
    }

    fn failed_try(&mut self, pair: u64, worker: String, delivery: u64, reason: String) {
        self.journal(Entry::Failed {
            pair,
            worker: worker.clone(),
            delivery,
            reason: reason.clone(),
        });
        let by = Try {
            worker: worker.clone(),
            delivery,
        };
        if self.is_stale(pair, &by) {
            self.say(format!(
                "pair {}: an earlier try failed on {worker} (delivery {delivery}), \
                 not counted against the pair: {reason}",
                pair + 1
            ));
            return;
        }
        self.live.remove(&pair);
        self.say(format!("pair {}: failed on {worker}: {reason}", pair + 1));
        let failures = self.failures.entry(pair).or_default();
        failures.push(format!("{worker}: {reason}"));
        if failures.len() >= self.settings.failures {
            self.failed = Some(format!(
                "pair {} failed {} times; the last: {}",
                pair + 1,
                failures.len(),
                failures.last().expect("one at least")
            ));
        }
    }

    /// A worker's result, as it came from the broker: its games fetched
    /// ([`Action::Fetch`]) unless it is for a pair counted already or never
    /// published, which is journaled and acknowledged.
    pub fn handle_result(&mut self, payload: &[u8]) {
        let result = match JobResult::from_json(payload, &self.settings.match_id) {
            Ok(result) => result,
            Err(why) => {
                self.say(format!("goref: a result refused: {why}"));
                self.journal(Entry::Unreadable {
                    why: why.to_string(),
                });
                self.actions.push_back(Action::Ack);
                return;
            }
        };
        let (pair, worker, delivery) = (result.pair, result.worker.clone(), result.delivery);
        if !self.book.is_counted(pair) && self.book.is_published(pair) {
            self.fetching = Some(result.clone());
            self.actions.push_back(Action::Fetch { result });
            return;
        }
        match self.book.result(&result) {
            Verdict::Duplicate { counted }
                if counted.worker == worker && counted.delivery == delivery => {}
            Verdict::Duplicate { counted } => {
                self.say(format!(
                    "pair {}: a second result, from {worker} (delivery {delivery}): \
                     journaled, not counted",
                    pair + 1
                ));
                self.journal(Entry::Duplicate {
                    pair,
                    worker,
                    delivery,
                    counted_worker: counted.worker,
                    counted_delivery: counted.delivery,
                });
            }
            _ => self.journal(Entry::Unreadable {
                why: format!("a result for pair {}, which was never published", pair + 1),
            }),
        }
        self.actions.push_back(Action::Ack);
    }

    /// What came of [`Action::Fetch`]: the folders' names the games were
    /// placed under, or why not.
    pub fn handle_fetched(&mut self, fetched: Result<Vec<String>, NotFetched>) {
        let Some(result) = self.fetching.take() else {
            return;
        };
        let (pair, worker, delivery) = (result.pair, result.worker.clone(), result.delivery);
        let names = match fetched {
            Ok(names) => names,
            Err(NotFetched::Later(why)) => {
                if self.copy_trouble.is_none() {
                    self.say(format!(
                        "goref: cannot copy pair {}'s games now: {why}; the result waits \
                         on the broker and is tried again every {} s",
                        pair + 1,
                        COPY_AGAIN.as_secs()
                    ));
                }
                self.copy_trouble = Some(why);
                self.actions.push_back(Action::Nak { delay: COPY_AGAIN });
                return;
            }
            Err(NotFetched::Refused(reason)) => {
                self.say(format!(
                    "pair {}: {worker}'s result refused: {reason}; published again",
                    pair + 1
                ));
                self.journal(Entry::Rejected {
                    pair,
                    worker,
                    delivery,
                    reason,
                });
                self.publish_again(pair);
                self.actions.push_back(Action::Ack);
                return;
            }
        };
        if self.copy_trouble.take().is_some() {
            self.say("goref: the workers' games are copied again".into());
        }
        self.book.result(&result);
        self.live.remove(&pair);
        self.name_abandoned(pair);
        self.journal(Entry::Counted {
            pair,
            worker: worker.clone(),
            delivery,
        });
        let restarts = result
            .games
            .iter()
            .flat_map(|game| game.restarts.iter().cloned())
            .collect();
        self.actions.push_back(Action::Count {
            pair,
            worker,
            names,
            restarts,
        });
        self.actions.push_back(Action::Ack);
    }

    /// Names, once each, the tries of a counted pair other than the one
    /// counted: only then is a try given up, as a try handed out again may
    /// still be the first to finish.
    fn name_abandoned(&mut self, pair: u64) {
        for lost in self.book.abandoned(pair) {
            if self
                .abandoned_said
                .insert((pair, lost.worker.clone(), lost.delivery))
            {
                self.say(format!(
                    "pair {}: {}'s try (delivery {}) given up: the pair was counted from another",
                    pair + 1,
                    lost.worker,
                    lost.delivery
                ));
                self.journal(Entry::Abandoned {
                    pair,
                    worker: lost.worker,
                    delivery: lost.delivery,
                });
            }
        }
    }

    /// A pair whose result was refused goes on the queue again, under a
    /// new id, unless it has failed too often.
    fn publish_again(&mut self, pair: u64) {
        let tries = self.failures.entry(pair).or_default();
        tries.push("a result that did not check out".into());
        let refused = tries.len();
        if refused >= self.settings.failures {
            self.failed = Some(format!("pair {}: {refused} results refused", pair + 1));
            return;
        }
        let id = format!(
            "{}/again-{refused}",
            Job::id_of(&self.settings.match_id, pair)
        );
        self.actions.push_back(Action::PublishAgain { pair, id });
    }
}

#[cfg(test)]
mod tests;
