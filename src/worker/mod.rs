//! `goref worker nats://HOST:PORT`: a machine that plays matches' games for
//! them. It takes a job (one opening pair) from the broker's work queue
//! only when a slot is free, plays its two games in local gorefs (see
//! `play`), tells the broker it still holds the job every sixth of the
//! ack deadline (and says on the pair's subject that its try lives), puts the finished folders in the match's object store,
//! publishes the result, and only then acknowledges the job. A job naming
//! an engine this worker lacks is handed back at once for another worker,
//! and the match is told why; a job it cannot play is handed back with the
//! reason, and not taken here again.
//!
//! - [`file`](mod@file): `worker.toml`, the engines by name and their local
//!   command lines.
//! - `play`: one job's games, folders and object-store uploads.
//! - `tiles`: the slots as a screen draws them ([`run_at`] with the match's
//!   screen as the desk).
//! - `tries`: a job handed out again while the try that holds it lives
//!   (after the broker restarts) is left with that try.

pub(crate) mod file;
mod play;
mod tiles;
mod tries;

use crate::shell_time::Threads;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::jetstream::{self, consumer::PullConsumer, AckKind, Message};
use futures_util::StreamExt;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

use crate::broker::work::{self, BrokerLink};
use crate::hall::desk::{Desk, Terminal};
use crate::match_play::picture::MatchPicture;
use goref_core::matches::jobs::{Job, JobResult, NoticeKind, WorkerNotice, MESSAGE_VERSION};

use file::WorkerFile;
use play::{GameBegun, JobRun, Played};
use tiles::Tiles;

/// How long a job for an engine this worker lacks waits before it is
/// offered again; the slot that handed it back asks for no job for a
/// little longer, so that another worker's ask comes first.
const REFUSED_DELAY: Duration = Duration::from_secs(2);
/// How long a job that failed here waits before it is offered again.
const FAILED_DELAY: Duration = Duration::from_secs(5);
/// How long one ask for a job waits when the queue is empty.
const FETCH_WAIT: Duration = Duration::from_millis(500);
/// How often a job handed out again looks for a word of the try holding it.
const ALIVE_LOOK: Duration = Duration::from_millis(500);
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
        left_said: Mutex::new(HashSet::new()),
    };
    runtime.block_on(serve(Arc::new(worker)))
}

struct Worker {
    options: WorkerOptions,
    exe: PathBuf,
    desk: Box<dyn Desk<MatchPicture>>,
    tiles: Tiles,
    /// The tries that jobs handed out again were left with, each said once.
    left_said: Mutex<HashSet<String>>,
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

    /// This worker's notice of `kind` about delivery `delivery` of `job`.
    fn notice(&self, job: &Job, delivery: u64, kind: NoticeKind) -> WorkerNotice {
        WorkerNotice {
            version: MESSAGE_VERSION,
            match_name: job.match_name.clone(),
            pair: job.pair,
            worker: self.options.name.clone(),
            delivery,
            kind,
        }
    }
}

