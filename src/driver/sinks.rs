//! Where a game's events go: the game folder (the journal first, then the
//! record and the engines' logs), `--json`, the progress lines, `--trace`,
//! `--sgf`, and every subscriber (the screen, the mirror).
//!
//! The journal is the game's truth. An event that relays a move or
//! announces a result is synced to it before anyone else is told, and the
//! driver relays a move only after its events are drained here. The records
//! are derived from the events and replaced atomically after every move;
//! with a journal they need no sync of their own until the end.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::json_out::JsonOut;
use super::record_file::{RecordFile, RecordStatus, Sync, DERIVED_GAP};
use super::trace_file::TraceFile;
use super::{progress_line, DriverConfig, DriverError, Resumption};
use crate::console;
use crate::files::{resolve_output, same_file, Holds};
use crate::journal::folder::{self, stderr_log};
use crate::journal::{manifest, GameFolder, Journal, JournalStatus, JournalSync};
use crate::shell_time::now;
use goref_core::referee::{
    EventBatch, GameEvent, HandedOn, LineDirection, PlannedGame, Recorder, Referee, SessionChange,
    StampedEvent, StreamHeader,
};

/// A record file and whether it reaches the disk.
struct Record {
    path: PathBuf,
    file: RecordFile,
    /// Why the file on disk is not the game's, while it is not.
    failing: Option<String>,
    outcome: Option<Result<(), String>>,
}

/// The game folder being written.
struct Folder {
    folder: GameFolder,
    journal: Journal,
    sync: JournalSync,
    /// The engines' stderr, Black's then White's, opened at their first line.
    stderr_logs: [Option<LogFile>; 2],
}

