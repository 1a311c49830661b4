//! Searches that survive a restart: a checkpoint file holds what a Cram or Push Cram search has
//! learnt (its transposition table), so that running the same search again with the same file
//! starts from there (`nimscope cram BOARD --checkpoint FILE`).
//!
//! What is saved is the table: every stored fact (a component's exact value, values it is
//! known not to have, Push Cram outcomes and values) is true whatever happens to the search
//! that found it, so any set of them is a valid table, and a search started on it gives the
//! same answer as one started on an empty table, only sooner. The root's progress is in it
//! too: each of the root's options that was settled (its value, or that it is not the value
//! asked about) is stored like any other, so the resumed root search answers those by look-up
//! and goes on with the ones in flight, whose finished sub-searches are look-ups as well.
//! Besides the table the file records the board, the game, and the time and option
//! evaluations spent so far (added up over every run), which the command line reports.
//!
//! Saving reads the tables while the search threads go on writing ([`Checkpoint::save`]):
//! each entry is read whole (one word, or a bucket under its seqlock), and entries written
//! meanwhile may or may not be in the file. The file is written beside its final path and
//! renamed over it after an fsync, so a crash or a kill during a save leaves the previous
//! checkpoint whole. [`Saver`] saves every few minutes on a thread of its own.
//!
//! Loading checks the whole file before it stores anything: a damaged, truncated, foreign or
//! mismatched file is refused with one line saying which, and the solver is left as it was.
//! (The checksum finds damage, not a forgery: a file built by hand with false values would
//! give false answers.)
//!
//! Layout: the file's format in [`format`], the periodic saver in `saver`.

mod format;
mod saver;
#[cfg(test)]
mod tests;

pub use saver::Saver;

use format::{
    Crc32Writer, END, Entry, KIND_EXACT, KIND_EXCLUDED, KIND_PUSH, MAGIC, VERSION, check_file, entry, read_entries,
    write_entry,
};

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::push::PushCramSolver;
use super::solver::CramSolver;
use super::table::SharedTable;
use super::table::{Filled, Tables};
use crate::game::rules::cram_board::Board;
use crate::solver::control::{Control, SolveError};

pub use crate::game::cram_game::CramGame;

/// What a checkpoint file says about itself.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckpointInfo {
    /// The file format's version (the one written is `VERSION`).
    pub version: u32,
    /// The game searched: Cram or Push Cram.
    #[serde(with = "crate::game::cram_game::by_name")]
    pub game: CramGame,
    /// The board, in its text form.
    pub board: String,
    /// Seconds of search so far, over every run.
    pub seconds: f64,
    /// Option evaluations so far, over every run.
    pub evaluations: u64,
    /// Times the file was written.
    pub saves: u64,
    /// Entries in the file (not in the header: counted when written or read).
    #[serde(skip)]
    pub entries: u64,
}

/// Why a checkpoint could not be used or written. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("checkpoint {}: {error}", path.display())]
    Io {
        /// The checkpoint file.
        path: PathBuf,
        /// The failure.
        error: std::io::Error,
    },
    #[error("checkpoint {}: not a nimscope Cram checkpoint file (give another file name, or remove it)", path.display())]
    /// The file is not a nimscope Cram checkpoint.
    Foreign {
        /// The file.
        path: PathBuf,
    },
    /// The file was written in a newer format than this build reads.
    #[error("checkpoint {}: written by a newer nimscope (format {found}; this one reads {VERSION})", path.display())]
    Version {
        /// The checkpoint file.
        path: PathBuf,
        /// The format version the file says it has.
        found: u32,
    },
    /// The file is damaged (truncated, bad checksum, malformed entry).
    #[error("checkpoint {}: damaged ({why}); remove it to start afresh", path.display())]
    Damaged {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The file is the search of another game or board.
    #[error("checkpoint {}: it is the search of {found}, not of {wanted}; give another file name", path.display())]
    Mismatch {
        /// The checkpoint file.
        path: PathBuf,
        /// Game and board the file holds, e.g. `cram 3x7`.
        found: String,
        /// Game and board asked for.
        wanted: String,
    },
    /// The search resumed from the file stopped (cancelled, over the memory budget).
    #[error("checkpoint {}: {error}", path.display())]
    Solve {
        /// The checkpoint file.
        path: PathBuf,
        /// Why the search stopped.
        error: SolveError,
    },
}

/// The tables a checkpoint reads.
enum Source {
    Cram(Arc<Tables>),
    Push(Arc<SharedTable>),
}

/// A search's checkpoint file: opened (and restored from, if it exists) before the search,
/// saved while it runs and after.
pub struct Checkpoint {
    path: PathBuf,
    game: CramGame,
    board: Board,
    source: Source,
    started: Instant,
    /// What earlier runs spent.
    before: CheckpointInfo,
    saves: AtomicU64,
    /// The progress counter of this run's job.
    control: Control,
}

