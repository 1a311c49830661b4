//! Speed of the Cram and Push Cram solvers (README "Speed"): small published boards, each
//! solved from an empty table. Run with `cargo bench --bench cram`; the long boards are timed
//! by `examples/bench_cram.rs` and `examples/bench_push.rs`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or tool fails loudly on the unexpected"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use nimscope_core::game::rules::cram_board::Board;
use nimscope_core::solver::Control;
use nimscope_core::solver::cram::CramSolver;
use nimscope_core::solver::cram::push::PushCramSolver;

fn cram(c: &mut Criterion) {
    let mut group = c.benchmark_group("cram");
    for text in ["4x5", "5x5", "5x6", "3x11"] {
        let board: Board = text.parse().unwrap();
        group.bench_function(text, |b| {
            b.iter(|| {
                CramSolver::with_table_bytes(64 << 20)
                    .value(&board, &Control::new())
                    .unwrap()
            })
        });
    }
    group.finish();
}

fn push_cram(c: &mut Criterion) {
    let mut group = c.benchmark_group("push-cram");
    let board = Board::rectangle(3, 11).unwrap();
    group.bench_function("3x11 outcome", |b| {
        b.iter(|| {
            PushCramSolver::with_table_bytes(64 << 20)
                .outcome(&board, &Control::new())
                .unwrap()
        })
    });
    group.bench_function("3x11 value", |b| {
        b.iter(|| {
            PushCramSolver::with_table_bytes(64 << 20)
                .value(&board, &Control::new())
                .unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = cram, push_cram
}
criterion_main!(benches);
