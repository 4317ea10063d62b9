//! Tests of the packet codec and the deframer against the hand-computed
//! vectors of `reference/sgmp.md` §12 and the sample trace of §11.

use proptest::prelude::*;

use super::*;

fn bytes(text: &str) -> [u8; 4] {
    parse_hex(text).unwrap().try_into().unwrap()
}

/// §12, row by row: (S, A, command, value, bytes).
const VECTORS: &[(bool, bool, Command, u16, &str)] = &[
    (false, false, Command::Ok, 0x3FF, "00:86:87:ff"),
    (true, false, Command::Ok, 0x3FF, "01:87:87:ff"),
    (false, true, Command::Ok, 0x3FF, "02:88:87:ff"),
    (true, true, Command::Ok, 0x3FF, "03:89:87:ff"),
    (false, false, Command::Ok, 0, "00:80:80:80"),
    (true, true, Command::Ok, 0, "03:83:80:80"),
    (true, false, Command::Deny, 0, "01:91:90:80"),
    (false, true, Command::Deny, 0, "02:92:90:80"),
    (true, false, Command::NewGame, 0, "01:a1:a0:80"),
    (true, true, Command::Query, 7, "03:ba:b0:87"),
    (false, false, Command::Query, 9, "00:b9:b0:89"),
    (false, false, Command::Query, 8, "00:b8:b0:88"),
    (true, true, Command::Query, 11, "03:be:b0:8b"),
    (false, true, Command::Answer, 1, "02:c3:c0:81"),
    (true, false, Command::Answer, 2, "01:c3:c0:82"),
    (true, false, Command::Answer, 19, "01:d4:c0:93"),
    (true, false, Command::Move, 0x000, "01:d1:d0:80"),
    (true, true, Command::Move, 0x000, "03:d3:d0:80"),
    (true, false, Command::Move, 0x200, "01:d5:d4:80"),
    (false, true, Command::Move, 0x200, "02:d6:d4:80"),
    (true, true, Command::Move, 0x200, "03:d7:d4:80"),
    (true, false, Command::Move, 0x001, "01:d2:d0:81"),
    (true, true, Command::Move, 0x001, "03:d4:d0:81"),
    (true, false, Command::Move, 0x013, "01:e4:d0:93"),
    (true, false, Command::Move, 0x157, "01:aa:d2:d7"),
    (true, false, Command::Move, 0x169, "01:bc:d2:e9"),
    (true, false, Command::Move, 0x201, "01:d6:d4:81"),
    (true, false, Command::Move, 0x369, "01:c0:d6:e9"),
    (false, false, Command::Move, 0x0B5, "00:86:d1:b5"),
    (false, false, Command::Move, 0x133, "00:85:d2:b3"),
    (true, false, Command::Move, 0x23D, "01:92:d4:bd"),
    (true, false, Command::Move, 0x029, "01:fa:d0:a9"),
    (false, false, Command::Undo, 1, "00:e1:e0:81"),
    (true, false, Command::Undo, 1, "01:e2:e0:81"),
    (false, true, Command::Undo, 2, "02:e4:e0:82"),
];

#[test]
fn every_reference_vector_encodes_byte_for_byte_and_decodes_back() {
    for &(seq, ack, command, value, text) in VECTORS {
        let packet = Packet::new(seq, ack, command, value);
        assert_eq!(hex(&packet.encode()), text, "{packet:?}");
        assert_eq!(Packet::decode(bytes(text)), Ok(packet), "{text}");
    }
}

#[test]
fn the_negative_vectors_are_refused() {
    assert!(matches!(
        Packet::decode(bytes("02:e4:d0:93")),
        Err(PacketError::BadChecksum {
            expected: 0xe5,
            found: 0xe4
        })
    ));
    // §12 gives `00:8e:88:80` as a reserved-bit packet "with a correct
    // checksum", but 0x00 + 0x88 + 0x80 = 0x108 needs 0x88: it is a bad
    // checksum. With the checksum right, the reserved bit refuses it.
    assert_eq!(
        Packet::decode(bytes("00:8e:88:80")),
        Err(PacketError::BadChecksum {
            expected: 0x88,
            found: 0x8e
        })
    );
    assert_eq!(
        Packet::decode(bytes("00:88:88:80")),
        Err(PacketError::Reserved)
    );
    assert_eq!(
        Packet::decode(bytes("00:8e:8e:80")),
        Err(PacketError::Reserved)
    );
    assert_eq!(
        Packet::decode(bytes("04:a1:a0:80")),
        Err(PacketError::BadStart(0x04))
    );
    assert_eq!(
        Packet::decode(bytes("01:a1:20:80")),
        Err(PacketError::BadContinuation {
            index: 2,
            byte: 0x20
        })
    );
}

#[test]
fn encoding_masks_the_value_and_never_sets_the_reserved_bit() {
    let packet = Packet::new(true, true, Command::Ok, 0xFFFF);
    let encoded = packet.encode();
    assert_eq!(hex(&encoded), "03:89:87:ff");
    assert_eq!(encoded[2] & 0x08, 0);
}

