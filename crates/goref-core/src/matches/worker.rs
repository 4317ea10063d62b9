//! The rules of `goref worker` without the broker: when a slot asks for a
//! job, which job it takes and which it hands back (and how), whether a job
//! handed out again is left with the try that still plays it, when each
//! job held is said to live, and what follows a job's games: the result
//! stored before the ack, or the job handed back with its reason.
//!
//! Sans-IO, as the referee: the shell hands it what happened
//! (`handle_link`, `handle_fetch_failed`, `handle_job`, `handle_unplayable`,
//! `handle_try_word`, `handle_game_begun`, `handle_played`,
//! `handle_result_stored`, `handle_acked`, `handle_stop`,
//! `handle_timeout`) with the time passed in, and carries out what
//! [`WorkerRules::poll_action`] returns, in order. Each message the broker
//! delivered is named by the shell's own [`Token`].

mod tries;

use std::collections::{HashSet, VecDeque};
use std::time::{Duration, Instant};

use super::jobs::{GameReport, Job, JobResult, NoticeKind, WorkerNotice, MESSAGE_VERSION};

pub use tries::{alive_for, Redelivered};

/// How long a job for an engine this worker lacks waits before it is
/// offered again; the slot that handed it back asks for no job for
/// [`REFUSED_HOLD`], so that another worker's ask comes first.
pub const REFUSED_DELAY: Duration = Duration::from_secs(2);
/// How long one ask for a job waits when the queue is empty.
pub const FETCH_WAIT: Duration = Duration::from_millis(500);
/// How long a slot that handed a job back asks for no other.
pub const REFUSED_HOLD: Duration =
    Duration::from_millis(REFUSED_DELAY.as_millis() as u64 + FETCH_WAIT.as_millis() as u64);
/// How long a job that failed here waits before it is offered again.
pub const FAILED_DELAY: Duration = Duration::from_secs(5);
/// The shortest time between two words that a job held lives.
const BEAT_FLOOR: Duration = Duration::from_millis(100);

/// What a worker playing on is given, beyond its redial and its beat, to
/// be heard after the broker returns: its connect and its word's publish.
const REDIAL_SLACK: Duration = Duration::from_secs(1);

/// The shell's name for one message the broker delivered.
pub type Token = u64;

/// Who the worker is and what it can play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub name: String,
    pub slots: usize,
    /// The one match whose jobs this worker takes, if it takes one only.
    pub only: Option<String>,
    /// The engines its file names.
    pub engines: Vec<String>,
    /// The longest a worker's client waits between two tries to connect
    /// again: after the broker returns, the other workers may be that late.
    pub redial_within: Duration,
}

/// How the worker answers the broker about a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// Done with: acknowledged, the broker's word awaited.
    DoubleAck,
    /// Taken off the queue (a job reported already).
    Ack,
    /// Handed back, to be offered again after the delay (or the broker's).
    Nak(Option<Duration>),
    /// Refused for good.
    Term,
    /// Still held: the ack deadline starts again.
    Progress,
}

/// What the worker's shell is to do next.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A line for the worker's desk.
    Say(String),
    /// What the slots' tiles say they wait for, or nothing.
    Waiting(Option<String>),
    /// Answer the broker about a message.
    Reply { token: Token, reply: Reply },
    /// Publish a notice to the match (one lost is only a line not shown).
    Notify(WorkerNotice),
    /// A slot took a job: make its folder ready, then look for a word of
    /// another try of the pair for `look_for` (or once) and hand it to
    /// `handle_try_word`. A job that cannot be played here goes to
    /// `handle_unplayable`.
    Take(Taken),
    /// Play the job held by `slot`; its end goes to `handle_played`.
    Play { slot: usize, waited: Duration },
    /// Say on the pair's subject that the try lives (`word`), and after the
    /// first word ask the broker for more time on the message.
    Beat {
        slot: usize,
        token: Token,
        word: String,
        progress: bool,
    },
    /// Publish the result until the broker stores it, then
    /// `handle_result_stored`.
    PublishResult { slot: usize, result: JobResult },
    /// The try's last word on the pair's subject (waiting for the broker a
    /// little), then the notice if any, then the reply; a
    /// [`Reply::DoubleAck`]'s outcome goes to `handle_acked`.
    Finish {
        slot: usize,
        token: Token,
        word: String,
        notice: Option<WorkerNotice>,
        reply: Reply,
    },
    /// The try's folder is reported: mark it so.
    MarkReported { slot: usize, result: JobResult },
    /// Every game in play is to stop; the jobs are handed back.
    StopPlaying,
    /// Every slot is free after a stop: the worker ends.
    Stopped { reported: usize, unreported: usize },
}

