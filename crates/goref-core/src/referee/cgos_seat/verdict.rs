//! The CGOS server's verdict as goref's result.

use crate::game::Color;
use crate::referee::event::{End, GameResult};

/// The server's result as goref's: `W+15.0` is `W+15`, `B+Resign` `B+R`,
/// `W+Time` `W+T`, `W+Illegal` and other forfeits `W+F`.
pub fn verdict(result: &str) -> GameResult {
    let Some((winner, how)) = result.split_once('+') else {
        let end = match result {
            "Draw" | "0" | "Jigo" => End::DoublePassCleanup,
            _ => End::Unknown,
        };
        let text = if end == End::Unknown { "?" } else { "0" };
        return GameResult::new(text.into(), String::new(), None, end);
    };
    let winner_color = match winner {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    };
    let letter = winner.to_ascii_uppercase();
    let (text, end) = match how.to_ascii_lowercase().as_str() {
        "resign" | "r" => (format!("{letter}+R"), End::Resign),
        "time" | "t" => (format!("{letter}+T"), End::Time),
        "illegal" => (format!("{letter}+F"), End::ForfeitIllegalMove),
        _ => match how.parse::<f64>() {
            Ok(points) => (format!("{letter}+{points}"), End::DoublePassCleanup),
            Err(_) => (format!("{letter}+F"), End::ForfeitFailure),
        },
    };
    GameResult::new(text, String::new(), winner_color, end)
}
