//! Tests of the key decoder: each kind of key in each form terminals send
//! it, what is dropped and what comes after it, and proptests over any
//! bytes and any keys read in any split.

use proptest::prelude::*;

use super::*;

/// The keys of `bytes` fed at once, then a pause.
fn keys(bytes: &[u8]) -> Vec<Key> {
    let mut decoder = KeyDecoder::new();
    let mut keys = decoder.feed(bytes);
    keys.extend(decoder.no_more_bytes());
    keys
}

/// The keys of `bytes` fed one byte a read, then a pause.
fn keys_byte_by_byte(bytes: &[u8]) -> Vec<Key> {
    let mut decoder = KeyDecoder::new();
    let mut keys: Vec<Key> = bytes.iter().flat_map(|b| decoder.feed(&[*b])).collect();
    keys.extend(decoder.no_more_bytes());
    keys
}

fn chars(text: &str) -> Vec<Key> {
    text.chars().map(Key::Char).collect()
}

#[test]
fn printable_text_is_its_characters_however_it_is_split() {
    let text = "q?G D4 é ♟ 囲碁 🀄";
    assert_eq!(keys(text.as_bytes()), chars(text));
    assert_eq!(keys_byte_by_byte(text.as_bytes()), chars(text));
    let mut decoder = KeyDecoder::new();
    assert_eq!(decoder.feed(&[0xe2, 0x99]), []);
    assert!(!decoder.is_mid_sequence(), "no wait for a character");
    assert_eq!(decoder.no_more_bytes(), None);
    assert_eq!(
        decoder.feed(&[0x9f, b'a']),
        [Key::Char('♟'), Key::Char('a')]
    );
}

#[test]
fn control_bytes_are_ctrl_letters_except_tab_enter_and_backspace() {
    assert_eq!(keys(b"\x03"), [Key::Ctrl('c')]);
    assert_eq!(
        keys(b"\x01\x17\x15\x1a"),
        [
            Key::Ctrl('a'),
            Key::Ctrl('w'),
            Key::Ctrl('u'),
            Key::Ctrl('z')
        ]
    );
    assert_eq!(keys(b"\t"), [Key::Tab]);
    assert_eq!(keys(b"\r\n"), [Key::Enter, Key::Enter]);
    assert_eq!(keys(b"\x7f\x08"), [Key::Backspace, Key::Backspace]);
    assert_eq!(
        keys(b"\x00\x1c\x1f"),
        [Key::Ctrl(' '), Key::Ctrl('4'), Key::Ctrl('7')]
    );
}

#[test]
fn a_lone_esc_is_the_esc_key_once_no_byte_follows() {
    let mut decoder = KeyDecoder::new();
    assert_eq!(decoder.feed(b"a\x1b"), [Key::Char('a')]);
    assert!(decoder.is_mid_sequence(), "the reader waits for more");
    assert_eq!(decoder.no_more_bytes(), Some(Key::Esc));
    assert!(!decoder.is_mid_sequence());
    assert_eq!(decoder.no_more_bytes(), None, "an Esc only once");
    assert_eq!(decoder.feed(b"q"), [Key::Char('q')]);
}

#[test]
fn esc_esc_is_two_escs_and_the_second_may_begin_a_sequence() {
    let mut decoder = KeyDecoder::new();
    assert_eq!(decoder.feed(b"\x1b\x1b"), [Key::Esc]);
    assert_eq!(decoder.no_more_bytes(), Some(Key::Esc));
    assert_eq!(keys(b"\x1b\x1b[A"), [Key::Esc, Key::Up]);
}

#[test]
fn alt_is_dropped_from_the_key_it_comes_with() {
    assert_eq!(keys(b"\x1bx"), [Key::Char('x')]);
    assert_eq!(keys("\x1bé".as_bytes()), [Key::Char('é')]);
    assert_eq!(keys(b"\x1b\r"), [Key::Enter]);
    assert_eq!(keys(b"\x1b\x03"), [Key::Ctrl('c')]);
    assert_eq!(keys(b"\x1b["), [Key::Char('[')]);
    assert_eq!(keys(b"\x1bO"), [Key::Char('O')]);
}

#[test]
fn arrows_come_as_csi_or_ss3_with_or_without_modifiers() {
    let want = [Key::Up, Key::Down, Key::Right, Key::Left];
    assert_eq!(keys(b"\x1b[A\x1b[B\x1b[C\x1b[D"), want);
    assert_eq!(keys(b"\x1bOA\x1bOB\x1bOC\x1bOD"), want);
    assert_eq!(keys(b"\x1b[1;5A\x1b[1;2B\x1b[1;3C\x1b[1;8D"), want);
    assert_eq!(keys_byte_by_byte(b"\x1b[1;5A\x1bOB"), [Key::Up, Key::Down]);
}

