//! `goref match DIR --workers nats://…`: the match's pairs played by
//! `goref worker`s on other machines, through a NATS JetStream broker (see
//! [`crate::broker::work`]). The match publishes a job a pair, `queued` at most
//! ahead of its results, each with its id so that a rerun publishes nothing
//! twice; reads the workers' results and notices with a consumer of its
//! own; copies each result's folders into `DIR/games/`, checked
//! ([`fetch`]); and counts them with the same tally a local match uses, so
//! that its figures, report and `goref standings` are a local match's. The
//! core's `JobBook` counts each pair once; everything else heard goes to
//! `DIR/match.jsonl` ([`journal`]). The SPRT's decision withdraws the pairs
//! no worker has taken.

pub(crate) mod fetch;
pub(crate) mod journal;
pub(crate) mod local;

use crate::shell_time::Threads;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_nats::jetstream::{
    self, consumer::PullConsumer, object_store::ObjectStore, stream, AckKind,
};
use futures_util::StreamExt;

use crate::check::plural;
use crate::mirror::follow::Target;
use goref_core::game::Color;
use goref_core::matches::jobs::{
    is_plain_name, Job, JobBook, JobResult, NoticeKind, Try, Verdict, WorkerNotice, MESSAGE_VERSION,
};

use crate::broker::work::{self, BrokerLink};
use crate::hall::desk::Desk;
use crate::match_play::desk::MatchOptions;
use crate::match_play::file::{self, MatchFile};
use crate::match_play::picture::{picture, GameInPlay, MatchPicture};
use crate::match_play::plan::{load_openings, GameSlot, Plan, GAMES_FOLDER};
use crate::match_play::tally::{self, count, MatchFigures, Tally};
use fetch::{Incoming, NotFetched};
use journal::{Entry, MatchJournal};
use local::LocalWorker;

/// What became of a message from the broker.
enum Handled {
    /// Taken: it is acknowledged.
    Done,
    /// It cannot be taken now: handed back to come again.
    Later,
}

/// How long one wait for results lasts when nothing comes.
const TICK: Duration = Duration::from_millis(250);
/// How many results and notices are taken from the broker at once.
const BATCH: usize = 32;
/// How long a result whose games cannot be copied now waits to come again.
const COPY_AGAIN: Duration = Duration::from_secs(5);

/// Plays the match in `dir` through the workers at `link`.
pub(crate) fn run_at(
    dir: &Path,
    options: &MatchOptions,
    desk: Box<dyn Desk<MatchPicture>>,
    link: &BrokerLink,
) -> Result<MatchFigures, String> {
    let file = file::load(dir).map_err(|e| e.to_string())?;
    let _claim = file::claim(dir)?;
    if let Some(engine) = file.engines.iter().find(|e| !is_plain_name(&e.name)) {
        return Err(format!(
            "[[engine]] '{}': a match played by workers names its engines by plain names \
             (letters, digits, '-', '_', '.'), as the workers' files give them",
            engine.name
        ));
    }
    let openings = load_openings(&file)?;
    let plan = Plan::new(&file, openings);
    let runtime = crate::shell_time::runtime(Threads::Workers(1))
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let match_id = work::match_id(&file.name);
    desk.say(format!(
        "goref: match {}: its pairs go to the workers at {} as match '{match_id}'",
        file.name,
        link.shown()
    ));
    let broker = runtime.block_on(Broker::open(link, &match_id, &file, &*desk))?;
    let local = match options.slots {
        Some(slots) => {
            let (worker, name) = LocalWorker::start(dir, &file, link, &match_id, slots)?;
            desk.say(format!(
                "goref: the match plays here too, as worker {name} with {slots} slot(s); \
                 its lines go to {}",
                dir.join("worker.log").display()
            ));
            Some(worker)
        }
        None => None,
    };
    let (journal, heard) = MatchJournal::open(dir)?;
    let mut remote = Remote {
        dir: dir.to_path_buf(),
        broker_shown: link.shown(),
        tally: Tally::from_folders(dir, &file),
        file,
        plan,
        match_id,
        book: JobBook::new(),
        journal,
        next_pair: 0,
        failures: BTreeMap::new(),
        refusals: BTreeMap::new(),
        withdrawn: BTreeSet::new(),
        abandoned_said: BTreeSet::new(),
        failed: None,
        local,
        copy_trouble: None,
        live: BTreeMap::new(),
        shown: None,
        link: link.clone(),
        options: options.clone(),
        desk,
        broker,
        runtime,
    };
    remote.read_back(heard)?;
    remote.go()
}

