//! A kept program through its link, with real processes: GNU Go kept and
//! ready between games, a move in flight and the lines after it drained,
//! a hang and a crash started again, a program that cannot start.

use super::*;

use std::path::Path;

/// A GTP program in `sh`: `genmove` thinks `think` and then writes a line
/// beyond its answer; every other command is answered at once. With
/// `first_run`, its first run (marked by a file) does that instead.
fn script(dir: &Path, name: &str, first_run: Option<&str>) -> Vec<String> {
    let path = dir.join(format!("{name}.sh"));
    let mark = dir.join(format!("{name}.ran"));
    let first = first_run.map_or(String::new(), |act| {
        format!(
            "if [ ! -e '{m}' ]; then : > '{m}'; {act}; fi\n",
            m = mark.display()
        )
    });
    let body = format!(
        "{first}while read -r line; do case \"$line\" in \
         genmove*) sleep 1; printf '= D4\\n\\ninfo pondering\\n\\n';; \
         *) printf '= 2\\n\\n';; esac; done\n"
    );
    std::fs::write(&path, body).unwrap();
    vec!["sh".into(), path.display().to_string()]
}

async fn next_news(link: &mut SeatLink) -> SeatNews {
    tokio::time::timeout(Duration::from_secs(10), link.news.recv())
        .await
        .expect("news in time")
        .expect("the keeper lives")
}

async fn answer(link: &mut SeatLink) -> String {
    loop {
        match next_news(link).await {
            SeatNews::Answer { text, .. } => return text,
            SeatNews::Admitted { .. }
            | SeatNews::Program {
                state: ProgramState::Started,
                ..
            } => {}
            other => panic!("not an answer: {other:?}"),
        }
    }
}

#[tokio::test]
async fn gnu_go_kept_answers_through_its_link_and_is_ready_between_games() {
    let dir = tempfile::tempdir().unwrap();
    let argv = vec!["/usr/games/gnugo".into(), "--mode".into(), "gtp".into()];
    let (kept, mut link) = KeptProgram::start("board-1.gnugo", argv, dir.path().join("gnugo.log"));
    assert_eq!(
        next_news(&mut link).await,
        SeatNews::Admitted {
            client: KEPT_CLIENT.into()
        }
    );
    assert_eq!(*link.admitted.borrow(), 1);
    link.to_seat.send(ToSeat::Command("name".into())).unwrap();
    assert_eq!(answer(&mut link).await, "= GNU Go\n\n");
    for _ in 0..3 {
        kept.ready(false, Duration::from_secs(10)).await.unwrap();
    }
    link.to_seat
        .send(ToSeat::Command("boardsize 9".into()))
        .unwrap();
    assert_eq!(answer(&mut link).await, "= \n\n");
    assert_eq!(kept.starts(), 1, "kept, not started again");
    link.to_seat.send(ToSeat::Goodbye("done".into())).unwrap();
}

#[tokio::test]
async fn a_move_in_flight_is_answered_and_what_follows_it_drained_before_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let argv = script(dir.path(), "ponders", None);
    let (kept, mut link) = KeptProgram::start("board-1.new", argv, dir.path().join("log"));
    link.to_seat
        .send(ToSeat::Command("genmove b".into()))
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = std::time::Instant::now();
    kept.ready(false, Duration::from_secs(10)).await.unwrap();
    assert!(
        asked.elapsed() >= Duration::from_millis(800),
        "the check waited for the move in flight"
    );
    assert_eq!(answer(&mut link).await, "= D4\n\n", "the move's answer");
    link.to_seat
        .send(ToSeat::Command("clear_board".into()))
        .unwrap();
    assert_eq!(
        answer(&mut link).await,
        "= 2\n\n",
        "the line written after the move was drained, not taken for this answer"
    );
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    assert!(log.contains("--- drained: info pondering"), "{log}");
}

#[tokio::test]
async fn a_program_that_does_not_answer_in_time_is_not_ready_and_is_once_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let argv = script(dir.path(), "hangs", Some("exec sleep 60"));
    let (kept, mut link) = KeptProgram::start("board-2.old", argv, dir.path().join("log"));
    let why = kept
        .ready(false, Duration::from_millis(300))
        .await
        .unwrap_err();
    assert_eq!(why, "no answer to protocol_version within 0.3 s");
    kept.ready(true, Duration::from_secs(10)).await.unwrap();
    assert_eq!(kept.starts(), 2);
    link.to_seat.send(ToSeat::Command("name".into())).unwrap();
    assert_eq!(answer(&mut link).await, "= 2\n\n");
}

#[tokio::test]
async fn a_program_that_exits_is_said_to_and_is_started_again_at_the_next_readiness_only() {
    let dir = tempfile::tempdir().unwrap();
    let argv = script(dir.path(), "crashes", Some("read -r line; exit 3"));
    let (kept, mut link) = KeptProgram::start("board-1.new", argv, dir.path().join("log"));
    link.to_seat
        .send(ToSeat::Command("genmove b".into()))
        .unwrap();
    let exited = loop {
        match next_news(&mut link).await {
            SeatNews::Program { state, detail } => break (state, detail),
            SeatNews::Admitted { .. } => {}
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(exited.0, ProgramState::Exited);
    assert!(exited.1.contains('3'), "{}", exited.1);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(kept.starts(), 1, "not started again by itself");
    kept.ready(false, Duration::from_secs(10)).await.unwrap();
    assert_eq!(kept.starts(), 2);
    assert!(matches!(
        next_news(&mut link).await,
        SeatNews::Program {
            state: ProgramState::Started,
            ..
        }
    ));
}

#[tokio::test]
async fn a_program_that_cannot_start_says_why_and_is_never_ready() {
    let dir = tempfile::tempdir().unwrap();
    let argv = vec![dir.path().join("missing").display().to_string()];
    let (kept, mut link) = KeptProgram::start("board-1.new", argv, dir.path().join("log"));
    let said = loop {
        match next_news(&mut link).await {
            SeatNews::Program { detail, .. } => break detail,
            SeatNews::Admitted { .. } => {}
            other => panic!("{other:?}"),
        }
    };
    assert!(said.contains("cannot start"), "{said}");
    let why = kept.ready(false, Duration::from_secs(1)).await.unwrap_err();
    assert_eq!(why, "it could not be started");
}

#[tokio::test]
async fn a_boards_command_that_comes_during_the_check_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let argv = script(dir.path(), "ponders", None);
    let (kept, mut link) = KeptProgram::start("board-1.new", argv, dir.path().join("log"));
    let checking = kept.clone();
    let check = tokio::spawn(async move { checking.ready(false, Duration::from_secs(10)).await });
    tokio::task::yield_now().await;
    link.to_seat
        .send(ToSeat::Command("genmove b".into()))
        .unwrap();
    check.await.unwrap().unwrap();
    assert_eq!(
        answer(&mut link).await,
        "= D4\n\n",
        "its own answer, not the check's"
    );
}
