//! One seated entrant as its player sees it: GTP bytes out and in, as a
//! local program's pipes would carry them, plus what only a seat says (its
//! stamps, its round trip, the operator's rights, a lost link).

use std::collections::VecDeque;
use std::time::Duration;

use tokio::sync::{mpsc, watch};

use crate::shell_time::now;
use crate::transport::process::StderrItem;
use goref_core::protocol::gtp::{format_response, parse_command_line};
use goref_core::protocol::seat::{is_move_request, ProgramState, Right};
use goref_core::referee::{EventBatch, GameEvent, SessionChange};

/// The client a program kept by the runner (`seats::local`) is admitted
/// as: its exit loses its game, as a local program's would.
pub(crate) const KEPT_CLIENT: &str = "kept by the runner";

/// What a seat's connection tells the player.
#[derive(Debug, Clone, PartialEq)]
pub enum SeatNews {
    /// A seat was admitted for the entrant (`client` is its own name).
    Admitted {
        client: String,
    },
    /// The program's response to the command in flight, with the seat's
    /// stamp of its thinking and the venue's own measure.
    Answer {
        text: String,
        think: Duration,
        venue_measure: Duration,
    },
    Output(String),
    Operator(Right),
    Program {
        state: ProgramState,
        detail: String,
    },
    RoundTrip(Duration),
    /// The connection is gone; `replaced` when a newer one took its place.
    Lost {
        why: String,
        replaced: bool,
    },
    /// The venue's own side went away (the event's runner stopped), and
    /// with it every seat: the time until the seat is back is nobody's.
    VenueAway(String),
    /// A line of the program's stderr, which the venue asked for.
    Stderr(String),
}

/// The links of every seated entrant of a game or an event, shared by the
/// players: a player takes its entrant's link while it plays and gives it
/// back when it stops, for the next game or a restarted player.
#[derive(Clone, Default)]
pub struct SeatDesk {
    links: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, SeatLink>>>,
}

impl std::fmt::Debug for SeatDesk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeatDesk")
    }
}

impl SeatDesk {
    pub fn put(&self, link: SeatLink) {
        let mut links = self.links.lock().expect("seat desk");
        links.insert(link.entrant.clone(), link);
    }

    pub fn take(&self, entrant: &str) -> Option<SeatLink> {
        self.links.lock().expect("seat desk").remove(entrant)
    }

    /// Whether the desk holds `entrant`'s link now.
    pub fn holds(&self, entrant: &str) -> bool {
        self.links.lock().expect("seat desk").contains_key(entrant)
    }
}

/// The most lines of a game's stream kept for a seat that connects late.
const HISTORY_KEPT: usize = 50_000;

/// One seat the feed serves: what its screen is told on each admission.
struct SeatFeed {
    to_seat: mpsc::UnboundedSender<ToSeat>,
    admitted: watch::Receiver<u64>,
    info: String,
}