/// A log of lines, written as they come; the first failure stops it.
struct LogFile {
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl LogFile {
    /// Opens the log to append to; one that cannot be opened has failed
    /// at once, and the error is told.
    fn open(path: PathBuf) -> (LogFile, Option<String>) {
        let opened = File::options().create(true).append(true).open(&path);
        let mut log = LogFile { path, out: None };
        let told = match opened {
            Ok(file) => {
                log.out = Some(BufWriter::new(file));
                None
            }
            Err(error) => log.failed(Err(error)),
        };
        (log, told)
    }

    /// Writes a line; the error the first time one fails.
    fn line(&mut self, text: &str) -> Option<String> {
        let out = self.out.as_mut()?;
        let written = writeln!(out, "{text}");
        self.failed(written)
    }

    fn flush(&mut self) -> Option<String> {
        let flushed = self.out.as_mut()?.flush();
        self.failed(flushed)
    }

    fn failed(&mut self, outcome: std::io::Result<()>) -> Option<String> {
        let error = outcome.err()?;
        self.out = None;
        Some(format!(
            "cannot write {}: {error}; that log stops there, the game goes on",
            self.path.display()
        ))
    }
}

/// How long a move's events wait at most for the next player's clock to
/// start, when the game's loop turns.
const HOLD_AT_MOST: Duration = Duration::from_secs(1);

pub(super) struct Sinks {
    started: tokio::time::Instant,
    /// The time of the journal's last event, for a resumed game: its times
    /// go on from there.
    earlier_ms: u64,
    /// The number of the last event handed on.
    seq: u64,
    pub game_started: bool,
    /// The result has been handed on: what follows is the epilogue.
    result_given: bool,
    json: bool,
    progress: bool,
    engine_stderr: bool,
    recorder: Recorder,
    subscribers: Vec<mpsc::UnboundedSender<EventBatch>>,
    /// Events for the subscribers, held until the move they belong to has
    /// been relayed ([`Sinks::hand_on_held`]): waking a subscriber's thread
    /// is never on a move's path.
    held: EventBatch,
    /// After a move, the held events wait for the next player's clock to
    /// start (a move's events end there: the move, its relay, the next
    /// request), for the result, or for a new phase: a move reaches the
    /// subscribers as one batch, and wakes their threads once. No timer
    /// backs the wait, as arming one for each move would wake the game's
    /// thread; one of those always follows a move.
    held_since: Option<Instant>,
    folder: Option<Folder>,
    records: Vec<Record>,
    /// The records are derived from the journal: a change is handed to
    /// them at most every [`DERIVED_GAP`], so the game's thread builds the
    /// text and wakes their writers no more often.
    derived_records: bool,
    records_saved_at: Option<Instant>,
    /// When a change the records have not been given is due to them.
    records_due: Option<Instant>,
    trace: Option<TraceFile>,
    stdout_told: bool,
    json_out: Option<JsonOut>,
    /// Where the game is published, for its `game_start`.
    published: Option<String>,
    /// When the report or the operator's input being handled arrived, for
    /// a move's referee share (a move held by a pause is taken at `resume`).
    pub arrived: Option<Instant>,
}

impl Sinks {
    /// Opens every output of a new game, or of one taken back from its
    /// folder: then the journal goes on from its last whole event, and every
    /// other output (the records, `--json`, `--trace`, the subscribers) is
    /// given the journal's events first, so that each holds the whole game.
    pub(super) fn open(
        config: &DriverConfig,
        folder: Option<GameFolder>,
        retold: Option<Retold>,
    ) -> Result<Sinks, DriverError> {
        if let (Some(sgf), Some(trace)) = (&config.sgf, &config.trace) {
            let (sgf_target, trace_target) = (
                resolve_output(sgf, Holds::SgfRecord).map_err(DriverError::Record)?,
                resolve_output(trace, Holds::JsonLines).map_err(DriverError::Trace)?,
            );
            if same_file(&sgf_target, &trace_target) {
                return Err(DriverError::Setup(format!(
                    "--sgf and --trace name the same file ({}); give each its own",
                    sgf.display()
                )));
            }
        }
        let mut recorder = Recorder::new(config.record.clone());
        recorder.plan(PlannedGame {
            size: config.game.size,
            komi: config.game.rules.komi,
            ruleset: config.game.rules.sgf_name().to_string(),
            black: config.black.to_string(),
            white: config.white.to_string(),
        });
        recorder.comment(format!(
            "Refereed by goref {} with rules {} (time {}).",
            env!("CARGO_PKG_VERSION"),
            config.game.rules.preset,
            config.game.rules.time
        ));
        let (history, resumed) = retold.map(|r| (r.history, r.told)).unzip();
        let history = history.unwrap_or_default();
        for stamped in &history {
            recorder.apply(&stamped.event);
        }
        let sync = match folder {
            Some(_) => Sync::AtTheEnd,
            None => Sync::EveryWrite,
        };
        let text = recorder.to_sgf();
        let record = |path: PathBuf| -> Result<Record, DriverError> {
            let file = RecordFile::create(&path, &text, sync).map_err(DriverError::Record)?;
            Ok(Record {
                path,
                file,
                failing: None,
                outcome: None,
            })
        };
        // The paths the user gave first: one that is refused takes back a
        // new game's folder before anything is written in it.
        let resuming = resumed.is_some();
        let given = (|| {
            let records: Vec<Record> = config
                .sgf
                .clone()
                .map(record)
                .transpose()?
                .into_iter()
                .collect();
            let trace = match &config.trace {
                Some(path) => Some(TraceFile::create(path).map_err(DriverError::Trace)?),
                None => None,
            };
            Ok((records, trace))
        })();
        let (mut records, trace) = match given {
            Ok(given) => given,
            Err(error) => {
                if let (Some(folder), false) = (folder, resuming) {
                    folder.discard();
                }
                return Err(error);
            }
        };
        let folder = match folder {
            Some(folder) if resuming => Some(reopen_folder(folder, config.journal_sync)?),
            Some(folder) => Some(open_folder(config, folder)?),
            None => None,
        };
        let folder = match folder {
            Some(made) => match record(made.folder.file(folder::RECORD)) {
                Ok(first) => {
                    records.insert(0, first);
                    Some(made)
                }
                Err(error) => {
                    if !resuming {
                        made.folder.discard();
                    }
                    return Err(error);
                }
            },
            None => None,
        };
        let header = serde_json::to_string(&StreamHeader::current()).expect("headers serialise");
        if let Some(trace) = &trace {
            trace.append(header.clone());
        }
        let mut json_out = config.json.then(JsonOut::start);
        let stdout_told = match &mut json_out {
            Some(out) => !out.send(0, header.clone()),
            None => false,
        };
        let mut sinks = Sinks {
            started: tokio::time::Instant::now(),
            earlier_ms: history.last().map_or(0, |e| e.t_ms),
            seq: history.last().map_or(0, |e| e.seq),
            game_started: history
                .iter()
                .any(|e| matches!(e.event, GameEvent::GameStart(_))),
            result_given: false,
            json: config.json,
            progress: config.progress,
            engine_stderr: config.engine_stderr,
            recorder,
            subscribers: config.subscribers.clone(),
            held: Vec::new(),
            held_since: None,
            folder,
            records,
            derived_records: sync == Sync::AtTheEnd,
            records_saved_at: None,
            records_due: None,
            trace,
            stdout_told,
            json_out,
            published: config.published.clone(),
            arrived: None,
        };
        match resumed {
            Some(resumed) => {
                sinks.retell(history);
                sinks.take(resumed);
                sinks.flush_folder();
            }
            None => {
                // Written now, synced with the first move: nothing before
                // it needs to survive a power cut but the configuration.
                if let Some(folder) = &mut sinks.folder {
                    folder.journal.append(&header);
                    folder.journal.flush();
                }
            }
        }
        sinks.take_journal_status();
        Ok(sinks)
    }

