//! `goref worker nats://HOST:PORT`: a machine that plays matches' games for
//! them. Its rules are the core's (`goref_core::matches::worker`): a slot
//! asks for a job only when free, a job naming an engine this worker lacks
//! is handed back at once for another worker (and the match told why), a
//! job it cannot play is handed back with the reason and not taken here
//! again, a job held says it lives every sixth of the ack deadline, and a
//! job's result is stored before the job is acknowledged. This shell talks
//! to the broker, plays the games in local gorefs (see `play`), puts the
//! finished folders in the match's object store, and feeds what happened
//! back to the rules.
//!
//! - [`file`](mod@file): `worker.toml`, the engines by name and their local
//!   command lines.
//! - `play`: one job's games, folders and object-store uploads.
//! - `kept`: a slot's programs, kept across the jobs of one match.
//! - `tiles`: the slots as a screen draws them ([`run_at`] with the match's
//!   screen as the desk).

pub(crate) mod file;
mod kept;
mod play;
mod tiles;

use crate::shell_time::Threads;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_nats::jetstream::{self, consumer::PullConsumer, AckKind, Message};
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use crate::broker::work::{self, BrokerLink};
use crate::hall::desk::{Desk, Terminal};
use crate::match_play::picture::MatchPicture;
use goref_core::matches::jobs::{Job, JobResult, WorkerNotice};
use goref_core::matches::worker::{
    Action, Played, Reply, Settings, Taken, Token, WorkerRules, FETCH_WAIT,
};

use file::WorkerFile;
use kept::SlotKeep;
use play::{GameBegun, JobRun};
use tiles::Tiles;

/// How often a job handed out again looks for a word of the try holding it.
const ALIVE_LOOK: Duration = Duration::from_millis(500);
/// How long a stopping worker waits for its last words and answers to the
/// broker (each bounded: the word 5 s, the notice 3 s) before it ends.
const HAND_BACK_WITHIN: Duration = Duration::from_secs(10);
/// A try's folder is marked with this file once its result is acknowledged.
const REPORTED: &str = "REPORTED";

/// `goref worker`, as its command line and file make it.
#[derive(Debug, Clone)]
pub(crate) struct WorkerOptions {
    pub link: BrokerLink,
    pub file: WorkerFile,
    pub name: String,
    pub slots: usize,
    /// Where the games' folders go: `DIR/MATCH/pair-KKKK-try-T/`.
    pub dir: PathBuf,
    /// The one match whose jobs this worker takes, if it takes one only.
    pub only: Option<String>,
}

/// Runs the worker until Ctrl-C or SIGTERM, a line a game on stderr: it
/// then hands back the jobs it holds, their games stopped.
pub(crate) fn run(options: WorkerOptions) -> Result<(), String> {
    crate::signals::catch_stop_signals(true);
    run_at(options, Box::new(Terminal))
}

/// Runs the worker at `desk` until the desk asks it to stop: it then
/// hands back the jobs it holds, their games stopped.
pub(crate) fn run_at(
    options: WorkerOptions,
    desk: Box<dyn Desk<MatchPicture>>,
) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find goref itself: {e}"))?;
    let runtime = crate::shell_time::runtime(Threads::Workers(2))
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let worker = Worker {
        options,
        exe,
        desk,
        tiles: Tiles::default(),
    };
    runtime.block_on(serve(Arc::new(worker)))
}

struct Worker {
    options: WorkerOptions,
    exe: PathBuf,
    desk: Box<dyn Desk<MatchPicture>>,
    tiles: Tiles,
}

impl Worker {
    fn say(&self, line: impl std::fmt::Display) {
        self.desk
            .say(format!("goref worker {}: {line}", self.options.name));
    }

    /// The slots' tiles, to a desk that draws them.
    fn show(&self) {
        if self.desk.wants_pictures() {
            let title = format!("worker {}", self.options.name);
            self.desk.show(self.tiles.picture(&title));
        }
    }
}

