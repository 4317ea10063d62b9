//! A line to a program: the byte pipe beneath a GMP/SGMP player.
//!
//! This module opens a [`LineSpec`] (see [`line_spec`](super::line_spec))
//! as one boxed full-duplex byte stream. Devices are opened raw, 8N1, and
//! never flushed on open: a program may already have sent its NEWGAME.

use crate::transport::{serial, tcp};

/// A full-duplex byte line to a program: a serial port, a pty or a TCP connection.
pub trait LineIo: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send> LineIo for T {}

/// An opened line of any kind.
pub(crate) type BoxedLine = Box<dyn LineIo>;

pub use super::line_spec::{
    FlowControl, LineError, LineSpec, LineTarget, DEFAULT_BAUD, DEFAULT_SETUP,
};

/// Opens the line. Devices are opened raw, 8N1, at the spec's baud and flow
/// control, without flushing input (a NEWGAME may already be waiting).
/// Flushing the returned line hands the bytes to the kernel and does not wait
/// for them to leave the wire (see `serial::SerialLine`).
pub async fn open(spec: &LineSpec) -> Result<BoxedLine, LineError> {
    match &spec.target {
        LineTarget::Device { path, baud, flow } => {
            let stream = serial::open_device(path, *baud, *flow)?;
            Ok(Box::new(serial::SerialLine::new(stream)))
        }
        LineTarget::Tcp { host, port } => Ok(Box::new(tcp::connect(host, *port).await?)),
    }
}

