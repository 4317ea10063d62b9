//! One spectator's connection, once the gate admitted it: its hello
//! answered with a snapshot, then the game's lines written with a deadline
//! (small ones batched into one write), a fresh snapshot when it fell
//! behind, and its `bye`.

use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::sync::broadcast;

use crate::shell_time::now;
use goref_core::referee::{OperatorInput, SessionChange};

use super::super::conn::{Conn, ConnRead, ConnWrite};
use super::super::gate::Refusal;
use super::super::hub::CatchUp;
use super::super::lines::{LineError, LineReader};
use super::super::wire::{RefereeMessage, SpectatorMessage, SPECTATOR_LINE_LIMIT};
use super::{attached_notice, lock, Shared, BATCH_BYTES};

pub(super) fn bye(reason: &str, retry: bool) -> String {
    RefereeMessage::Bye {
        reason: reason.to_string(),
        retry,
    }
    .line()
}

/// Where a spectator's lines go: written with a deadline, small lines
/// batched into one write.
struct Outbox {
    write: ConnWrite,
    batch: Vec<u8>,
    timeout: Duration,
}

/// A write that did not finish in time, or failed.
struct Stalled(String);

impl Outbox {
    async fn send(&mut self, line: &str) -> Result<(), Stalled> {
        self.flush().await?;
        self.write_all(line.as_bytes()).await
    }

    fn queue(&mut self, line: &str) {
        self.batch.extend_from_slice(line.as_bytes());
    }

    async fn flush(&mut self) -> Result<(), Stalled> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        let written = self.write_all(&batch).await;
        self.batch = batch;
        self.batch.clear();
        if self.batch.capacity() > BATCH_BYTES * 2 {
            self.batch.shrink_to(BATCH_BYTES);
        }
        written
    }

    async fn write_all(&mut self, bytes: &[u8]) -> Result<(), Stalled> {
        match tokio::time::timeout(self.timeout, self.write.write_all(bytes)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Stalled(format!("closed ({e})"))),
            Err(_) => Err(Stalled(format!(
                "too slow: a write took over {:.1}s",
                self.timeout.as_secs_f64()
            ))),
        }
    }
}

/// Serves one spectator until it goes; whether it had joined, and why it
/// went.
pub(super) async fn spectate(conn: Conn, peer: &str, shared: &Shared) -> (bool, String) {
    let limits = &shared.limits;
    let (read, write) = conn.into_split();
    let mut reader = LineReader::new(read, SPECTATOR_LINE_LIMIT);
    let mut out = Outbox {
        write,
        batch: Vec::new(),
        timeout: limits.send_timeout,
    };
    let hello = match tokio::time::timeout(limits.hello_within, reader.next_line()).await {
        Err(_) => Err(format!(
            "no hello within {}s",
            limits.hello_within.as_secs_f64()
        )),
        Ok(Ok(None)) => return (false, "closed before hello".into()),
        Ok(Ok(Some(line))) => match SpectatorMessage::parse(&line) {
            Ok(SpectatorMessage::Hello {
                version,
                token,
                stream,
                since_seq,
            }) => Ok((version, token, stream, since_seq)),
            Ok(_) => Err("the first line must be a hello".into()),
            Err(e) => Err(e.to_string()),
        },
        Ok(Err(e)) => Err(e.to_string()),
    };
    let (version, token, stream, since_seq) = match hello {
        Ok(hello) => hello,
        Err(why) => {
            lock(&shared.audience).refused();
            let _ = out.send(&bye(&why, false)).await;
            return (false, why);
        }
    };
    let checked = lock(&shared.gate).check_hello(version, token.as_deref());
    if let Err(refusal) = checked {
        if refusal == Refusal::WrongToken {
            tokio::time::sleep(limits.wrong_token_delay).await;
        }
        lock(&shared.audience).refused();
        let _ = out.send(&bye(&refusal.to_string(), refusal.retry())).await;
        return (false, refusal.to_string());
    }
    match shared.operator {
        Some(_) => shared.session(SessionChange::Attached, attached_notice(peer)),
        None => lock(&shared.audience).joined(peer.to_string()),
    }
    let why = follow(&mut out, &mut reader, shared, stream.as_deref(), since_seq).await;
    (true, why)
}

