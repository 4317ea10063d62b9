//! The dependency rules of `src/lib.rs`, checked on the source text: the pure
//! cores use no async runtime or terminal crate and never read the clock.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The file's code without its `#[cfg(test)]` module, which may use the
/// clock. Test modules in files of their own (`tests.rs`) are skipped.
fn production_code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[test]
fn pure_cores_use_no_runtime_no_terminal_and_no_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let forbidden = [
        "tokio",
        "crossterm",
        "ratatui",
        "Instant::now",
        "SystemTime::now",
        "std::fs",
        "std::process",
        "std::net",
        "std::thread",
    ];
    let mut checked = 0;
    for core in ["game", "referee", "protocol"] {
        for file in rust_files(&root.join(core)) {
            if file.file_name().is_some_and(|name| name == "tests.rs") {
                continue;
            }
            let code = production_code(&file);
            for word in forbidden {
                assert!(
                    !code.contains(word),
                    "{} uses {word}, which the pure cores must not",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} files checked");
}

#[test]
fn pure_cores_never_read_the_clock_not_even_in_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for core in ["game", "referee", "protocol"] {
        for file in rust_files(&root.join(core)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for read in ["Instant::now", "SystemTime::now"] {
                assert!(
                    !text.contains(read),
                    "{} calls {read}; tests take crate::test_support::epoch()",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn every_module_says_what_it_owns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for file in rust_files(&root) {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.trim_start().starts_with("//!"),
            "{} has no //! header",
            file.display()
        );
    }
}

#[test]
fn every_line_goref_prints_goes_through_the_console() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    for file in rust_files(&root) {
        let test_file = file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with("tests.rs"));
        if file.ends_with("console.rs") || test_file {
            continue;
        }
        let code = production_code(&file);
        for print in ["println!", "print!(", "eprint!(", "dbg!("] {
            assert!(
                !code.contains(print),
                "{} uses {print}, which panics on a closed pipe; use crate::console",
                file.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} files checked");
}

#[test]
fn the_screen_never_touches_a_transport_or_the_runtime() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut checked = 0;
    for file in rust_files(&root) {
        let code = production_code(&file);
        for word in [
            "crate::transport",
            "tokio",
            "crate::players",
            "crate::driver",
            "std::process",
        ] {
            assert!(
                !code.contains(word),
                "{} uses {word}; the screen only draws a GameView",
                file.display()
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} files checked");
}