/// What a job's tasks tell the worker's loop.
enum Happened {
    TryWord {
        slot: usize,
        word: Option<Vec<u8>>,
    },
    Begun {
        slot: usize,
        begun: GameBegun,
    },
    Played {
        slot: usize,
        played: Played,
    },
    ResultStored {
        slot: usize,
    },
    Acked {
        slot: usize,
        acked: Result<(), String>,
    },
}

/// A job a slot holds, as the shell keeps it.
struct Slot {
    run: Arc<JobRun>,
    message: Arc<Message>,
    tile: Option<u32>,
}

/// The worker's loop: the rules, the broker, and the jobs' tasks.
struct Shell {
    worker: Arc<Worker>,
    js: jetstream::Context,
    rules: WorkerRules,
    /// The messages delivered and not yet answered for good.
    messages: HashMap<Token, Arc<Message>>,
    next_token: Token,
    slots: HashMap<usize, Slot>,
    /// Each slot's programs, kept from one job of a match to the next.
    keeps: HashMap<usize, Arc<tokio::sync::Mutex<SlotKeep>>>,
    ack_wait: Duration,
    stop: watch::Sender<bool>,
    happened: mpsc::UnboundedSender<Happened>,
    tasks: JoinSet<()>,
}

async fn serve(worker: Arc<Worker>) -> Result<(), String> {
    let options = &worker.options;
    for kept in abandon_unreported(&options.dir) {
        worker.say(format!("kept aside an unfinished try: {}", kept.display()));
    }
    let engines: Vec<String> = options
        .file
        .engines
        .iter()
        .map(|e| e.name.clone())
        .collect();
    worker.say(format!(
        "{} slot(s), engines {}; taking jobs from {}",
        options.slots,
        engines.join(", "),
        options.link.shown()
    ));
    worker.tiles.waiting(Some(format!(
        "waiting for the broker at {}",
        options.link.shown()
    )));
    worker.show();
    let (client, mut link) = options
        .link
        .connect(
            &format!("goref worker {}", options.name),
            &|line| worker.desk.say(line),
            &|| worker.desk.stop_asked(),
        )
        .await?;
    let js = jetstream::new(client);
    let (_, mut consumer) = work::work_queue(&js, None).await?;
    worker.tiles.waiting(None);
    worker.show();
    let rules = WorkerRules::new(Settings {
        name: options.name.clone(),
        slots: options.slots,
        only: options.only.clone(),
        engines,
        redial_within: crate::broker::connect::REDIAL_WITHIN,
    });
    let (happened, mut heard) = mpsc::unbounded_channel();
    let mut shell = Shell {
        ack_wait: consumer.cached_info().config.ack_wait,
        worker: worker.clone(),
        js,
        rules,
        messages: HashMap::new(),
        next_token: 0,
        slots: HashMap::new(),
        keeps: HashMap::new(),
        stop: watch::channel(false).0,
        happened,
        tasks: JoinSet::new(),
    };
    let shown = options.link.shown();
    loop {
        while shell.tasks.try_join_next().is_some() {}
        if let Some(up) = link.change() {
            shell.rules.handle_link(Instant::now(), up, &shown);
        }
        if let Some(why) = worker.desk.stop_asked() {
            shell.rules.handle_stop(&why);
        }
        while let Ok(happened) = heard.try_recv() {
            shell.hear(happened);
        }
        shell.rules.handle_timeout(Instant::now());
        if let Some((reported, unreported)) = shell.carry_out().await {
            let tasks = &mut shell.tasks;
            let handed_back = async { while tasks.join_next().await.is_some() {} };
            let _ = tokio::time::timeout(HAND_BACK_WITHIN, handed_back).await;
            shell.tasks.abort_all();
            for keep in shell.keeps.values() {
                keep.lock().await.let_go().await;
            }
            worker.say(format!(
                "stopped: {} played and reported, {} handed back or failed",
                crate::check::plural(reported, "pair", "pairs"),
                unreported
            ));
            return Ok(());
        }
        if !shell.rules.wants_job(Instant::now()) {
            let wake = shell.rules.poll_timeout();
            let nap = wake.map_or(FETCH_WAIT, |at| {
                at.saturating_duration_since(Instant::now()).min(FETCH_WAIT)
            });
            if let Ok(Some(happened)) = tokio::time::timeout(nap, heard.recv()).await {
                shell.hear(happened);
            }
            continue;
        }
        match next_job(&consumer).await {
            Ok(Some(message)) => shell.deliver(&mut consumer, message).await,
            Ok(None) => {}
            Err(why) => {
                shell.rules.handle_fetch_failed(&why);
                tokio::time::sleep(FETCH_WAIT).await;
            }
        }
    }
}