    /// The journal's events, told again to every output but the journal.
    fn retell(&mut self, history: Vec<StampedEvent>) {
        for stamped in history {
            let mut json = None;
            if (self.json && !self.stdout_told) || self.trace.is_some() {
                let line = serde_json::to_string(&stamped).expect("events always serialise");
                json = self.for_subscribers(&line);
                self.print(stamped.seq, line);
            }
            self.hand_on(stamped, json);
        }
    }

    /// Hands an event's line to `--json` and `--trace`; false when stdout
    /// has just been found closed.
    fn print(&mut self, seq: u64, line: String) -> bool {
        let sent = match (&mut self.json_out, self.stdout_told) {
            (Some(out), false) => out.send(seq, line.clone()),
            _ => true,
        };
        self.stdout_told |= !sent;
        if let Some(trace) = &self.trace {
            trace.append(line);
        }
        sent
    }

    /// An event's line, shared, when there is a subscriber to hand it to.
    fn for_subscribers(&self, line: &str) -> Option<Arc<str>> {
        (!self.subscribers.is_empty()).then(|| Arc::from(line))
    }

    /// Holds an event, and its JSON line when one was made, for every
    /// subscriber.
    fn hand_on(&mut self, stamped: StampedEvent, json: Option<Arc<str>>) {
        if self.subscribers.is_empty() {
            return;
        }
        let at = now();
        match &stamped.event {
            GameEvent::Move { .. } => self.held_since = Some(at),
            GameEvent::Clock { clock, .. } if clock.running => self.held_since = None,
            GameEvent::Result(_) | GameEvent::Phase { .. } => self.held_since = None,
            _ => {}
        }
        self.held.push(HandedOn { at, stamped, json });
    }

    /// Hands every event held to every subscriber, unless they wait for
    /// the move they belong to to be relayed ([`HOLD_AT_MOST`] at most, at
    /// the next turn of the game's loop after it).
    pub(crate) fn hand_on_held(&mut self) {
        if self
            .held_since
            .is_some_and(|since| now().saturating_duration_since(since) < HOLD_AT_MOST)
        {
            return;
        }
        self.hand_on_all();
    }

    /// Hands every event held to every subscriber, now.
    fn hand_on_all(&mut self) {
        self.held_since = None;
        if self.held.is_empty() {
            return;
        }
        if let Some((last, others)) = self.subscribers.split_last() {
            for subscriber in others {
                let _ = subscriber.send(self.held.clone());
            }
            let _ = last.send(std::mem::take(&mut self.held));
        }
    }

    /// The game's folder, when it has one.
    pub(super) fn folder(&self) -> Option<&std::path::Path> {
        self.folder.as_ref().map(|f| f.folder.path())
    }

    /// Hands on every event the referee has, and writes the journal.
    pub(super) fn drain(&mut self, referee: &mut Referee) {
        self.drain_holding(referee);
        self.hand_on_all();
    }

    /// [`Sinks::drain`], but the subscribers' events are held, for
    /// [`Sinks::hand_on_held`] once what the referee asked is sent.
    pub(crate) fn drain_holding(&mut self, referee: &mut Referee) {
        self.take_events(referee);
        self.flush_folder();
        self.take_record_status();
        self.take_trace_failure();
    }

    /// Hands on every event the referee has; the journal is written at the
    /// next [`Sinks::drain`], or at once for a move or a result.
    pub(crate) fn take_events(&mut self, referee: &mut Referee) {
        while let Some(event) = referee.poll_event() {
            self.take(event);
        }
    }

    /// Writes what the journal and the logs hold, without waiting for the
    /// disk, and turns a change in the journal's fate into an event.
    fn flush_folder(&mut self) {
        let Some(folder) = &mut self.folder else {
            return;
        };
        folder.journal.flush();
        let failures: Vec<String> = folder
            .stderr_logs
            .iter_mut()
            .flatten()
            .filter_map(LogFile::flush)
            .collect();
        for message in failures {
            self.take_error(message);
        }
        self.take_journal_status();
    }

