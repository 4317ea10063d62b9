//! A CGOS game's folder: a game told again to a seat started afresh takes
//! its name back from the folder a killed seat left unfinished, which is
//! set aside whole; a new game, a finished game's folder and a folder a
//! live seat still writes are never touched.

use super::*;
use goref_core::referee::GameEvent;

fn note(message: &str) -> GameEvent {
    GameEvent::Notice {
        color: None,
        message: message.into(),
    }
}

fn journal_of(folder: &Path) -> String {
    std::fs::read_to_string(folder.join(JOURNAL)).unwrap()
}

/// Game 7's folder with one line in its journal, not finished.
fn begun(dir: &Path, at: Instant) -> CgosGameFolder {
    let (mut first, aside) = CgosGameFolder::create(dir, 7, ("game 7", false), "cgos", at).unwrap();
    assert_eq!(aside, None);
    first.write(at, note("before the kill"));
    first
}

#[test]
fn a_game_told_again_takes_its_name_back_and_the_unfinished_folder_is_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let at = Instant::now();
    let unfinished = begun(dir.path(), at).path().to_path_buf();
    let (mut again, aside) =
        CgosGameFolder::create(dir.path(), 7, ("game 7", true), "cgos", at).unwrap();
    again.write(at, note("told again"));
    assert_eq!(again.path(), unfinished);
    let aside = aside.expect("the unfinished folder is set aside");
    let pid = std::process::id();
    assert_eq!(aside, unfinished.with_extension(format!("abandoned-{pid}")));
    assert!(journal_of(&aside).contains("before the kill"));
    assert!(journal_of(&unfinished).contains("told again"));
    assert!(!journal_of(&unfinished).contains("before the kill"));
}

#[test]
fn a_folder_still_written_a_new_game_and_a_finished_one_are_never_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let at = Instant::now();
    let first = begun(dir.path(), at);
    let unfinished = first.path().to_path_buf();
    let second = |again| CgosGameFolder::create(dir.path(), 7, ("game 7", again), "cgos", at);
    let (elsewhere, aside) = second(true).unwrap();
    assert_eq!(aside, None, "a folder a live seat writes stays");
    assert_ne!(elsewhere.path(), unfinished);
    drop(first);
    let (fresh, aside) = second(false).unwrap();
    assert_eq!(aside, None, "a new game leaves another's folder");
    assert_ne!(fresh.path(), unfinished);
    std::fs::write(unfinished.join(MANIFEST), "").unwrap();
    let (_, aside) = second(true).unwrap();
    assert_eq!(aside, None, "a finished game's folder stays");
    assert!(journal_of(&unfinished).contains("before the kill"));
}