impl Shell {
    /// A job the broker delivered, handed to the rules.
    async fn deliver(&mut self, consumer: &mut PullConsumer, message: Message) {
        let delivery = message.info().map_or(1, |i| i.delivered.max(1) as u64);
        self.ack_wait = match consumer.info().await {
            Ok(info) => info.config.ack_wait,
            Err(_) => consumer.cached_info().config.ack_wait,
        };
        let token = self.next_token;
        self.next_token += 1;
        let payload = message.payload.clone();
        self.messages.insert(token, Arc::new(message));
        let wall_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let now = Instant::now();
        self.rules
            .handle_job(now, wall_ms, token, delivery, &payload, self.ack_wait);
    }

    /// What a job's task told, handed to the rules (and the tiles).
    fn hear(&mut self, happened: Happened) {
        let worker = &self.worker;
        match happened {
            Happened::TryWord { slot, word } => {
                self.rules
                    .handle_try_word(Instant::now(), slot, word.as_deref());
            }
            Happened::Begun { slot, begun } => {
                let Some(held) = self.slots.get(&slot) else {
                    return;
                };
                if let Some(tile) = held.tile {
                    worker.tiles.begun(tile, &held.run, &begun);
                    worker.show();
                }
                worker.say(format!(
                    "{}: live at {}/{}",
                    held.run.title(&begun.slot),
                    worker.options.link.shown(),
                    begun.live
                ));
                self.rules
                    .handle_game_begun(slot, begun.slot.game(), begun.live);
            }
            Happened::Played { slot, played } => {
                if let Some(tile) = self.slots.get(&slot).and_then(|held| held.tile) {
                    worker.tiles.free(tile, matches!(played, Played::Done(_)));
                    worker.show();
                }
                self.rules.handle_played(slot, played);
            }
            Happened::ResultStored { slot } => self.rules.handle_result_stored(slot),
            Happened::Acked { slot, acked } => self.rules.handle_acked(slot, acked),
        }
    }

    /// Carries out what the rules ask, in order, until they ask nothing;
    /// the worker's tally once they say it has stopped.
    async fn carry_out(&mut self) -> Option<(usize, usize)> {
        while let Some(action) = self.rules.poll_action() {
            match action {
                Action::Say(line) => self.worker.say(line),
                Action::Waiting(why) => {
                    self.worker.tiles.waiting(why);
                    self.worker.show();
                }
                Action::Reply { token, reply } => {
                    if let Some(message) = self.messages.remove(&token) {
                        let _ = answer(&message, reply).await;
                    }
                }
                Action::Notify(notice) => publish_notice(&self.js, &notice).await,
                Action::Take(taken) => self.take(taken),
                Action::Play { slot, .. } => self.play(slot).await,
                Action::Beat {
                    slot,
                    word,
                    progress,
                    ..
                } => self.beat(slot, word, progress),
                Action::PublishResult { slot, result } => self.publish_result(slot, result),
                Action::Finish {
                    slot,
                    token,
                    word,
                    notice,
                    reply,
                } => self.finish(slot, token, word, notice, reply),
                Action::MarkReported { slot, result } => {
                    if let Some(held) = self.slots.remove(&slot) {
                        let _ = std::fs::write(held.run.dir.join(REPORTED), result.to_json());
                    }
                }
                Action::StopPlaying => {
                    let _ = self.stop.send(true);
                }
                Action::Stopped {
                    reported,
                    unreported,
                } => return Some((reported, unreported)),
            }
        }
        None
    }

