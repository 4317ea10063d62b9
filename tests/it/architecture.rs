//! The rules of `ARCHITECTURE.md`, checked on the source text: the pure
//! core (the `goref-core` crate) names no async runtime or terminal crate and
//! never reads the clock; the shell's rooms import only from the layers
//! below their own, so that no command imports another; every room and
//! path the page names exists.

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

/// The core crate's sources.
fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/goref-core/src")
}

/// The pure modules, all in the core crate.
const CORES: [&str; 5] = ["game", "referee", "protocol", "tournament", "matches"];

#[test]
fn the_core_crate_depends_on_no_runtime_terminal_or_network_crate() {
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/goref-core/Cargo.toml"),
    )
    .unwrap();
    for name in [
        "tokio",
        "crossterm",
        "ratatui",
        "axum",
        "async-nats",
        "tracing",
        "goref =",
    ] {
        assert!(!manifest.contains(name), "goref-core names {name}");
    }
    for core in CORES {
        assert!(
            !Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(core)
                .exists(),
            "src/{core} is the core crate's, not the shell's"
        );
    }
}

#[test]
fn pure_cores_use_no_runtime_no_terminal_and_no_clock() {
    let root = core_src();
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
    for core in CORES {
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
    let files = rust_files(&core_src());
    assert!(files.len() >= 40, "only {} files checked", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for read in ["Instant::now", "SystemTime::now"] {
            assert!(
                !text.contains(read),
                "{} calls {read}; tests take goref_epoch::epoch()",
                file.display()
            );
        }
    }
}

#[test]
fn every_module_says_what_it_owns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for file in rust_files(&root).into_iter().chain(rust_files(&core_src())) {
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

fn architecture_page() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap()
}

/// The shell's layers as `ARCHITECTURE.md` lists them, lowest first.
fn layers() -> Vec<Vec<String>> {
    let page = architecture_page();
    let lines: Vec<&str> = page.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == "### The shell's layers, lowest first")
        .expect("ARCHITECTURE.md lists the shell's layers");
    lines[start + 1..]
        .iter()
        .map(|l| l.trim())
        .skip_while(|l| !l.starts_with("1. "))
        .take_while(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            let names = l
                .strip_prefix(&format!("{}. ", i + 1))
                .unwrap_or_else(|| panic!("layer {} is numbered in order: {l}", i + 1));
            names
                .split(',')
                .map(|n| n.trim().trim_matches('`').to_string())
                .collect()
        })
        .collect()
}

/// The rooms `src/lib.rs` declares.
fn declared_rooms() -> Vec<String> {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| {
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
                .or_else(|| l.strip_prefix("mod "))
        })
        .map(|l| l.trim_end_matches(';').to_string())
        .filter(|name| name != "test_support")
        .collect()
}

#[test]
fn every_room_of_the_shell_is_in_one_layer_and_every_layer_names_rooms_that_exist() {
    let layers = layers();
    assert!(layers.len() >= 10, "{layers:?}");
    let listed: Vec<&String> = layers.iter().flatten().collect();
    let declared = declared_rooms();
    for room in &declared {
        let times = listed.iter().filter(|n| **n == room).count();
        assert_eq!(times, 1, "{room} is in {times} layers of ARCHITECTURE.md");
    }
    for room in listed {
        assert!(
            declared.contains(room),
            "ARCHITECTURE.md names the room {room}, which src/lib.rs does not declare"
        );
    }
}

#[test]
fn every_path_the_architecture_page_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = architecture_page();
    let mut checked = 0;
    for (at, _) in page.match_indices('`') {
        let rest = &page[at + 1..];
        let Some(end) = rest.find('`') else { break };
        let word = &rest[..end];
        let is_path = ["src/", "crates/", "tests/", "examples/", "docs/"]
            .iter()
            .any(|p| word.starts_with(p))
            && !word.contains(' ');
        if is_path {
            assert!(
                root.join(word).exists(),
                "ARCHITECTURE.md names {word}, which does not exist"
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} paths checked");
}

/// The modules `code` names with `crate::NAME`, outside comments.
fn crate_modules_used(code: &str) -> Vec<String> {
    let mut used = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (at, _) in line.match_indices("crate::") {
            let name: String = line[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                used.push(name);
            }
        }
    }
    used
}

#[test]
fn a_module_uses_only_the_layers_below_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layers = layers();
    let rank = |name: &str| {
        layers
            .iter()
            .position(|layer| layer.iter().any(|n| n == name))
    };
    let declared = declared_rooms();
    let declared: Vec<&str> = declared.iter().map(String::as_str).collect();
    assert!(declared.len() >= 15, "{declared:?}");
    let mut broken = Vec::new();
    for module in &declared {
        let own =
            rank(module).unwrap_or_else(|| panic!("{module} is in no layer of ARCHITECTURE.md"));
        let dir = root.join(module);
        let files = if dir.is_dir() {
            rust_files(&dir)
        } else {
            vec![root.join(format!("{module}.rs"))]
        };
        for file in files {
            if file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            for used in crate_modules_used(&production_code(&file)) {
                if used == *module || !declared.contains(&used.as_str()) {
                    continue;
                }
                let theirs = rank(&used).expect("every module has a layer");
                if theirs >= own {
                    broken.push(format!(
                        "{} (layer {}) uses crate::{used} (layer {})",
                        file.display(),
                        own + 1,
                        theirs + 1
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports up or across:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_layer_check_sees_an_import_up_and_ignores_comments() {
    let used = crate_modules_used(
        "//! see [`crate::driver`]\nuse crate::ui::draw;\nlet x = crate::game::Color::Black;",
    );
    assert_eq!(used, ["ui", "game"]);
}