#[test]
fn home_end_delete_and_the_page_keys_in_each_form() {
    assert_eq!(keys(b"\x1b[H\x1bOH\x1b[1~\x1b[7~"), [Key::Home; 4]);
    assert_eq!(keys(b"\x1b[F\x1bOF\x1b[4~\x1b[8~"), [Key::End; 4]);
    assert_eq!(keys(b"\x1b[3~\x1b[3;5~"), [Key::Delete; 2]);
    assert_eq!(keys(b"\x1b[5~\x1b[6~"), [Key::PageUp, Key::PageDown]);
    assert_eq!(keys(b"\x1b[Z"), [Key::BackTab]);
    assert_eq!(keys(b"\x1b[2~x"), [Key::Char('x')], "insert is dropped");
}

#[test]
fn function_keys_as_xterm_and_the_linux_console_number_them() {
    let twelve: Vec<Key> = (1..=12).map(Key::F).collect();
    let xterm =
        b"\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~";
    assert_eq!(keys(xterm), twelve);
    let numbered = b"\x1b[11~\x1b[12~\x1b[13~\x1b[14~";
    assert_eq!(keys(numbered), twelve[..4]);
    assert_eq!(keys(b"\x1b[1;2P\x1b[1;5S"), [Key::F(1), Key::F(4)]);
    assert_eq!(keys(b"\x1b[[A\x1b[[E"), [Key::F(1), Key::F(5)]);
    assert_eq!(keys(b"\x1b[16~\x1b[22~\x1b[25~a"), [Key::Char('a')]);
}

#[test]
fn unknown_and_malformed_sequences_go_whole_and_the_next_keys_come() {
    // Mouse reports (SGR and X10), focus events, a private report.
    assert_eq!(keys(b"\x1b[<0;12;7Mq"), [Key::Char('q')]);
    assert_eq!(keys(b"\x1b[M !!q"), [Key::Char('q')]);
    assert_eq!(keys(b"\x1b[I\x1b[Oq"), [Key::Char('q')]);
    assert_eq!(keys(b"\x1b[?1;2cq"), [Key::Char('q')]);
    // A sequence cut short by another, or by a control byte.
    assert_eq!(keys(b"\x1b[1;\x1b[Aq"), [Key::Up, Key::Char('q')]);
    assert_eq!(keys(b"\x1b[12\rq"), [Key::Enter, Key::Char('q')]);
    // Parameters without end, then a key.
    let mut long = b"\x1b[".to_vec();
    long.extend([b'9'; 500]);
    long.extend(b"~q");
    assert_eq!(keys(&long), [Key::Char('q')]);
    // Bytes that are not UTF-8: a stray continuation, a lead cut short, an
    // overlong form, a C1 control.
    assert_eq!(keys(b"\x80a\xc3b\xe0\x80\x80c\xc2\x85d"), chars("abcd"));
}

#[test]
fn a_sequence_cut_short_by_a_pause_is_dropped() {
    let mut decoder = KeyDecoder::new();
    assert_eq!(decoder.feed(b"\x1b[1;5"), []);
    assert!(decoder.is_mid_sequence());
    assert_eq!(decoder.no_more_bytes(), None);
    assert_eq!(decoder.feed(b"q"), [Key::Char('q')]);
    assert_eq!(decoder.feed(b"\x1b[M!"), []);
    assert_eq!(decoder.no_more_bytes(), None);
    assert_eq!(decoder.feed(b"q"), [Key::Char('q')]);
}

/// Every key the decoder gives.
fn any_key() -> impl Strategy<Value = Key> {
    let named = [
        Key::Enter,
        Key::Esc,
        Key::Tab,
        Key::BackTab,
        Key::Backspace,
        Key::Delete,
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::PageUp,
        Key::PageDown,
        Key::Home,
        Key::End,
    ];
    let ctrl = ('a'..='z')
        .filter(|c| !"hijm".contains(*c))
        .chain(['4', '5', '6', '7', ' '])
        .collect::<Vec<char>>();
    prop_oneof![
        any::<char>()
            .prop_filter("a printable character", |c| !c.is_control())
            .prop_map(Key::Char),
        prop::sample::select(ctrl).prop_map(Key::Ctrl),
        prop::sample::select(named.to_vec()),
        (1u8..=12).prop_map(Key::F),
    ]
}

