//! The checkpoint file's format (version 1): the line `nimscope cram checkpoint`, a JSON line
//! (version, game, board, seconds, evaluations, saves), the entries, and a trailer `END!`, the
//! number of entries (u64) and the CRC-32 of everything before the trailer (u32),
//! little-endian. An entry is a kind byte (exact value, excluded values or Push Cram word; plus
//! 4 for a key of 128 bits), the width or tag (u16), the priority (u8), the key (8 or 16 bytes)
//! and the payload (LEB128). Reading checks the header, then the whole file's checksum and
//! structure, before anything is stored.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use super::{CheckpointError, CheckpointInfo, CramGame};
use crate::game::rules::cram_board::Board;

/// The first line of every checkpoint.
pub(super) const MAGIC: &[u8] = b"nimscope cram checkpoint\n";
/// The format this code writes and reads.
pub(super) const VERSION: u32 = 1;
/// Longest header line accepted.
pub(super) const MAX_HEADER: u64 = 64 << 10;
/// The trailer's mark.
pub(super) const END: &[u8; 4] = b"END!";
/// Bytes of the trailer: the mark, the entry count, the checksum.
pub(super) const TRAILER: u64 = 16;

/// Entry kinds.
pub(super) const KIND_EXACT: u8 = 0;
pub(super) const KIND_EXCLUDED: u8 = 1;
pub(super) const KIND_PUSH: u8 = 2;
/// Added to the kind for a key of 128 bits.
pub(super) const WIDE: u8 = 4;

/// One entry of a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) kind: u8,
    pub(super) tag: u16,
    pub(super) prio: u8,
    pub(super) key: u128,
    pub(super) payload: u64,
}

pub(super) fn entry(kind: u8, tag: u16, prio: u8, key: u128, payload: u64) -> Entry {
    Entry {
        kind,
        tag,
        prio,
        key,
        payload,
    }
}

/// A writer that keeps the CRC-32 of what goes through it.
pub(super) struct Crc32Writer<W: Write> {
    pub(super) inner: W,
    pub(super) crc: crc32fast::Hasher,
}

impl<W: Write> Crc32Writer<W> {
    pub(super) fn new(inner: W) -> Self {
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

pub(super) fn write_entry(out: &mut impl Write, e: Entry) -> std::io::Result<()> {
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
pub(super) fn check_file(
    path: &Path,
    game: CramGame,
    board: &Board,
) -> Result<Option<CheckpointInfo>, CheckpointError> {
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
pub(super) fn open_checkpoint(path: &Path) -> std::io::Result<File> {
    crate::files::open_regular(path, u64::MAX, "a checkpoint")
}

/// The magic line and the JSON header.
pub(super) fn read_header(path: &Path, reader: &mut impl BufRead) -> Result<CheckpointInfo, CheckpointError> {
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

pub(super) fn damaged(path: &Path, why: &str) -> CheckpointError {
    CheckpointError::Damaged {
        path: path.to_path_buf(),
        why: why.to_string(),
    }
}

/// Reads every entry of `path`, whose header and whole contents [`check_file`] has checked,
/// into `store`. Returns the number of entries.
pub(super) fn read_entries(path: &Path, mut store: impl FnMut(Entry)) -> Result<u64, CheckpointError> {
    scan(path, &mut store)
}

/// Reads `buf.len()` bytes of the entries, adding them to the checksum.
pub(super) fn read_body(
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
pub(super) fn scan(path: &Path, f: &mut dyn FnMut(Entry)) -> Result<u64, CheckpointError> {
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
pub(super) fn check_entry(path: &Path, e: &Entry) -> Result<(), CheckpointError> {
    // Cram keys are components: never empty. (A Push Cram key may be, its tag says more.)
    let ok = match e.kind {
        KIND_EXACT => (1..=128).contains(&e.tag) && e.payload < 128 && e.key != 0,
        KIND_EXCLUDED => (1..=128).contains(&e.tag) && e.key != 0,
        KIND_PUSH => e.tag != 0 && e.payload < 1 << super::super::table::PAYLOAD_BITS,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(damaged(path, "an entry is out of range"))
    }
}
