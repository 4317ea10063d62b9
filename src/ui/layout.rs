//! Where each pane goes, from the screen's size, the board's size and the
//! zoom: the layout as data, chosen by breakpoints.
//!
//! ```text
//! Wide (120x30 and up)                 Standard (80x24 with 19x19)
//! ┌status──────────────────────────┐   ┌status────────────────────────┐
//! │board     │clocks     │trace    │   │board         │clocks         │
//! │          │time chart │         │   │              │trace          │
//! │          │end of game│         │   │(time chart,  │               │
//! │          │moves      │         │   │ small boards)│moves / end    │
//! │alert                           │   │alert                         │
//! └hints───────────────────────────┘   └hints─────────────────────────┘
//!
//! Board only (narrower than board + 30 columns): the board and the clocks
//! under it when there is room. Too small: a screen that names the size
//! needed, where `q` still works.
//! ```
//!
//! Every pane has a title row; zoom gives one pane the whole body.

use ratatui::layout::Rect;

use goref_core::referee::{GameView, Phase};

use super::board::BoardPane;
use super::state::{PaneId, UiState};

/// The narrowest right-hand column worth drawing beside the board.
const SIDE_MIN_WIDTH: u16 = 30;
/// From this size up, the clocks, the chart and the trace get columns of
/// their own.
const WIDE: (u16, u16) = (120, 30);

/// The breakpoint a screen falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Breakpoint {
    Wide,
    Standard,
    BoardOnly,
    /// Too small for the board: the screen names the size it needs.
    TooSmall {
        width: u16,
        height: u16,
    },
}

/// The rectangles of one frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Areas {
    pub breakpoint: Breakpoint,
    pub status: Rect,
    /// The panes, each with its title row included.
    pub panes: Vec<(PaneId, Rect)>,
    /// The row of the oldest unacknowledged alert, when there is one: above
    /// the hints, or over them when the board leaves no row to spare.
    pub alert: Option<Rect>,
    pub hints: Rect,
}

impl Areas {
    pub(crate) fn pane(&self, id: PaneId) -> Option<Rect> {
        self.panes.iter().find(|(p, _)| *p == id).map(|(_, r)| *r)
    }
}

/// The smallest screen the board of `size` fits, with the status and hint
/// rows and the board's title.
pub(crate) fn minimum_size(size: u8) -> (u16, u16) {
    let (width, height) = BoardPane::size_needed(size);
    (width, height + 3)
}

/// Lays out a frame of `area`.
pub(crate) fn areas(area: Rect, view: &GameView, state: &UiState) -> Areas {
    let (min_width, min_height) = minimum_size(view.size);
    let status = Rect { height: 1, ..area };
    let hints = Rect {
        y: area.bottom().saturating_sub(1),
        height: 1,
        ..area
    };
    if area.width < min_width || area.height < min_height {
        return Areas {
            breakpoint: Breakpoint::TooSmall {
                width: min_width,
                height: min_height,
            },
            status,
            panes: Vec::new(),
            alert: None,
            hints,
        };
    }
    let alerting = view
        .alerts
        .back()
        .is_some_and(|a| a.n > state.alerts_acknowledged);
    let mut body = Rect {
        y: area.y + 1,
        height: area.height - 2,
        ..area
    };
    let alert = match (alerting, body.height >= min_height - 1) {
        (false, _) => None,
        (true, true) => {
            body.height -= 1;
            Some(Rect {
                y: body.bottom(),
                height: 1,
                ..body
            })
        }
        (true, false) if state.question.is_none() => Some(hints),
        (true, false) => None,
    };
    let breakpoint = if area.width >= WIDE.0 && area.height >= WIDE.1 {
        Breakpoint::Wide
    } else if area.width >= min_width + SIDE_MIN_WIDTH {
        Breakpoint::Standard
    } else {
        Breakpoint::BoardOnly
    };
    let panes = match state.zoom {
        Some(pane) => vec![(pane, body)],
        None => match breakpoint {
            Breakpoint::Wide => wide(body, view),
            Breakpoint::Standard => standard(body, view),
            _ => board_only(body, view),
        },
    };
    Areas {
        breakpoint,
        status,
        panes,
        alert,
        hints,
    }
}