    /// A job the rules took for `slot`: its folder made ready, then a look
    /// for a word of another try of the pair.
    fn take(&mut self, taken: Taken) {
        let Taken {
            slot,
            token,
            job,
            delivery,
            try_id,
            look_for,
        } = taken;
        let Some(message) = self.messages.get(&token).cloned() else {
            return;
        };
        let options = &self.worker.options;
        let game_table = match file::job_game_table(&job.game) {
            Ok(table) => table,
            Err(why) => return self.rules.handle_unplayable(Instant::now(), slot, &why),
        };
        let engines = job.engines.clone().map(|name| {
            let engine = options.file.engine(&name);
            engine
                .expect("the rules take only jobs whose engines the file names")
                .clone()
        });
        let match_dir = options.dir.join(&job.match_name);
        let dir = match_dir.join(format!("pair-{:04}-try-{delivery}", job.pair + 1));
        crate::journal::folder::set_aside(&dir);
        let run = Arc::new(JobRun {
            match_id: job.match_name.clone(),
            job,
            try_id,
            engines,
            game_table,
            dir,
            exe: self.worker.exe.clone(),
            publish: options.link.shown(),
            publish_env: options.link.auth.env_pairs(),
            keep: self.keeps.entry(slot).or_default().clone(),
            programs_dir: match_dir.join(format!("programs-slot-{}", slot + 1)),
        });
        let subject = work::alive_subject(&run.match_id, run.job.pair);
        self.slots.insert(
            slot,
            Slot {
                run,
                message,
                tile: None,
            },
        );
        let (js, happened) = (self.js.clone(), self.happened.clone());
        self.tasks.spawn(async move {
            let until = tokio::time::Instant::now() + look_for;
            let word = loop {
                let word = work::alive_word(&js, &subject).await;
                if word.is_some() || tokio::time::Instant::now() >= until {
                    break word;
                }
                tokio::time::sleep(ALIVE_LOOK).await;
            };
            let _ = happened.send(Happened::TryWord { slot, word });
        });
    }

    /// Plays the job `slot` holds, in its own task.
    async fn play(&mut self, slot: usize) {
        let Some(held) = self.slots.get_mut(&slot) else {
            return;
        };
        let tile = self.worker.tiles.take();
        held.tile = Some(tile);
        let run = held.run.clone();
        if let Err(why) = work::alive_stream(&self.js, self.ack_wait).await {
            self.worker.say(format!(
                "{}: {why}; a broker that restarts may hand the pair out again",
                run.name()
            ));
        }
        let (worker, js, happened) = (self.worker.clone(), self.js.clone(), self.happened.clone());
        let stop = self.stop.subscribe();
        self.tasks.spawn(async move {
            let begun = |begun: GameBegun| {
                let _ = happened.send(Happened::Begun { slot, begun });
            };
            let played = match work::game_store(&js, &run.match_id).await {
                Ok(store) => {
                    run.play(&store, stop, &|line| worker.say(line), &begun)
                        .await
                }
                Err(why) => Played::BrokerAway(why),
            };
            let _ = happened.send(Happened::Played { slot, played });
        });
    }

    /// Says on the pair's subject that `slot`'s try lives, and after the
    /// first word asks the broker for more time.
    fn beat(&mut self, slot: usize, word: String, progress: bool) {
        let Some(held) = self.slots.get(&slot) else {
            return;
        };
        let alive = work::alive_subject(&held.run.match_id, held.run.job.pair);
        let (js, message) = (self.js.clone(), held.message.clone());
        self.tasks.spawn(async move {
            if progress {
                let _ = message.ack_with(AckKind::Progress).await;
            }
            let _ = js.publish(alive, word.into()).await;
        });
    }

    /// Publishes `slot`'s result until the broker stores it.
    fn publish_result(&mut self, slot: usize, result: JobResult) {
        let (worker, js, happened) = (self.worker.clone(), self.js.clone(), self.happened.clone());
        self.tasks.spawn(async move {
            publish_result(&worker, &js, &result).await;
            let _ = happened.send(Happened::ResultStored { slot });
        });
    }

