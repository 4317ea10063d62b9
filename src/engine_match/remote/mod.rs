//! `goref match DIR --workers nats://…`: the match's pairs played by
//! `goref worker`s on other machines, through a NATS JetStream broker (see
//! [`crate::broker::work`]). The rules are the core's
//! `matches::supervisor::Supervisor`: which pairs to publish, `queued` at
//! most ahead of the results, what the workers' notices and results mean,
//! failures, refusals, the pairs the SPRT's decision withdraws, when the
//! match is over. This shell is its loop: it takes the results and notices
//! with a consumer of its own and hands them over, and carries out what
//! the supervisor asks: it publishes and withdraws jobs, each with its id
//! so that a rerun publishes nothing twice; copies each result's folders
//! into `DIR/games/`, checked ([`fetch`]); counts them with the same tally
//! a local match uses, so that its figures, report and `goref standings`
//! are a local match's; writes `DIR/match.jsonl` ([`journal`]) and says
//! what happens.

pub(crate) mod fetch;
pub(crate) mod journal;
pub(crate) mod local;

use crate::shell_time::Threads;
use std::path::{Path, PathBuf};
use std::time::Duration;

use async_nats::jetstream::{
    self, consumer::PullConsumer, object_store::ObjectStore, stream, AckKind,
};
use futures_util::StreamExt;

use crate::check::plural;
use crate::mirror::follow::Target;
use goref_core::matches::jobs::{is_plain_name, Job, JobResult, MESSAGE_VERSION};
use goref_core::matches::supervisor::{Action, Entry, NotFetched, Settings, Supervisor};

use crate::broker::work::{self, BrokerLink};
use crate::hall::desk::Desk;
use crate::match_play::desk::MatchOptions;
use crate::match_play::file::{self, MatchFile};
use crate::match_play::games::GamesFolder;
use crate::match_play::kept;
use crate::match_play::picture::{picture, GameInPlay, MatchPicture};
use crate::match_play::plan::{load_openings, GameSlot, Plan};
use crate::match_play::tally::{self, count, MatchFigures, Tally};
use fetch::Incoming;
use journal::MatchJournal;
use local::LocalWorker;

