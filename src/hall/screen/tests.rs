//! The screen loop's pure parts: what a signal and a lost terminal do, the
//! screen's desk, and the loop headless with a runner that shows and ends.

use super::*;

#[test]
fn sigterm_and_ctrl_c_leave_with_their_names() {
    for hangup in [Hangup::Stops, Hangup::PlaysOn] {
        assert_eq!(
            on_signal(Received::Stop("SIGTERM"), hangup),
            Turn::Leave(Leaving::Terminated)
        );
        assert_eq!(
            on_signal(Received::Stop("SIGINT (Ctrl-C)"), hangup),
            Turn::Leave(Leaving::Interrupted)
        );
        assert_eq!(
            on_signal(Received::Stop("SIGQUIT"), hangup),
            Turn::Leave(Leaving::Interrupted)
        );
    }
    assert_eq!(Leaving::Terminated.reason(), "goref received SIGTERM");
    assert_eq!(
        Leaving::Interrupted.reason(),
        "goref received SIGINT (Ctrl-C)"
    );
}

#[test]
fn a_hangup_stops_the_runner_or_leaves_it_playing_as_the_screen_says() {
    assert_eq!(
        on_signal(Received::Hangup, Hangup::Stops),
        Turn::Leave(Leaving::HungUp)
    );
    assert_eq!(on_signal(Received::Hangup, Hangup::PlaysOn), Turn::Detach);
    assert_eq!(
        on_hangup(Hangup::Stops, Leaving::TerminalLost),
        Turn::Leave(Leaving::TerminalLost)
    );
    assert_eq!(
        on_hangup(Hangup::PlaysOn, Leaving::TerminalLost),
        Turn::Detach
    );
    assert_eq!(Leaving::HungUp.reason(), "the terminal hung up");
    assert_eq!(Leaving::TerminalLost.reason(), "the terminal went away");
}

#[test]
fn leaving_stands_for_the_signal_the_event_runner_is_stopped_with() {
    assert_eq!(Leaving::Quit.signal(), 0);
    assert_eq!(Leaving::Interrupted.signal(), libc::SIGINT);
    assert_eq!(Leaving::Terminated.signal(), libc::SIGTERM);
    assert_eq!(Leaving::HungUp.signal(), libc::SIGHUP);
    assert_eq!(Leaving::TerminalLost.signal(), libc::SIGHUP);
}

/// A screen's desk and the screen's side of it.
fn desk() -> (
    ScreenDesk<u32, ()>,
    Counter,
    mpsc::UnboundedReceiver<RunnerNote<u32, ()>>,
) {
    let (notes, notes_rx) = mpsc::unbounded_channel();
    let (answers_tx, answers) = std_mpsc::channel();
    let stop = Arc::new(Mutex::new(None));
    let desk = ScreenDesk {
        notes,
        answers: Mutex::new(answers),
        stop: Arc::clone(&stop),
    };
    let counter = Counter {
        answers: Some(answers_tx),
        stop,
        leaving: false,
    };
    (desk, counter, notes_rx)
}

#[test]
fn the_screens_desk_hears_the_answer_then_waits_then_stops_once_its_player_leaves() {
    let (desk, mut counter, _notes) = desk();
    let shown = vec!["round 2: confirm?".to_string()];
    assert_eq!(desk.stop_asked(), None);
    counter.answer("yes".into());
    assert_eq!(
        desk.ask_within(shown.clone(), Duration::ZERO),
        Asked::Answer("yes".into())
    );
    assert_eq!(
        desk.ask_within(shown.clone(), Duration::ZERO),
        Asked::NotYet
    );
    counter.leave(Leaving::Quit);
    assert!(counter.leaving);
    assert_eq!(desk.ask_within(shown.clone(), Duration::ZERO), Asked::Quit);
    assert_eq!(desk.ask(shown), None);
    assert_eq!(
        desk.stop_asked().as_deref(),
        Some("the screen was left with q")
    );
}

#[test]
fn the_screens_desk_hands_on_lines_and_pictures_but_not_standings() {
    let (desk, _counter, mut notes) = desk();
    assert!(desk.wants_pictures());
    desk.say("round 1 begins".into());
    desk.standings(vec!["1. gnugo 2".into()]);
    desk.show(7);
    assert!(matches!(notes.try_recv(), Ok(RunnerNote::Said(line)) if line == "round 1 begins"));
    assert!(matches!(notes.try_recv(), Ok(RunnerNote::Picture(picture)) if *picture == 7));
    assert!(notes.try_recv().is_err());
}

/// A screen that keeps what it was told.
struct Kept {
    hall: HallScreen,
    view: HallView,
    pictures: Vec<u32>,
    ended: Vec<Result<u32, String>>,
    left: Vec<Leaving>,
}

impl Kept {
    fn new() -> Kept {
        Kept {
            hall: HallScreen::new(crate::ui::Role::Operator, Default::default()),
            view: HallView::default(),
            pictures: Vec::new(),
            ended: Vec::new(),
            left: Vec::new(),
        }
    }
}

impl ScreenState for Kept {
    type Picture = u32;
    type End = Result<u32, String>;

    fn drawn(&mut self) -> (&mut HallScreen, &HallView) {
        (&mut self.hall, &self.view)
    }

    fn said(&mut self, _line: String) {}

    fn picture(&mut self, picture: u32, _boards: &BoardNotes) {
        self.pictures.push(picture);
    }

    fn board_note(&mut self, _board: u32, _note: BoardNote) {}

    fn key(&mut self, _key: Key) -> Vec<Told> {
        Vec::new()
    }

    fn leave(&mut self, why: Leaving) {
        self.left.push(why);
    }

    fn ended(&mut self, end: &Result<u32, String>) {
        self.ended.push(end.clone());
    }

    fn closes_on(&self, _end: &Result<u32, String>) -> bool {
        true
    }

    fn went_away(&self) -> Result<u32, String> {
        Err("the runner went away".into())
    }
}

#[tokio::test]
async fn headless_the_runners_pictures_come_before_its_end() {
    let mut kept = Kept::new();
    let end = run(&mut kept, Shown::Headless, "runner", None, |desk| {
        for picture in 1..=3 {
            desk.show(picture);
        }
        Ok(3)
    })
    .await;
    assert_eq!(end, Ok(Ok(3)));
    assert_eq!(kept.pictures, [1, 2, 3]);
    assert_eq!(kept.ended, [Ok(3)]);
    assert!(kept.left.is_empty());
}

#[tokio::test]
async fn a_runner_that_dies_without_an_end_went_away() {
    let mut kept = Kept::new();
    let end = run(&mut kept, Shown::Headless, "runner", None, |_desk| {
        std::panic::resume_unwind(Box::new("the runner broke"))
    })
    .await;
    assert_eq!(end, Ok(Err("the runner went away".into())));
    assert!(kept.ended.is_empty());
}