/// The broker's streams, consumer and store, as the match uses them.
struct Broker {
    /// The link's news: the broker went away, or answers again.
    news: work::LinkNews,
    js: jetstream::Context,
    work: stream::Stream,
    results_stream: stream::Stream,
    results: PullConsumer,
    store: ObjectStore,
}

impl Broker {
    async fn open(
        link: &BrokerLink,
        match_id: &str,
        file: &MatchFile,
        desk: &dyn Desk<MatchPicture>,
    ) -> Result<Broker, String> {
        let name = format!("goref match {match_id}");
        let (client, news) = link
            .connect(&name, &|line| desk.say(line), &|| desk.stop_asked())
            .await?;
        let js = jetstream::new(client);
        let (work, _) = work::work_queue(&js, Some(file.workers.ack_wait)).await?;
        let results_stream = work::results_stream(&js).await?;
        let results = work::results_consumer(&js, match_id).await?;
        let store = work::game_store(&js, match_id).await?;
        Ok(Broker {
            news,
            js,
            work,
            results_stream,
            results,
            store,
        })
    }

    /// Whether the stream `stream` holds a message on `subject`.
    async fn holds(stream: &stream::Stream, subject: &str) -> bool {
        stream
            .get_last_raw_message_by_subject(subject)
            .await
            .is_ok()
    }
}

/// The game a worker says it plays: whose try, game 1 or 2, and its name
/// on the broker. A worker plays a pair's games one after the other.
struct LiveTry {
    by: Try,
    game: u8,
    name: String,
}

struct Remote {
    dir: PathBuf,
    /// The broker's address, without credentials.
    broker_shown: String,
    file: MatchFile,
    plan: Plan,
    tally: Tally,
    match_id: String,
    book: JobBook,
    journal: MatchJournal,
    /// The first pair not yet published.
    next_pair: u64,
    /// Each pair's failures, with the workers' reasons.
    failures: BTreeMap<u64, Vec<String>>,
    /// Each waiting pair's refusals: the engines no worker that took it had.
    refusals: BTreeMap<u64, BTreeSet<String>>,
    withdrawn: BTreeSet<u64>,
    /// The tries named given up.
    abandoned_said: BTreeSet<(u64, String, u64)>,
    failed: Option<String>,
    /// The match's own worker (`--slots`), while it runs.
    local: Option<LocalWorker>,
    /// Why the last result's games could not be copied, until one is.
    copy_trouble: Option<String>,
    /// The games the workers say they play, by pair: the try, and each
    /// game's name on the broker.
    live: BTreeMap<u64, LiveTry>,
    /// The games last drawn, and the folders tallied then.
    shown: Option<(Vec<GameInPlay>, usize)>,
    link: BrokerLink,
    options: MatchOptions,
    desk: Box<dyn Desk<MatchPicture>>,
    broker: Broker,
    runtime: tokio::runtime::Runtime,
}

impl Remote {
    /// Where the match stood when it was stopped: the journal's pairs and
    /// the folders' games; pairs published and lost from the broker (never
    /// stored, or the broker's store wiped) are published again.
    fn read_back(&mut self, heard: Vec<Entry>) -> Result<(), String> {
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
        for pair in self.pairs_in_folders() {
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
        let lost: Vec<u64> = self
            .outstanding()
            .into_iter()
            .filter(|&pair| !self.on_the_broker(pair))
            .collect();
        for pair in lost {
            self.desk.say(format!(
                "goref: pair {} is not on the broker: published again",
                pair + 1
            ));
            self.publish(pair)?;
        }
        Ok(())
    }

    /// The pairs with both games in `games/`.
    fn pairs_in_folders(&self) -> BTreeSet<u64> {
        let mut legs: BTreeMap<u64, BTreeSet<Color>> = BTreeMap::new();
        let games = self.dir.join(GAMES_FOLDER);
        for entry in std::fs::read_dir(games).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some((slot, _)) = tally::parse_folder_name(&name) {
                if tally::folder_result(&entry.path()).is_some() {
                    legs.entry(slot.pair).or_default().insert(slot.candidate);
                }
            }
        }
        legs.into_iter()
            .filter(|(_, colours)| colours.len() == 2)
            .map(|(pair, _)| pair)
            .collect()
    }

