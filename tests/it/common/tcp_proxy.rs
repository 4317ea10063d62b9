//! A TCP proxy of the tests' own that puts the faults a real network has on
//! a link, on demand: a delay each way, a link cut, and a half-open link
//! (the connections through it go silent without closing, as when a router
//! between loses them, while new connections get through).

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// One connection through the proxy: its two sockets and whether it went
/// silent.
struct Path {
    sockets: [TcpStream; 2],
    silent: Arc<AtomicBool>,
}

/// The proxy, listening on `port` and forwarding to its target.
pub(crate) struct Proxy {
    pub port: u16,
    paths: Arc<Mutex<Vec<Path>>>,
}

impl Proxy {
    /// Forwards each connection to `target`, each byte `delay` late each way.
    pub(crate) fn start(target: SocketAddr, delay: Duration) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let paths: Arc<Mutex<Vec<Path>>> = Arc::default();
        let shared = paths.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(target) else {
                    continue;
                };
                let silent = Arc::new(AtomicBool::new(false));
                pump(
                    client.try_clone().unwrap(),
                    server.try_clone().unwrap(),
                    delay,
                    &silent,
                );
                pump(
                    server.try_clone().unwrap(),
                    client.try_clone().unwrap(),
                    delay,
                    &silent,
                );
                shared.lock().unwrap().push(Path {
                    sockets: [client, server],
                    silent,
                });
            }
        });
        Proxy { port, paths }
    }

    pub(crate) fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Every connection so far goes silent both ways and stays open; new
    /// connections get through.
    pub(crate) fn go_half_open(&self) {
        for path in self.paths.lock().unwrap().iter() {
            path.silent.store(true, Ordering::SeqCst);
        }
    }

    /// Every connection so far is closed at once.
    pub(crate) fn cut(&self) {
        for path in self.paths.lock().unwrap().drain(..) {
            for socket in &path.sockets {
                let _ = socket.shutdown(Shutdown::Both);
            }
        }
    }

    /// How many connections have come through.
    pub(crate) fn connections(&self) -> usize {
        self.paths.lock().unwrap().len()
    }
}

/// Copies `from` to `to`, each chunk `delay` after it was read, until
/// either closes; once `silent`, what is read is dropped.
fn pump(mut from: TcpStream, mut to: TcpStream, delay: Duration, silent: &Arc<AtomicBool>) {
    let (tx, rx) = mpsc::channel::<(Instant, Vec<u8>)>();
    let silent_reader = silent.clone();
    std::thread::spawn(move || {
        let mut buffer = vec![0u8; 16 * 1024];
        loop {
            match from.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) if !silent_reader.load(Ordering::SeqCst) => {
                    let _ = tx.send((Instant::now() + delay, buffer[..n].to_vec()));
                }
                Ok(_) => {}
            }
        }
    });
    let silent_writer = silent.clone();
    std::thread::spawn(move || {
        for (due, bytes) in rx {
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
            if silent_writer.load(Ordering::SeqCst) {
                continue;
            }
            if to.write_all(&bytes).is_err() {
                break;
            }
        }
        if !silent_writer.load(Ordering::SeqCst) {
            let _ = to.shutdown(Shutdown::Write);
        }
    });
}