async fn serve(worker: Arc<Worker>) -> Result<(), String> {
    let options = &worker.options;
    for kept in abandon_unreported(&options.dir) {
        worker.say(format!("kept aside an unfinished try: {}", kept.display()));
    }
    let engines: Vec<&str> = options
        .file
        .engines
        .iter()
        .map(|e| e.name.as_str())
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
    let slots = Arc::new(Semaphore::new(options.slots));
    let (stop_tx, stop) = watch::channel(false);
    let failed_here = Arc::new(Mutex::new(HashSet::new()));
    let mut refused_said = HashSet::new();
    let mut tasks = JoinSet::new();
    let mut broker_trouble = false;
    let mut free_since = None;
    loop {
        while tasks.try_join_next().is_some() {}
        match link.change() {
            Some(false) => {
                worker.say(format!(
                    "the broker at {} went away: the games in play go on, their results \
                     wait for it",
                    options.link.shown()
                ));
                worker
                    .tiles
                    .waiting(Some("the broker went away: waiting for it".into()));
                worker.show();
                broker_trouble = true;
            }
            Some(true) if std::mem::take(&mut broker_trouble) => {
                worker.say("the broker answers again");
                worker.tiles.waiting(None);
                worker.show();
            }
            _ => {}
        }
        if let Some(why) = worker.desk.stop_asked() {
            worker.say(format!("{why}: handing back the jobs held"));
            let _ = stop_tx.send(true);
            break;
        }
        let permit = tokio::select! {
            permit = slots.clone().acquire_owned() => permit.expect("the semaphore stays open"),
            _ = tokio::time::sleep(FETCH_WAIT) => continue,
        };
        let freed = *free_since.get_or_insert_with(std::time::Instant::now);
        let message = match next_job(&consumer).await {
            Ok(Some(message)) => message,
            Ok(None) => continue,
            Err(why) => {
                let renewed = why.to_ascii_lowercase().contains("consumer deleted");
                if !broker_trouble && !renewed {
                    worker.say(format!("the broker: {why}; trying again"));
                    worker
                        .tiles
                        .waiting(Some("the broker does not answer: trying again".into()));
                    worker.show();
                    broker_trouble = true;
                }
                tokio::time::sleep(FETCH_WAIT).await;
                continue;
            }
        };
        if std::mem::take(&mut broker_trouble) {
            worker.say("the broker answers again");
            worker.tiles.waiting(None);
            worker.show();
        }
        let Some(run) = take(&worker, &js, &message, &failed_here, &mut refused_said).await else {
            tokio::spawn(async move {
                tokio::time::sleep(REFUSED_DELAY + FETCH_WAIT).await;
                drop(permit);
            });
            continue;
        };
        free_since = None;
        let waited = freed.elapsed();
        let ack_wait = match consumer.info().await {
            Ok(info) => info.config.ack_wait,
            Err(_) => consumer.cached_info().config.ack_wait,
        };
        let look_for = match link.back_within(ack_wait) {
            true => ack_wait / 4,
            false => Duration::ZERO,
        };
        let (worker, js, stop, failed_here) = (
            worker.clone(),
            js.clone(),
            stop.clone(),
            failed_here.clone(),
        );
        tasks.spawn(async move {
            let _slot = permit;
            let held = Held {
                message,
                ack_wait,
                waited,
                look_for,
            };
            play_job(&worker, &js, held, run, stop, &failed_here).await;
        });
    }
    while tasks.join_next().await.is_some() {}
    let (reported, unreported) = worker.tiles.tally();
    worker.say(format!(
        "stopped: {} played and reported, {} handed back or failed",
        crate::check::plural(reported as usize, "pair", "pairs"),
        unreported
    ));
    Ok(())
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

/// A job read and matched with this worker's engines: what to play, or
/// none when it was handed back (or refused for good).
async fn take(
    worker: &Worker,
    js: &jetstream::Context,
    message: &Message,
    failed_here: &Mutex<HashSet<String>>,
    refused_said: &mut HashSet<(String, String)>,
) -> Option<JobRun> {
    let delivery = message.info().map_or(1, |i| i.delivered.max(1) as u64);
    let job = match Job::from_json(&message.payload) {
        Ok(job) if work::match_id(&job.match_name) == job.match_name => job,
        Ok(job) => {
            worker.say(format!(
                "a job for match {:?}, not a plain name: refused",
                job.match_name
            ));
            let _ = message.ack_with(AckKind::Term).await;
            return None;
        }
        Err(why) => {
            worker.say(format!("a job refused: {why}"));
            let _ = message.ack_with(AckKind::Term).await;
            return None;
        }
    };
    if worker
        .options
        .only
        .as_ref()
        .is_some_and(|only| *only != job.match_name)
    {
        let _ = message.ack_with(AckKind::Nak(Some(REFUSED_DELAY))).await;
        return None;
    }
    let notice = |kind| worker.notice(&job, delivery, kind);
    let file = &worker.options.file;
    if let Some(missing) = job.engines.iter().find(|name| file.engine(name).is_none()) {
        if refused_said.insert((job.match_name.clone(), missing.clone())) {
            worker.say(format!(
                "{} wants engine '{missing}', which the worker's file does not name: \
                 handed back for another worker",
                job.match_name
            ));
        }
        let refused = notice(NoticeKind::Refused {
            engine: missing.clone(),
        });
        publish_notice(js, &job.match_name, &refused).await;
        let _ = message.ack_with(AckKind::Nak(Some(REFUSED_DELAY))).await;
        return None;
    }
    if lock(failed_here).contains(&job.id()) {
        let _ = message.ack_with(AckKind::Nak(Some(FAILED_DELAY))).await;
        return None;
    }
    let game_table = match file::job_game_table(&job.game) {
        Ok(table) => table,
        Err(why) => {
            worker.say(format!(
                "{} pair {}: refused: {why}",
                job.match_name,
                job.pair + 1
            ));
            let failed = notice(NoticeKind::Failed {
                reason: format!("refused by the worker: {why}"),
            });
            publish_notice(js, &job.match_name, &failed).await;
            let _ = message.ack_with(AckKind::Term).await;
            return None;
        }
    };
    let engines = job
        .engines
        .clone()
        .map(|name| file.engine(&name).expect("both found").clone());
    let dir = worker
        .options
        .dir
        .join(&job.match_name)
        .join(format!("pair-{:04}-try-{delivery}", job.pair + 1));
    set_aside(&dir);
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    Some(JobRun {
        match_id: job.match_name.clone(),
        job,
        delivery,
        try_id: format!("{}-{delivery}-{now_ms}", worker.options.name),
        engines,
        game_table,
        dir,
        exe: worker.exe.clone(),
        publish: worker.options.link.shown(),
        publish_env: worker.options.link.auth.env_pairs(),
    })
}

/// A job's message as the worker holds it.
struct Held {
    message: Message,
    /// The consumer's deadline when the job was taken.
    ack_wait: Duration,
    /// How long the slot was free before the job came.
    waited: Duration,
    /// How long to look for a word of another try of the pair before
    /// playing it: a while just after the broker came back, else once.
    look_for: Duration,
}

/// Plays a job taken: its games, heartbeats while they play, then the
/// result, then the ack; or the job handed back, with the reason.
async fn play_job(
    worker: &Worker,
    js: &jetstream::Context,
    held: Held,
    run: JobRun,
    stop: watch::Receiver<bool>,
    failed_here: &Mutex<HashSet<String>>,
) {
    let Held {
        message,
        ack_wait,
        waited,
        look_for,
    } = held;
    if left_with_its_try(worker, js, &message, &run, (ack_wait, look_for)).await {
        return;
    }
    let message = Arc::new(message);
    let notice = |kind| worker.notice(&run.job, run.delivery, kind);
    publish_notice(js, &run.match_id, &notice(NoticeKind::Taken)).await;
    let tile = worker.tiles.take();
    worker.say(format!(
        "{} pair {} (try {}): {} against {}, taken {} ms after a slot freed",
        run.match_id,
        run.job.pair + 1,
        run.delivery,
        run.job.engines[0],
        run.job.engines[1],
        waited.as_millis()
    ));
    let alive = work::alive_subject(&run.match_id, run.job.pair);
    if let Err(why) = work::alive_stream(js, ack_wait).await {
        worker.say(format!(
            "{}: {why}; a broker that restarts may hand the pair out again",
            run.name()
        ));
    }
    let heartbeat = {
        let (message, js, alive) = (message.clone(), js.clone(), alive.clone());
        let word = tries::playing(&run.try_id);
        let every = (ack_wait / 6).max(Duration::from_millis(100));
        tokio::spawn(async move {
            loop {
                let _ = js.publish(alive.clone(), word.clone().into()).await;
                tokio::time::sleep(every).await;
                let _ = message.ack_with(AckKind::Progress).await;
            }
        })
    };
    let (begun_tx, mut begun_rx) = tokio::sync::mpsc::unbounded_channel();
    let telling = {
        let (js, match_id) = (js.clone(), run.match_id.clone());
        async move {
            while let Some(notice) = begun_rx.recv().await {
                publish_notice(&js, &match_id, &notice).await;
            }
        }
    };
    let playing = async {
        let begun_tx = begun_tx;
        let begun = |begun: GameBegun| {
            worker.tiles.begun(tile, &run, &begun);
            worker.show();
            worker.say(format!(
                "{}: live at {}/{}",
                run.title(begun.slot),
                worker.options.link.shown(),
                begun.live
            ));
            let game = begun.slot.game();
            let live = begun.live;
            let _ = begun_tx.send(notice(NoticeKind::Playing { game, live }));
        };
        match work::game_store(js, &run.match_id).await {
            Ok(store) => {
                run.play(&store, stop, &|line| worker.say(line), &begun)
                    .await
            }
            Err(why) => Played::BrokerAway(why),
        }
    };
    let (played, ()) = tokio::join!(playing, telling);
    worker.tiles.free(tile, matches!(played, Played::Done(_)));
    worker.show();
    match played {
        Played::Done(games) => {
            let result = JobResult {
                version: MESSAGE_VERSION,
                match_name: run.match_id.clone(),
                pair: run.job.pair,
                worker: worker.options.name.clone(),
                delivery: run.delivery,
                try_id: run.try_id.clone(),
                games,
            };
            publish_result(worker, js, &result).await;
            heartbeat.abort();
            say_alive(js, &alive, tries::reported(&run.try_id)).await;
            match message.double_ack().await {
                Ok(()) => {
                    let _ = std::fs::write(run.dir.join(REPORTED), result.to_json());
                }
                Err(e) => worker.say(format!(
                    "{}: the result is sent, but the broker did not take the ack ({e}): \
                     the match counts the pair once whoever plays it again",
                    run.name()
                )),
            }
            let results: Vec<&str> = result.games.iter().map(|g| g.result.as_str()).collect();
            worker.say(format!(
                "{} pair {} done: {}",
                run.match_id,
                run.job.pair + 1,
                results.join(", ")
            ));
        }
        Played::Failed(why) => {
            heartbeat.abort();
            say_alive(js, &alive, tries::gone(&run.try_id)).await;
            worker.say(format!("{}: handed back: {why}", run.name()));
            lock(failed_here).insert(run.job.id());
            publish_notice(
                js,
                &run.match_id,
                &notice(NoticeKind::Failed { reason: why }),
            )
            .await;
            let _ = message.ack_with(AckKind::Nak(Some(FAILED_DELAY))).await;
        }
        Played::BrokerAway(why) => {
            heartbeat.abort();
            say_alive(js, &alive, tries::gone(&run.try_id)).await;
            worker.say(format!(
                "{}: the broker did not take its games ({why}); it hands the pair out again",
                run.name()
            ));
            let _ = message.ack_with(AckKind::Nak(None)).await;
        }
        Played::Stopped => {
            heartbeat.abort();
            say_alive(js, &alive, tries::gone(&run.try_id)).await;
            let _ = message.ack_with(AckKind::Nak(None)).await;
        }
    }
}

/// Whether a job taken is left with another try that holds it (handed
/// back to the queue) or dropped as reported, from what the pair's tries
/// said. With no word yet, it looks again for `look_for`: just after the
/// broker came back (a broker killed may hand out again, as new, every
/// job held, though their workers play on), the worker playing the pair
/// is heard again only once it has connected again too.
async fn left_with_its_try(
    worker: &Worker,
    js: &jetstream::Context,
    message: &Message,
    run: &JobRun,
    (ack_wait, look_for): (Duration, Duration),
) -> bool {
    let subject = work::alive_subject(&run.match_id, run.job.pair);
    let until = tokio::time::Instant::now() + look_for;
    let word = loop {
        let word = work::alive_word(js, &subject).await;
        if word.is_some() || tokio::time::Instant::now() >= until {
            break word;
        }
        tokio::time::sleep(ALIVE_LOOK).await;
    };
    let name = format!("{} pair {}", run.match_id, run.job.pair + 1);
    match tries::on_redelivery(word.as_deref()) {
        tries::Redelivered::Play => false,
        tries::Redelivered::LeaveWith(try_id) => {
            let heard_within = work::alive_for(ack_wait);
            if lock(&worker.left_said).insert(try_id.clone()) {
                worker.say(format!(
                    "{name}: handed out again while try {try_id} still plays it (its worker \
                     was heard within {}s): left with it",
                    heard_within.as_secs_f32()
                ));
            }
            let _ = message.ack_with(AckKind::Nak(Some(heard_within))).await;
            true
        }
        tries::Redelivered::Drop(try_id) => {
            worker.say(format!(
                "{name}: handed out again though try {try_id} reported it: taken off the queue"
            ));
            let _ = message.ack_with(AckKind::Ack).await;
            true
        }
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
async fn publish_notice(js: &jetstream::Context, match_id: &str, notice: &WorkerNotice) {
    if let Ok(ack) = js
        .publish(work::notice_subject(match_id), notice.to_json().into())
        .await
    {
        let _ = tokio::time::timeout(Duration::from_secs(3), ack).await;
    }
}

/// Renames a try's folder left by an earlier run out of the way.
fn set_aside(dir: &Path) {
    if dir.exists() {
        let aside = dir.with_extension(format!("abandoned-{}", std::process::id()));
        let _ = std::fs::rename(dir, aside);
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
