//! A real `nats-server -js` on loopback for the tests, its store in a
//! folder of its own so that a restart finds its streams again.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use super::{free_port, wait_until};

/// A `nats-server -js` on a free loopback port, its store in a folder of
/// its own so that a restart finds the stream again.
pub(crate) struct Broker {
    pub port: u16,
    store: tempfile::TempDir,
    server: Option<Child>,
}

impl Broker {
    pub(crate) fn start() -> Broker {
        let port = free_port();
        let mut broker = Broker {
            port,
            store: tempfile::tempdir().unwrap(),
            server: None,
        };
        broker.up();
        broker
    }

    pub(crate) fn up(&mut self) {
        let server = Command::new("nats-server")
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(self.store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server runs (tests/run.sh installs it)");
        self.server = Some(server);
        let address = format!("127.0.0.1:{}", self.port);
        wait_until(
            Duration::from_secs(10),
            || "nats-server".into(),
            || std::net::TcpStream::connect(&address).is_ok(),
        );
    }

    pub(crate) fn kill(&mut self) {
        if let Some(mut server) = self.server.take() {
            let _ = server.kill();
            let _ = server.wait();
        }
    }

    pub(crate) fn url(&self, name: &str) -> String {
        format!("nats://127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Broker {
    /// `nats://127.0.0.1:PORT`, naming nothing on it.
    pub(crate) fn server(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }
}
