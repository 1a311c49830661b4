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
//! Format (version 1): the line `nimscope cram checkpoint`, a JSON line (version, game, board,
//! seconds, evaluations, saves), the entries, and a trailer `END!`, the number of entries
//! (u64) and the CRC-32 of everything before the trailer (u32), little-endian. An entry is a
//! kind byte (exact value, excluded values or Push Cram word; plus 4 for a key of 128 bits),
//! the width or tag (u16), the priority (u8), the key (8 or 16 bytes) and the payload
//! (LEB128). Loading checks the header, then the whole file's checksum and structure, before
//! it stores anything: a damaged, truncated, foreign or mismatched file is refused with one
//! line saying which, and the solver is left as it was. (The checksum finds damage, not a
//! forgery: a file built by hand with false values would give false answers.)

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::push::PushCramSolver;
use super::solver::{CramSolver, Filled, Tables};
use super::table::SharedTable;
use crate::game::rules::cram_board::Board;
use crate::solver::control::{Control, SolveError};

/// The first line of every checkpoint.
const MAGIC: &[u8] = b"nimscope cram checkpoint\n";
/// The format this code writes and reads.
const VERSION: u32 = 1;
/// Longest header line accepted.
const MAX_HEADER: u64 = 64 << 10;
/// The trailer's mark.
const END: &[u8; 4] = b"END!";
/// Bytes of the trailer: the mark, the entry count, the checksum.
const TRAILER: u64 = 16;

/// Entry kinds.
const KIND_EXACT: u8 = 0;
const KIND_EXCLUDED: u8 = 1;
const KIND_PUSH: u8 = 2;
/// Added to the kind for a key of 128 bits.
const WIDE: u8 = 4;

/// The game a checkpoint belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckpointGame {
    Cram,
    /// Push Cram before the push.
    PushCram,
}

impl CheckpointGame {
    fn name(self) -> &'static str {
        match self {
            CheckpointGame::Cram => "cram",
            CheckpointGame::PushCram => "push-cram",
        }
    }
}

/// What a checkpoint file says about itself.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckpointInfo {
    pub version: u32,
    pub game: CheckpointGame,
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
    #[error("checkpoint {}: {error}", path.display())]
    Io { path: PathBuf, error: std::io::Error },
    #[error("checkpoint {}: not a nimscope Cram checkpoint file (give another file name, or remove it)", path.display())]
    Foreign { path: PathBuf },
    #[error("checkpoint {}: written by a newer nimscope (format {found}; this one reads {VERSION})", path.display())]
    Version { path: PathBuf, found: u32 },
    #[error("checkpoint {}: damaged ({why}); remove it to start afresh", path.display())]
    Damaged { path: PathBuf, why: String },
    #[error("checkpoint {}: it is the search of {found}, not of {wanted}; give another file name", path.display())]
    Mismatch {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    #[error("checkpoint {}: {error}", path.display())]
    Solve { path: PathBuf, error: SolveError },
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
    game: CheckpointGame,
    board: Board,
    source: Source,
    started: Instant,
    /// What earlier runs spent.
    before: CheckpointInfo,
    saves: AtomicU64,
    /// The progress counter of this run's job.
    control: Control,
}

/// One entry of a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    kind: u8,
    tag: u16,
    prio: u8,
    key: u128,
    payload: u64,
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
        let game = CheckpointGame::Cram;
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
        let game = CheckpointGame::PushCram;
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
        game: CheckpointGame,
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

fn entry(kind: u8, tag: u16, prio: u8, key: u128, payload: u64) -> Entry {
    Entry {
        kind,
        tag,
        prio,
        key,
        payload,
    }
}