/// A job a slot took, for the shell to make ready.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub slot: usize,
    pub token: Token,
    pub job: Job,
    /// The broker's delivery of the job, from 1.
    pub delivery: u64,
    /// The try's own name: `WORKER-DELIVERY-UNIXMS`.
    pub try_id: String,
    /// How long to look for a word of another try of the pair.
    pub look_for: Duration,
}

/// How a job's games ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Played {
    /// Both games, in the object store.
    Done(Vec<GameReport>),
    /// It could not be played here; why.
    Failed(String),
    /// The broker did not take its games; it hands the pair out again.
    BrokerAway(String),
    /// The worker was asked to stop.
    Stopped,
}

#[derive(Debug, Clone)]
struct Held {
    token: Token,
    job: Job,
    delivery: u64,
    try_id: String,
    ack_wait: Duration,
    waited: Duration,
    next_beat: Option<Instant>,
    beats: u64,
    result: Option<JobResult>,
}

impl Held {
    fn name(&self) -> String {
        format!("{} pair {}", self.job.match_name, self.job.pair + 1)
    }
}

/// The worker's rules and what it holds.
#[derive(Debug)]
pub struct WorkerRules {
    settings: Settings,
    slots: Vec<Option<Held>>,
    /// When each slot held back after a refusal may ask again.
    holds: Vec<Instant>,
    free_since: Option<Instant>,
    failed_here: HashSet<String>,
    refused_said: HashSet<(String, String)>,
    left_said: HashSet<String>,
    broker_trouble: bool,
    back_at: Option<Instant>,
    stopping: bool,
    stopped_said: bool,
    reported: usize,
    unreported: usize,
    actions: VecDeque<Action>,
}

impl WorkerRules {
    pub fn new(settings: Settings) -> Self {
        let slots = (0..settings.slots.max(1)).map(|_| None).collect();
        Self {
            settings,
            slots,
            holds: Vec::new(),
            free_since: None,
            failed_here: HashSet::new(),
            refused_said: HashSet::new(),
            left_said: HashSet::new(),
            broker_trouble: false,
            back_at: None,
            stopping: false,
            stopped_said: false,
            reported: 0,
            unreported: 0,
            actions: VecDeque::new(),
        }
    }

    /// The next thing to do, in order.
    pub fn poll_action(&mut self) -> Option<Action> {
        self.actions.pop_front()
    }

