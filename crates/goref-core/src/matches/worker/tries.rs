//! A pair's try that still lives when the broker hands its job out again.
//! While a worker plays a pair it says so on the pair's `goref-alive`
//! subject (`playing TRY`), every sixth of the ack deadline; once the
//! pair's result is stored it says `reported TRY`, and `gone TRY` when it
//! hands the pair back. The broker keeps the newest word of each pair for
//! half the ack deadline. A worker reads that word before it plays a job
//! (and, just after its link to the broker came back, looks again while
//! there is none, for as long as [`super::look_after_return`] says): a try
//! heard playing keeps its pair, for a broker killed and started again may
//! hand out every job held, as new, though their workers play on and are
//! heard again as soon as they connect; and a pair already reported is
//! taken off the queue.

use std::time::Duration;

/// How long a worker's word that it plays a pair holds: half the
/// consumer's `ack_wait`, so that a worker silent for the whole deadline
/// (whose job the broker hands out again) is never heard as alive.
pub fn alive_for(ack_wait: Duration) -> Duration {
    (ack_wait / 2).max(Duration::from_millis(100))
}

/// What a worker says of the pair it holds.
pub(super) fn playing(try_id: &str) -> String {
    format!("playing {try_id}")
}

pub(super) fn reported(try_id: &str) -> String {
    format!("reported {try_id}")
}

pub(super) fn gone(try_id: &str) -> String {
    format!("gone {try_id}")
}

/// What to do with a job handed out again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redelivered {
    /// No try is heard of: play it.
    Play,
    /// The try named still plays it, its worker heard within half the ack
    /// deadline: hand the job back, to be offered again later.
    LeaveWith(String),
    /// The try named stored the pair's result: take the job off the queue.
    Drop(String),
}

/// The rule, from the newest word said of the pair within half the ack
/// deadline, if any.
pub(super) fn on_redelivery(word: Option<&[u8]>) -> Redelivered {
    let Some(text) = word.and_then(|w| std::str::from_utf8(w).ok()) else {
        return Redelivered::Play;
    };
    match text.split_once(' ') {
        Some(("playing", try_id)) if !try_id.is_empty() => {
            Redelivered::LeaveWith(try_id.to_string())
        }
        Some(("reported", try_id)) if !try_id.is_empty() => Redelivered::Drop(try_id.to_string()),
        _ => Redelivered::Play,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_try_heard_playing_keeps_its_pair_and_a_reported_one_drops_the_job() {
        let word = |text: String| on_redelivery(Some(text.as_bytes()));
        assert_eq!(on_redelivery(None), Redelivered::Play);
        assert_eq!(
            word(playing("box-1-1700")),
            Redelivered::LeaveWith("box-1-1700".into())
        );
        assert_eq!(
            word(reported("box-1-1700")),
            Redelivered::Drop("box-1-1700".into())
        );
        assert_eq!(word(gone("box-1-1700")), Redelivered::Play);
        for junk in ["", "playing", "playing ", "resting box", "\u{0}"] {
            assert_eq!(word(junk.into()), Redelivered::Play, "{junk:?}");
        }
        assert_eq!(on_redelivery(Some(&[0xff, 0xfe])), Redelivered::Play);
    }

    #[test]
    fn a_word_holds_for_half_the_ack_deadline_and_never_less_than_a_tenth_of_a_second() {
        assert_eq!(alive_for(Duration::from_secs(60)), Duration::from_secs(30));
        assert_eq!(
            alive_for(Duration::from_millis(50)),
            Duration::from_millis(100)
        );
    }
}
