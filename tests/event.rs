//! `goref event init`: the real binary writes a commented event file that
//! reads back, and never overwrites one.

mod common;

use std::process::Command;

fn init(dir: &std::path::Path) -> std::process::Output {
    Command::new(common::goref())
        .args(["event", "init"])
        .arg(dir)
        .output()
        .unwrap()
}

#[test]
fn init_writes_a_file_that_reads_back_and_keeps_an_edited_one() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("championship");
    let first = init(&dir);
    assert!(first.status.success(), "{first:?}");
    let event = goref::event::file::load(&dir).unwrap();
    assert_eq!(event.entrants.len(), 4);
    let path = dir.join("event.toml");
    std::fs::write(&path, "name = \"edited\"\n").unwrap();
    let again = init(&dir);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "name = \"edited\"\n"
    );
    let error = goref::event::file::load(&dir).unwrap_err().to_string();
    assert!(error.contains("system"), "{error}");
}
