//! `goref decode FILE`: GMP bytes back into the lines of the packet trace.
//!
//! Three inputs are recognised: a goref trace (`--trace`, JSON lines), a
//! text log with packets written in hex (`Send --> 01:a1:a0:80`, the style
//! of the CGF sample program), and a raw byte capture of one direction.

use std::fmt::Write;

use goref_core::protocol::sgmp::packet::{describe, hex, parse_hex, Deframer, Frame};

/// Decodes a whole file's contents for a board of `size`, which a goref
/// trace overrides with its own (its `game_start`). A file with no
/// GMP packets in it gets one line saying what was found instead, so that an
/// empty output never leaves the reader wondering.
pub(crate) fn decode(contents: &[u8], size: u8) -> String {
    match std::str::from_utf8(contents) {
        Ok(text) if text.trim_start().starts_with('{') => decode_trace(text, size),
        Ok(text) if text.lines().any(|line| hex_group(line).is_some()) => {
            decode_text_log(text, size)
        }
        _ => decode_raw(contents, size),
    }
}

/// A goref trace: each packet event is decoded again from its bytes, on
/// the board of the game it belongs to. A game's packets can come before
/// its `game_start` (a Black program on a line moves as soon as its
/// handshake ends, while the other player may still be starting), so the
/// size of the first `game_start` holds from the top of the trace, and each
/// later one from where it stands. `size` is only for a trace with none.
fn decode_trace(text: &str, size: u8) -> String {
    let lines: Vec<(&str, Option<serde_json::Value>)> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| (line, serde_json::from_str(line).ok()))
        .collect();
    let mut size = lines
        .iter()
        .find_map(|(_, event)| event.as_ref().and_then(game_start_size))
        .unwrap_or(size);
    let mut out = String::new();
    let (mut events, mut packets, mut gtp_lines) = (0, 0, 0);
    for (line, event) in &lines {
        let Some(event) = event else {
            let _ = writeln!(out, "?   (not a trace line) {line}");
            continue;
        };
        if event["type"].is_string() {
            events += 1;
        }
        match event["type"].as_str() {
            Some("gtp") => gtp_lines += 1,
            Some("game_start") => size = game_start_size(event).unwrap_or(size),
            Some("packet") => {
                packets += 1;
                let direction = event["direction"].as_str().unwrap_or("?");
                let color = event["color"].as_str().unwrap_or("?");
                let bytes = event["hex"]
                    .as_str()
                    .and_then(parse_hex)
                    .unwrap_or_default();
                let t = event["t_ms"].as_u64().unwrap_or_default();
                let prefix = format!("{:>9.3} {color} {direction:<3}", t as f64 / 1000.0);
                decode_stream(&mut out, &prefix, &bytes, size);
            }
            _ => {}
        }
    }
    if events == 0 {
        return no_packets(text.len());
    }
    if packets == 0 {
        let holds = if gtp_lines > 0 {
            "GTP lines only"
        } else {
            "no protocol lines"
        };
        let _ = writeln!(
            out,
            "no GMP packets in this file: it is a goref trace with {events} event{} ({holds})",
            plural(events)
        );
    }
    out
}

/// The board size a `game_start` event names, when it is one.
fn game_start_size(event: &serde_json::Value) -> Option<u8> {
    if event["type"] != "game_start" {
        return None;
    }
    event["size"]
        .as_u64()
        .and_then(|size| u8::try_from(size).ok())
}

/// The whole output for a file that is neither a trace nor a capture with
/// packets.
fn no_packets(bytes: usize) -> String {
    format!(
        "no GMP packets found in this file ({bytes} byte{})\n",
        plural(bytes)
    )
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// A text log: the first group of four hex bytes on each line is a packet;
/// `Send`/`-->` marks it outgoing and `Read`/`<--` incoming.
fn decode_text_log(text: &str, size: u8) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let Some(bytes) = hex_group(line) else {
            continue;
        };
        let lower = line.to_ascii_lowercase();
        let direction = if lower.contains("send") || line.contains("-->") {
            "out"
        } else if lower.contains("read") || line.contains("<--") {
            "in"
        } else {
            "?"
        };
        decode_stream(&mut out, &format!("{direction:<3}"), &bytes, size);
    }
    out
}

/// A raw capture of one direction of a line. Bytes that hold no packet, not
/// even a damaged one, are not a capture: talk and stray lines for them
/// would only dump the file.
fn decode_raw(bytes: &[u8], size: u8) -> String {
    let mut out = String::new();
    if decode_stream(&mut out, "?  ", bytes, size) == 0 {
        return no_packets(bytes.len());
    }
    out
}

/// Writes one line per frame; returns how many frames were packets, good,
/// damaged or cut.
fn decode_stream(out: &mut String, prefix: &str, bytes: &[u8], size: u8) -> usize {
    let mut deframer = Deframer::new();
    let mut packets = 0;
    for frame in deframer.push(bytes) {
        if !matches!(frame, Frame::Talk(_) | Frame::Stray(_)) {
            packets += 1;
        }
        let (bytes, meaning) = match &frame {
            Frame::Packet { packet, bytes } => (bytes.to_vec(), describe(packet, size)),
            Frame::BadChecksum { bytes } => (bytes.to_vec(), "bad checksum, dropped".into()),
            Frame::Reserved { bytes } => (bytes.to_vec(), "reserved bit set, dropped".into()),
            Frame::Talk(text) => (text.as_bytes().to_vec(), format!("talk {text:?}")),
            Frame::Stray(stray) => (stray.clone(), "stray bytes outside a packet".into()),
            Frame::Cut(partial) => (partial.clone(), "partial packet, cut by a new start".into()),
        };
        let _ = writeln!(out, "{prefix} {:<11}  {meaning}", hex(&bytes));
    }
    packets
}