/// Feeds the stream of a game to the seats of its seated players: a
/// subscriber of the game's events. Each seat, whenever it is admitted
/// (first or again), is told `info` (the game, its colour, the opponent)
/// and the game so far, every event but the protocol's lines, so that
/// its screen draws the whole game whenever it came.
pub fn stream_to_seats(links: &[(&SeatLink, String)]) -> mpsc::UnboundedSender<EventBatch> {
    let mut seats: Vec<SeatFeed> = links
        .iter()
        .map(|(link, info)| SeatFeed {
            to_seat: link.to_seat.clone(),
            admitted: link.admitted.clone(),
            info: info.clone(),
        })
        .collect();
    for seat in &mut seats {
        seat.admitted.mark_changed();
    }
    let (feed, mut batches) = mpsc::unbounded_channel::<EventBatch>();
    tokio::spawn(async move {
        let mut history: VecDeque<String> = VecDeque::new();
        loop {
            let (batch, woken) = tokio::select! {
                batch = batches.recv() => match batch {
                    Some(batch) => (batch, None),
                    None => return,
                },
                seat = admission(&mut seats) => (Vec::new(), Some(seat)),
            };
            for (n, seat) in seats.iter_mut().enumerate() {
                let changed = woken == Some(n) || seat.admitted.has_changed().unwrap_or(false);
                let admitted = changed && *seat.admitted.borrow_and_update() > 0;
                if admitted {
                    let _ = seat.to_seat.send(ToSeat::Info(seat.info.clone()));
                    for line in &history {
                        let _ = seat.to_seat.send(ToSeat::Stream(line.clone()));
                    }
                }
            }
            for handed in batch {
                let line = match handed.json {
                    Some(json) => json.to_string(),
                    None => match serde_json::to_string(&handed.stamped) {
                        Ok(line) => line,
                        Err(_) => continue,
                    },
                };
                for seat in &seats {
                    let _ = seat.to_seat.send(ToSeat::Stream(line.clone()));
                }
                let protocol_line = matches!(
                    handed.stamped.event,
                    GameEvent::Gtp { .. }
                        | GameEvent::Packet { .. }
                        | GameEvent::Usenix { .. }
                        | GameEvent::Cgos { .. }
                );
                if !protocol_line {
                    if history.len() == HISTORY_KEPT {
                        history.pop_front();
                    }
                    history.push_back(line);
                }
            }
        }
    });
    feed
}

/// Until a seat of `seats` is admitted (first or again): its index, its
/// change seen. Never when no seat can be any more.
async fn admission(seats: &mut [SeatFeed]) -> usize {
    let (which, changes): (Vec<usize>, Vec<_>) = seats
        .iter_mut()
        .enumerate()
        .filter(|(_, seat)| seat.admitted.has_changed().is_ok())
        .map(|(n, seat)| (n, Box::pin(seat.admitted.changed())))
        .unzip();
    if changes.is_empty() {
        return std::future::pending().await;
    }
    let (_, at, _) = futures_util::future::select_all(changes).await;
    which[at]
}

/// The program's answer, as the operator gave it, to the move request
/// `line`: `=ID resign`.
fn resignation(line: &str) -> Vec<u8> {
    let id = parse_command_line(line).and_then(|command| command.id);
    format_response(id, Ok("resign")).into_bytes()
}

/// What the player asks of the seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ToSeat {
    Command(String),
    /// A line of the game's stream, for the seat's screen.
    Stream(String),
    /// The game, the colour and the opponent, for the seat's screen.
    Info(String),
    /// No more games: the seat is told so and let go.
    Goodbye(String),
}

/// A seated entrant's link to its player.
pub struct SeatLink {
    pub entrant: String,
    pub(crate) to_seat: mpsc::UnboundedSender<ToSeat>,
    pub(crate) news: mpsc::UnboundedReceiver<SeatNews>,
    pub(crate) admitted: watch::Receiver<u64>,
    /// The operator asked the program to resign: the next move request is
    /// answered so without reaching the program.
    resign_asked: bool,
    made_up: VecDeque<Vec<u8>>,
    in_flight: Option<String>,
    /// The last answer's stamp: (the seat's think time, the venue's measure).
    pub last_stamp: Option<(Duration, Duration)>,
    pub round_trip: Option<Duration>,
    pub client: Option<String>,
    /// Notes for the game's stream: admissions, losses, the operator.
    pub notes: VecDeque<SeatNote>,
    lost_at: Option<std::time::Instant>,
    down: Option<Down>,
    /// The seat went down before a command the player wrote, which was
    /// therefore not sent: the next read says so.
    down_unread: bool,
    venue_away: bool,
    stderr: Option<mpsc::Sender<StderrItem>>,
    /// A program kept by the runner exited, how: the game has lost it, as
    /// a local program's end, and waits for no return.
    pub(crate) kept_exit: Option<String>,
}

/// Why a seat cannot answer for now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Down {
    Lost,
    ProgramExited,
}

/// What one piece of news means to the player.
enum Step {
    Bytes(Vec<u8>),
    Down,
    Back,
    Nothing,
}