/// A writer that keeps the CRC-32 of what goes through it.
struct Crc32Writer<W: Write> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Crc32Writer<W> {
    fn new(inner: W) -> Self {
        Crc32Writer {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }
}

impl<W: Write> Write for Crc32Writer<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn write_entry(out: &mut impl Write, e: Entry) -> std::io::Result<()> {
    let wide = e.key >> 64 != 0;
    let mut buf = [0u8; 1 + 2 + 1 + 16 + 10];
    buf[0] = e.kind | if wide { WIDE } else { 0 };
    buf[1..3].copy_from_slice(&e.tag.to_le_bytes());
    buf[3] = e.prio;
    let mut n = 4;
    if wide {
        buf[n..n + 16].copy_from_slice(&e.key.to_le_bytes());
        n += 16;
    } else {
        buf[n..n + 8].copy_from_slice(&(e.key as u64).to_le_bytes());
        n += 8;
    }
    let mut p = e.payload;
    loop {
        let byte = (p & 0x7f) as u8;
        p >>= 7;
        if p == 0 {
            buf[n] = byte;
            n += 1;
            break;
        }
        buf[n] = byte | 0x80;
        n += 1;
    }
    out.write_all(&buf[..n])
}

/// Reads the header of `path`, if the file exists, and checks it against the search asked
/// for, then the whole file's structure and checksum (one pass, storing nothing). `None`: no
/// file yet.
fn check_file(path: &Path, game: CheckpointGame, board: &Board) -> Result<Option<CheckpointInfo>, CheckpointError> {
    let file = match open_checkpoint(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(CheckpointError::Io {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    let mut reader = BufReader::new(file);
    let mut info = read_header(path, &mut reader)?;
    if info.version != VERSION {
        return Err(CheckpointError::Version {
            path: path.to_path_buf(),
            found: info.version,
        });
    }
    let found_board: Result<Board, _> = info.board.parse();
    if info.game != game || found_board.as_ref().ok() != Some(board) {
        return Err(CheckpointError::Mismatch {
            path: path.to_path_buf(),
            found: format!("{} {}", info.game.name(), info.board),
            wanted: format!("{} {board}", game.name()),
        });
    }
    info.entries = scan(path, &mut |_| {})?;
    Ok(Some(info))
}

/// Opens a checkpoint to read it: a regular file (a FIFO or a device is refused before it is
/// opened, which would block or never end), of any size (its table is restored within the
/// budget's table).
fn open_checkpoint(path: &Path) -> std::io::Result<File> {
    crate::files::open_regular(path, u64::MAX, "a checkpoint")
}

/// The magic line and the JSON header.
fn read_header(path: &Path, reader: &mut impl BufRead) -> Result<CheckpointInfo, CheckpointError> {
    let foreign = || CheckpointError::Foreign {
        path: path.to_path_buf(),
    };
    let mut magic = vec![0u8; MAGIC.len()];
    if reader.read_exact(&mut magic).is_err() || magic != MAGIC {
        return Err(foreign());
    }
    let mut line = Vec::new();
    reader
        .take(MAX_HEADER)
        .read_until(b'\n', &mut line)
        .map_err(|error| CheckpointError::Io {
            path: path.to_path_buf(),
            error,
        })?;
    if line.last() != Some(&b'\n') {
        return Err(damaged(path, "its header line is cut or too long"));
    }
    serde_json::from_slice(&line).map_err(|e| damaged(path, &format!("its header does not read: {e}")))
}

fn damaged(path: &Path, why: &str) -> CheckpointError {
    CheckpointError::Damaged {
        path: path.to_path_buf(),
        why: why.to_string(),
    }
}

/// Reads every entry of `path`, whose header and whole contents [`check_file`] has checked,
/// into `store`. Returns the number of entries.
fn read_entries(path: &Path, mut store: impl FnMut(Entry)) -> Result<u64, CheckpointError> {
    scan(path, &mut store)
}

/// Reads `buf.len()` bytes of the entries, adding them to the checksum.
fn read_body(
    reader: &mut impl Read,
    buf: &mut [u8],
    crc: &mut crc32fast::Hasher,
    path: &Path,
) -> Result<(), CheckpointError> {
    reader
        .read_exact(buf)
        .map_err(|_| damaged(path, "an entry is cut short (the file is truncated)"))?;
    crc.update(buf);
    Ok(())
}

/// One pass over the file: each entry to `f`, then the trailer checked (entry count and
/// checksum). Returns the number of entries.
fn scan(path: &Path, f: &mut dyn FnMut(Entry)) -> Result<u64, CheckpointError> {
    let io = |error| CheckpointError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = open_checkpoint(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut reader = BufReader::with_capacity(1 << 20, file);
    // The header again, through the checksum.
    let mut head = Vec::new();
    (&mut reader)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    (&mut reader)
        .take(MAX_HEADER)
        .read_until(b'\n', &mut head)
        .map_err(io)?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    let body = len
        .checked_sub(head.len() as u64 + TRAILER)
        .ok_or_else(|| damaged(path, "it ends before its trailer"))?;
    let mut body_reader = (&mut reader).take(body);
    let mut count = 0u64;
    while body_reader.limit() > 0 {
        let mut fixed = [0u8; 4];
        read_body(&mut body_reader, &mut fixed, &mut crc, path)?;
        let wide = fixed[0] & WIDE != 0;
        let mut key = [0u8; 16];
        read_body(&mut body_reader, &mut key[..if wide { 16 } else { 8 }], &mut crc, path)?;
        let mut payload = 0u64;
        let mut shift = 0;
        loop {
            let mut b = [0u8; 1];
            read_body(&mut body_reader, &mut b, &mut crc, path)?;
            if shift > 63 {
                return Err(damaged(path, "an entry's payload is too long"));
            }
            payload |= ((b[0] & 0x7f) as u64) << shift;
            shift += 7;
            if b[0] & 0x80 == 0 {
                break;
            }
        }
        let e = Entry {
            kind: fixed[0] & !WIDE,
            tag: u16::from_le_bytes([fixed[1], fixed[2]]),
            prio: fixed[3],
            key: u128::from_le_bytes(key),
            payload,
        };
        check_entry(path, &e)?;
        f(e);
        count += 1;
    }
    let mut trailer = [0u8; TRAILER as usize];
    reader
        .read_exact(&mut trailer)
        .map_err(|_| damaged(path, "it ends before its trailer"))?;
    if &trailer[..4] != END {
        return Err(damaged(path, "its trailer is missing"));
    }
    let mut n = [0u8; 8];
    n.copy_from_slice(&trailer[4..12]);
    if u64::from_le_bytes(n) != count {
        return Err(damaged(path, "it holds fewer or more entries than its trailer says"));
    }
    let mut c = [0u8; 4];
    c.copy_from_slice(&trailer[12..16]);
    if u32::from_le_bytes(c) != crc.finalize() {
        return Err(damaged(path, "its checksum does not match its contents"));
    }
    Ok(count)
}

/// An entry's fields are in range for its kind (a file that passes the checksum may still
/// come from a different build; nothing out of range may reach the tables).
fn check_entry(path: &Path, e: &Entry) -> Result<(), CheckpointError> {
    // Cram keys are components: never empty. (A Push Cram key may be, its tag says more.)
    let ok = match e.kind {
        KIND_EXACT => (1..=128).contains(&e.tag) && e.payload < 128 && e.key != 0,
        KIND_EXCLUDED => (1..=128).contains(&e.tag) && e.key != 0,
        KIND_PUSH => e.tag != 0 && e.payload < 1 << super::table::PAYLOAD_BITS,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(damaged(path, "an entry is out of range"))
    }
}

/// Saves a checkpoint every `every` on a thread of its own while a search runs.
pub struct Saver {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<Option<CheckpointError>>>,
}

impl Saver {
    /// Starts saving `checkpoint` every `every`; `interrupted()` is asked every 100 ms, and
    /// when it says yes the job's `control` is cancelled and the saver stops (the caller then
    /// saves once more, after the search has stopped).
    pub fn spawn(
        checkpoint: Arc<Checkpoint>,
        every: Duration,
        control: Control,
        interrupted: impl Fn() -> bool + Send + 'static,
    ) -> std::io::Result<Saver> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new().name("checkpoint".into()).spawn(move || {
            let mut last = Instant::now();
            let mut error = None;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100).min(every));
                if interrupted() {
                    control.cancel();
                    break;
                }
                if last.elapsed() >= every {
                    error = checkpoint.save().err();
                    last = Instant::now();
                }
            }
            error
        })?;
        Ok(Saver {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops the thread; the last save's error, if it failed.
    pub fn stop(mut self) -> Option<CheckpointError> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().and_then(|t| t.join().ok().flatten())
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file name of its own in the system's temporary folder.
    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nimscope-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    /// A fixed pseudo-random sequence.
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
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
}