    /// Whether the pair's job waits or plays on the broker, or its result
    /// is there to be read.
    fn on_the_broker(&self, pair: u64) -> bool {
        let job = work::job_subject(&self.match_id, pair);
        let result = work::result_subject(&self.match_id, pair);
        let broker = &self.broker;
        self.runtime.block_on(async {
            Broker::holds(&broker.work, &job).await
                || Broker::holds(&broker.results_stream, &result).await
        })
    }

    /// The pairs published and neither counted nor withdrawn.
    fn outstanding(&self) -> Vec<u64> {
        self.book
            .waiting()
            .into_iter()
            .filter(|pair| !self.withdrawn.contains(pair))
            .collect()
    }

    fn go(&mut self) -> Result<MatchFigures, String> {
        let figures = self.tally.figures(&self.file);
        self.desk.say(format!(
            "goref: match {}: {} against {}, {} queued at most, {}; {} so far",
            self.file.name,
            self.file.engines[0].name,
            figures.opponents.join(", "),
            plural(self.file.workers.queued, "pair", "pairs"),
            plural(self.plan.openings.len(), "opening", "openings"),
            plural(figures.games as usize, "game", "games")
        ));
        let mut broker_trouble = false;
        loop {
            if let Some(why) = self.desk.stop_asked() {
                return Err(format!(
                    "{why}: the match stops; {} pair(s) stay with the workers, and \
                     `goref match {} --workers {}` takes them up again",
                    self.outstanding().len(),
                    self.dir.display(),
                    self.broker_shown
                ));
            }
            if self.failed.is_some() {
                break;
            }
            if let Some(how) = self.local.as_mut().and_then(LocalWorker::gone) {
                self.desk.say(format!(
                    "goref: the match's own worker ended ({how}); see {}",
                    self.dir.join("worker.log").display()
                ));
                self.local = None;
            }
            match self.broker.news.change() {
                Some(false) => {
                    self.desk.say(format!(
                        "goref: the broker at {} went away: the workers' games go on, \
                         their results wait for it",
                        self.broker_shown
                    ));
                    broker_trouble = true;
                }
                Some(true) if std::mem::take(&mut broker_trouble) => {
                    self.desk.say("goref: the broker answers again".into());
                }
                _ => {}
            }
            match self.publish_more().and_then(|()| self.withdraw_decided()) {
                Ok(()) => {
                    if std::mem::take(&mut broker_trouble) {
                        self.desk.say("goref: the broker answers again".into());
                    }
                }
                Err(why) if !broker_trouble => {
                    self.desk.say(format!("goref: {why}; trying again"));
                    broker_trouble = true;
                }
                Err(_) => {}
            }
            if self.outstanding().is_empty() && !self.tally.ledger().may_begin(self.next_pair) {
                break;
            }
            self.take_messages()?;
        }
        let figures = self.tally.figures(&self.file);
        for line in figures.lines() {
            self.desk.say(line);
        }
        self.show(true);
        if let Err(why) =
            super::report::write(&self.dir, (&self.file, &self.plan), &figures, &self.tally)
        {
            self.desk.say(format!("goref: the report: {why}"));
        }
        match self.failed.take() {
            Some(why) => Err(format!("the match stopped: {why}")),
            None => Ok(figures),
        }
    }

    /// Publishes pairs while fewer than `queued` are outstanding and the
    /// stop rule lets them begin.
    fn publish_more(&mut self) -> Result<(), String> {
        while self.outstanding().len() < self.file.workers.queued
            && self.tally.ledger().may_begin(self.next_pair)
        {
            self.publish(self.next_pair)?;
            self.next_pair += 1;
        }
        Ok(())
    }

    /// Publishes pair `pair`'s job, with its id, then journals it.
    fn publish(&mut self, pair: u64) -> Result<(), String> {
        let job = self.job(pair);
        let subject = work::job_subject(&self.match_id, pair);
        self.runtime.block_on(work::publish_once(
            &self.broker.js,
            subject,
            &job.id(),
            job.to_json(),
        ))?;
        if !self.book.is_published(pair) {
            self.journal.write(Entry::Published { pair })?;
            self.book.published(pair);
        }
        Ok(())
    }

    /// The job of pair `pair`.
    fn job(&self, pair: u64) -> Job {
        let opening = self
            .plan
            .opening(pair)
            .map_or_else(Vec::new, |o| o.moves.iter().map(|p| p.to_gtp()).collect());
        Job {
            version: MESSAGE_VERSION,
            match_name: self.match_id.clone(),
            pair,
            opening,
            engines: [
                self.file.engines[0].name.clone(),
                self.file.engines[self.plan.opponent(pair)].name.clone(),
            ],
            game: toml::to_string(&self.file.game_table).expect("a TOML table serializes"),
        }
    }