/// Sends a joined spectator the game and then every event, answers its
/// pings, and watches its silence; why it ended.
async fn follow(
    out: &mut Outbox,
    reader: &mut LineReader<ConnRead>,
    shared: &Shared,
    stream: Option<&str>,
    since_seq: Option<u64>,
) -> String {
    let limits = &shared.limits;
    let (join, mut events) = {
        let mut hub = lock(&shared.hub);
        (
            hub.join(stream, since_seq, now()),
            shared.events.subscribe(),
        )
    };
    let mut shutdown = shared.shutdown.clone();
    let caught_up = async {
        out.send(&join.welcome).await?;
        match &join.catch_up {
            CatchUp::Snapshot(line) => out.send(line).await,
            CatchUp::Events(lines) => {
                for line in lines {
                    out.queue(line);
                    if out.batch.len() >= BATCH_BYTES {
                        out.flush().await?;
                    }
                }
                out.flush().await
            }
        }
    };
    if let Err(Stalled(why)) = caught_up.await {
        return why;
    }
    let mut lags: Vec<Instant> = Vec::new();
    let mut idle_until = tokio::time::Instant::now() + limits.idle;
    loop {
        tokio::select! {
            biased;
            received = events.recv() => {
                let fell_behind = match received {
                    Ok(line) => {
                        out.queue(&line);
                        let mut fell_behind = false;
                        while out.batch.len() < BATCH_BYTES {
                            match events.try_recv() {
                                Ok(line) => out.queue(&line),
                                Err(broadcast::error::TryRecvError::Lagged(_)) => {
                                    fell_behind = true;
                                    break;
                                }
                                Err(_) => break,
                            }
                        }
                        if let Err(Stalled(why)) = out.flush().await {
                            return why;
                        }
                        fell_behind
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => true,
                    Err(broadcast::error::RecvError::Closed) => return "the mirror closed".into(),
                };
                if fell_behind {
                    let at = now();
                    lags.retain(|t| at.saturating_duration_since(*t) < limits.lag_window);
                    lags.push(at);
                    if lags.len() > limits.max_lags {
                        let why = format!(
                            "too slow: fell behind {} times in {}s",
                            lags.len(),
                            limits.lag_window.as_secs()
                        );
                        let _ = out.send(&bye(&why, true)).await;
                        return why;
                    }
                    let snapshot = {
                        let mut hub = lock(&shared.hub);
                        events = shared.events.subscribe();
                        hub.snapshot()
                    };
                    if let Err(Stalled(why)) = out.send(&snapshot).await {
                        return why;
                    }
                }
            }
            line = tokio::time::timeout_at(idle_until, reader.next_line()) => {
                let message = match line {
                    Err(_) => {
                        let why = format!("silent for {}s", limits.idle.as_secs());
                        let _ = out.send(&bye(&why, true)).await;
                        return why;
                    }
                    Ok(Ok(None)) => return "closed".into(),
                    Ok(Ok(Some(line))) => SpectatorMessage::parse(&line).map_err(LineError::from),
                    Ok(Err(e)) => Err(e),
                };
                idle_until = tokio::time::Instant::now() + limits.idle;
                match message {
                    Ok(SpectatorMessage::Ping { t_ms }) => {
                        let pong = RefereeMessage::Pong {
                            t_ms,
                            host_t_ms: lock(&shared.hub).host_t_ms(now()),
                        }
                        .line();
                        if let Err(Stalled(why)) = out.send(&pong).await {
                            return why;
                        }
                    }
                    Ok(SpectatorMessage::Bye) => return "left".into(),
                    Ok(SpectatorMessage::Command { line }) => {
                        let Some(operator) = &shared.operator else {
                            let why = "a spectator cannot send commands".to_string();
                            let _ = out.send(&bye(&why, false)).await;
                            return why;
                        };
                        let size = lock(&shared.hub).size();
                        if let Some(input) = OperatorInput::from_line(&line, size) {
                            let _ = operator.send(input);
                        }
                    }
                    Ok(SpectatorMessage::Hello { .. }) => {
                        let why = "a second hello".to_string();
                        let _ = out.send(&bye(&why, false)).await;
                        return why;
                    }
                    Err(e) => {
                        let why = e.to_string();
                        let _ = out.send(&bye(&why, false)).await;
                        return why;
                    }
                }
            }
            _ = shutdown.changed() => {
                while let Ok(line) = events.try_recv() {
                    out.queue(&line);
                }
                let _ = out.flush().await;
                let _ = out.send(&bye("the referee is shutting down", true)).await;
                return "the referee shut down".into();
            }
        }
    }
}