    /// When `handle_timeout` next has something to do.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let beats = self.held().filter_map(|held| held.next_beat);
        beats.chain(self.holds.iter().copied()).min()
    }

    /// Whether a slot is free to ask the broker for a job now.
    pub fn wants_job(&mut self, now: Instant) -> bool {
        self.holds.retain(|until| *until > now);
        let free = self.slots.iter().filter(|slot| slot.is_none()).count();
        let wants = !self.stopping && free > self.holds.len();
        if wants {
            self.free_since.get_or_insert(now);
        }
        wants
    }

    /// Whether the worker was asked to stop.
    pub fn stopping(&self) -> bool {
        self.stopping
    }

    /// The worker has no job in hand.
    pub fn idle(&self) -> bool {
        self.held().next().is_none()
    }

    /// The broker went away (`false`) or answers again (`true`).
    pub fn handle_link(&mut self, now: Instant, up: bool, shown: &str) {
        if !up {
            self.say(format!(
                "the broker at {shown} went away: the games in play go on, their results \
                 wait for it"
            ));
            self.actions.push_back(Action::Waiting(Some(
                "the broker went away: waiting for it".into(),
            )));
            self.broker_trouble = true;
        } else {
            self.back_at = Some(now);
            self.answers_again();
        }
    }

    /// An ask for a job failed.
    pub fn handle_fetch_failed(&mut self, why: &str) {
        let renewed = why.to_ascii_lowercase().contains("consumer deleted");
        if !self.broker_trouble && !renewed {
            self.say(format!("the broker: {why}; trying again"));
            self.actions.push_back(Action::Waiting(Some(
                "the broker does not answer: trying again".into(),
            )));
            self.broker_trouble = true;
        }
    }

    /// A job delivered for the `delivery`-th time, under a consumer whose
    /// ack deadline is `ack_wait`; `wall_ms` names the try.
    pub fn handle_job(
        &mut self,
        now: Instant,
        wall_ms: u128,
        token: Token,
        delivery: u64,
        payload: &[u8],
        ack_wait: Duration,
    ) {
        if self.broker_trouble {
            self.back_at = Some(now);
        }
        self.answers_again();
        let delivery = delivery.max(1);
        let job = match Job::from_json(payload) {
            Ok(job) if is_plain(&job.match_name) => job,
            Ok(job) => {
                let name = job.match_name;
                self.say(format!(
                    "a job for match {name:?}, not a plain name: refused"
                ));
                return self.hand_back(now, token, Reply::Term);
            }
            Err(why) => {
                self.say(format!("a job refused: {why}"));
                return self.hand_back(now, token, Reply::Term);
            }
        };
        if let Some(only) = &self.settings.only {
            if *only != job.match_name {
                return self.hand_back(now, token, Reply::Nak(Some(REFUSED_DELAY)));
            }
        }
        let missing = job.engines.iter().find(|name| !self.has_engine(name));
        if let Some(missing) = missing.cloned() {
            if self
                .refused_said
                .insert((job.match_name.clone(), missing.clone()))
            {
                self.say(format!(
                    "{} wants engine '{missing}', which the worker's file does not name: \
                     handed back for another worker",
                    job.match_name
                ));
            }
            let kind = NoticeKind::Refused { engine: missing };
            let notice = self.notice(&job, delivery, kind);
            self.actions.push_back(Action::Notify(notice));
            return self.hand_back(now, token, Reply::Nak(Some(REFUSED_DELAY)));
        }
        if self.failed_here.contains(&job.id()) {
            return self.hand_back(now, token, Reply::Nak(Some(FAILED_DELAY)));
        }
        let Some(slot) = self.slots.iter().position(Option::is_none) else {
            return self.hand_back(now, token, Reply::Nak(None));
        };
        let waited = self
            .free_since
            .take()
            .map_or(Duration::ZERO, |since| now.saturating_duration_since(since));
        let look_for = match self
            .back_at
            .is_some_and(|at| now.saturating_duration_since(at) < ack_wait)
        {
            true => look_after_return(ack_wait, self.settings.redial_within),
            false => Duration::ZERO,
        };
        let try_id = format!("{}-{delivery}-{wall_ms}", self.settings.name);
        self.actions.push_back(Action::Take(Taken {
            slot,
            token,
            job: job.clone(),
            delivery,
            try_id: try_id.clone(),
            look_for,
        }));
        self.slots[slot] = Some(Held {
            token,
            job,
            delivery,
            try_id,
            ack_wait,
            waited,
            next_beat: None,
            beats: 0,
            result: None,
        });
    }

    /// The job that `slot` took cannot be played here (its game is not
    /// one this goref plays): refused for good, and the match told why.
    pub fn handle_unplayable(&mut self, now: Instant, slot: usize, why: &str) {
        let Some(held) = self.slots.get_mut(slot).and_then(Option::take) else {
            return;
        };
        self.say(format!(
            "{} pair {}: refused: {why}",
            held.job.match_name,
            held.job.pair + 1
        ));
        let reason = format!("refused by the worker: {why}");
        let notice = self.notice(&held.job, held.delivery, NoticeKind::Failed { reason });
        self.actions.push_back(Action::Notify(notice));
        self.hand_back(now, held.token, Reply::Term);
    }

    /// The newest word said of the pair that `slot` took, if any: it is
    /// played, left with the try that plays it, or taken off the queue.
    pub fn handle_try_word(&mut self, now: Instant, slot: usize, word: Option<&[u8]>) {
        let Some(held) = self.slots.get(slot).and_then(Option::as_ref) else {
            return;
        };
        let name = format!("{} pair {}", held.job.match_name, held.job.pair + 1);
        let (token, ack_wait) = (held.token, held.ack_wait);
        match tries::on_redelivery(word) {
            Redelivered::Play if self.stopping => {
                return self.handle_played(slot, Played::Stopped);
            }
            Redelivered::Play => return self.play(now, slot),
            Redelivered::LeaveWith(try_id) => {
                let heard_within = alive_for(ack_wait);
                if self.left_said.insert(try_id.clone()) {
                    self.say(format!(
                        "{name}: handed out again while try {try_id} still plays it (its \
                         worker was heard within {}s): left with it",
                        heard_within.as_secs_f32()
                    ));
                }
                self.reply(token, Reply::Nak(Some(heard_within)));
            }
            Redelivered::Drop(try_id) => {
                self.say(format!(
                    "{name}: handed out again though try {try_id} reported it: taken off the \
                     queue"
                ));
                self.reply(token, Reply::Ack);
            }
        }
        self.slots[slot] = None;
        self.stopped_when_idle();
    }

    /// `slot`'s goref began game `game` (1 or 2), live under `live`.
    pub fn handle_game_begun(&mut self, slot: usize, game: u8, live: String) {
        if let Some(held) = self.slots.get(slot).and_then(Option::as_ref) {
            let kind = NoticeKind::Playing { game, live };
            let notice = self.notice(&held.job, held.delivery, kind);
            self.actions.push_back(Action::Notify(notice));
        }
    }

    /// `slot`'s games ended as `played`.
    pub fn handle_played(&mut self, slot: usize, played: Played) {
        let worker = self.settings.name.clone();
        let Some(held) = self.slots.get_mut(slot).and_then(Option::as_mut) else {
            return;
        };
        if let Played::Done(games) = played {
            let result = JobResult {
                version: MESSAGE_VERSION,
                match_name: held.job.match_name.clone(),
                pair: held.job.pair,
                worker,
                delivery: held.delivery,
                try_id: held.try_id.clone(),
                games,
            };
            held.result = Some(result.clone());
            self.actions
                .push_back(Action::PublishResult { slot, result });
            return;
        }
        let held = self.slots[slot].take().expect("held above");
        let (notice, reply) = match played {
            Played::Failed(why) => {
                self.failed_here.insert(held.job.id());
                self.say(format!("{}: handed back: {why}", held.name()));
                let kind = NoticeKind::Failed { reason: why };
                let notice = notice(&worker, &held.job, held.delivery, kind);
                (Some(notice), Reply::Nak(Some(FAILED_DELAY)))
            }
            Played::BrokerAway(why) => {
                self.say(format!(
                    "{}: the broker did not take its games ({why}); it hands the pair out \
                     again",
                    held.name()
                ));
                (None, Reply::Nak(None))
            }
            Played::Done(_) | Played::Stopped => (None, Reply::Nak(None)),
        };
        self.actions.push_back(Action::Finish {
            slot,
            token: held.token,
            word: tries::gone(&held.try_id),
            notice,
            reply,
        });
        self.unreported += 1;
        self.stopped_when_idle();
    }

    /// The broker stored `slot`'s result: the try stops saying it plays,
    /// says it reported, and then the job is acknowledged.
    pub fn handle_result_stored(&mut self, slot: usize) {
        if let Some(held) = self.slots.get_mut(slot).and_then(Option::as_mut) {
            held.next_beat = None;
            self.actions.push_back(Action::Finish {
                slot,
                token: held.token,
                word: tries::reported(&held.try_id),
                notice: None,
                reply: Reply::DoubleAck,
            });
        }
    }

    /// The broker took (or did not take) the ack of `slot`'s job.
    pub fn handle_acked(&mut self, slot: usize, acked: Result<(), String>) {
        let Some(held) = self.slots.get_mut(slot).and_then(Option::take) else {
            return;
        };
        let Some(result) = held.result.clone() else {
            return;
        };
        match acked {
            Ok(()) => self.actions.push_back(Action::MarkReported {
                slot,
                result: result.clone(),
            }),
            Err(e) => self.say(format!(
                "{}: the result is sent, but the broker did not take the ack ({e}): the match \
                 counts the pair once whoever plays it again",
                held.name()
            )),
        }
        let results: Vec<&str> = result.games.iter().map(|g| g.result.as_str()).collect();
        self.say(format!(
            "{} pair {} done: {}",
            held.job.match_name,
            held.job.pair + 1,
            results.join(", ")
        ));
        self.reported += 1;
        self.stopped_when_idle();
    }

    /// The worker is asked to stop (`why`): the games in play stop and
    /// their jobs are handed back.
    pub fn handle_stop(&mut self, why: &str) {
        if self.stopping {
            return;
        }
        self.stopping = true;
        self.say(format!("{why}: handing back the jobs held"));
        self.actions.push_back(Action::StopPlaying);
        self.stopped_when_idle();
    }

    /// Time has come to `now`: each job in play whose beat is due says it
    /// lives.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.holds.retain(|until| *until > now);
        for (slot, held) in self.slots.iter_mut().enumerate() {
            let Some(held) = held else { continue };
            let Some(due) = held.next_beat.filter(|due| *due <= now) else {
                continue;
            };
            let every = beat_every(held.ack_wait);
            held.next_beat = Some(due.max(now) + every);
            self.actions.push_back(Action::Beat {
                slot,
                token: held.token,
                word: tries::playing(&held.try_id),
                progress: held.beats > 0,
            });
            held.beats += 1;
        }
    }

    fn play(&mut self, now: Instant, slot: usize) {
        let Some(held) = self.slots[slot].as_mut() else {
            return;
        };
        held.next_beat = Some(now);
        let waited = held.waited;
        let line = format!(
            "{} pair {} (try {}): {} against {}, taken {} ms after a slot freed",
            held.job.match_name,
            held.job.pair + 1,
            held.delivery,
            held.job.engines[0],
            held.job.engines[1],
            waited.as_millis()
        );
        let notice = notice(
            &self.settings.name,
            &held.job,
            held.delivery,
            NoticeKind::Taken,
        );
        self.actions.push_back(Action::Notify(notice));
        self.say(line);
        self.actions.push_back(Action::Play { slot, waited });
        self.handle_timeout(now);
    }

    fn hand_back(&mut self, now: Instant, token: Token, reply: Reply) {
        self.reply(token, reply);
        self.holds.push(now + REFUSED_HOLD);
    }

    fn reply(&mut self, token: Token, reply: Reply) {
        self.actions.push_back(Action::Reply { token, reply });
    }

    fn answers_again(&mut self) {
        if std::mem::take(&mut self.broker_trouble) {
            self.say("the broker answers again".into());
            self.actions.push_back(Action::Waiting(None));
        }
    }

    fn stopped_when_idle(&mut self) {
        if self.stopping && self.idle() && !self.stopped_said {
            self.stopped_said = true;
            self.actions.push_back(Action::Stopped {
                reported: self.reported,
                unreported: self.unreported,
            });
        }
    }

    fn held(&self) -> impl Iterator<Item = &Held> {
        self.slots.iter().flatten()
    }

    fn has_engine(&self, name: &str) -> bool {
        self.settings.engines.iter().any(|engine| engine == name)
    }

    fn say(&mut self, line: String) {
        self.actions.push_back(Action::Say(line));
    }

    fn notice(&self, job: &Job, delivery: u64, kind: NoticeKind) -> WorkerNotice {
        notice(&self.settings.name, job, delivery, kind)
    }
}

/// Worker `worker`'s notice of `kind` about delivery `delivery` of `job`.
/// How often a job held says it lives.
fn beat_every(ack_wait: Duration) -> Duration {
    (ack_wait / 6).max(BEAT_FLOOR)
}

/// How long a job taken just after the broker returned looks for a word
/// of another try: a quarter of the deadline, and at least as long as a
/// worker still playing the pair takes to connect again and say so.
pub fn look_after_return(ack_wait: Duration, redial_within: Duration) -> Duration {
    (ack_wait / 4).max(redial_within + beat_every(ack_wait) + REDIAL_SLACK)
}

fn notice(worker: &str, job: &Job, delivery: u64, kind: NoticeKind) -> WorkerNotice {
    WorkerNotice {
        version: MESSAGE_VERSION,
        match_name: job.match_name.clone(),
        pair: job.pair,
        worker: worker.to_string(),
        delivery,
        kind,
    }
}

/// Whether a match's name is one token of a broker's subject as it stands.
fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests;