/// The first run of four `xx:xx:xx:xx` hex bytes in a line.
fn hex_group(line: &str) -> Option<Vec<u8>> {
    line.split_whitespace()
        .map(|word| word.trim_matches(|c: char| !c.is_ascii_hexdigit() && c != ':'))
        .filter(|word| word.len() == 11 && word.matches(':').count() == 3)
        .find_map(parse_hex)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CGF_SAMPLE: &str = "Try COM1 ...
Send     --> 01:a1:a0:80 :Send NewGame
Read  <--    03:be:b0:8b :Receive Query(11)
Send     --> 02:c4:c0:82 :Send Answer(2)
Read  <--    00:b8:b0:88 :Receive Query(8)
Send     --> 01:c2:c0:81 :Send Answer(1)
Read  <--    02:88:87:ff :Receive OK
  Game is ready!
Send     --> 00:85:d2:b3 :My Move. Pos(1-361)=307
Read  <--    00:86:87:ff :Receive OK
Read  <--    01:92:d4:bd :Your Move. Pos(1-361)=61
Send     --> 02:88:87:ff :Send OK
";

    #[test]
    fn the_cgf_sample_log_decodes_line_by_line() {
        let lines: Vec<String> = decode(CGF_SAMPLE.as_bytes(), 19)
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[0], "out 01:a1:a0:80 NEWGAME");
        assert_eq!(lines[1], "in 03:be:b0:8b QUERY 11 (colour)");
        assert_eq!(lines[5], "in 02:88:87:ff OK");
        assert_eq!(lines[6], "out 00:85:d2:b3 MOVE B C17 (pos 307)");
        assert_eq!(lines[8], "in 01:92:d4:bd MOVE W D4 (pos 61)");
    }

    #[test]
    fn a_raw_capture_with_noise_decodes_and_flags_the_noise() {
        let mut raw = vec![0x01, 0xa1, 0xa0, 0x80];
        raw.extend_from_slice(b"hi");
        raw.extend_from_slice(&[0x02, 0xe4, 0xd0, 0x93]);
        raw.extend_from_slice(&[0x9f]);
        raw.extend_from_slice(&[0x00, 0x85, 0xd2, 0xb3]);
        let text = decode(&raw, 19);
        assert!(text.contains("NEWGAME"), "{text}");
        assert!(text.contains("talk \"hi\""), "{text}");
        assert!(text.contains("bad checksum"), "{text}");
        assert!(text.contains("stray"), "{text}");
        assert!(text.contains("MOVE B C17"), "{text}");
    }

    #[test]
    fn a_trace_without_packets_says_what_it_holds() {
        let trace = [
            r#"{"t_ms":0,"type":"game_start","size":9}"#,
            r#"{"t_ms":1,"type":"gtp","color":"B","direction":"sent","line":"genmove b"}"#,
            r#"{"t_ms":2,"type":"gtp","color":"B","direction":"received","line":"= E5"}"#,
            r#"{"t_ms":3,"type":"move","n":1}"#,
        ]
        .join("\n");
        assert_eq!(
            decode(trace.as_bytes(), 19),
            "no GMP packets in this file: it is a goref trace with 4 events (GTP lines only)\n"
        );
        let quiet = r#"{"t_ms":0,"type":"game_start","size":9}"#;
        assert_eq!(
            decode(quiet.as_bytes(), 19),
            "no GMP packets in this file: it is a goref trace with 1 event (no protocol lines)\n"
        );
    }

    #[test]
    fn a_file_without_packets_says_so_and_its_size() {
        for (contents, expected) in [
            (&b"just some text\n"[..], "(15 bytes)"),
            (&b""[..], "(0 bytes)"),
            (&[0x9f][..], "(1 byte)"),
            (&b"{\"a\": 1}\n"[..], "(9 bytes)"),
        ] {
            assert_eq!(
                decode(contents, 19),
                format!("no GMP packets found in this file {expected}\n"),
                "{contents:?}"
            );
        }
    }

    #[test]
    fn a_goref_trace_is_decoded_with_its_board_size() {
        let trace = [
            r#"{"t_ms":0,"type":"game_start","size":9}"#,
            r#"{"t_ms":1500,"type":"packet","color":"B","direction":"in","hex":"01:fa:d0:a9"}"#,
            r#"{"t_ms":1600,"type":"move","n":1}"#,
        ]
        .join("\n");
        let text = decode(trace.as_bytes(), 19);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("1.500 B in"), "{text}");
        assert!(text.contains("MOVE B E5 (pos 41)"), "{text}");
    }

    #[test]
    fn a_move_before_game_start_is_decoded_on_the_games_board() {
        let trace = [
            r#"{"type":"stream","schema":1,"producer":"goref 0.1.0"}"#,
            r#"{"seq":1,"t_ms":2,"type":"packet","color":"B","direction":"in","hex":"01:fa:d0:a9"}"#,
            r#"{"seq":2,"t_ms":9,"type":"game_start","size":9}"#,
            r#"{"seq":3,"t_ms":9,"type":"move","n":1,"color":"B","vertex":"E5"}"#,
            r#"{"seq":4,"t_ms":20,"type":"game_start","size":13}"#,
            r#"{"seq":5,"t_ms":21,"type":"packet","color":"B","direction":"in","hex":"01:fa:d0:a9"}"#,
        ]
        .join("\n");
        let text = decode(trace.as_bytes(), 19);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].ends_with("MOVE B E5 (pos 41)"), "{text}");
        assert!(
            lines[1].ends_with("MOVE B B4 (pos 41)"),
            "the next game's size: {text}"
        );
    }
}
