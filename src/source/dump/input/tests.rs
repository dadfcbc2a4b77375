use std::io::{Cursor, Read, Seek, SeekFrom};

use super::*;

fn error(bytes: &[u8]) -> String {
    read_dump(bytes, "d", None).unwrap_err().to_string()
}

const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n";

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
    units.flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() }).collect()
}

#[test]
fn wide_encodings_are_named_with_what_to_do() {
    for (big_endian, bom, name) in [
        (false, true, "UTF-16LE"),
        (false, false, "UTF-16LE"),
        (true, true, "UTF-16BE"),
        (true, false, "UTF-16BE"),
    ] {
        for text in [NODE, "{\"apiVersion\": \"v1\"}"] {
            let message = error(&utf16(text, big_endian, bom));
            assert!(
                message.starts_with(&format!("d: the dump is {name} text (what Windows PowerShell")),
                "{message}"
            );
            assert!(message.contains("Out-File -Encoding utf8"), "{message}");
        }
    }
    assert!(error(&[0xFF, 0xFE, 0, 0, b'a', 0, 0, 0]).contains("UTF-32LE"));
}

#[test]
fn binary_and_endless_inputs_stop_at_once_or_at_the_limit() {
    let zeros = std::io::repeat(0).take(1 << 30);
    let message = read_dump(zeros, "/dev/zero", None).unwrap_err().to_string();
    assert!(message.starts_with("/dev/zero: byte 0 is NUL, so this is binary data"), "{message}");
    let message = error(b"apiVersion: v1\nkind: Node\0\n");
    assert!(message.starts_with("d: byte 25 is NUL"), "{message}");
    let message = error(b"apiVersion: v1\nkind: \xff\n");
    assert!(message.starts_with("cannot read d: stream did not contain valid UTF-8 (byte 21)"), "{message}");
    let limits = 1 << 20;
    let endless = std::io::repeat(b'#');
    let message = read_within(endless, "stdin", None, limits).unwrap_err().to_string();
    assert!(
        message.starts_with("stdin: more than 1 MiB of YAML, the most a dump is read up to"),
        "{message}"
    );
    let spaces = std::io::repeat(b' ');
    assert!(read_within(spaces, "stdin", None, limits).unwrap_err().to_string().contains("1 MiB of YAML"));
    let message = read_within(NODE.as_bytes(), "f", Some(2 << 20), limits).unwrap_err().to_string();
    assert!(message.contains("(a YAML file outside kubectl's plain layout is held whole while it is parsed); write the dump as JSON"), "{message}");
}

#[test]
fn the_first_character_decides_between_json_and_yaml() {
    assert_eq!(decide(b"  \xef\xbb\xbf{", true), Some(false), "a BOM after spaces is not trimmed");
    assert_eq!(decide(b"\xef\xbb\xbf\xef\xbb\xbf \n[", true), Some(true));
    assert_eq!(decide("\u{a0}\u{2028}{".as_bytes(), true), Some(true), "as str::trim_start");
    assert_eq!(decide(b"   ", false), None);
    assert_eq!(decide(b"\xef\xbb", false), None);
    assert_eq!(decide(b"   ", true), Some(false));
    assert_eq!(decide(b"a", false), Some(false));
}

/// A file that counts how often it is read again from the start.
struct File<'b> {
    bytes: Cursor<&'b [u8]>,
    rewinds: usize,
}

impl Read for File<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.bytes.read(buf)
    }
}

impl Seek for File<'_> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.rewinds += 1;
        self.bytes.seek(pos)
    }
}

/// What a regular file of `bytes` reads as, and how often it was read again.
fn from_file(bytes: &[u8]) -> (Result<ParsedDump, String>, usize) {
    let mut file = File { bytes: Cursor::new(bytes), rewinds: 0 };
    let read = read_dump_file(&mut file, "d", bytes.len() as u64).map_err(|e| e.to_string());
    (read, file.rewinds)
}

#[test]
fn a_yaml_file_is_streamed_when_it_can_be_and_else_read_again_whole() {
    let within =
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n---\n# a comment\nkind: List\nitems: []\n";
    let (read, rewinds) = from_file(within.as_bytes());
    assert_eq!((read, rewinds), (read_dump(within.as_bytes(), "d", None).map_err(|e| e.to_string()), 0));
    let outside: [&[u8]; 8] = [
        NODE.as_bytes(),
        b"apiVersion: v1\nkind: Node\nmetadata: &m\n  name: n\n",
        b"apiVersion: v1\nkind: Node\nkind: Node\n",
        b"apiVersion: v1\nkind: Node\0\n",
        b"apiVersion: v1\nkind: \xff\n",
        b"# nothing\n",
        b"",
        b"apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  - x\n",
    ];
    for bytes in outside {
        let (read, rewinds) = from_file(bytes);
        assert_eq!(read, read_dump(bytes, "d", None).map_err(|e| e.to_string()), "{bytes:?}");
        assert_eq!(rewinds, 1, "{bytes:?}");
    }
    let json = b"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}";
    assert_eq!(from_file(json).0, read_dump(&json[..], "d", None).map_err(|e| e.to_string()));
}