/// How long one wait for results lasts when nothing comes.
const TICK: Duration = Duration::from_millis(250);
/// How many results and notices are taken from the broker at once.
const BATCH: usize = 32;

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
    let tally = Tally::from_folders(dir, &file);
    let mut supervisor = Supervisor::new(Settings {
        match_id: match_id.clone(),
        broker_shown: link.shown(),
        queued: file.workers.queued,
        failures: file.workers.failures,
    });
    supervisor.handle_stop_rule(tally.ledger().pairs_that_may_begin());
    let mut remote = Remote {
        dir: dir.to_path_buf(),
        broker_shown: link.shown(),
        tally,
        file,
        plan,
        match_id,
        supervisor,
        journal,
        local,
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

struct Remote {
    dir: PathBuf,
    /// The broker's address, without credentials.
    broker_shown: String,
    file: MatchFile,
    plan: Plan,
    tally: Tally,
    match_id: String,
    supervisor: Supervisor,
    journal: MatchJournal,
    /// The match's own worker (`--slots`), while it runs.
    local: Option<LocalWorker>,
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
        self.supervisor
            .read_back(heard, GamesFolder::of(&self.dir).pairs_ended());
        let lost: Vec<u64> = self
            .supervisor
            .outstanding()
            .into_iter()
            .filter(|&pair| !self.on_the_broker(pair))
            .collect();
        for pair in lost {
            self.supervisor.handle_lost(pair);
        }
        self.carry_out().map(drop)
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

    fn go(&mut self) -> Result<MatchFigures, String> {
        let figures = self.figures();
        self.desk.say(format!(
            "goref: match {}: {} against {}, {} queued at most, {}; {} so far",
            self.file.name,
            self.file.engines[0].name,
            figures.opponents.join(", "),
            plural(self.file.workers.queued, "pair", "pairs"),
            plural(self.plan.openings.len(), "opening", "openings"),
            plural(figures.games as usize, "game", "games")
        ));
        loop {
            if let Some(why) = self.desk.stop_asked() {
                return Err(format!(
                    "{why}: the match stops; {} pair(s) stay with the workers, and \
                     `goref match {} --workers {}` takes them up again",
                    self.supervisor.outstanding().len(),
                    self.dir.display(),
                    self.broker_shown
                ));
            }
            if self.supervisor.failure().is_some() {
                break;
            }
            if let Some(how) = self.local.as_mut().and_then(LocalWorker::gone) {
                self.desk.say(format!(
                    "goref: the match's own worker ended ({how}); see {}",
                    self.dir.join("worker.log").display()
                ));
                self.local = None;
            }
            if let Some(up) = self.broker.news.change() {
                self.supervisor.handle_link(up);
            }
            self.supervisor.begin_round();
            self.carry_out()?;
            if self.supervisor.is_finished() {
                break;
            }
            self.take_messages()?;
        }
        let figures = self.figures();
        for line in figures.lines() {
            self.desk.say(line);
        }
        self.show(true);
        if let Err(why) =
            super::report::write(&self.dir, (&self.file, &self.plan), &figures, &self.tally)
        {
            self.desk.say(format!("goref: the report: {why}"));
        }
        match self.supervisor.failure() {
            Some(why) => Err(format!("the match stopped: {why}")),
            None => Ok(figures),
        }
    }

    /// Carries out what the supervisor asks, in order, until it asks
    /// nothing more: how to answer the message in hand, if it said. A
    /// journal that cannot be written, or a job the broker will not take
    /// again, stops the match.
    fn carry_out(&mut self) -> Result<Option<AckKind>, String> {
        let mut answer = None;
        while let Some(action) = self.supervisor.poll_action() {
            match action {
                Action::Publish { pair } => match self.publish(pair) {
                    Ok(()) => self.supervisor.handle_published(pair),
                    Err(why) => self.supervisor.handle_broker_error(why),
                },
                Action::Withdraw { pair } => match self.withdraw(pair) {
                    Ok(()) => self.supervisor.handle_withdrawn(pair),
                    Err(why) => self.supervisor.handle_broker_error(why),
                },
                Action::PublishAgain { pair, id } => self.publish_job(pair, &id)?,
                Action::Fetch { result } => {
                    let fetched = self.fetch(&result);
                    self.supervisor.handle_fetched(fetched);
                }
                Action::Count {
                    pair,
                    worker,
                    names,
                    restarts,
                } => {
                    kept::note_workers_restarts(&self.dir, &worker, &restarts);
                    self.count(pair, &worker, names)
                }
                Action::Journal(entry) => self.journal.write(entry)?,
                Action::Say(line) => self.desk.say(line),
                Action::Ack => answer = Some(AckKind::Ack),
                Action::Nak { delay } => answer = Some(AckKind::Nak(Some(delay))),
            }
        }
        Ok(answer)
    }

    /// Publishes pair `pair`'s job, with its id, then journals it.
    fn publish(&mut self, pair: u64) -> Result<(), String> {
        self.publish_job(pair, &Job::id_of(&self.match_id, pair))?;
        self.journal.write(Entry::Published { pair })
    }

    /// Puts pair `pair`'s job on the queue under the message id `id`.
    fn publish_job(&self, pair: u64, id: &str) -> Result<(), String> {
        let job = self.job(pair);
        let subject = work::job_subject(&self.match_id, pair);
        self.runtime.block_on(work::publish_once(
            &self.broker.js,
            subject,
            id,
            job.to_json(),
        ))
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

    /// Takes pair `pair`'s job off the queue if it is there, then journals
    /// it withdrawn.
    fn withdraw(&mut self, pair: u64) -> Result<(), String> {
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
        self.journal.write(Entry::Withdrawn { pair })
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
            match message.subject.as_str() == work::notice_subject(&self.match_id) {
                true => self.supervisor.handle_notice(&message.payload),
                false => self.supervisor.handle_result(&message.payload),
            }
            if let Some(kind) = self.carry_out()? {
                let _ = self.runtime.block_on(message.ack_with(kind));
            }
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
        let figures = self.figures();
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
        self.supervisor
            .live()
            .iter()
            .map(|(&pair, live)| GameInPlay {
                slot: GameSlot::in_game(pair, live.game),
                target: Target::Broker(self.link.address(&live.name)),
                dir: None,
                worker: Some(live.by.worker.clone()),
            })
            .collect()
    }

    /// Both games of a result copied into `games/`, or neither: their
    /// folders' names.
    fn fetch(&self, result: &JobResult) -> Result<Vec<String>, NotFetched> {
        let games = GamesFolder::of(&self.dir);
        std::fs::create_dir_all(games.path()).map_err(|e| {
            NotFetched::Later(format!("cannot make {}: {e}", games.path().display()))
        })?;
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

    /// A counted pair's games into the tally, from their folders `names`;
    /// the stop rule as it stands then to the supervisor, and the figures
    /// said.
    fn count(&mut self, pair: u64, worker: &str, names: Vec<String>) {
        for (slot, name) in GameSlot::of_pair(pair).into_iter().zip(names) {
            let Some((result, end, reason)) =
                tally::folder_result(&GamesFolder::of(&self.dir).named(&name))
            else {
                continue;
            };
            let counted = count(&result, &end, &reason, slot.candidate);
            self.tally.add(&slot, name, result, counted);
        }
        self.supervisor
            .handle_stop_rule(self.tally.ledger().pairs_that_may_begin());
        let figures = self.figures();
        self.tell(pair, worker, &figures);
    }

    /// The figures of the pairs counted, with the workers' restarts of
    /// their kept programs.
    fn figures(&self) -> MatchFigures {
        let mut figures = self.tally.figures(&self.file);
        figures.restarts = kept::restarts(&self.dir);
        figures
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