/// Whether the end of the game has begun, so its pane matters more than
/// the move list.
fn scoring(view: &GameView) -> bool {
    matches!(
        view.phase,
        Phase::DeadStones | Phase::Cleanup | Phase::Adjudication
    ) || view.agreement.claims.iter().any(Option::is_some)
        || !view.agreement.marked.is_empty()
}

/// The board's column: exactly as wide as the board with its title row.
fn split_board(body: Rect, view: &GameView) -> (Rect, Rect) {
    let (width, _) = BoardPane::size_needed(view.size);
    let board = Rect {
        width: width.min(body.width),
        ..body
    };
    let rest = Rect {
        x: board.right() + 1,
        width: body.width.saturating_sub(board.width + 1),
        ..body
    };
    (board, rest)
}

/// Cuts `rows` rows off the top of `area`.
fn take_top(area: &mut Rect, rows: u16) -> Rect {
    let rows = rows.min(area.height);
    let top = Rect {
        height: rows,
        ..*area
    };
    area.y += rows;
    area.height -= rows;
    top
}

fn standard(body: Rect, view: &GameView) -> Vec<(PaneId, Rect)> {
    let (mut board_column, mut side) = split_board(body, view);
    let (_, board_height) = BoardPane::size_needed(view.size);
    let board = take_top(&mut board_column, board_height + 1);
    let clocks = take_top(&mut side, 3);
    let analysed = view.has_analysis();
    let winrate_beside = analysed && board_column.height < 6;
    let winrate = take_top(&mut side, if winrate_beside { 5 } else { 0 });
    let lower = if scoring(view) {
        (PaneId::Agreement, 8)
    } else {
        (PaneId::Moves, 5)
    };
    let trace_rows = side.height.saturating_sub(lower.1).max(side.height / 2);
    let trace = take_top(&mut side, trace_rows);
    let mut panes = vec![
        (PaneId::Board, board),
        (PaneId::Clocks, clocks),
        (PaneId::Trace, trace),
        (lower.0, side),
    ];
    if winrate_beside {
        panes.push((PaneId::Winrate, winrate));
    } else if analysed && board_column.height >= 12 {
        let chart_rows = board_column.height / 2;
        panes.push((PaneId::Winrate, take_top(&mut board_column, chart_rows)));
    } else if analysed {
        panes.push((PaneId::Winrate, board_column));
        return panes;
    }
    if board_column.height >= 6 {
        panes.push((PaneId::TimeChart, board_column));
    }
    panes
}

fn wide(body: Rect, view: &GameView) -> Vec<(PaneId, Rect)> {
    let (board, rest) = split_board(body, view);
    let middle_width = (rest.width / 2).clamp(SIDE_MIN_WIDTH, 60);
    let mut middle = Rect {
        width: middle_width,
        ..rest
    };
    let trace = Rect {
        x: middle.right() + 1,
        width: rest.width.saturating_sub(middle_width + 1),
        ..rest
    };
    let (mut board_column, mut panes) = (body, Vec::new());
    board_column.width = board.width;
    let (_, board_height) = BoardPane::size_needed(view.size);
    panes.push((PaneId::Board, take_top(&mut board_column, board_height + 1)));
    let clocks = take_top(&mut middle, 3);
    let chart = take_top(&mut middle, 9);
    let winrate_rows = if view.has_analysis() { 7 } else { 2 };
    let winrate = take_top(&mut middle, winrate_rows);
    let agreement_rows = if scoring(view) { 9 } else { 5 };
    let agreement = take_top(&mut middle, agreement_rows);
    panes.extend([
        (PaneId::Clocks, clocks),
        (PaneId::TimeChart, chart),
        (PaneId::Winrate, winrate),
        (PaneId::Agreement, agreement),
        (PaneId::Moves, middle),
        (PaneId::Trace, trace),
    ]);
    if board_column.height >= 4 {
        let moves = panes.iter_mut().find(|(p, _)| *p == PaneId::Moves);
        if let Some((_, moves)) = moves {
            if moves.height < 4 {
                *moves = board_column;
            }
        }
    }
    panes
}