/// The ways terminals send `key`.
fn encodings(key: Key) -> Vec<Vec<u8>> {
    let text = |s: &str| s.as_bytes().to_vec();
    let forms: Vec<&str> = match key {
        Key::Char(c) => return vec![c.to_string().into_bytes()],
        Key::Ctrl(' ') => vec!["\x00"],
        Key::Ctrl(c @ '4'..='7') => return vec![vec![c as u8 - b'4' + 0x1c]],
        Key::Ctrl(c) => return vec![vec![c as u8 - b'a' + 1]],
        Key::Enter => vec!["\r", "\n"],
        Key::Esc => vec!["\x1b"],
        Key::Tab => vec!["\t"],
        Key::BackTab => vec!["\x1b[Z", "\x1b[1;2Z"],
        Key::Backspace => vec!["\x7f", "\x08"],
        Key::Delete => vec!["\x1b[3~", "\x1b[3;5~"],
        Key::Up => vec!["\x1b[A", "\x1bOA", "\x1b[1;5A"],
        Key::Down => vec!["\x1b[B", "\x1bOB", "\x1b[1;2B"],
        Key::Right => vec!["\x1b[C", "\x1bOC", "\x1b[1;3C"],
        Key::Left => vec!["\x1b[D", "\x1bOD", "\x1b[1;6D"],
        Key::PageUp => vec!["\x1b[5~", "\x1b[5;2~"],
        Key::PageDown => vec!["\x1b[6~"],
        Key::Home => vec!["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~", "\x1b[1;5H"],
        Key::End => vec!["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"],
        Key::F(n) => {
            let xterm = [11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 1)];
            let mut forms = vec![format!("\x1b[{xterm}~").into_bytes()];
            if n <= 4 {
                let letter = char::from(b'P' + n - 1);
                forms.push(format!("\x1bO{letter}").into_bytes());
                forms.push(format!("\x1b[1;2{letter}").into_bytes());
            }
            if n <= 5 {
                forms.push(format!("\x1b[[{}", char::from(b'A' + n - 1)).into_bytes());
            }
            return forms;
        }
    };
    forms.into_iter().map(text).collect()
}

/// What a terminal sends for `keys` (each in the form `choices` picks):
/// the bytes, and where it pauses. It pauses after an Esc, which is how a
/// lone Esc is told from a sequence.
fn typed(keys: &[(Key, prop::sample::Index)]) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut pauses = Vec::new();
    for (key, choice) in keys {
        let forms = encodings(*key);
        bytes.extend(choice.get(&forms));
        if *key == Key::Esc {
            pauses.push(bytes.len());
        }
    }
    (bytes, pauses)
}

/// Feeds `bytes` in the reads `cuts` makes, pausing where `pauses` says.
fn decode_in_reads(
    decoder: &mut KeyDecoder,
    bytes: &[u8],
    cuts: &[usize],
    pauses: &[usize],
) -> Vec<Key> {
    let mut ends: Vec<usize> = cuts
        .iter()
        .map(|c| c % (bytes.len() + 1))
        .chain(pauses.iter().copied())
        .chain([bytes.len()])
        .collect();
    ends.sort_unstable();
    ends.dedup();
    let mut keys = Vec::new();
    let mut from = 0;
    for end in ends {
        keys.extend(decoder.feed(&bytes[from..end]));
        from = end;
        if pauses.contains(&end) && decoder.is_mid_sequence() {
            keys.extend(decoder.no_more_bytes());
        }
    }
    keys
}

proptest! {
    #[test]
    fn any_bytes_in_any_reads_decode_without_panicking(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
        pauses in prop::collection::vec(any::<usize>(), 0..5),
    ) {
        let mut decoder = KeyDecoder::new();
        let pauses: Vec<usize> = pauses.iter().map(|p| p % (bytes.len() + 1)).collect();
        decode_in_reads(&mut decoder, &bytes, &cuts, &pauses);
        decoder.no_more_bytes();
    }

    #[test]
    fn every_key_as_a_terminal_sends_it_decodes_back_to_itself_however_it_is_read(
        keys in prop::collection::vec((any_key(), any::<prop::sample::Index>()), 0..30),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        let (bytes, pauses) = typed(&keys);
        let mut decoder = KeyDecoder::new();
        let got = decode_in_reads(&mut decoder, &bytes, &cuts, &pauses);
        let want: Vec<Key> = keys.iter().map(|(key, _)| *key).collect();
        prop_assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&bytes));
        prop_assert!(!decoder.is_mid_sequence());
    }

    #[test]
    fn no_garbage_swallows_the_keys_typed_after_a_pause(
        garbage in prop::collection::vec(any::<u8>(), 0..60),
        keys in prop::collection::vec((any_key(), any::<prop::sample::Index>()), 1..10),
        cuts in prop::collection::vec(any::<usize>(), 0..10),
    ) {
        let mut decoder = KeyDecoder::new();
        decoder.feed(&garbage);
        decoder.no_more_bytes();
        let (bytes, pauses) = typed(&keys);
        let got = decode_in_reads(&mut decoder, &bytes, &cuts, &pauses);
        let want: Vec<Key> = keys.iter().map(|(key, _)| *key).collect();
        prop_assert_eq!(got, want, "after {:?}", garbage);
    }
}
