//! One entrant's seat for the whole event, in the runner: whether it is
//! connected, its check card (run through the seat the first time it
//! connects, the CGF's preliminary system testing), and the board it is
//! joined to now.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

use super::board_news::{clock_text, BoardWriter, SeatBoard, ToBoard};
use super::link::{SeatDesk, SeatLink, SeatNews, ToSeat};
use goref_core::protocol::gtp::parse_command_line;
use goref_core::protocol::seat::{encode, ProgramState};
use goref_core::tournament::hall::SeatPicture;

/// The folder of the seats' cards, in the keys folder: `NAME.txt`, whose
/// first line is the card's summary.
pub const CARDS_FOLDER: &str = "cards";

/// A check of a seated entrant's program through its seat, as the event
/// gives it (the check is a layer above the seats): the link is in the
/// desk, under the entrant's name, and goes back there when the check ends.
pub type SeatChecker = Arc<
    dyn Fn(SeatDesk, String) -> Pin<Box<dyn Future<Output = CheckedCard> + Send>> + Send + Sync,
>;

/// What a seat's check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedCard {
    /// A few words for the director: `ready`, `2 failures, 1 warning`.
    pub summary: String,
    /// The program's name and version as it gave them.
    pub program: Option<String>,
    /// The card as `goref check` prints it.
    pub text: String,
}

/// The cards of an event's seats: how to check, and where the cards go.
#[derive(Clone)]
pub struct Cards {
    pub checker: SeatChecker,
    pub folder: PathBuf,
}

/// A board attached to its entrant's keeper: its commands come in with its
/// number, so that a replaced board's are dropped.
pub(super) enum ToKeeper {
    Board(u64, BoardWriter),
    Command(u64, String),
    Stream(u64, String),
    Info(u64, String),
    /// The board's goref went away (its game is over, or it stopped).
    Gone(u64),
    /// The event is over: the seat is told so and let go.
    Goodbye(String),
}

type Checking = Pin<Box<dyn Future<Output = CheckedCard> + Send>>;

struct Keeper {
    entrant: String,
    /// The link, but while the check has it in `desk`.
    link: Option<SeatLink>,
    desk: SeatDesk,
    connected: Option<String>,
    attached: Option<(u64, BoardWriter)>,
    /// A board that came during the check: joined once it is over.
    waiting: Option<(u64, BoardWriter)>,
    /// The command the board asked last, for the program's name and version.
    asked: Option<String>,
    /// A board's command is with the seat, unanswered.
    in_flight: bool,
    /// The answer to come is to a board that went away: it is dropped,
    /// not handed to the board that took its place.
    stale_answer: bool,
    pictures: SeatBoard,
    cards: Option<Cards>,
    card_done: bool,
}

/// Keeps one entrant's seat for the whole event. `unchecked`: the seat is
/// never checked here (a CGOS client, whose program the venue cannot
/// reach), and its card says why.
pub(super) async fn keep(
    link: SeatLink,
    mut boards: mpsc::UnboundedReceiver<ToKeeper>,
    pictures: SeatBoard,
    cards: Option<Cards>,
    unchecked: Option<&'static str>,
) {
    let entrant = link.entrant.clone();
    let card = cards.as_ref().and_then(|cards| {
        crate::files::read_text(&card_path(cards, &entrant), crate::files::SETTINGS_MAX).ok()
    });
    let card_summary = card
        .as_ref()
        .and_then(|text| text.lines().next().map(str::to_string))
        .or(unchecked.map(str::to_string));
    let card_program = card.as_ref().and_then(|text| card_program(text));
    let mut keeper = Keeper {
        entrant,
        link: Some(link),
        desk: SeatDesk::default(),
        connected: None,
        attached: None,
        waiting: None,
        asked: None,
        in_flight: false,
        stale_answer: false,
        pictures,
        cards,
        card_done: card_summary.is_some(),
    };
    keeper.update(&|p| {
        p.card = card_summary.clone();
        p.program = card_program.clone();
    });
    let mut checking: Option<Checking> = None;
    loop {
        tokio::select! {
            news = next_news(&mut keeper.link) => {
                let Some(news) = news else { return };
                keeper.hear(news).await;
                if checking.is_none() {
                    checking = keeper.start_check();
                }
            }
            card = async { checking.as_mut().expect("polled while checking").await }, if checking.is_some() => {
                checking = None;
                if !keeper.checked(card).await {
                    return;
                }
            }
            order = boards.recv() => match order {
                Some(order) => {
                    keeper.order(order).await;
                    if checking.is_none() {
                        checking = keeper.start_check();
                    }
                }
                None => return,
            },
        }
    }
}

async fn next_news(link: &mut Option<SeatLink>) -> Option<SeatNews> {
    match link {
        Some(link) => link.news.recv().await,
        None => std::future::pending().await,
    }
}

/// The program's name and version a kept card gives (`program: ...`, under
/// its summary), so that a runner started again knows them too.
fn card_program(card: &str) -> Option<String> {
    card.lines()
        .take(3)
        .find_map(|line| line.strip_prefix(PROGRAM_LINE))
        .map(str::to_string)
}

/// How a card names the program it checked, on its second line.
const PROGRAM_LINE: &str = "program: ";

fn card_path(cards: &Cards, entrant: &str) -> PathBuf {
    cards
        .folder
        .join(CARDS_FOLDER)
        .join(format!("{entrant}.txt"))
}

impl Keeper {
    fn update(&self, change: &dyn Fn(&mut SeatPicture)) {
        if let Some(picture) = self
            .pictures
            .lock()
            .expect("seat board")
            .get_mut(&self.entrant)
        {
            change(picture);
        }
    }

