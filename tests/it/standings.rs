//! `goref standings --games`: the real binary ranks a list of games, and
//! refuses a bad list with the line that is wrong.

use crate::common;

use std::process::Command;

const FOUR: &str = "round,black,white,result
1,alpha,beta,W+R
1,gamma,delta,B+3.5
2,alpha,gamma,B+T
2,beta,delta,0
3,alpha,delta,W+F
3,beta,gamma,B+R
4,alpha,BYE,
";

fn standings(games: &str, args: &[&str]) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.csv");
    std::fs::write(&file, games).unwrap();
    let output = Command::new(common::goref())
        .arg("standings")
        .arg("--games")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_crosstable_ranks_with_the_chain_and_fits_80_columns() {
    let (ok, out, err) = standings(FOUR, &["--tie-breaks", "cgf", "--bye-score", "0.5"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{out}");
    assert!(
        lines[0].contains("SOS") && lines[0].contains("tSODOS"),
        "{out}"
    );
    assert!(
        lines[1].contains("beta") && lines[1].starts_with('1'),
        "{out}"
    );
    let alpha = lines.iter().find(|l| l.contains("alpha")).unwrap();
    assert!(
        alpha.contains("bye") && alpha.contains("1½"),
        "alpha: 1 win + ½ bye: {out}"
    );
}

#[test]
fn json_gives_each_tie_break_under_its_name() {
    let (ok, out, err) = standings(FOUR, &["--json"]);
    assert!(ok, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["tie_breaks"], serde_json::json!(["sos", "sodos"]));
    let beta = &value["rows"][0];
    assert_eq!(
        (beta["name"].as_str(), beta["score"].as_f64()),
        (Some("beta"), Some(2.5))
    );
    assert_eq!(
        beta["sos"].as_f64(),
        Some(4.5),
        "alpha's 2 with its bye, delta's 1½, gamma's 1"
    );
}

#[test]
fn a_bad_list_is_refused_with_its_line() {
    let (ok, out, err) = standings("1,a,b,B+R\n2,a,b,maybe\n", &[]);
    assert!(!ok && out.is_empty());
    assert!(err.contains("line 2") && err.contains("'maybe'"), "{err}");
    let (ok, _, err) = standings(FOUR, &["--tie-breaks", "sos,lottery"]);
    assert!(!ok && err.contains("lottery"), "{err}");
}

#[test]
fn a_device_is_refused_and_a_full_stdout_is_an_incomplete_run() {
    let zero = Command::new(common::goref())
        .args(["standings", "--games", "/dev/zero"])
        .output()
        .unwrap();
    assert_eq!(zero.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&zero.stderr).contains("a character device, not a regular file"),
        "{zero:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("games.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let from_fifo = Command::new(common::goref())
        .args(["standings", "--games"])
        .arg(&fifo)
        .output()
        .unwrap();
    assert_eq!(
        from_fifo.status.code(),
        Some(2),
        "a FIFO is refused, not waited on"
    );
    assert!(
        String::from_utf8_lossy(&from_fifo.stderr).contains("not a regular file"),
        "{from_fifo:?}"
    );
    let file = dir.path().join("games.csv");
    std::fs::write(&file, FOUR).unwrap();
    let full = Command::new(common::goref())
        .args(["standings", "--games"])
        .arg(&file)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(full.status.code(), Some(3), "{full:?}");
    assert!(String::from_utf8_lossy(&full.stderr).contains("did not take the whole standings"));
}
