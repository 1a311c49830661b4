//! `nimscope cram BOARD --checkpoint FILE`: the search's table is restored from FILE when it
//! exists (a damaged or mismatched file is refused before anything runs), saved to it every
//! `--checkpoint-every` seconds while the search runs, when it ends, and on Ctrl+C (SIGINT),
//! which stops the search after the save with a message saying how to resume. A second
//! Ctrl+C stops at once; the file then holds the last save. What the file holds and why a
//! resumed search gives the same answer: `solver::cram::checkpoint`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::interrupt;
use nimscope_core::game::Position;
use nimscope_core::solver::cram::checkpoint::{Checkpoint, Saver};
use nimscope_core::solver::{Control, Evaluator};

/// A checkpointed search under way.
pub struct Saving {
    checkpoint: Arc<Checkpoint>,
    saver: Saver,
}

/// Opens (and restores from) the checkpoint `path` for the Cram (`push`: Push Cram) search of
/// `p` by `eval`, and starts saving it every `every`.
pub fn start(
    path: &Path,
    push: bool,
    p: &Position,
    eval: &mut Evaluator,
    control: &Control,
    every: Duration,
) -> anyhow::Result<Saving> {
    let Position::Board(board) = p else {
        anyhow::bail!("--checkpoint: a position after the push is valued at once; there is no search to save")
    };
    let (cram, push_cram) = eval.cram_solvers();
    let (checkpoint, found) = if push {
        Checkpoint::for_push_cram(path, board, push_cram, control)?
    } else {
        Checkpoint::for_cram(path, board, cram, control)?
    };
    match found {
        Some(info) => {
            // Make sure the file can be replaced before the search starts, not minutes later.
            probe_writable(path)?;
            eprintln!(
                "resuming the search saved in {}: {} entries, {:.1} s and {} option evaluations so far",
                path.display(),
                info.entries,
                info.seconds,
                info.evaluations
            );
        }
        None => {
            checkpoint.save()?;
        }
    }
    let checkpoint = Arc::new(checkpoint);
    let saver = Saver::spawn(checkpoint.clone(), every, control.clone(), interrupt::interrupted)?;
    Ok(Saving { checkpoint, saver })
}

/// Whether the checkpoint can be replaced: a regular file (or none yet) with a folder that
/// takes a new file beside it, where its links lead (the save writes there and renames).
fn probe_writable(path: &Path) -> anyhow::Result<()> {
    nimscope_core::files::atomic::check_writable(path, nimscope_core::files::Accept::FileOnly)
        .map_err(|e| anyhow::anyhow!("checkpoint {}: cannot write beside it: {e}", path.display()))
}

/// Stops saving (if a checkpoint was asked for) and saves once more, after the search: `Ok` when the search finished, the
/// error to report when it was interrupted (by Ctrl+C: then saying how to resume).
pub fn finish<T>(saving: Option<Saving>, result: anyhow::Result<T>) -> anyhow::Result<T> {
    let Some(Saving { checkpoint, saver }) = saving else {
        return result; // no checkpoint was asked for
    };
    if let Some(e) = saver.stop() {
        eprintln!("warning: a periodic save failed: {e}");
    }
    let saved = checkpoint.save();
    let path = checkpoint.path().display();
    match (&result, saved) {
        (Ok(_), Ok(_)) => {}
        (Ok(_), Err(e)) => eprintln!("warning: {e}"),
        (Err(_), Ok(info)) if interrupt::interrupted() => anyhow::bail!(
            "{}; the search is saved in {path} ({} entries, {:.1} s so far): run the same command to resume",
            interrupt::signal_name(),
            info.entries,
            info.seconds
        ),
        (Err(_), Ok(_)) => {}
        (Err(_), Err(e)) => eprintln!("warning: {e}"),
    }
    result
}
