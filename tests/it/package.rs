//! The Debian package (`packaging/build-deb.sh`), built from the release
//! binary and installed into scratch roots: the binary runs from there
//! (`--version`, `check bot`), its man page renders, its bash completion
//! loads, a theme installed beside it is found by name, and `dpkg --root`
//! installs it and removes it leaving nothing behind.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{goref, succeeded};

/// Builds the package from the binary under test, into `out`.
fn build_package(out: &Path) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/build-deb.sh");
    let built = succeeded(
        Command::new(script)
            .arg("--binary")
            .arg(goref())
            .arg("--out")
            .arg(out),
    );
    let deb = PathBuf::from(String::from_utf8_lossy(&built.stdout).trim());
    let name = deb.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(&format!("goref_{}_", env!("CARGO_PKG_VERSION")))
            && name.ends_with(".deb"),
        "{name}"
    );
    deb
}

fn run(program: &Path, args: &[&str]) -> std::process::Output {
    Command::new(program).args(args).output().unwrap()
}

#[test]
fn the_package_installs_a_goref_that_runs_with_its_page_completions_and_themes() {
    let scratch = tempfile::tempdir().unwrap();
    let deb = build_package(&scratch.path().join("out"));
    let root = scratch.path().join("root");
    let unpacked = Command::new("dpkg-deb")
        .arg("-x")
        .arg(&deb)
        .arg(&root)
        .status()
        .unwrap();
    assert!(unpacked.success());
    let installed = root.join("usr/bin/goref");

    let version = run(&installed, &["--version"]);
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("goref {}", env!("CARGO_PKG_VERSION"))
    );
    let card = run(&installed, &["check", "bot"]);
    assert!(
        card.status.success(),
        "{}",
        String::from_utf8_lossy(&card.stderr)
    );
    assert!(String::from_utf8_lossy(&card.stdout).contains("pass"));

    let page = root.join("usr/share/man/man1/goref.1.gz");
    let man = succeeded(
        Command::new("man")
            .args(["--warnings", "-l"])
            .arg(&page)
            .env("MANWIDTH", "80"),
    );
    assert!(
        man.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&man.stderr)
    );
    assert!(String::from_utf8_lossy(&man.stdout).contains("--rules"));

    let completion = root.join("usr/share/bash-completion/completions/goref");
    let loaded = succeeded(Command::new("bash").arg("-c").arg(format!(
        "source {}\ncomplete -p goref",
        completion.display()
    )));
    assert!(String::from_utf8_lossy(&loaded.stdout).contains("_goref"));
    for other in [
        "usr/share/zsh/vendor-completions/_goref",
        "usr/share/fish/vendor_completions.d/goref.fish",
        "usr/share/doc/goref/copyright",
        "usr/share/goref/themes/high-contrast.toml",
    ] {
        assert!(root.join(other).is_file(), "the package has /{other}");
    }
    let copyright = std::fs::read_to_string(root.join("usr/share/doc/goref/copyright")).unwrap();
    for crate_and_licence in ["tokio v", "ratatui v", "async-nats v", ": MIT"] {
        assert!(copyright.contains(crate_and_licence), "{crate_and_licence}");
    }

    let themes = root.join("usr/share/goref/themes");
    let venue = std::fs::read_to_string(themes.join("light.toml"))
        .unwrap()
        .replace("name = \"light\"", "name = \"venue\"");
    std::fs::write(themes.join("venue.toml"), venue).unwrap();
    for (theme, found) in [("venue", true), ("nosuch", false)] {
        let folder = scratch.path().join(format!("game-{theme}"));
        let out = Command::new(&installed)
            .args(["play", "--black", "bot", "--white", "bot", "--size", "5"])
            .args(["--headless", "--theme", theme, "--game-dir"])
            .arg(&folder)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        let refused = said.contains("--theme: no built-in, installed or file theme called");
        assert_eq!(!refused, found, "--theme {theme}: {said}");
        assert_eq!(folder.join("journal.jsonl").exists(), found, "{theme}");
    }
}

#[test]
fn dpkg_installs_the_package_and_removes_it_leaving_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let deb = build_package(&scratch.path().join("out"));
    let root = scratch.path().join("root");
    for dir in [
        "var/lib/dpkg/info",
        "var/lib/dpkg/updates",
        "var/lib/dpkg/triggers",
    ] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    std::fs::write(root.join("var/lib/dpkg/status"), "").unwrap();
    let before = files_under(&root);
    let dpkg = |args: &[&str]| {
        succeeded(
            Command::new("dpkg")
                .arg(format!("--root={}", root.display()))
                .args([
                    "--force-depends",
                    "--force-not-root",
                    "--force-script-chrootless",
                ])
                .args(args),
        );
    };
    dpkg(&["-i", &deb.display().to_string()]);
    assert!(root.join("usr/bin/goref").is_file());
    assert!(root.join("usr/share/man/man1/goref.1.gz").is_file());
    dpkg(&["--purge", "goref"]);
    let after: Vec<PathBuf> = files_under(&root)
        .into_iter()
        .filter(|path| !path.starts_with(root.join("var/lib/dpkg")))
        .collect();
    let before: Vec<PathBuf> = before
        .into_iter()
        .filter(|path| !path.starts_with(root.join("var/lib/dpkg")))
        .collect();
    assert_eq!(after, before, "dpkg --purge leaves nothing of goref behind");
}

/// Every file and folder under `root`.
fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path.clone());
            }
            found.push(path);
        }
    }
    found.sort();
    found
}