    fn take_journal_status(&mut self) {
        let Some(folder) = &mut self.folder else {
            return;
        };
        let mut told = Vec::new();
        while let Some(status) = folder.journal.poll_status() {
            let path = folder.journal.path().display();
            told.push(match status {
                JournalStatus::Failing(error) => GameEvent::Error {
                    color: None,
                    message: format!(
                        "cannot write the journal {path}: {error}; the game goes on, goref keeps \
                         the events and writes them when it can, but until then a crash would \
                         lose them"
                    ),
                    fatal: false,
                },
                JournalStatus::Recovered => GameEvent::Notice {
                    color: None,
                    message: format!("the journal {path} is written again"),
                },
            });
        }
        for event in told {
            self.take(event);
        }
    }

    fn take_error(&mut self, message: String) {
        tracing::error!("{message}");
        self.take(GameEvent::Error {
            color: None,
            message,
            fatal: false,
        });
    }

    /// Turns the trace's first failed write into an event.
    fn take_trace_failure(&mut self) {
        let Some(trace) = &self.trace else { return };
        let Some(error) = trace.poll_failure() else {
            return;
        };
        let message = format!(
            "cannot write the trace {}: {error}; the trace stops there, the game goes on",
            trace.path.display()
        );
        self.take_error(message);
    }

    pub(super) fn take(&mut self, mut event: GameEvent) {
        let t_ms = self.earlier_ms + self.started.elapsed().as_millis() as u64;
        if let (GameEvent::Move { referee_us, .. }, Some(arrived)) = (&mut event, self.arrived) {
            let share = now().saturating_duration_since(arrived).as_micros();
            *referee_us = Some(u64::try_from(share).unwrap_or(u64::MAX));
        }
        if let GameEvent::GameStart(start) = &mut event {
            self.game_started = true;
            start.folder = self.folder().map(|path| path.display().to_string());
            start.published.clone_from(&self.published);
        }
        self.recorder.apply(&event);
        self.seq += 1;
        let stamped = StampedEvent {
            seq: self.seq,
            t_ms,
            after_result: self.result_given,
            event,
        };
        self.result_given |= matches!(stamped.event, GameEvent::Result(_));
        let mut told = Vec::new();
        let mut json = None;
        let wanted_on_stdout = self.json && !self.stdout_told;
        if wanted_on_stdout || self.trace.is_some() || self.folder.is_some() {
            let line = serde_json::to_string(&stamped).expect("events always serialise");
            json = self.for_subscribers(&line);
            if let Some(folder) = &mut self.folder {
                folder.journal.append(&line);
                match (&stamped.event, folder.sync) {
                    (GameEvent::Move { .. }, JournalSync::AtResult) => folder.journal.flush(),
                    (event, _) if relays_or_announces(event) => folder.journal.commit(),
                    _ => {}
                }
                if let Some(message) = folder.log_stderr(&stamped.event) {
                    told.push(GameEvent::Error {
                        color: None,
                        message,
                        fatal: false,
                    });
                }
            }
            if !self.print(stamped.seq, line) {
                told.push(GameEvent::Notice {
                    color: None,
                    message: "stdout is closed: the JSON events stop there; the game goes on"
                        .into(),
                });
            }
        }
        let needs_the_operator = matches!(
            stamped.event,
            GameEvent::Error { .. } | GameEvent::Notice { .. } | GameEvent::Prompt { .. }
        );
        if (self.progress || needs_the_operator) && !self.said_at_exit(&stamped.event) {
            if let Some(text) = progress_line(&stamped.event) {
                console::say(text);
            }
        }
        if let (true, Some((color, line))) = (self.engine_stderr, stderr_line(&stamped.event)) {
            console::say(format!("     {} stderr: {line}", color.letter()));
        }
        if changes_the_record(&stamped.event) {
            let at_once = matches!(stamped.event, GameEvent::Result(_));
            self.record_changed(now(), at_once);
        }
        self.hand_on(stamped, json);
        for event in told {
            self.take(event);
        }
    }

    /// Whether an event's progress line would repeat the one line goref
    /// prints when no game was played (`no game was played: REASON`): a
    /// fault that ends the set-up, the phase and the result it gives.
    fn said_at_exit(&self, event: &GameEvent) -> bool {
        !self.game_started
            && matches!(
                event,
                GameEvent::Error { fatal: true, .. }
                    | GameEvent::Phase {
                        phase: goref_core::referee::Phase::Over,
                        ..
                    }
                    | GameEvent::Result(_)
            )
    }

