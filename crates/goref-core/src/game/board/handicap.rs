//! Fixed handicap placement (GTP §4.1.1) and who moves first after the
//! handicap stones.

use crate::game::coord::{Color, Point, MAX_SIZE, MIN_SIZE};

use super::BoardError;

pub(super) fn handicap_message(size: u8, stones: u8, max: u8) -> String {
    if max == 0 {
        format!(
            "no fixed handicap is defined on a {size}x{size} board \
             ({stones} stones requested; fixed handicap needs 7x7 or larger)"
        )
    } else {
        format!(
            "a fixed handicap of {stones} stones is not defined on a {size}x{size} board \
             (2 to {max} stones)"
        )
    }
}

/// The most stones `fixed_handicap` places on a board of this size (GTP §4.1.1).
pub(super) fn max_fixed_handicap(size: u8) -> u8 {
    if size < 7 {
        0
    } else if size == 7 || size.is_multiple_of(2) {
        4
    } else {
        9
    }
}

/// Who moves first in a game with these handicap stones on the board:
/// White once there are any, else Black.
pub fn first_to_move(handicap: &[Point]) -> Color {
    match handicap.is_empty() {
        true => Color::Black,
        false => Color::White,
    }
}

/// The GTP `fixed_handicap` placement: corner star points first (the lower
/// left and upper right, then upper left, lower right), then for 5, 7 and 9
/// stones the centre, for 6 to 9 the left and right side points, for 8 and 9
/// the lower and upper side points. The star points are on the third line
/// below 13x13 and on the fourth line from 13x13.
///
/// Defined for 2 to 9 stones on odd boards from 9x9, 2 to 4 stones on 7x7
/// and on even boards from 8x8; any other request is an error.
pub fn fixed_handicap(size: u8, stones: u8) -> Result<Vec<Point>, BoardError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(BoardError::Size(size));
    }
    let max = max_fixed_handicap(size);
    if stones < 2 || stones > max {
        return Err(BoardError::Handicap { size, stones, max });
    }
    let low = if size >= 13 { 3 } else { 2 };
    let high = size - 1 - low;
    let mid = size / 2;
    let corners = [(low, low), (high, high), (low, high), (high, low)];
    let mut placed: Vec<(u8, u8)> = corners[..usize::from(stones.min(4))].to_vec();
    if stones >= 6 {
        placed.extend([(low, mid), (high, mid)]);
    }
    if stones >= 8 {
        placed.extend([(mid, low), (mid, high)]);
    }
    if stones >= 5 && stones % 2 == 1 {
        placed.push((mid, mid));
    }
    Ok(placed
        .into_iter()
        .map(|(col, row)| Point::new(col, row))
        .collect())
}
