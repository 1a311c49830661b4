//! Checkpoints interrupted at random points, restored tables, and damaged files.

use super::format::{MAGIC, scan};
use super::{Board, Checkpoint, CheckpointError, CheckpointInfo, KIND_EXACT, Saver};
use crate::solver::cram::CramSolver;
use crate::solver::cram::push::PushCramSolver;
use crate::solver::cram::test_rng::Lcg;
use crate::solver::{Control, SolveError};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A file name of its own in the system's temporary folder.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimscope-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The board of a Cram key: its cells packed with stride `w`.
fn board_of(key: u128, w: usize) -> Board {
    let rows = (128 - key.leading_zeros() as usize).div_ceil(w);
    Board::from_mask(rows, w, key).unwrap()
}

/// Runs `solve` again and again, each time on a fresh solver restored from the file (a new
/// process), cancelled after a random while and saved (also every few milliseconds by a
/// `Saver` while it runs), until it finishes; returns the answer and the interruptions.
fn interrupted<S, T: std::fmt::Debug>(
    seed: u64,
    fresh: impl Fn() -> S,
    open: impl Fn(&mut S, &Control) -> Result<(Checkpoint, Option<CheckpointInfo>), CheckpointError>,
    solve: impl Fn(&mut S, &Control) -> Result<T, SolveError>,
) -> (T, u32) {
    let mut rng = Lcg(seed);
    let mut stops = 0;
    for round in 0.. {
        let mut solver = fresh();
        let control = Control::with_budget(64 << 20);
        let (checkpoint, found) = open(&mut solver, &control).unwrap();
        assert_eq!(found.is_some(), round > 0);
        let checkpoint = Arc::new(checkpoint);
        let saver = Saver::spawn(checkpoint.clone(), Duration::from_millis(3), control.clone(), || false).unwrap();
        // from a fraction of a millisecond up, growing so that every run ends
        let wait = Duration::from_micros(200 + rng.below(3000) * (round + 1));
        let c = control.clone();
        let canceller = std::thread::Builder::new()
            .name("canceller".into())
            .spawn(move || {
                std::thread::sleep(wait);
                c.cancel();
            })
            .unwrap();
        let result = solve(&mut solver, &control);
        assert!(saver.stop().is_none());
        checkpoint.save().unwrap();
        canceller.join().unwrap();
        match result {
            Ok(answer) => return (answer, stops),
            Err(SolveError::Cancelled) => stops += 1,
            Err(e) => panic!("{e}"),
        }
    }
    unreachable!()
}

#[test]
fn cram_interrupted_at_random_points_gives_the_same_value() {
    let mut all_stops = 0;
    for (board, seed, threads) in [
        ("5x6", 1, 2),
        ("4x7", 2, 1),
        ("3x11", 3, 2),
        ("..#..../......./.#...../.......", 4, 1),
    ] {
        let b: Board = board.parse().unwrap();
        let expected = CramSolver::with_table_bytes(16 << 20)
            .with_threads(1)
            .value(&b, &Control::new())
            .unwrap();
        let path = temp(&format!("cram-{seed}"));
        let (value, stops) = interrupted(
            seed,
            || CramSolver::with_table_bytes(16 << 20).with_threads(threads),
            |s, c| Checkpoint::for_cram(&path, &b, s, c),
            |s, c| s.value(&b, c),
        );
        assert_eq!(value, expected, "{board} after {stops} interruptions");
        all_stops += stops;

        // Every fact in the file is true: small components against a fresh solver.
        let mut checked = 0;
        let mut fresh = CramSolver::with_table_bytes(1 << 20).with_threads(1);
        scan(&path, &mut |e| {
            if e.key.count_ones() <= 12 {
                let v = fresh.value(&board_of(e.key, e.tag as usize), &Control::new()).unwrap();
                if e.kind == KIND_EXACT {
                    assert_eq!(v as u64, e.payload, "{e:?}");
                } else {
                    assert_eq!(e.payload >> v & 1, 0, "{e:?} excludes the value {v}");
                }
                checked += 1;
            }
        })
        .unwrap();
        assert!(checked > 10, "{board}: {checked} facts checked");
        std::fs::remove_file(&path).unwrap();
    }
    assert!(all_stops >= 4, "interrupted only {all_stops} times");
}