/// Bytes per second of a line at this baud with 8N1 framing (10 bits a
/// byte: start, eight data, stop), for the wire-time figure.
pub(crate) fn bytes_per_second(baud: u32) -> f64 {
    f64::from(baud) / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn device(path: &str, baud: u32, flow: FlowControl) -> LineTarget {
        LineTarget::Device {
            path: PathBuf::from(path),
            baud,
            flow,
        }
    }

    fn error(result: Result<LineSpec, LineError>) -> String {
        result.expect_err("the spec must be refused").to_string()
    }

    #[test]
    fn a_bare_device_takes_the_defaults() {
        let spec = LineSpec::parse_device("/dev/ttyS0").unwrap();
        assert_eq!(
            spec,
            LineSpec {
                target: device("/dev/ttyS0", 2400, FlowControl::None),
                resend_after: None,
                alarm_after: None,
                setup: None,
                name: None,
            }
        );
        assert_eq!(spec.to_string(), "/dev/ttyS0 2400 8N1 flow none");
        assert_eq!(spec.target.place(), "/dev/ttyS0");
    }

    #[test]
    fn every_device_option_is_read() {
        let spec =
            LineSpec::parse_device("/dev/ttyUSB0,baud=9600,flow=rtscts,resend=20s,retries=9")
                .unwrap();
        assert_eq!(
            spec.target,
            device("/dev/ttyUSB0", 9600, FlowControl::RtsCts)
        );
        assert_eq!(spec.resend_after, Some(Duration::from_secs(20)));
        assert_eq!(spec.alarm_after, Some(9));
        assert_eq!(
            spec.to_string(),
            "/dev/ttyUSB0 9600 8N1 flow rtscts resend 20s retries 9"
        );
        let spec = LineSpec::parse_device("/tmp/gmpA, FLOW=XonXoff ,resend=500ms,").unwrap();
        assert_eq!(spec.target, device("/tmp/gmpA", 2400, FlowControl::XonXoff));
        assert_eq!(spec.resend_after, Some(Duration::from_millis(500)));
        assert_eq!(
            spec.to_string(),
            "/tmp/gmpA 2400 8N1 flow xonxoff resend 0.5s"
        );
        let spec = LineSpec::parse_device("/dev/ttyS1,flow=none,resend=1m30s,retries=0").unwrap();
        assert_eq!(spec.target, device("/dev/ttyS1", 2400, FlowControl::None));
        assert_eq!(spec.resend_after, Some(Duration::from_secs(90)));
        assert_eq!(spec.alarm_after, Some(0));
    }

    #[test]
    fn bad_device_specs_are_refused_with_the_reason() {
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,baud=fast")),
            "baud=fast is not a number"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,baud=0")),
            "baud=0 must be more than zero"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,parity=even")),
            "unknown option 'parity' (known options: baud, flow, resend, retries, setup, name)"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,flow=dsrdtr")),
            "flow=dsrdtr is not none, rtscts or xonxoff"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,resend=soon")),
            "resend=soon is not a duration such as 20s or 500ms"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,resend=0s")),
            "resend=0s must be longer than zero"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,retries=-1")),
            "retries=-1 is not a number"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,baud")),
            "option 'baud' needs a value, e.g. baud=2400"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,baud=2400,baud=9600")),
            "option 'baud' is given twice"
        );
        assert_eq!(
            error(LineSpec::parse_device("")),
            "no device given (write e.g. sgmp:/dev/ttyS0,baud=2400)"
        );
        assert_eq!(
            error(LineSpec::parse_device(",baud=2400")),
            "no device given (write e.g. sgmp:/dev/ttyS0,baud=2400)"
        );
    }

    #[test]
    fn setup_and_name_are_read_on_both_kinds_of_line() {
        let spec = LineSpec::parse_device("/dev/pts/4,setup=2s,name=GNU Go 3.8").unwrap();
        assert_eq!(spec.setup, Some(Duration::from_secs(2)));
        assert_eq!(spec.setup_deadline(), Duration::from_secs(2));
        assert_eq!(spec.name.as_deref(), Some("GNU Go 3.8"));
        assert_eq!(spec.player_name(), "GNU Go 3.8");
        assert_eq!(spec.to_string(), "/dev/pts/4 2400 8N1 flow none setup 2s");
        assert_eq!(spec.target.place(), "/dev/pts/4");

        let spec = LineSpec::parse_device("/dev/ttyS0").unwrap();
        assert_eq!(spec.setup_deadline(), Duration::from_secs(180));
        assert_eq!(spec.player_name(), "/dev/ttyS0 2400 8N1 flow none");

        let spec = LineSpec::parse_tcp("10.0.0.5:4001,name=Goliath,SETUP=1m30s").unwrap();
        assert_eq!(spec.name.as_deref(), Some("Goliath"));
        assert_eq!(spec.setup, Some(Duration::from_secs(90)));
        assert_eq!(spec.player_name(), "Goliath");
        assert_eq!(spec.to_string(), "tcp 10.0.0.5:4001 setup 1m30s");
        assert_eq!(spec.target.place(), "tcp 10.0.0.5:4001");

        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,setup=0s")),
            "setup=0s must be longer than zero"
        );
        assert_eq!(
            error(LineSpec::parse_tcp("host:4001,setup=later")),
            "setup=later is not a duration such as 20s or 500ms"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,name=")),
            "option 'name' needs a value, e.g. name=Many-Faces"
        );
        assert_eq!(
            error(LineSpec::parse_device("/dev/ttyS0,name=a,name=b")),
            "option 'name' is given twice"
        );
    }

    #[test]
    fn tcp_specs_name_a_host_and_port() {
        let spec = LineSpec::parse_tcp("10.0.0.5:4001").unwrap();
        assert_eq!(
            spec,
            LineSpec {
                target: LineTarget::Tcp {
                    host: "10.0.0.5".into(),
                    port: 4001
                },
                resend_after: None,
                alarm_after: None,
                setup: None,
                name: None,
            }
        );
        assert_eq!(spec.to_string(), "tcp 10.0.0.5:4001");
        let spec = LineSpec::parse_tcp("ts1.example.org:7001,resend=10s,retries=3").unwrap();
        assert_eq!(
            spec.target,
            LineTarget::Tcp {
                host: "ts1.example.org".into(),
                port: 7001
            }
        );
        assert_eq!(spec.resend_after, Some(Duration::from_secs(10)));
        assert_eq!(spec.alarm_after, Some(3));
        assert_eq!(
            spec.to_string(),
            "tcp ts1.example.org:7001 resend 10s retries 3"
        );
        let spec = LineSpec::parse_tcp("[::1]:4001").unwrap();
        assert_eq!(
            spec.target,
            LineTarget::Tcp {
                host: "::1".into(),
                port: 4001
            }
        );
        assert_eq!(spec.to_string(), "tcp [::1]:4001");
        assert_eq!(spec.target.place(), "tcp [::1]:4001");
    }

    #[test]
    fn bad_tcp_specs_are_refused_with_the_reason() {
        assert_eq!(
            error(LineSpec::parse_tcp("10.0.0.5")),
            "'10.0.0.5' is not HOST:PORT (write e.g. sgmp-tcp:10.0.0.5:4001)"
        );
        assert_eq!(
            error(LineSpec::parse_tcp(":4001")),
            "':4001' is not HOST:PORT (write e.g. sgmp-tcp:10.0.0.5:4001)"
        );
        assert_eq!(
            error(LineSpec::parse_tcp("::1:4001")),
            "'::1:4001' is not HOST:PORT (write e.g. sgmp-tcp:10.0.0.5:4001)"
        );
        assert_eq!(
            error(LineSpec::parse_tcp("host:telnet")),
            "port 'telnet' is not a number from 1 to 65535"
        );
        assert_eq!(
            error(LineSpec::parse_tcp("host:0")),
            "port '0' is not a number from 1 to 65535"
        );
        assert_eq!(
            error(LineSpec::parse_tcp("host:70000")),
            "port '70000' is not a number from 1 to 65535"
        );
        assert_eq!(
            error(LineSpec::parse_tcp("host:4001,baud=2400")),
            "unknown option 'baud' (known options: resend, retries, setup, name)"
        );
    }

    #[tokio::test]
    async fn open_opens_a_device_spec_raw_and_unflushed() {
        use crate::transport::serial::tests::{all_bytes, read_n, SocatPair};
        use tokio::io::AsyncWriteExt;

        let socat = SocatPair::start();
        let mut x = open(&LineSpec::parse_device(socat.x.to_str().unwrap()).unwrap())
            .await
            .unwrap();
        x.write_all(&all_bytes()).await.unwrap();
        x.flush().await.unwrap();
        let spec = format!("{},baud=9600,flow=rtscts", socat.y.display());
        let mut y = open(&LineSpec::parse_device(&spec).unwrap()).await.unwrap();
        assert_eq!(read_n(&mut y, 256).await, all_bytes());
        y.write_all(b"\r\n").await.unwrap();
        assert_eq!(read_n(&mut x, 2).await, b"\r\n");
    }

    #[tokio::test]
    async fn open_names_a_device_it_cannot_open() {
        let spec = LineSpec::parse_device("/dev/ttyS9-nonexistent").unwrap();
        let error = open(&spec).await.err().expect("no such device");
        assert_eq!(
            error.to_string(),
            "cannot open /dev/ttyS9-nonexistent: No such file or directory"
        );
    }

    #[test]
    fn eight_n_one_carries_a_tenth_of_the_baud_in_bytes() {
        assert_eq!(bytes_per_second(2400), 240.0);
        assert_eq!(bytes_per_second(9600), 960.0);
    }
}
