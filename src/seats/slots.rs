//! The entrants' slots that a listening door fills: each entrant's
//! [`SeatLink`] made once, and the connection that speaks for it now. A
//! newer connection for an entrant replaces the older (the way back after a
//! half-open link), the older told by whom. goref's own seats
//! ([`super::venue`]) and CGOS clients ([`super::cgos`]) fill them alike.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use super::link::{SeatLink, SeatNews, ToSeat};

struct Slot {
    commands: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<ToSeat>>>,
    news: mpsc::UnboundedSender<SeatNews>,
    admitted: watch::Sender<u64>,
    /// Closes the connection in the slot, naming the newer one that
    /// takes its place.
    current: Option<oneshot::Sender<String>>,
}

/// Every entrant's slot.
pub(crate) struct Slots {
    slots: Mutex<HashMap<String, Slot>>,
    /// Admitted connections still open.
    open: AtomicUsize,
}

/// An admitted connection's hold on its entrant's slot.
pub(crate) struct Claim {
    /// What the player asks of the seat; locked while this connection
    /// serves it.
    pub(crate) commands: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<ToSeat>>>,
    pub(crate) news: mpsc::UnboundedSender<SeatNews>,
    /// Fires with the newer connection's name when one takes the slot.
    pub(crate) replaced: oneshot::Receiver<String>,
}

impl Slots {
    /// A slot for each of `entrants`, and the links their players take.
    pub(crate) fn new<'a>(
        entrants: impl Iterator<Item = &'a str>,
    ) -> (Arc<Slots>, HashMap<String, SeatLink>) {
        let mut slots = HashMap::new();
        let mut links = HashMap::new();
        for entrant in entrants {
            let (to_seat, commands) = mpsc::unbounded_channel();
            let (news, news_rx) = mpsc::unbounded_channel();
            let (admitted, admitted_rx) = watch::channel(0);
            let link = SeatLink::new(entrant.to_string(), to_seat, news_rx, admitted_rx);
            links.insert(entrant.to_string(), link);
            let slot = Slot {
                commands: Arc::new(tokio::sync::Mutex::new(commands)),
                news,
                admitted,
                current: None,
            };
            slots.insert(entrant.to_string(), slot);
        }
        let slots = Slots {
            slots: Mutex::new(slots),
            open: AtomicUsize::new(0),
        };
        (Arc::new(slots), links)
    }

    /// Takes `entrant`'s slot for a connection just admitted (`newer`
    /// names it), sending away the one that held it.
    pub(crate) fn claim(&self, entrant: &str, newer: String) -> Result<Claim, String> {
        let (close_tx, replaced) = oneshot::channel();
        let mut slots = self.slots.lock().expect("seat slots");
        let slot = slots
            .get_mut(entrant)
            .ok_or("no slot for an admitted entrant")?;
        if let Some(older) = slot.current.replace(close_tx) {
            let _ = older.send(newer);
        }
        Ok(Claim {
            commands: slot.commands.clone(),
            news: slot.news.clone(),
            replaced,
        })
    }

    /// Tells `entrant`'s player its seat is in, once the connection holds
    /// the slot's commands.
    pub(crate) fn admit(&self, entrant: &str, client: String) {
        if let Some(slot) = self.slots.lock().expect("seat slots").get_mut(entrant) {
            slot.admitted.send_modify(|generation| *generation += 1);
            let _ = slot.news.send(SeatNews::Admitted { client });
        }
    }

    /// Counts an admitted connection as open while the guard lives.
    pub(crate) fn opened(&self) -> OpenConnection<'_> {
        self.open.fetch_add(1, Ordering::AcqRel);
        OpenConnection(&self.open)
    }

    /// Waits until no admitted connection is open, `limit` at most.
    pub(crate) async fn settled(&self, limit: Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        while self.open.load(Ordering::Acquire) > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// An admitted connection, counted as open while it lives.
pub(crate) struct OpenConnection<'a>(&'a AtomicUsize);

impl Drop for OpenConnection<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