#[test]
fn push_cram_interrupted_at_random_points_gives_the_same_value() {
    for (board, seed) in [("3x9", 5), ("4x6", 6)] {
        let b: Board = board.parse().unwrap();
        let expected = PushCramSolver::with_table_bytes(16 << 20)
            .value(&b, &Control::new())
            .unwrap();
        let path = temp(&format!("push-{seed}"));
        let (value, stops) = interrupted(
            seed,
            || PushCramSolver::with_table_bytes(16 << 20),
            |s, c| Checkpoint::for_push_cram(&path, &b, s, c),
            |s, c| s.value(&b, c),
        );
        assert_eq!(value, expected, "{board} after {stops} interruptions");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_restored_table_answers_without_searching() {
    let b: Board = "4x7".parse().unwrap();
    let path = temp("restored");
    let control = Control::new();
    let mut s = CramSolver::with_table_bytes(16 << 20).with_threads(1);
    let (checkpoint, found) = Checkpoint::for_cram(&path, &b, &mut s, &control).unwrap();
    assert!(found.is_none());
    let v = s.value(&b, &control).unwrap();
    let saved = checkpoint.save().unwrap();
    assert!(saved.entries > 100 && saved.saves == 1, "{saved:?}");
    let mut again = CramSolver::with_table_bytes(16 << 20).with_threads(1);
    let (_, found) = Checkpoint::for_cram(&path, &b, &mut again, &control).unwrap();
    let found = found.unwrap();
    assert_eq!(
        (found.entries, found.saves, found.board.as_str()),
        (saved.entries, 1, "......./......./......./.......")
    );
    assert_eq!(again.value(&b, &control).unwrap(), v);
    assert_eq!(again.stats().expanded, 0, "the root's value is a look-up");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn damaged_foreign_or_mismatched_files_are_refused_and_change_nothing() {
    let b: Board = "4x5".parse().unwrap();
    let control = Control::new();
    let path = temp("good");
    let mut s = CramSolver::with_table_bytes(4 << 20);
    let (checkpoint, _) = Checkpoint::for_cram(&path, &b, &mut s, &control).unwrap();
    s.value(&b, &control).unwrap();
    checkpoint.save().unwrap();
    let good = std::fs::read(&path).unwrap();

    let refused = |bytes: &[u8], board: &str, push: bool| -> String {
        let bad = temp("bad");
        std::fs::write(&bad, bytes).unwrap();
        let board: Board = board.parse().unwrap();
        let e = if push {
            let mut p = PushCramSolver::with_table_bytes(4 << 20);
            let e = Checkpoint::for_push_cram(&bad, &board, &mut p, &control).err().unwrap();
            assert_eq!(p.table_len(), 0);
            e
        } else {
            let mut s = CramSolver::with_table_bytes(4 << 20);
            let e = Checkpoint::for_cram(&bad, &board, &mut s, &control).err().unwrap();
            assert_eq!(s.stats().table_capacity, 0, "nothing allocated, nothing stored");
            e
        };
        let text = e.to_string();
        assert!(text.contains(&*bad.to_string_lossy()) && !text.contains('\n'), "{text}");
        text
    };
    assert!(refused(&good, "4x6", false).contains("not of cram ....../"));
    assert!(refused(&good, "4x5", true).contains("not of push-cram"));
    assert!(refused(b"", "4x5", false).contains("not a nimscope Cram checkpoint"));
    assert!(refused(b"PNG\x89 and so on", "4x5", false).contains("not a nimscope Cram checkpoint"));
    assert!(refused(&good[..good.len() - 1], "4x5", false).contains("damaged"));
    assert!(refused(&good[..good.len() / 2], "4x5", false).contains("damaged"));
    let header_end = good.iter().skip(MAGIC.len()).position(|&c| c == b'\n').unwrap() + MAGIC.len();
    assert!(refused(&good[..header_end], "4x5", false).contains("damaged"));
    // every byte of the body flipped in turn (a sample): the checksum or the structure
    let mut rng = Lcg(7);
    for _ in 0..40 {
        let mut bytes = good.clone();
        let i = header_end + 1 + rng.below((good.len() - header_end - 1) as u64) as usize;
        bytes[i] ^= 1 << rng.below(8);
        assert!(refused(&bytes, "4x5", false).contains("damaged"), "byte {i}");
    }
    // a newer format
    let newer = String::from_utf8_lossy(&good[..=header_end]).replace("\"version\":1", "\"version\":9");
    assert!(refused(newer.as_bytes(), "4x5", false).contains("newer nimscope"));
    // the good file still loads
    let mut s = CramSolver::with_table_bytes(4 << 20);
    assert!(Checkpoint::for_cram(&path, &b, &mut s, &control).unwrap().1.is_some());
    std::fs::remove_file(&path).unwrap();
}