    /// Once the stop rule forbids a published pair to begin, its job comes
    /// off the queue unless a worker has taken it.
    fn withdraw_decided(&mut self) -> Result<(), String> {
        let untaken: Vec<u64> = self
            .outstanding()
            .into_iter()
            .filter(|&pair| {
                !self.tally.ledger().may_begin(pair) && self.book.latest(pair).is_none()
            })
            .collect();
        for pair in untaken {
            let subject = work::job_subject(&self.match_id, pair);
            let work = &self.broker.work;
            self.runtime.block_on(async {
                if let Ok(message) = work.get_last_raw_message_by_subject(&subject).await {
                    work.delete_message(message.sequence)
                        .await
                        .map_err(|e| format!("cannot withdraw pair {}: {e}", pair + 1))?;
                }
                Ok::<(), String>(())
            })?;
            self.journal.write(Entry::Withdrawn { pair })?;
            self.withdrawn.insert(pair);
            self.desk.say(format!(
                "goref: pair {}: withdrawn, the stop rule is met",
                pair + 1
            ));
        }
        Ok(())
    }

    /// Takes what came for the match within a tick.
    fn take_messages(&mut self) -> Result<(), String> {
        let results = &self.broker.results;
        let messages: Vec<jetstream::Message> = self.runtime.block_on(async {
            match results
                .fetch()
                .max_messages(BATCH)
                .expires(TICK)
                .messages()
                .await
            {
                Ok(batch) => batch.filter_map(|m| async { m.ok() }).collect().await,
                Err(_) => {
                    tokio::time::sleep(TICK).await;
                    Vec::new()
                }
            }
        });
        for message in messages {
            let handled = match message.subject.as_str() == work::notice_subject(&self.match_id) {
                true => self.notice(&message.payload).map(|()| Handled::Done),
                false => self.result(&message.payload),
            };
            let kind = match handled? {
                Handled::Done => AckKind::Ack,
                Handled::Later => AckKind::Nak(Some(COPY_AGAIN)),
            };
            let _ = self.runtime.block_on(message.ack_with(kind));
        }
        self.show(false);
        Ok(())
    }

    /// The games in play and the figures, to a desk that draws them, when
    /// they changed.
    fn show(&mut self, over: bool) {
        if !self.desk.wants_pictures() {
            return;
        }
        let running: Vec<GameInPlay> = match over {
            true => Vec::new(),
            false => self.live_games(),
        };
        let now_shown = (running, self.tally.folders());
        if !over && self.shown.as_ref() == Some(&now_shown) {
            return;
        }
        let figures = self.tally.figures(&self.file);
        self.desk.show(picture(
            &self.file,
            &self.plan,
            &self.tally,
            &now_shown.0,
            &figures,
            over,
        ));
        self.shown = Some(now_shown);
    }

    /// The games the workers play now, each followed on the broker.
    fn live_games(&self) -> Vec<GameInPlay> {
        self.live
            .iter()
            .map(|(&pair, live)| GameInPlay {
                slot: GameSlot::in_game(pair, live.game),
                target: Target::Broker(self.link.address(&live.name)),
                dir: None,
                worker: Some(live.by.worker.clone()),
            })
            .collect()
    }

