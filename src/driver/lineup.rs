//! The game's two players: started, started again after a crash where the
//! rules allow it (`--restart-crashed`), and reached by the referee's
//! actions.

use tokio::sync::mpsc;

use super::DriverConfig;
use crate::players::{self, PlayerHandle, PlayerSetup, PlayerSpec, Report};
use goref_core::game::{Color, Move, Point};
use goref_core::protocol::sgmp::LineMemory;
use goref_core::referee::{Action, Failure, FailureKind, Referee};

pub(super) struct Lineup {
    pub players: Vec<PlayerHandle>,
    specs: [PlayerSpec; 2],
    setup: PlayerSetup,
    restarts_left: [u32; 2],
    restarts_done: [u32; 2],
    /// For the programs started again: the reports of the first ones.
    reports: mpsc::UnboundedSender<Report>,
}

impl Lineup {
    /// Starts both players, told `position` before they are asked to play.
    /// `lines`, for a game taken back once it had started: each side's GMP
    /// line as its trace left it.
    pub(super) fn start(
        config: &DriverConfig,
        handicap: Vec<Point>,
        position: Vec<(Color, Move)>,
        lines: Option<[Option<LineMemory>; 2]>,
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
            line: None,
            seats: config.seats.clone(),
            analysis: config.analysis,
        };
        let specs = [config.black.clone(), config.white.clone()];
        let restarts = config.game.rules.restart_crashed;
        let restarts_left = specs
            .clone()
            .map(|spec| if restartable(&spec) { restarts } else { 0 });
        let players = Color::BOTH
            .into_iter()
            .map(|color| {
                let spec = &specs[color.index()];
                let on_line =
                    matches!(spec, PlayerSpec::Line { .. } | PlayerSpec::BotOnLine { .. });
                let line = lines
                    .as_ref()
                    .filter(|_| on_line)
                    .map(|lines| lines[color.index()].clone().unwrap_or_default());
                let setup = PlayerSetup {
                    color,
                    line,
                    ..setup.clone()
                };
                players::spawn(&specs[color.index()], setup, reports.clone())
            })
            .collect();
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
    pub(super) fn send(&self, action: &Action) {
        for player in &self.players {
            if addressed_to(action, player.color) {
                let _ = player.actions.send(action.clone());
            }
        }
    }

    /// Starts `color`'s program again if it crashed while play goes on and
    /// it has restarts left; whether it did. The new program is told every
    /// move so far, and the referee asks it again what it asked before.
    pub(super) fn restart(
        &mut self,
        referee: &mut Referee,
        color: Color,
        failure: &Failure,
    ) -> bool {
        let i = color.index();
        let crashed = matches!(failure.kind, FailureKind::Crash { .. });
        if !crashed || self.restarts_left[i] == 0 || !referee.can_restart(color) {
            return false;
        }
        self.restarts_left[i] -= 1;
        self.start_again(referee, color, &failure.reason);
        true
    }

    /// The operator asks for `color`'s program to be started again (it
    /// hangs, it misbehaves): the running one is stopped, and a new one is
    /// told the position. Why not, when it cannot be.
    pub(crate) fn restart_on_request(
        &mut self,
        referee: &mut Referee,
        color: Color,
        reason: &str,
    ) -> Result<(), String> {
        if !restartable(&self.specs[color.index()]) {
            return Err(format!(
                "{color} is not a program goref starts itself ({}), so it cannot start it again",
                self.specs[color.index()]
            ));
        }
        if !referee.can_restart(color) {
            return Err("a program is started again only while the game is played".into());
        }
        if let Some(player) = self.players.iter().find(|p| p.color == color) {
            player.task.abort();
        }
        self.start_again(referee, color, &format!("the operator: {reason}"));
        Ok(())
    }

    fn start_again(&mut self, referee: &mut Referee, color: Color, why: &str) {
        let i = color.index();
        self.restarts_done[i] += 1;
        referee.restarting(color, why, self.restarts_done[i]);
        let setup = PlayerSetup {
            color,
            position: referee.moves().to_vec(),
            ..self.setup.clone()
        };
        let player = players::spawn(&self.specs[i], setup, self.reports.clone());
        if let Some(slot) = self.players.iter_mut().find(|p| p.color == color) {
            *slot = player;
        }
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
        Action::MainTimeUsed { color: c } => *c == color,
        Action::GameOver { .. } => true,
    }
}