    async fn hear(&mut self, news: SeatNews) {
        match &news {
            SeatNews::Admitted { client } => {
                self.connected = Some(client.clone());
                self.update(&|p| {
                    p.connected = true;
                    p.since = Some(clock_text());
                    p.client = Some(client.clone());
                });
            }
            SeatNews::Lost {
                replaced: false, ..
            } => {
                (self.in_flight, self.stale_answer) = (false, false);
                self.connected = None;
                self.update(&|p| {
                    p.connected = false;
                    p.since = Some(clock_text());
                    p.rtt_ms = None;
                });
            }
            SeatNews::Program {
                state: ProgramState::Exited,
                ..
            } => (self.in_flight, self.stale_answer) = (false, false),
            SeatNews::RoundTrip(trip) => {
                let ms = trip.as_millis() as u64;
                self.update(&|p| {
                    let old = p.rtt_ms.unwrap_or(u64::MAX / 2);
                    if ms.abs_diff(old) > (old / 5).max(2) {
                        p.rtt_ms = Some(ms);
                    }
                });
            }
            SeatNews::Answer { .. } if std::mem::take(&mut self.stale_answer) => {
                self.in_flight = false;
                return;
            }
            SeatNews::Answer { text, .. } => {
                self.in_flight = false;
                let said = text
                    .trim()
                    .trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                    .trim();
                match self.asked.take().as_deref() {
                    Some("name") => self.update(&|p| p.program = Some(said.to_string())),
                    Some("version") => self.update(&|p| {
                        let name = p.program.clone().unwrap_or_default();
                        if !name.ends_with(said) {
                            p.program = Some(format!("{name} {said}").trim().to_string());
                        }
                    }),
                    _ => {}
                }
            }
            _ => {}
        }
        if let Some((_, writer)) = &mut self.attached {
            if writer
                .write_all(&encode(&ToBoard::from(news)))
                .await
                .is_err()
            {
                self.attached = None;
            }
        }
    }

    /// The check, once the seat is in, no board plays it (before its first
    /// game, or after the game it first connected for), and it has no card
    /// yet: the link goes to the desk meanwhile.
    fn start_check(&mut self) -> Option<Checking> {
        let cards = self.cards.as_ref()?;
        if self.card_done || self.connected.is_none() || self.attached.is_some() {
            return None;
        }
        self.send(ToSeat::Info(format!(
            "{}: the venue checks the program before its first game (goref check's card)",
            self.entrant
        )));
        let link = self.link.take()?;
        self.desk.put(link);
        self.update(&|p| {
            p.checking = true;
            p.card = Some("checking…".into());
        });
        Some((cards.checker)(self.desk.clone(), self.entrant.clone()))
    }

    /// The check is over: the card kept, the link back, and a board that
    /// came meanwhile joined. False when the link did not come back.
    async fn checked(&mut self, card: CheckedCard) -> bool {
        self.card_done = true;
        let Some(link) = self.desk.take(&self.entrant) else {
            tracing::error!(entrant = %self.entrant, "the seat's link did not come back from its check");
            return false;
        };
        if !link.is_up() {
            self.connected = None;
        }
        self.link = Some(link);
        if let Some(cards) = &self.cards {
            let path = card_path(cards, &self.entrant);
            let program = card.program.as_ref().map_or(String::new(), |program| {
                format!("{PROGRAM_LINE}{program}\n")
            });
            let text = format!("{}\n{program}\n{}\n", card.summary, card.text);
            let written = std::fs::create_dir_all(cards.folder.join(CARDS_FOLDER))
                .and_then(|()| crate::files::write_atomically(&path, &text));
            if let Err(e) = written {
                tracing::warn!(path = %path.display(), "cannot keep the seat's card: {e}");
            }
        }
        self.update(&|p| {
            p.checking = false;
            p.card = Some(card.summary.clone());
            if card.program.is_some() {
                p.program = card.program.clone();
            }
        });
        if let Some((board, writer)) = self.waiting.take() {
            self.join(board, writer).await;
        }
        true
    }

    async fn order(&mut self, order: ToKeeper) {
        let current = |board: &u64, attached: &Option<(u64, BoardWriter)>| {
            attached.as_ref().is_some_and(|(now, _)| now == board)
        };
        match order {
            ToKeeper::Board(board, writer) if self.link.is_none() => {
                self.waiting = Some((board, writer));
            }
            ToKeeper::Board(board, writer) => self.join(board, writer).await,
            ToKeeper::Command(board, line) if current(&board, &self.attached) => {
                self.in_flight = true;
                self.asked = parse_command_line(&line).map(|command| command.name);
                self.send(ToSeat::Command(line));
            }
            ToKeeper::Stream(board, line) if current(&board, &self.attached) => {
                self.send(ToSeat::Stream(line));
            }
            ToKeeper::Info(board, text) if current(&board, &self.attached) => {
                self.send(ToSeat::Info(text));
            }
            ToKeeper::Goodbye(reason) => self.send(ToSeat::Goodbye(reason)),
            ToKeeper::Gone(board) => {
                if current(&board, &self.attached) {
                    self.attached = None;
                }
                if current(&board, &self.waiting) {
                    self.waiting = None;
                }
            }
            _ => {}
        }
    }

    fn send(&self, order: ToSeat) {
        if let Some(link) = &self.link {
            let _ = link.to_seat.send(order);
        }
    }

    async fn join(&mut self, board: u64, mut writer: BoardWriter) {
        if let Some(client) = &self.connected {
            let hello = ToBoard::Admitted {
                client: client.clone(),
            };
            if writer.write_all(&encode(&hello)).await.is_err() {
                return;
            }
        }
        self.stale_answer = std::mem::take(&mut self.in_flight);
        self.attached = Some((board, writer));
    }
}