fn board_only(body: Rect, view: &GameView) -> Vec<(PaneId, Rect)> {
    let (_, board_height) = BoardPane::size_needed(view.size);
    let mut rest = body;
    let board = take_top(&mut rest, board_height + 1);
    let mut panes = vec![(PaneId::Board, board)];
    if rest.height >= 3 {
        panes.push((PaneId::Clocks, take_top(&mut rest, 3)));
    }
    if rest.height >= 3 {
        panes.push((PaneId::Trace, rest));
    }
    panes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::state::Role;

    fn view(size: u8) -> GameView {
        let mut view = GameView::new();
        view.size = size;
        view.board = vec![None; usize::from(size) * usize::from(size)];
        view
    }

    fn overlaps(a: Rect, b: Rect) -> bool {
        a.intersects(b) && !a.is_empty() && !b.is_empty()
    }

    #[test]
    fn a_19x19_board_fits_80x24_beside_the_clocks_and_the_trace() {
        let areas = areas(
            Rect::new(0, 0, 80, 24),
            &view(19),
            &UiState::new(Role::Operator),
        );
        assert_eq!(areas.breakpoint, Breakpoint::Standard);
        let board = areas.pane(PaneId::Board).unwrap();
        assert_eq!((board.width, board.height), (44, 22), "title and 21 rows");
        for id in [PaneId::Clocks, PaneId::Trace, PaneId::Moves] {
            let pane = areas.pane(id).unwrap();
            assert!(pane.width >= 30 && pane.height >= 3, "{id:?} {pane:?}");
        }
    }

    #[test]
    fn panes_never_overlap_and_stay_inside_the_screen() {
        for (width, height) in [
            (80, 24),
            (100, 30),
            (120, 30),
            (200, 60),
            (50, 30),
            (44, 24),
        ] {
            for size in [9, 13, 19] {
                let screen = Rect::new(0, 0, width, height);
                let areas = areas(screen, &view(size), &UiState::new(Role::Operator));
                let mut rects: Vec<Rect> = areas.panes.iter().map(|(_, r)| *r).collect();
                rects.push(areas.status);
                rects.push(areas.hints);
                rects.extend(areas.alert.filter(|a| *a != areas.hints));
                for (i, a) in rects.iter().enumerate() {
                    assert_eq!(screen.intersection(*a), *a, "{width}x{height} {a:?}");
                    for b in &rects[i + 1..] {
                        assert!(!overlaps(*a, *b), "{width}x{height} {size}: {a:?} {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn wide_screens_give_every_pane_a_place() {
        let areas = areas(
            Rect::new(0, 0, 200, 60),
            &view(19),
            &UiState::new(Role::Operator),
        );
        assert_eq!(areas.breakpoint, Breakpoint::Wide);
        for id in PaneId::ALL {
            assert!(areas.pane(id).is_some(), "{id:?}");
        }
    }

    #[test]
    fn below_the_board_the_screen_names_what_it_needs() {
        let areas = areas(
            Rect::new(0, 0, 40, 20),
            &view(19),
            &UiState::new(Role::Operator),
        );
        assert_eq!(
            areas.breakpoint,
            Breakpoint::TooSmall {
                width: 44,
                height: 24
            }
        );
        assert!(areas.panes.is_empty());
    }

    #[test]
    fn an_alert_never_takes_a_row_the_board_needs() {
        let mut view = view(19);
        view.alerts.push_back(goref_core::referee::view::Alert {
            n: 1,
            message: "White crashed".into(),
        });
        let state = UiState::new(Role::Operator);
        let tight = areas(Rect::new(0, 0, 80, 24), &view, &state);
        assert_eq!(tight.pane(PaneId::Board).unwrap().height, 22);
        assert_eq!(tight.alert, Some(tight.hints), "over the hints");
        let roomy = areas(Rect::new(0, 0, 80, 30), &view, &state);
        assert_eq!(
            roomy.alert,
            Some(Rect::new(0, 28, 80, 1)),
            "above the hints"
        );
        let mut asking = UiState::new(Role::Spectator);
        asking.question = Some("resign? y: yes".into());
        let tight = areas(Rect::new(0, 0, 80, 24), &view, &asking);
        assert_eq!(tight.alert, None, "a question keeps the hint bar");
    }

    #[test]
    fn zoom_gives_one_pane_the_whole_body() {
        let mut state = UiState::new(Role::Operator);
        state.zoom = Some(PaneId::Trace);
        let areas = areas(Rect::new(0, 0, 80, 24), &view(19), &state);
        assert_eq!(areas.panes, vec![(PaneId::Trace, Rect::new(0, 1, 80, 22))]);
    }
}