    /// The game changed what the records hold: they are given the new text
    /// now, or, for records derived from the journal, once [`DERIVED_GAP`]
    /// has passed since they were last given one.
    fn record_changed(&mut self, now: Instant, at_once: bool) {
        let due = self
            .records_saved_at
            .filter(|_| self.derived_records && !at_once)
            .map(|at| at + DERIVED_GAP);
        match due {
            Some(due) if now < due => self.records_due = Some(due),
            _ => self.save_records(now),
        }
    }

    fn save_records(&mut self, now: Instant) {
        self.records_due = None;
        self.records_saved_at = Some(now);
        let text = self.recorder.to_sgf();
        for record in &self.records {
            record.file.save(text.clone());
        }
    }

    /// When [`handle_timeout`](Self::handle_timeout) is next due: a change
    /// the records wait for.
    pub(crate) fn poll_timeout(&self) -> Option<Instant> {
        self.records_due
    }

    /// Gives the records the change they wait for, once it is due.
    pub(crate) fn handle_timeout(&mut self, now: Instant) {
        if self.records_due.is_some_and(|due| now >= due) {
            self.save_records(now);
        }
    }

    /// Turns a change in whether a record reaches the disk into an event.
    fn take_record_status(&mut self) {
        let mut told = Vec::new();
        for record in &mut self.records {
            while let Some(status) = record.file.poll_status() {
                let path = record.path.display();
                told.push(match status {
                    RecordStatus::Failing(error) => {
                        record.failing = Some(error.clone());
                        GameEvent::Error {
                            color: None,
                            message: format!(
                                "cannot write the record {path}: {error}; the game goes on, the \
                                 file keeps its last complete record, and goref tries again \
                                 after every move"
                            ),
                            fatal: false,
                        }
                    }
                    RecordStatus::Recovered => {
                        record.failing = None;
                        GameEvent::Notice {
                            color: None,
                            message: format!("the record {path} is written again"),
                        }
                    }
                });
            }
        }
        for event in told {
            self.take(event);
        }
    }

    /// Waits until the records' last texts are written, telling the stream
    /// whether they reached the disk.
    pub(crate) fn finish_record(&mut self) {
        if self.records_due.is_some() {
            self.save_records(now());
        }
        let mut told = Vec::new();
        for record in &mut self.records {
            if record.outcome.is_some() {
                continue;
            }
            let outcome = record.file.finish();
            if let Err(error) = &outcome {
                told.push(format!(
                    "the record {} is incomplete: {error}; it holds the game as it was at the \
                     last write that succeeded",
                    record.path.display()
                ));
            }
            record.outcome = Some(outcome);
        }
        self.take_record_status();
        for message in told {
            self.take_error(message);
        }
    }

    /// Finishes the records, the trace and the folder, and says which
    /// files are incomplete. The folder's manifest is written last, over
    /// the files as they stay.
    pub(super) fn finish(&mut self) -> Vec<String> {
        self.hand_on_all();
        self.finish_record();
        self.flush_folder();
        let mut incomplete = Vec::new();
        for record in &self.records {
            if let Some(Err(error)) = &record.outcome {
                incomplete.push(format!(
                    "the record {} is incomplete: {error}",
                    record.path.display()
                ));
            }
        }
        if let Some(trace) = &mut self.trace {
            if let Err(error) = trace.finish() {
                incomplete.push(format!(
                    "the trace {} is incomplete: {error}",
                    trace.path.display()
                ));
            }
        }
        if let Some(out) = &mut self.json_out {
            out.finish();
        }
        let decided = self.result_given;
        if let Some(folder) = &mut self.folder {
            incomplete.extend(folder.finish(decided));
        }
        incomplete
    }
}

/// A line a program wrote to its stderr, whatever protocol it speaks.
fn stderr_line(event: &GameEvent) -> Option<(&goref_core::game::Color, &String)> {
    match event {
        GameEvent::Gtp {
            color,
            direction: LineDirection::Stderr,
            line,
        }
        | GameEvent::Usenix {
            color,
            direction: LineDirection::Stderr,
            line,
            ..
        } => Some((color, line)),
        _ => None,
    }
}

impl Folder {
    /// Writes an engine's stderr line to its log; the error the first time
    /// the log cannot be written.
    fn log_stderr(&mut self, event: &GameEvent) -> Option<String> {
        let (color, line) = stderr_line(event)?;
        let slot = &mut self.stderr_logs[color.index()];
        if slot.is_none() {
            let (log, told) = LogFile::open(self.folder.file(&stderr_log(*color)));
            *slot = Some(log);
            if told.is_some() {
                return told;
            }
        }
        slot.as_mut()?.line(line)
    }