/// What a seat's link has to tell the game's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatNote {
    Session(SessionChange, String),
    Info(String),
    /// The venue went away: the game is held until [`SeatNote::VenueBack`].
    VenueAway(String),
    VenueBack(String),
}

impl SeatLink {
    pub(crate) fn new(
        entrant: String,
        to_seat: mpsc::UnboundedSender<ToSeat>,
        news: mpsc::UnboundedReceiver<SeatNews>,
        admitted: watch::Receiver<u64>,
    ) -> SeatLink {
        SeatLink {
            entrant,
            to_seat,
            news,
            admitted,
            resign_asked: false,
            made_up: VecDeque::new(),
            in_flight: None,
            last_stamp: None,
            round_trip: None,
            client: None,
            notes: VecDeque::new(),
            lost_at: None,
            down: None,
            down_unread: false,
            venue_away: false,
            stderr: None,
            kept_exit: None,
        }
    }

    /// Where the program's stderr lines go, when the venue asks for them:
    /// the player's trace, as a local program's.
    pub(crate) fn send_stderr_to(&mut self, to: mpsc::Sender<StderrItem>) {
        self.stderr = Some(to);
    }

    /// Whether the seat can answer now: admitted, and neither lost nor its
    /// program gone.
    pub fn is_up(&self) -> bool {
        self.is_admitted() && self.down.is_none()
    }

    /// Whether a seat has been admitted for the entrant.
    pub fn is_admitted(&self) -> bool {
        *self.admitted.borrow() > 0
    }

    /// Waits until a seat has been admitted for the entrant, until `until`
    /// at most (for ever without it).
    pub async fn wait_admitted(&mut self, until: Option<std::time::Instant>) -> Result<(), String> {
        let wait = self.admitted.wait_for(|generation| *generation > 0);
        let timeout = crate::shell_time::sleep_until(until);
        tokio::select! {
            admitted = wait => admitted
                .map(|_| ())
                .map_err(|_| "the venue stopped taking seats".to_string()),
            _ = timeout => Err(format!("no seat connected for '{}'", self.entrant)),
        }
    }