#[test]
fn moves_encode_colour_and_position() {
    let c17 = Point::parse_gtp("C17", 19).unwrap();
    let d4 = Point::parse_gtp("D4", 19).unwrap();
    assert_eq!(encode_move(Color::Black, Some(c17), 19), 307);
    assert_eq!(encode_move(Color::White, Some(d4), 19), 0x23D);
    assert_eq!(encode_move(Color::Black, None, 19), 0);
    assert_eq!(encode_move(Color::White, None, 19), 0x200);
    assert_eq!(decode_move(0x23D, 19), Ok((Color::White, Some(d4))));
    assert_eq!(decode_move(0x200, 9), Ok((Color::White, None)));
    let e5 = Point::parse_gtp("E5", 9).unwrap();
    assert_eq!(encode_move(Color::Black, Some(e5), 9), 41);
    assert!(decode_move(82, 9).is_err());
    assert!(decode_move(0x200 | 362, 19).is_err());
    for size in [9u8, 13, 19, 22] {
        for index in 0..usize::from(size) * usize::from(size) {
            let p = Point::from_index(index, size);
            for color in Color::BOTH {
                let value = encode_move(color, Some(p), size);
                assert_eq!(decode_move(value, size), Ok((color, Some(p))));
            }
        }
    }
}

#[test]
fn the_sample_trace_reads_as_the_reference_says() {
    let expected = [
        ("01:a1:a0:80", "NEWGAME"),
        ("03:be:b0:8b", "QUERY 11 (colour)"),
        ("02:c4:c0:82", "ANSWER 2"),
        ("00:b8:b0:88", "QUERY 8 (handicap)"),
        ("01:c2:c0:81", "ANSWER 1"),
        ("02:88:87:ff", "OK"),
        ("00:85:d2:b3", "MOVE B C17 (pos 307)"),
        ("00:86:87:ff", "OK"),
        ("01:92:d4:bd", "MOVE W D4 (pos 61)"),
        ("02:88:87:ff", "OK"),
    ];
    for (text, meaning) in expected {
        let packet = Packet::decode(bytes(text)).unwrap();
        assert_eq!(describe(&packet, 19), meaning, "{text}");
    }
}

#[test]
fn describe_spells_every_command() {
    let d = |command, value, size| describe(&Packet::new(false, false, command, value), size);
    assert_eq!(d(Command::Deny, 0, 19), "DENY");
    assert_eq!(d(Command::Ok, 0, 19), "OK (value 0)");
    assert_eq!(d(Command::Query, 9, 19), "QUERY 9 (board size)");
    assert_eq!(d(Command::Query, 13, 19), "QUERY 13");
    assert_eq!(
        d(Command::Query, 0x205, 19),
        "QUERY 517 (extended command 5?)"
    );
    assert_eq!(d(Command::Move, 0x200, 19), "MOVE W pass");
    assert_eq!(d(Command::Move, 0, 19), "MOVE B pass");
    assert_eq!(d(Command::Move, 400, 19), "MOVE ? (pos 400, off the board)");
    assert_eq!(d(Command::Move, 41, 9), "MOVE B E5 (pos 41)");
    assert_eq!(d(Command::Undo, 1, 19), "UNDO 1");
    assert_eq!(d(Command::Extended, 5, 19), "EXTENDED 5");
    assert_eq!(d(Command::Answer, 2, 19), "ANSWER 2");
}

#[test]
fn queries_number_and_name_themselves() {
    for (i, query) in Query::ALL.iter().enumerate() {
        assert_eq!(query.number(), i as u16);
        assert_eq!(Query::from_number(i as u16), Some(*query));
    }
    assert_eq!(Query::from_number(13), None);
    assert_eq!(Query::Color.name(), "colour");
    assert_eq!(Query::Handicap.name(), "handicap");
    assert_eq!(Query::BoardSize.name(), "board size");
}

#[test]
fn hex_round_trips_and_tolerates_spacing() {
    assert_eq!(hex(&[]), "");
    assert_eq!(hex(&[0x01, 0xA1, 0xA0, 0x80]), "01:a1:a0:80");
    assert_eq!(parse_hex("01:A1:a0:80"), Some(vec![1, 0xa1, 0xa0, 0x80]));
    assert_eq!(
        parse_hex(" 01 a1 : a0 80 "),
        Some(vec![1, 0xa1, 0xa0, 0x80])
    );
    assert_eq!(parse_hex("01a1a080"), Some(vec![1, 0xa1, 0xa0, 0x80]));
    assert_eq!(parse_hex(""), Some(vec![]));
    assert_eq!(parse_hex("1:a1"), None);
    assert_eq!(parse_hex("0g"), None);
}

