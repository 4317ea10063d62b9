//! `--json` on stdout, written by a thread of its own so that the game loop
//! never waits for the reader.
//!
//! A reader that stalls (`goref ... | (sleep 5; cat)`) fills the pipe; the
//! loop then hands lines to a bounded queue and moves on. Should the queue
//! fill too, the events that do not fit are left out of stdout, and the next
//! line that fits is preceded by a marker naming the `seq` range left out:
//! `{"type":"stream_gap","first_seq":120,"last_seq":180}`. The trace file
//! and the record lose nothing either way.

use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::console;

/// Lines the queue holds before events are left out of stdout.
pub(crate) const QUEUE_LINES: usize = 20_000;

/// How long the end of the game waits for a stalled reader to take the rest.
const FINISH_WAIT: Duration = Duration::from_secs(10);

pub(crate) struct JsonOut {
    tx: Option<SyncSender<String>>,
    thread: Option<JoinHandle<()>>,
    /// The `seq` range left out and not yet marked.
    gap: Option<(u64, u64)>,
}

impl JsonOut {
    pub(super) fn start() -> JsonOut {
        Self::with_capacity(QUEUE_LINES)
    }

    fn with_capacity(lines: usize) -> JsonOut {
        let (tx, rx) = mpsc::sync_channel::<String>(lines);
        let thread = std::thread::Builder::new()
            .name("json-out".into())
            .spawn(move || {
                for line in rx {
                    if !console::out(&line) {
                        break;
                    }
                }
            })
            .ok();
        JsonOut {
            tx: Some(tx),
            thread,
            gap: None,
        }
    }

    /// Queues the line of event `seq`; false once stdout is closed.
    pub(super) fn send(&mut self, seq: u64, line: String) -> bool {
        let Some(tx) = &self.tx else { return false };
        if let Some((first, last)) = self.gap {
            let marker =
                format!(r#"{{"type":"stream_gap","first_seq":{first},"last_seq":{last}}}"#);
            match tx.try_send(marker) {
                Ok(()) => self.gap = None,
                Err(TrySendError::Full(_)) => {
                    self.gap = Some((first, seq));
                    return true;
                }
                Err(TrySendError::Disconnected(_)) => return false,
            }
        }
        match tx.try_send(line) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.gap = Some((seq, seq));
                true
            }
            Err(TrySendError::Disconnected(_)) => false,
        }
    }

    /// Lets the writer take what is queued, for a while at most.
    pub(super) fn finish(&mut self) {
        self.tx.take();
        if let Some(thread) = self.thread.take() {
            let deadline = std::time::Instant::now() + FINISH_WAIT;
            while !thread.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }
}

impl Drop for JsonOut {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_leaves_events_out_and_marks_the_gap() {
        let (tx, rx) = mpsc::sync_channel::<String>(2);
        let mut out = JsonOut {
            tx: Some(tx),
            thread: None,
            gap: None,
        };
        for seq in 1..=5 {
            assert!(out.send(seq, format!("event {seq}")));
        }
        assert_eq!(rx.try_recv().unwrap(), "event 1");
        assert_eq!(rx.try_recv().unwrap(), "event 2");
        assert!(out.send(6, "event 6".into()));
        assert_eq!(
            rx.try_recv().unwrap(),
            r#"{"type":"stream_gap","first_seq":3,"last_seq":5}"#
        );
        assert_eq!(rx.try_recv().unwrap(), "event 6");
        drop(rx);
        assert!(!out.send(7, "event 7".into()));
    }
}