    /// Sends a GTP command line, as a program's stdin would take it. What
    /// the seat already said is taken first: a seat that went down meanwhile
    /// (its program exited, and is perhaps already started again) is not
    /// sent a command meant for the program the player knew.
    pub async fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let line = String::from_utf8_lossy(bytes).trim_end().to_string();
        if self.resign_asked && is_move_request(&line) {
            self.resign_asked = false;
            self.made_up.push_back(resignation(&line));
            return Ok(());
        }
        if self.down_unread || self.went_down_meanwhile() {
            return Ok(());
        }
        self.in_flight = Some(line.clone());
        self.last_stamp = None;
        self.to_seat
            .send(ToSeat::Command(line))
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))
    }

    /// The next bytes the program wrote; empty when the link is gone or
    /// the program exited on its seat, as a pipe's end of file: the player
    /// then waits for it with [`SeatLink::wait_back`]. Cancel-safe.
    pub async fn read(&mut self) -> std::io::Result<Vec<u8>> {
        loop {
            if let Some(bytes) = self.made_up.pop_front() {
                return Ok(bytes);
            }
            if std::mem::take(&mut self.down_unread) {
                return Ok(Vec::new());
            }
            let Some(news) = self.news.recv().await else {
                return Ok(Vec::new());
            };
            match self.absorb(news) {
                Step::Bytes(bytes) => return Ok(bytes),
                Step::Down => return Ok(Vec::new()),
                Step::Back | Step::Nothing => {}
            }
        }
    }

    /// Waits until the seat is back after a [`SeatLink::read`] that found
    /// it gone: connected again, or its program started again. What the
    /// old connection still said is dropped. Cancel-safe.
    pub async fn wait_back(&mut self) -> Result<(), String> {
        self.made_up.clear();
        self.in_flight = None;
        self.down_unread = false;
        loop {
            let Some(news) = self.news.recv().await else {
                return Err("the venue stopped taking seats".into());
            };
            if let Step::Back = self.absorb(news) {
                return Ok(());
            }
        }
    }

    /// Takes the news already here, up to the seat going down: whether it
    /// did. What the program wrote before waits for the next read.
    fn went_down_meanwhile(&mut self) -> bool {
        while let Ok(news) = self.news.try_recv() {
            match self.absorb(news) {
                Step::Bytes(bytes) => self.made_up.push_back(bytes),
                Step::Down => {
                    self.down_unread = true;
                    return true;
                }
                Step::Back | Step::Nothing => {}
            }
        }
        false
    }

    fn go_down(&mut self) -> Step {
        match self.down.replace(Down::Lost) {
            Some(_) => Step::Nothing,
            None => Step::Down,
        }
    }

    fn absorb(&mut self, news: SeatNews) -> Step {
        match news {
            SeatNews::Answer {
                text,
                think,
                venue_measure,
            } => {
                if self.down.is_some() {
                    return Step::Nothing;
                }
                self.in_flight = None;
                self.last_stamp = Some((think, venue_measure));
                Step::Bytes(text.into_bytes())
            }
            SeatNews::Output(text) if self.down.is_none() => Step::Bytes(text.into_bytes()),
            SeatNews::Output(_) => Step::Nothing,
            SeatNews::RoundTrip(trip) => {
                self.round_trip = Some(trip);
                Step::Nothing
            }
            SeatNews::Stderr(line) => {
                if let Some(stderr) = &self.stderr {
                    let _ = stderr.try_send(StderrItem::Line(line));
                }
                Step::Nothing
            }
            SeatNews::Admitted { client } => {
                let note = match self.lost_at.take() {
                    Some(lost) => {
                        let back = format!(
                            "{}'s seat is back after {:.1} s ({client})",
                            self.entrant,
                            now().saturating_duration_since(lost).as_secs_f64()
                        );
                        match std::mem::take(&mut self.venue_away) {
                            true => SeatNote::VenueBack(back),
                            false => SeatNote::Session(SessionChange::SeatBack, back),
                        }
                    }
                    None => SeatNote::Session(
                        SessionChange::SeatIn,
                        format!("{}'s seat connected ({client})", self.entrant),
                    ),
                };
                self.notes.push_back(note);
                self.client = Some(client);
                match self.down.take() {
                    Some(_) => Step::Back,
                    None => Step::Nothing,
                }
            }
            SeatNews::Operator(Right::Resign) => {
                self.notes.push_back(SeatNote::Info(format!(
                    "{}'s operator has the program resign",
                    self.entrant
                )));
                match self.in_flight.take() {
                    Some(line) if is_move_request(&line) => Step::Bytes(resignation(&line)),
                    in_flight => {
                        self.in_flight = in_flight;
                        self.resign_asked = true;
                        Step::Nothing
                    }
                }
            }
            SeatNews::Operator(Right::Restart) => {
                self.notes.push_back(SeatNote::Info(format!(
                    "{}'s operator starts the program again",
                    self.entrant
                )));
                Step::Nothing
            }
            SeatNews::Program { state, detail } => {
                let what = match state {
                    ProgramState::Started => "started",
                    ProgramState::Exited => "exited",
                };
                self.notes.push_back(SeatNote::Info(format!(
                    "{}'s program {what} on its seat: {detail}",
                    self.entrant
                )));
                let kept = self.client.as_deref() == Some(KEPT_CLIENT);
                if kept && state == ProgramState::Exited {
                    self.kept_exit = Some(detail.clone());
                }
                match (state, self.down) {
                    (ProgramState::Exited, None) => {
                        self.down = Some(Down::ProgramExited);
                        Step::Down
                    }
                    (ProgramState::Started, Some(Down::ProgramExited)) => {
                        self.down = None;
                        Step::Back
                    }
                    _ => Step::Nothing,
                }
            }
            SeatNews::Lost { why, .. } => {
                self.lost_at.get_or_insert_with(now);
                self.notes.push_back(SeatNote::Session(
                    SessionChange::SeatLost,
                    format!("{}'s seat is lost: {why}", self.entrant),
                ));
                self.go_down()
            }
            SeatNews::VenueAway(why) => {
                self.lost_at.get_or_insert_with(now);
                self.venue_away = true;
                self.notes.push_back(SeatNote::VenueAway(format!(
                    "{}'s seat is out of reach: {why}; the game is held, its time charged to nobody",
                    self.entrant
                )));
                self.go_down()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> (
        SeatLink,
        mpsc::UnboundedReceiver<ToSeat>,
        mpsc::UnboundedSender<SeatNews>,
    ) {
        let (to_seat, sent) = mpsc::unbounded_channel();
        let (news_tx, news) = mpsc::unbounded_channel();
        let (_, admitted) = watch::channel(1);
        let link = SeatLink::new("alpha".into(), to_seat, news, admitted);
        (link, sent, news_tx)
    }

    fn program(state: ProgramState) -> SeatNews {
        SeatNews::Program {
            state,
            detail: "gnugo".into(),
        }
    }

    #[tokio::test]
    async fn a_command_written_after_the_program_exited_unread_is_not_sent_to_its_successor() {
        let (mut link, mut sent, news) = link();
        news.send(SeatNews::Output("= stray\n\n".into())).unwrap();
        news.send(program(ProgramState::Exited)).unwrap();
        news.send(program(ProgramState::Started)).unwrap();
        link.write(b"29 play white D4\n").await.unwrap();
        assert!(
            sent.try_recv().is_err(),
            "the new program was sent the old game's command"
        );
        assert_eq!(link.read().await.unwrap(), b"= stray\n\n");
        assert_eq!(link.read().await.unwrap(), b"", "the seat went down");
        link.wait_back().await.unwrap();
        link.write(b"1 boardsize 19\n").await.unwrap();
        assert_eq!(
            sent.try_recv().unwrap(),
            ToSeat::Command("1 boardsize 19".into())
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_seat_admitted_while_the_game_is_quiet_is_told_the_game_at_once() {
        let (to_seat, mut sent) = mpsc::unbounded_channel();
        let (_news_tx, news) = mpsc::unbounded_channel();
        let (admit, admitted) = watch::channel(0);
        let link = SeatLink::new("alpha".into(), to_seat, news, admitted);
        let _feed = stream_to_seats(&[(&link, "round 2 board 1".into())]);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(sent.try_recv().is_err(), "not admitted yet");
        let asked = tokio::time::Instant::now();
        admit.send(1).unwrap();
        let told = tokio::time::timeout(Duration::from_secs(5), sent.recv()).await;
        assert_eq!(told.unwrap(), Some(ToSeat::Info("round 2 board 1".into())));
        assert_eq!(
            asked.elapsed(),
            Duration::ZERO,
            "told on the admission, not on a later look"
        );
        admit.send(2).unwrap();
        let again = tokio::time::timeout(Duration::from_secs(5), sent.recv()).await;
        assert_eq!(again.unwrap(), Some(ToSeat::Info("round 2 board 1".into())));
    }

    #[tokio::test]
    async fn a_seat_that_stays_up_is_sent_every_command() {
        let (mut link, mut sent, news) = link();
        news.send(SeatNews::RoundTrip(Duration::from_millis(5)))
            .unwrap();
        link.write(b"1 name\n").await.unwrap();
        assert_eq!(sent.try_recv().unwrap(), ToSeat::Command("1 name".into()));
        news.send(SeatNews::Answer {
            text: "=1 GNU Go\n\n".into(),
            think: Duration::from_millis(1),
            venue_measure: Duration::from_millis(6),
        })
        .unwrap();
        assert_eq!(link.read().await.unwrap(), b"=1 GNU Go\n\n");
        assert_eq!(link.round_trip, Some(Duration::from_millis(5)));
    }
}