#[test]
fn deframer_reports_talk_stray_cut_and_bad_packets() {
    let mut d = Deframer::new();
    let mut stream = b"hi".to_vec();
    stream.extend([0x85, 0x86]); // stray
    stream.extend([0x01, 0xa1]); // cut by the next start byte
    stream.extend(bytes("02:e4:d0:93")); // bad checksum
    stream.extend(bytes("00:88:88:80")); // reserved bit
    stream.extend([0x01, 0xa1, b'o', b'k', 0xa0, 0x80]); // talk inside a packet
    assert_eq!(
        d.push(&stream),
        vec![
            Frame::Talk("hi".into()),
            Frame::Stray(vec![0x85, 0x86]),
            Frame::Cut(vec![0x01, 0xa1]),
            Frame::BadChecksum {
                bytes: bytes("02:e4:d0:93")
            },
            Frame::Reserved {
                bytes: bytes("00:88:88:80")
            },
            Frame::Talk("ok".into()),
            Frame::Packet {
                packet: Packet::new(true, false, Command::NewGame, 0),
                bytes: bytes("01:a1:a0:80")
            },
        ]
    );
}

#[test]
fn a_partial_packet_survives_between_pushes() {
    let mut d = Deframer::new();
    assert_eq!(d.push(&[0x00, 0x86]), vec![]);
    assert_eq!(d.push(b"x"), vec![Frame::Talk("x".into())]);
    assert_eq!(
        d.push(&[0x87, 0xff, 0x90]),
        vec![
            Frame::Packet {
                packet: Packet::new(false, false, Command::Ok, OK_VALUE),
                bytes: bytes("00:86:87:ff")
            },
            Frame::Stray(vec![0x90]),
        ]
    );
}

fn arb_packet() -> impl Strategy<Value = Packet> {
    (any::<bool>(), any::<bool>(), 0u8..8, 0u16..=MAX_VALUE).prop_map(
        |(seq, ack, command, value)| Packet::new(seq, ack, Command::from_number(command), value),
    )
}

/// Splits `bytes` at the given cut points (taken modulo its length).
fn chunks(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    let mut out = Vec::new();
    let mut from = 0;
    for p in points.into_iter().chain([bytes.len()]) {
        out.push(bytes[from..p].to_vec());
        from = p;
    }
    out
}

fn packets_of(frames: &[Frame]) -> Vec<Packet> {
    frames
        .iter()
        .filter_map(|f| match f {
            Frame::Packet { packet, .. } => Some(*packet),
            _ => None,
        })
        .collect()
}

/// Frames with adjacent talk and stray runs merged, so that streams pushed
/// in different chunkings can be compared.
fn merged(frames: Vec<Frame>) -> Vec<Frame> {
    let mut out: Vec<Frame> = Vec::new();
    for frame in frames {
        match (out.last_mut(), frame) {
            (Some(Frame::Talk(a)), Frame::Talk(b)) => a.push_str(&b),
            (Some(Frame::Stray(a)), Frame::Stray(b)) => a.extend(b),
            (_, frame) => out.push(frame),
        }
    }
    out
}

proptest! {
    #[test]
    fn every_packet_round_trips(seq in any::<bool>(), ack in any::<bool>(), command in 0u8..8, value in 0u16..=MAX_VALUE) {
        let packet = Packet::new(seq, ack, Command::from_number(command), value);
        let encoded = packet.encode();
        prop_assert!(encoded[0] <= 3);
        prop_assert!(encoded[1..].iter().all(|b| b & 0x80 != 0));
        prop_assert_eq!(encoded[2] & 0x08, 0);
        prop_assert_eq!(Packet::decode(encoded), Ok(packet));
    }

    #[test]
    fn the_deframer_never_panics_and_keeps_at_most_a_partial_packet(
        stream in proptest::collection::vec(any::<u8>(), 0..200),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let mut d = Deframer::new();
        for chunk in chunks(&stream, &cuts) {
            d.push(&chunk);
            prop_assert!(d.partial.len() < 4);
        }
    }

    #[test]
    fn talk_anywhere_leaves_the_packets_intact(
        packets in proptest::collection::vec(arb_packet(), 0..12),
        talk in proptest::collection::vec((any::<usize>(), 0x04u8..=0x7F), 0..30),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let mut stream: Vec<u8> = packets.iter().flat_map(|p| p.encode()).collect();
        for (at, b) in talk {
            let at = at % (stream.len() + 1);
            stream.insert(at, b);
        }
        let whole = Deframer::new().push(&stream);
        prop_assert_eq!(packets_of(&whole), packets.clone());
        let only_packets_and_talk = whole
            .iter()
            .all(|f| matches!(f, Frame::Packet { .. } | Frame::Talk(_)));
        prop_assert!(only_packets_and_talk);
        let mut d = Deframer::new();
        let split: Vec<Frame> = chunks(&stream, &cuts).iter().flat_map(|c| d.push(c)).collect();
        prop_assert_eq!(merged(split), merged(whole));
    }

    #[test]
    fn any_chunking_gives_the_same_frames(
        stream in proptest::collection::vec(any::<u8>(), 0..200),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let whole = Deframer::new().push(&stream);
        let mut d = Deframer::new();
        let split: Vec<Frame> = chunks(&stream, &cuts).iter().flat_map(|c| d.push(c)).collect();
        prop_assert_eq!(merged(split), merged(whole));
    }
}
