//! Legality and move execution speed on 19x19 under positional superko.
//!
//! The budget is more than 2 million legality checks per second: the random
//! bot checks every point on every move, and the referee checks every move
//! it relays.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use goref_core::game::board::{Board, BoardRules, KoRule};
use goref_core::game::{Color, Move, Point};

const RULES: BoardRules = BoardRules {
    ko: KoRule::PositionalSuperko,
    suicide_allowed: false,
};

/// Plays random legal moves that do not fill the mover's own eyes, passing
/// when there are none, until `limit` moves or two passes in a row.
fn random_game(seed: u64, limit: usize) -> (Board, Vec<(Color, Move)>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut board = Board::new(19, RULES).expect("19x19 is a valid size");
    let mut moves = Vec::new();
    while moves.len() < limit {
        let color = board.to_move();
        let candidates: Vec<Point> = board
            .legal_points(color)
            .into_iter()
            .filter(|&p| !board.is_eye_like(color, p))
            .collect();
        if candidates.is_empty() {
            board.pass(color).expect("passing is always legal");
            if moves.last().is_some_and(|&(_, m)| m == Move::Pass) {
                moves.push((color, Move::Pass));
                break;
            }
            moves.push((color, Move::Pass));
        } else {
            let p = candidates[rng.random_range(0..candidates.len())];
            board.play(color, p).expect("legal point");
            moves.push((color, Move::Play(p)));
        }
    }
    (board, moves)
}

fn check_all_points(c: &mut Criterion) {
    let (board, _) = random_game(20_250_601, 150);
    let color = board.to_move();
    let points: Vec<Point> = board.points().collect();
    let mut group = c.benchmark_group("legality");
    group.throughput(Throughput::Elements(points.len() as u64));
    group.bench_function("check_19x19_positional_superko", |b| {
        b.iter(|| {
            let mut legal = 0usize;
            for &p in &points {
                legal += usize::from(std::hint::black_box(&board).check(color, p).is_ok());
            }
            legal
        })
    });
    group.finish();
}

fn play_whole_game(c: &mut Criterion) {
    let (_, moves) = random_game(7, 1_000);
    let mut group = c.benchmark_group("execution");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("play_19x19_random_game", |b| {
        b.iter_batched(
            || Board::new(19, RULES).expect("19x19 is a valid size"),
            |mut board| {
                for &(color, m) in &moves {
                    match m {
                        Move::Play(p) => {
                            board.play(color, p).expect("replayed move is legal");
                        }
                        _ => board.pass(color).expect("passing is always legal"),
                    }
                }
                board
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, check_all_points, play_whole_game);
criterion_main!(benches);
