//! The game's two players: started, started again after a crash where the
//! rules allow it (`--restart-crashed`), and reached by the referee's
//! actions.

use tokio::sync::mpsc;

use super::DriverConfig;
use crate::game::{Color, Move, Point};
use crate::players::{self, PlayerHandle, PlayerSetup, PlayerSpec, Report};
use crate::referee::{Action, Failure, FailureKind, Referee};

pub(super) struct Lineup {
    pub players: Vec<PlayerHandle>,
    specs: [PlayerSpec; 2],
    setup: PlayerSetup,
    restarts_left: [u32; 2],
    restarts_done: [u32; 2],
    /// Kept while a program may still be started again; without it the
    /// reports end once both players have.
    reports: Option<mpsc::UnboundedSender<Report>>,
}

impl Lineup {
    /// Starts both players, told `position` before they are asked to play.
    pub fn start(
        config: &DriverConfig,
        handicap: Vec<Point>,
        position: Vec<(Color, Move)>,
        reports: mpsc::UnboundedSender<Report>,
    ) -> Lineup {
        let setup = PlayerSetup {
            color: Color::Black,
            size: config.game.size,
            rules: config.game.rules.clone(),
            handicap,
            command_timeout: config.command_timeout,
            self_exe: config.self_exe.clone(),
            position,
        };
        let specs = [config.black.clone(), config.white.clone()];
        let restarts = config.game.rules.restart_crashed;
        let restarts_left = specs
            .clone()
            .map(|spec| if restartable(&spec) { restarts } else { 0 });
        let players = Color::BOTH
            .into_iter()
            .map(|color| {
                let setup = PlayerSetup {
                    color,
                    ..setup.clone()
                };
                players::spawn(&specs[color.index()], setup, reports.clone())
            })
            .collect();
        let reports = restarts_left.iter().any(|n| *n > 0).then_some(reports);
        Lineup {
            players,
            specs,
            setup,
            restarts_left,
            restarts_done: [0, 0],
            reports,
        }
    }

    /// Hands an action to the players it is for.
    pub fn send(&self, action: &Action) {
        for player in &self.players {
            if addressed_to(action, player.color) {
                let _ = player.actions.send(action.clone());
            }
        }
    }

    /// Starts `color`'s program again if it crashed while play goes on and
    /// it has restarts left; whether it did. The new program is told every
    /// move so far, and the referee asks it again what it asked before.
    pub fn restart(&mut self, referee: &mut Referee, color: Color, failure: &Failure) -> bool {
        let i = color.index();
        let crashed = matches!(failure.kind, FailureKind::Crash { .. });
        let Some(reports) = &self.reports else {
            return false;
        };
        if !crashed || self.restarts_left[i] == 0 || !referee.can_restart(color) {
            return false;
        }
        self.restarts_left[i] -= 1;
        self.restarts_done[i] += 1;
        referee.restarting(color, &failure.reason, self.restarts_done[i]);
        let setup = PlayerSetup {
            color,
            position: referee.moves().to_vec(),
            ..self.setup.clone()
        };
        let player = players::spawn(&self.specs[i], setup, reports.clone());
        if let Some(slot) = self.players.iter_mut().find(|p| p.color == color) {
            *slot = player;
        }
        if self.restarts_left.iter().all(|n| *n == 0) {
            self.reports = None;
        }
        true
    }
}

/// A program goref starts itself, with a command line it can run again.
fn restartable(spec: &PlayerSpec) -> bool {
    matches!(spec, PlayerSpec::Gtp { .. } | PlayerSpec::Bot { .. })
}

fn addressed_to(action: &Action, color: Color) -> bool {
    match action {
        Action::RequestMove { color: c, .. } | Action::RequestDeadStones { color: c } => {
            *c == color
        }
        Action::TellMove { to, .. } => *to == color,
        Action::GameOver { .. } => true,
    }
}