    /// The try's last word, the notice, then the answer to the broker.
    fn finish(
        &mut self,
        slot: usize,
        token: Token,
        word: String,
        notice: Option<WorkerNotice>,
        reply: Reply,
    ) {
        let Some(message) = self.messages.remove(&token) else {
            return;
        };
        let alive = match self.slots.get(&slot) {
            Some(held) => work::alive_subject(&held.run.match_id, held.run.job.pair),
            None => return,
        };
        if reply != Reply::DoubleAck {
            self.slots.remove(&slot);
        }
        let (js, happened) = (self.js.clone(), self.happened.clone());
        self.tasks.spawn(async move {
            say_alive(&js, &alive, word).await;
            if let Some(notice) = notice {
                publish_notice(&js, &notice).await;
            }
            let answered = answer(&message, reply).await;
            if reply == Reply::DoubleAck {
                let _ = happened.send(Happened::Acked {
                    slot,
                    acked: answered,
                });
            }
        });
    }
}

/// Answers the broker about `message`.
async fn answer(message: &Message, reply: Reply) -> Result<(), String> {
    let kind = match reply {
        Reply::DoubleAck => return message.double_ack().await.map_err(|e| e.to_string()),
        Reply::Ack => AckKind::Ack,
        Reply::Nak(delay) => AckKind::Nak(delay),
        Reply::Term => AckKind::Term,
        Reply::Progress => AckKind::Progress,
    };
    message.ack_with(kind).await.map_err(|e| e.to_string())
}

/// The next job on the queue, if one comes within [`FETCH_WAIT`].
async fn next_job(consumer: &PullConsumer) -> Result<Option<Message>, String> {
    let mut batch = consumer
        .fetch()
        .max_messages(1)
        .expires(FETCH_WAIT)
        .messages()
        .await
        .map_err(|e| e.to_string())?;
    match batch.next().await {
        Some(Ok(message)) => Ok(Some(message)),
        Some(Err(e)) => Err(e.to_string()),
        None => Ok(None),
    }
}

/// Says on the pair's `alive` subject what became of its try, waiting
/// for the broker a little: a word it misses only delays another worker.
async fn say_alive(js: &jetstream::Context, alive: &str, word: String) {
    let said = async {
        if let Ok(stored) = js.publish(alive.to_string(), word.into()).await {
            let _ = stored.await;
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), said).await;
}

/// Publishes a result, waiting for the broker's acknowledgement however
/// long the broker is away: the job is acknowledged only after it.
async fn publish_result(worker: &Worker, js: &jetstream::Context, result: &JobResult) {
    let subject = work::result_subject(&result.match_name, result.pair);
    let id = format!(
        "{}/{}",
        Job::id_of(&result.match_name, result.pair),
        result.try_id
    );
    let mut said = false;
    loop {
        match work::publish_once(js, subject.clone(), &id, result.to_json()).await {
            Ok(()) => return,
            Err(why) if !said => {
                worker.say(format!("the result waits for the broker: {why}"));
                said = true;
            }
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Publishes a notice; one lost is only a line the match does not show.
async fn publish_notice(js: &jetstream::Context, notice: &WorkerNotice) {
    if let Ok(ack) = js
        .publish(
            work::notice_subject(&notice.match_name),
            notice.to_json().into(),
        )
        .await
    {
        let _ = tokio::time::timeout(Duration::from_secs(3), ack).await;
    }
}

/// The tries an earlier run of this worker left unreported, renamed
/// `….abandoned`: their jobs are handed out again by the broker.
fn abandon_unreported(dir: &Path) -> Vec<PathBuf> {
    let mut kept = Vec::new();
    for matches in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for entry in std::fs::read_dir(matches.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_try = name.starts_with("pair-") && name.contains("-try-") && !name.contains('.');
            if is_try && path.is_dir() && !path.join(REPORTED).exists() {
                let aside = path.with_extension("abandoned");
                if std::fs::rename(&path, &aside).is_ok() {
                    kept.push(aside);
                }
            }
        }
    }
    kept
}
