//! Referee overhead per move (DESIGN.md §6: median < 0.3 ms, p99 < 2 ms).
//!
//! Two instant engines (the scripted fake engine, answering from a list of
//! legal moves) play a 19x19 game through the whole stack: processes, GTP
//! adapters, driver, referee, record. The engines think for no time, so the
//! time between two accepted moves is the referee's overhead, relaying the
//! move to the opponent included. The pure referee core is measured alone too.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tokio::sync::mpsc;

use goref::bot::Engine;
use goref::driver::{run_game, DriverConfig};
use goref::players::PlayerSpec;
use goref_core::game::rules::{Preset, Rules};
use goref_core::game::sgf::Date;
use goref_core::game::{Color, Move};
use goref_core::referee::{
    GameConfig, GameEvent, Handicap, PlayerEvent, PlayerInfo, RecordInfo, Referee,
};

const SIZE: u8 = 19;

/// A legal game of the built-in engine against itself, as move lists.
fn scripted_game(moves: usize) -> (Vec<Move>, Vec<Move>) {
    let mut engine = Engine::new(SIZE, 42).unwrap();
    let mut lists = (Vec::new(), Vec::new());
    for n in 0..moves {
        let color = if n % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mv = engine.genmove(color);
        if mv == Move::Pass {
            break;
        }
        match color {
            Color::Black => lists.0.push(mv),
            Color::White => lists.1.push(mv),
        }
    }
    lists
}

fn fake_gtp() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples/fake_gtp");
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "--example", "fake_gtp"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    path
}

fn spec(moves: &[Move]) -> PlayerSpec {
    let list: Vec<String> = moves.iter().map(|m| m.to_gtp()).collect();
    PlayerSpec::Gtp {
        command: format!("{} --moves {}", fake_gtp().display(), list.join(",")),
    }
}

/// Plays one game and returns the time between consecutive accepted moves.
fn gaps_of_one_game(
    runtime: &tokio::runtime::Runtime,
    black: &[Move],
    white: &[Move],
) -> Vec<Duration> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let config = DriverConfig {
        game: GameConfig {
            size: SIZE,
            rules: Rules::preset(Preset::Kgs),
            handicap: Handicap::None,
            opening: Vec::new(),
        },
        black: spec(black),
        white: spec(white),
        sgf: Some(std::env::temp_dir().join("goref-bench.sgf")),
        trace: None,
        json: false,
        progress: false,
        engine_stderr: false,
        record: RecordInfo {
            date: Date::from_unix_seconds(0),
            event: None,
            place: None,
            round: None,
            game_name: None,
            main_time: None,
            overtime: None,
        },
        command_timeout: Duration::from_secs(30),
        self_exe: PathBuf::from(env!("CARGO_BIN_EXE_goref")),
        operator_stdin: false,
        subscribers: vec![tx],
        folder: None,
        published: None,
        seats: Default::default(),
        journal_sync: Default::default(),
        analysis: None,
    };
    runtime.block_on(run_game(config, None)).unwrap();
    let mut stamps = Vec::new();
    while let Ok(batch) = rx.try_recv() {
        for handed in batch {
            if matches!(handed.stamped.event, GameEvent::Move { .. }) {
                stamps.push(handed.at);
            }
        }
    }
    stamps.windows(2).map(|w| w[1] - w[0]).collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn whole_stack(c: &mut Criterion) {
    let (black, white) = scripted_game(240);
    let moves = (black.len() + white.len()) as u64;
    let runtime = tokio::runtime::Runtime::new().unwrap();

    let mut gaps = Vec::new();
    for _ in 0..5 {
        gaps.extend(gaps_of_one_game(&runtime, &black, &white));
    }
    gaps.sort();
    println!(
        "referee overhead per move, two instant GTP engines, {} moves: median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        gaps.len(),
        percentile(&gaps, 0.5).as_secs_f64() * 1e3,
        percentile(&gaps, 0.99).as_secs_f64() * 1e3,
        gaps.last().unwrap().as_secs_f64() * 1e3,
    );

    let mut group = c.benchmark_group("referee_overhead");
    group.sample_size(10);
    group.throughput(Throughput::Elements(moves));
    group.bench_function("game_19x19_two_instant_engines", |b| {
        b.iter_custom(|iterations| {
            let started = Instant::now();
            for _ in 0..iterations {
                gaps_of_one_game(&runtime, &black, &white);
            }
            started.elapsed()
        })
    });
    group.finish();
}

fn core_only(c: &mut Criterion) {
    let (black, white) = scripted_game(240);
    let mut order = Vec::new();
    for i in 0..black.len().max(white.len()) {
        order.extend(black.get(i).map(|m| (Color::Black, *m)));
        order.extend(white.get(i).map(|m| (Color::White, *m)));
    }
    let mut group = c.benchmark_group("referee_core");
    group.throughput(Throughput::Elements(order.len() as u64));
    group.bench_function("moves_19x19", |b| {
        b.iter(|| {
            let mut referee = Referee::new(GameConfig {
                size: SIZE,
                rules: Rules::preset(Preset::Kgs),
                handicap: Handicap::None,
                opening: Vec::new(),
            })
            .unwrap();
            let now = Instant::now();
            for color in Color::BOTH {
                referee.handle_player(now, color, PlayerEvent::Ready(PlayerInfo::default()));
            }
            for (color, mv) in &order {
                referee.handle_player(now, *color, PlayerEvent::Thinking);
                referee.handle_player(now, *color, PlayerEvent::Moved(*mv));
                while referee.poll_event().is_some() {}
                while referee.poll_action().is_some() {}
            }
            referee
        })
    });
    group.finish();
}

criterion_group!(benches, core_only, whole_stack);
criterion_main!(benches);
