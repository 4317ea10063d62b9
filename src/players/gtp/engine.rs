//! The program a GTP player speaks to (a child process here, or a program
//! on its owner's machine through its seat, held until the player stops)
//! and the wait for a seat that was absent when its board started.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::seats::link::{SeatDesk, SeatLink};
use crate::shell_time::now;
use crate::transport::process::Process;
use goref_core::referee::{Action, Failure, PlayerEvent};

use super::super::Reporter;

/// The program a GTP player speaks to: a child process here, or a program
/// on its owner's machine through its seat.
pub(super) enum Engine {
    Local(Process),
    Seat(SeatHold),
}

/// A seat's link, given back to the desk when the player stops, however it
/// stops.
pub(super) struct SeatHold {
    pub(super) link: Option<SeatLink>,
    pub(super) desk: SeatDesk,
}

impl SeatHold {
    pub(super) fn link_mut(&mut self) -> &mut SeatLink {
        self.link.as_mut().expect("held until dropped")
    }

    pub(super) fn entrant(&self) -> &str {
        self.link.as_ref().map_or("", |link| link.entrant.as_str())
    }
}

impl Drop for SeatHold {
    fn drop(&mut self) {
        if let Some(link) = self.link.take() {
            self.desk.put(link);
        }
    }
}

impl Engine {
    pub(super) fn is_seat(&self) -> bool {
        matches!(self, Engine::Seat(_))
    }

    /// Whether the program may answer again after its output ended: a
    /// seat's link may come back and a seat restarts its own program, but
    /// a program kept by the runner that exited is gone for this game, as
    /// a local program is.
    pub(super) fn comes_back(&self) -> bool {
        match self {
            Engine::Seat(seat) => seat
                .link
                .as_ref()
                .is_some_and(|link| link.kept_exit.is_none()),
            Engine::Local(_) => false,
        }
    }

    pub(super) async fn read(&mut self) -> std::io::Result<Vec<u8>> {
        match self {
            Engine::Local(process) => process.read().await,
            Engine::Seat(seat) => seat.link_mut().read().await,
        }
    }

    pub(super) async fn write_line(
        &mut self,
        bytes: &[u8],
        who: &str,
        line: &str,
    ) -> Result<(), Failure> {
        match self {
            Engine::Local(process) => super::super::write_line(process, bytes, who, line).await,
            Engine::Seat(seat) => seat.link_mut().write(bytes).await.map_err(|_| {
                Failure::crash(
                    format!("{who} lost its seat before '{line}' could be sent"),
                    None,
                )
            }),
        }
    }

    /// The seat's own stamp of the program's thinking over the last answer.
    pub(super) fn seat_think(&self) -> Option<Duration> {
        match self {
            Engine::Seat(seat) => seat.link.as_ref()?.last_stamp.map(|(think, _)| think),
            Engine::Local(_) => None,
        }
    }

    pub(super) fn user_cpu_time(&self) -> Option<Duration> {
        match self {
            Engine::Local(process) => process.user_cpu_time(),
            Engine::Seat(_) => None,
        }
    }

    pub(super) async fn shut_down(&mut self, grace: Duration) {
        if let Engine::Local(process) = self {
            process.shut_down(grace).await;
        }
    }

    /// Why the program can no longer answer: its exit, or its seat's loss.
    pub(super) async fn gone(&mut self, why: impl FnOnce(String) -> String) -> Failure {
        match self {
            Engine::Local(process) => super::super::gone(process, why).await,
            Engine::Seat(seat) => match seat.link.as_ref().and_then(|l| l.kept_exit.clone()) {
                Some(exit) => Failure::crash(why(format!("exited ({exit})")), None),
                None => Failure::crash(why("lost its seat".into()), None),
            },
        }
    }
}

/// How the wait for an absent seat ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum SeatWait {
    Came,
    /// It came after its whole time, already reported late.
    CameAfterItsTime,
    Over,
}

/// Waits for a seat absent `since` its board started. Once its clock would
/// have fallen (`fallen`) the player is reported that late, which loses
/// the game on time; the end of the game ends the wait.
pub(super) async fn seat_comes(
    link: &mut SeatLink,
    (since, mut fallen): (std::time::Instant, Option<std::time::Instant>),
    actions: &mut mpsc::UnboundedReceiver<Action>,
    reporter: &Reporter,
) -> SeatWait {
    let mut told_late = false;
    loop {
        tokio::select! {
            admitted = link.wait_admitted(fallen) => match admitted {
                Ok(()) if told_late => return SeatWait::CameAfterItsTime,
                Ok(()) => return SeatWait::Came,
                Err(_) if fallen.is_some() => {
                    fallen = None;
                    told_late = true;
                    reporter.send(PlayerEvent::Late(now().saturating_duration_since(since)));
                }
                Err(why) => {
                    reporter.send(PlayerEvent::Failed(Failure::other(why)));
                    return SeatWait::Over;
                }
            },
            action = actions.recv() => match action {
                Some(Action::GameOver { .. }) | None => return SeatWait::Over,
                Some(_) => {}
            },
        }
    }
}