    /// Syncs the journal and the logs, and writes the manifest of a game
    /// with a result (one without stays open to `goref resume`); a line for
    /// each file that does not hold the whole game.
    fn finish(&mut self, decided: bool) -> Vec<String> {
        let mut incomplete = Vec::new();
        if let Err(error) = self.journal.finish() {
            incomplete.push(format!(
                "the journal {} is incomplete: {error}",
                self.journal.path().display()
            ));
        }
        for log in self.stderr_logs.iter_mut().flatten() {
            if let Some(out) = log.out.as_mut() {
                let _ = out.flush();
                let _ = out.get_ref().sync_data();
            }
        }
        if !decided {
            return incomplete;
        }
        if let Err(error) = manifest::write(self.folder.path()) {
            incomplete.push(format!(
                "the manifest {} is missing: {error}",
                self.folder.file(folder::MANIFEST).display()
            ));
        }
        incomplete
    }
}

/// Takes a game's folder back: its journal goes on from its last whole line.
fn reopen_folder(folder: GameFolder, sync: JournalSync) -> Result<Folder, DriverError> {
    let journal_path = folder.file(folder::JOURNAL);
    let journal = Journal::open(&journal_path)
        .map_err(|e| DriverError::Setup(format!("cannot write {}: {e}", journal_path.display())))?;
    Ok(Folder {
        folder,
        journal,
        sync,
        stderr_logs: [None, None],
    })
}

/// What a resumed game's journal held, told again to the other outputs,
/// and the `session` event that says so.
pub(super) struct Retold {
    pub history: Vec<StampedEvent>,
    pub told: GameEvent,
}

/// The `session` event that says a game was taken back, and from where.
pub(super) fn resumed_event(resume: &Resumption) -> GameEvent {
    let moves = resume.point.moves.len();
    let mut message = match resume.point.started {
        true => format!("goref resumed the game from its journal after move {moves}"),
        false => "goref resumed a game that had not started: it starts again".to_string(),
    };
    if let Some(down) = resume.down {
        message.push_str(&format!(
            "; it was down {}, charged to nobody",
            goref_core::game::clock::format_duration(Duration::from_secs(down.as_secs()))
        ));
    }
    if resume.cut_bytes > 0 {
        message.push_str(&format!(
            "; the journal's last line was cut short ({} bytes) and is left out",
            resume.cut_bytes
        ));
    }
    GameEvent::Session {
        what: SessionChange::Resumed,
        color: None,
        message,
        down_ms: resume.down.map(|d| d.as_millis() as u64),
    }
}

/// A new game's folder: its configuration written, its journal opened; a
/// folder that cannot be set up is discarded.
fn open_folder(config: &DriverConfig, folder: GameFolder) -> Result<Folder, DriverError> {
    let cannot = |path: &std::path::Path, e: std::io::Error| {
        DriverError::Setup(format!("cannot write {}: {e}", path.display()))
    };
    let config_path = folder.file(folder::CONFIG);
    let journal_path = folder.file(folder::JOURNAL);
    let opened =
        crate::files::write_atomically(&config_path, &super::game_file::game_file_text(config))
            .map_err(|e| cannot(&config_path, e))
            .and_then(|()| Journal::open(&journal_path).map_err(|e| cannot(&journal_path, e)));
    let journal = match opened {
        Ok(journal) => journal,
        Err(error) => {
            folder.discard();
            return Err(error);
        }
    };
    Ok(Folder {
        folder,
        journal,
        sync: config.journal_sync,
        stderr_logs: [None, None],
    })
}

/// Events that must be on disk before anyone hears of them: a move, which
/// is relayed next, and a result.
fn relays_or_announces(event: &GameEvent) -> bool {
    matches!(event, GameEvent::Move { .. } | GameEvent::Result(_))
}

/// Events after which the record is written again.
fn changes_the_record(event: &GameEvent) -> bool {
    matches!(
        event,
        GameEvent::GameStart(_)
            | GameEvent::Move { .. }
            | GameEvent::Result(_)
            | GameEvent::Error { fatal: true, .. }
    )
}