impl Checkpoint {
    /// Opens `path` for the Cram search of `board` by `solver`: if the file exists, checks it
    /// and restores its table into the solver's (allocated to `control`'s budget); returns
    /// the checkpoint and, when one was restored, what the file said.
    pub fn for_cram(
        path: &Path,
        board: &Board,
        solver: &mut CramSolver,
        control: &Control,
    ) -> Result<(Checkpoint, Option<CheckpointInfo>), CheckpointError> {
        let game = CramGame::Cram;
        let found = check_file(path, game, board)?;
        let tables = solver.tables(control).map_err(|error| solve_error(path, error))?;
        if found.is_some() {
            let mut filled = Filled::default();
            read_entries(path, |e| {
                let fact = if e.kind == KIND_EXACT {
                    Ok(e.payload as u32)
                } else {
                    Err(e.payload)
                };
                tables.restore(e.key, e.tag as usize, fact, &mut filled);
            })?;
            tables.flush(&mut filled);
        }
        Ok((
            Checkpoint::new(path, game, board, Source::Cram(tables), found.clone(), control),
            found,
        ))
    }

    /// [`Checkpoint::for_cram`] for the Push Cram search (before the push) of `board`.
    pub fn for_push_cram(
        path: &Path,
        board: &Board,
        solver: &mut PushCramSolver,
        control: &Control,
    ) -> Result<(Checkpoint, Option<CheckpointInfo>), CheckpointError> {
        let game = CramGame::PushCram;
        let found = check_file(path, game, board)?;
        let table = solver.shared_table(control).map_err(|error| solve_error(path, error))?;
        if found.is_some() {
            read_entries(path, |e| solver.restore(e.key, e.tag, e.prio, e.payload))?;
            solver.flush_restored();
        }
        Ok((
            Checkpoint::new(path, game, board, Source::Push(table), found.clone(), control),
            found,
        ))
    }

    fn new(
        path: &Path,
        game: CramGame,
        board: &Board,
        source: Source,
        found: Option<CheckpointInfo>,
        control: &Control,
    ) -> Checkpoint {
        let before = found.unwrap_or(CheckpointInfo {
            version: VERSION,
            game,
            board: board.to_string(),
            seconds: 0.0,
            evaluations: 0,
            saves: 0,
            entries: 0,
        });
        Checkpoint {
            path: path.to_path_buf(),
            game,
            board: *board,
            source,
            started: Instant::now(),
            saves: AtomicU64::new(before.saves),
            before,
            control: control.clone(),
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Seconds and option evaluations of search so far, this run's included.
    pub fn spent(&self) -> (f64, u64) {
        (
            self.before.seconds + self.started.elapsed().as_secs_f64(),
            self.before.evaluations + self.control.progress().0,
        )
    }

    /// Writes the table as it is now to the file, atomically (the old file stays whole until
    /// the new one is). Safe while the search runs on other threads.
    pub fn save(&self) -> Result<CheckpointInfo, CheckpointError> {
        let io = |error| CheckpointError::Io {
            path: self.path.clone(),
            error,
        };
        let (seconds, evaluations) = self.spent();
        let mut info = CheckpointInfo {
            version: VERSION,
            game: self.game,
            board: self.board.to_string(),
            seconds,
            evaluations,
            saves: self.saves.load(Ordering::Relaxed) + 1,
            entries: 0,
        };
        // the one atomic writer: a link is followed (the file is replaced beside its target,
        // keeping its mode), a FIFO or a device is refused without being opened
        let result = crate::files::write_with(&self.path, crate::files::Accept::FileOnly, |file| {
            let mut out = Crc32Writer::new(BufWriter::with_capacity(1 << 20, file));
            out.write_all(MAGIC)?;
            serde_json::to_writer(&mut out, &info)?;
            out.write_all(b"\n")?;
            let mut count = 0u64;
            let mut failed = Ok(());
            let mut put = |e: Entry| {
                if failed.is_ok() {
                    failed = write_entry(&mut out, e);
                    count += 1;
                }
            };
            match &self.source {
                Source::Cram(tables) => tables.for_each_entry(|key, w, fact| {
                    put(match fact {
                        Ok(value) => entry(KIND_EXACT, w as u16, 0, key, value as u64),
                        Err(set) => entry(KIND_EXCLUDED, w as u16, 0, key, set),
                    })
                }),
                Source::Push(table) => {
                    table.for_each_entry(|key, tag, prio, payload| put(entry(KIND_PUSH, tag, prio, key, payload)))
                }
            }
            failed?;
            let crc = out.crc.clone().finalize();
            let mut file = out.inner;
            file.write_all(END)?;
            file.write_all(&count.to_le_bytes())?;
            file.write_all(&crc.to_le_bytes())?;
            file.flush()?;
            Ok(count)
        });
        match result {
            Ok(count) => {
                self.saves.fetch_add(1, Ordering::Relaxed);
                info.entries = count;
                Ok(info)
            }
            Err(error) => Err(io(error)),
        }
    }
}

fn solve_error(path: &Path, error: SolveError) -> CheckpointError {
    CheckpointError::Solve {
        path: path.to_path_buf(),
        error,
    }
}