    /// A worker's notice: journaled, and said.
    fn notice(&mut self, payload: &[u8]) -> Result<(), String> {
        let notice = match WorkerNotice::from_json(payload, &self.match_id) {
            Ok(notice) => notice,
            Err(why) => {
                return self.journal.write(Entry::Unreadable {
                    why: why.to_string(),
                })
            }
        };
        let (pair, worker, delivery) = (notice.pair, notice.worker, notice.delivery);
        match notice.kind {
            NoticeKind::Taken => {
                if self.book.is_counted(pair) {
                    return Ok(());
                }
                let before = self.book.latest(pair).cloned();
                self.book.taken(pair, &worker, delivery);
                self.live.remove(&pair);
                if let Some(before) = before.filter(|b| b.delivery < delivery) {
                    self.desk.say(format!(
                        "pair {}: handed out again, to {worker} (delivery {delivery}), while \
                         {}'s try (delivery {}) was not heard of; the first result counts",
                        pair + 1,
                        before.worker,
                        before.delivery
                    ));
                }
                self.journal.write(Entry::Taken {
                    pair,
                    worker: worker.clone(),
                    delivery,
                })?;
                self.refusals.remove(&pair);
                let again = match delivery {
                    1 => String::new(),
                    n => format!(" (delivery {n})"),
                };
                self.desk
                    .say(format!("pair {}: taken by {worker}{again}", pair + 1));
            }
            NoticeKind::Refused { engine } => {
                let fresh = self
                    .refusals
                    .entry(pair)
                    .or_default()
                    .insert(engine.clone());
                if fresh {
                    self.journal.write(Entry::Refused {
                        pair,
                        worker: worker.clone(),
                        engine: engine.clone(),
                    })?;
                    self.desk.say(format!(
                        "pair {} waits: worker {worker} has no engine '{engine}'",
                        pair + 1
                    ));
                }
            }
            NoticeKind::Playing { game, live } => {
                let by = Try { worker, delivery };
                if !self.book.is_counted(pair) && self.book.latest(pair) == Some(&by) {
                    self.live.insert(
                        pair,
                        LiveTry {
                            by,
                            game,
                            name: live,
                        },
                    );
                }
            }
            NoticeKind::Failed { reason } => {
                self.journal.write(Entry::Failed {
                    pair,
                    worker: worker.clone(),
                    delivery,
                    reason: reason.clone(),
                })?;
                let by = Try {
                    worker: worker.clone(),
                    delivery,
                };
                if self.is_stale(pair, &by) {
                    self.desk.say(format!(
                        "pair {}: an earlier try failed on {worker} (delivery {delivery}), \
                         not counted against the pair: {reason}",
                        pair + 1
                    ));
                    return Ok(());
                }
                self.live.remove(&pair);
                self.desk
                    .say(format!("pair {}: failed on {worker}: {reason}", pair + 1));
                let failures = self.failures.entry(pair).or_default();
                failures.push(format!("{worker}: {reason}"));
                if failures.len() >= self.file.workers.failures {
                    self.failed = Some(format!(
                        "pair {} failed {} times; the last: {}",
                        pair + 1,
                        failures.len(),
                        failures.last().expect("one at least")
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether `by` is not the pair's try that counts now: the pair is
    /// counted, or a later try has taken it.
    fn is_stale(&self, pair: u64, by: &Try) -> bool {
        self.book.is_counted(pair) || self.book.latest(pair).is_some_and(|latest| latest != by)
    }

    /// Names, once each, the tries of a counted pair other than the one
    /// counted: only then is a try given up, as a try handed out again may
    /// still be the first to finish.
    fn name_abandoned(&mut self, pair: u64) -> Result<(), String> {
        for lost in self.book.abandoned(pair) {
            if self
                .abandoned_said
                .insert((pair, lost.worker.clone(), lost.delivery))
            {
                self.abandoned(pair, lost)?;
            }
        }
        Ok(())
    }

    /// A try given up for a later one.
    fn abandoned(&mut self, pair: u64, lost: Try) -> Result<(), String> {
        self.desk.say(format!(
            "pair {}: {}'s try (delivery {}) given up: the pair was counted from another",
            pair + 1,
            lost.worker,
            lost.delivery
        ));
        self.journal.write(Entry::Abandoned {
            pair,
            worker: lost.worker,
            delivery: lost.delivery,
        })
    }

    /// A worker's result: its games fetched, checked and counted once.
    fn result(&mut self, payload: &[u8]) -> Result<Handled, String> {
        let result = match JobResult::from_json(payload, &self.match_id) {
            Ok(result) => result,
            Err(why) => {
                self.desk.say(format!("goref: a result refused: {why}"));
                self.journal.write(Entry::Unreadable {
                    why: why.to_string(),
                })?;
                return Ok(Handled::Done);
            }
        };
        let (pair, worker, delivery) = (result.pair, result.worker.clone(), result.delivery);
        if self.book.is_counted(pair) || !self.book.is_published(pair) {
            let done = match self.book.result(&result) {
                Verdict::Duplicate { counted }
                    if counted.worker == worker && counted.delivery == delivery =>
                {
                    Ok(())
                }
                Verdict::Duplicate { counted } => {
                    self.desk.say(format!(
                        "pair {}: a second result, from {worker} (delivery {delivery}): \
                         journaled, not counted",
                        pair + 1
                    ));
                    self.journal.write(Entry::Duplicate {
                        pair,
                        worker,
                        delivery,
                        counted_worker: counted.worker,
                        counted_delivery: counted.delivery,
                    })
                }
                _ => self.journal.write(Entry::Unreadable {
                    why: format!("a result for pair {}, which was never published", pair + 1),
                }),
            };
            return done.map(|()| Handled::Done);
        }
        let fetched = self.fetch(&result);
        let names = match fetched {
            Ok(names) => {
                if self.copy_trouble.take().is_some() {
                    self.desk
                        .say("goref: the workers' games are copied again".into());
                }
                names
            }
            Err(NotFetched::Later(why)) => {
                if self.copy_trouble.is_none() {
                    self.desk.say(format!(
                        "goref: cannot copy pair {}'s games now: {why}; the result waits \
                         on the broker and is tried again every {} s",
                        pair + 1,
                        COPY_AGAIN.as_secs()
                    ));
                }
                self.copy_trouble = Some(why);
                return Ok(Handled::Later);
            }
            Err(NotFetched::Refused(reason)) => {
                self.desk.say(format!(
                    "pair {}: {worker}'s result refused: {reason}; published again",
                    pair + 1
                ));
                self.journal.write(Entry::Rejected {
                    pair,
                    worker,
                    delivery,
                    reason,
                })?;
                return self.publish_again(pair).map(|()| Handled::Done);
            }
        };
        self.book.result(&result);
        self.live.remove(&pair);
        self.name_abandoned(pair)?;
        self.journal.write(Entry::Counted {
            pair,
            worker: worker.clone(),
            delivery,
        })?;
        for (slot, name) in GameSlot::of_pair(pair).into_iter().zip(names) {
            let Some((result, end, reason)) =
                tally::folder_result(&self.dir.join(GAMES_FOLDER).join(&name))
            else {
                continue;
            };
            let counted = count(&result, &end, &reason, slot.candidate);
            self.tally.add(&slot, name, result, counted);
        }
        let figures = self.tally.figures(&self.file);
        self.tell(pair, &worker, &figures);
        Ok(Handled::Done)
    }

    /// Both games of a result copied into `games/`, or neither: their
    /// folders' names.
    fn fetch(&self, result: &JobResult) -> Result<Vec<String>, NotFetched> {
        let games = self.dir.join(GAMES_FOLDER);
        std::fs::create_dir_all(&games)
            .map_err(|e| NotFetched::Later(format!("cannot make {}: {e}", games.display())))?;
        let store = &self.broker.store;
        let mut pair = Vec::new();
        let fetched = self.runtime.block_on(async {
            for slot in GameSlot::of_pair(result.pair) {
                let game = slot.game();
                let report = result
                    .games
                    .iter()
                    .find(|g| g.game == game)
                    .expect("a checked result has both games");
                let incoming =
                    fetch::fetch_game(store, &games, &slot, report, &result.try_id).await?;
                let (ended, _, _) = tally::folder_result(incoming.dir()).unwrap_or_default();
                pair.push(incoming);
                if ended != report.result {
                    return Err(NotFetched::Refused(format!(
                        "game {game} ended {ended:?}, not {:?} as the result says",
                        report.result
                    )));
                }
            }
            Ok(())
        });
        match fetched {
            Ok(()) => Incoming::place(&games, pair),
            Err(why) => {
                Incoming::discard(pair);
                Err(why)
            }
        }
    }

    /// A pair whose result was refused goes on the queue again, under a
    /// new id.
    fn publish_again(&mut self, pair: u64) -> Result<(), String> {
        let job = self.job(pair);
        let tries = self.failures.entry(pair).or_default();
        tries.push("a result that did not check out".into());
        let id = format!("{}/again-{}", job.id(), tries.len());
        if tries.len() >= self.file.workers.failures {
            self.failed = Some(format!(
                "pair {}: {} results refused",
                pair + 1,
                tries.len()
            ));
            return Ok(());
        }
        let subject = work::job_subject(&self.match_id, pair);
        self.runtime.block_on(work::publish_once(
            &self.broker.js,
            subject,
            &id,
            job.to_json(),
        ))
    }

    /// The line of a counted pair, and the figures.
    fn tell(&self, pair: u64, worker: &str, figures: &MatchFigures) {
        if self.options.json {
            if let Ok(line) = serde_json::to_string(figures) {
                crate::console::out(line);
            }
        }
        let llr = figures
            .llr_text()
            .map_or(String::new(), |t| format!(", {t}"));
        let elo = figures
            .elo_text(0)
            .map_or(String::new(), |t| format!(", {t}"));
        self.desk.say(format!(
            "pair {} counted, played by {worker} | games {}: +{} -{} ={}{elo}{llr}",
            pair + 1,
            figures.games,
            figures.wins,
            figures.losses,
            figures.draws
        ));
    }
}
