//! Proven values shared between units, never the table: after its search a unit writes what it
//! proved about the largest components (Cram: exact values, and values a component does not
//! have) or positions (Push Cram: outcomes and values) to a file of its own,
//! `DIR/proven/unit-K.bin`, and a unit loads every other unit's file into its table before it
//! starts, so later units look up what earlier ones proved. (SPOTS shares proven nimbers
//! between its workers in the same way.) Each file is written once, atomically, by the unit
//! that owns it, so units never write the same file and need no lock.
//!
//! A stored value is a fact whatever search found it, so any set of them makes a valid
//! table and a unit's answer does not depend on which files were there when it started, only
//! its time does. A file that fails its checks (damaged, truncated, of another plan) is left
//! out with a warning: the unit then only searches more.
//!
//! Format: the line `nimscope cram proven values`, a JSON line (plan id, unit, game, number of
//! entries), the entries (key u128, tag u16, cells u8, payload u64, little-endian: 27 bytes)
//! and the CRC-32 of everything before it (u32).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Plan, PlanError};
use crate::game::cram_game::CramGame;
use crate::solver::control::Control;
use crate::solver::cram::push::PushCramSolver;
use crate::solver::cram::solver::CramSolver;
use crate::solver::cram::table::Filled;

const MAGIC: &[u8] = b"nimscope cram proven values\n";
const ENTRY_BYTES: usize = 27;
/// Longest header line.
const MAX_HEADER: usize = 4096;

/// Components (Cram) or positions (Push Cram) of fewer empty cells are not written: the
/// search finds them again in microseconds, and there are many.
pub const MIN_CELLS: u32 = 12;

/// Most entries one unit writes (the largest first): 27 bytes each, so at most 28 MB a unit.
pub const MAX_ENTRIES: usize = 1 << 20;

/// Largest file read.
const MAX_FILE_BYTES: u64 = (MAX_HEADER + ENTRY_BYTES * MAX_ENTRIES + 4) as u64 + (1 << 10);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    plan: String,
    unit: usize,
    #[serde(with = "crate::game::cram_game::by_name")]
    game: CramGame,
    entries: u64,
}

/// Set in a Cram entry's tag (above the width) when the payload is a set of values the
/// component does not have (bit `v`: not `v`) rather than its value.
const EXCLUDED: u16 = 1 << 15;

/// One stored fact: key, tag (Cram: the key's width, and [`EXCLUDED`]), cells, payload (Cram:
/// the value, or the values excluded).
type Entry = (u128, u16, u8, u64);

/// The folder of the proven values, and unit `k`'s file in it.
pub fn proven_dir(dir: &Path) -> PathBuf {
    dir.join("proven")
}

/// Unit `k`'s file of proven values, `DIR/proven/unit-K.bin`.
pub fn proven_path(dir: &Path, k: usize) -> PathBuf {
    proven_dir(dir).join(format!("unit-{k}.bin"))
}

/// Writes what the solver of `plan`'s game proved about large positions as unit `k`'s file;
/// returns the number of entries.
/// Entries that `imported` loaded from other units are left out: each fact is written once,
/// by the unit that proved it (else every file would repeat all the earlier ones).
pub fn export(
    dir: &Path,
    plan: &Plan,
    k: usize,
    imported: &Imported,
    cram: &mut CramSolver,
    push: &mut PushCramSolver,
    control: &Control,
) -> Result<u64, PlanError> {
    let mut entries: Vec<Entry> = Vec::new();
    match plan.game {
        CramGame::Cram => cram.tables(control)?.for_each_entry(|key, w, fact| {
            let cells = key.count_ones();
            if cells >= MIN_CELLS {
                entries.push(match fact {
                    Ok(v) => (key, w as u16, cells as u8, v as u64),
                    Err(set) => (key, w as u16 | EXCLUDED, cells as u8, set),
                });
            }
        }),
        CramGame::PushCram => push.shared_table(control)?.for_each_entry(|key, tag, prio, payload| {
            if u32::from(prio) >= MIN_CELLS {
                entries.push((key, tag, prio, payload));
            }
        }),
    }
    entries.retain(|&(key, tag, _, payload)| imported.seen.get(&(key, tag)) != Some(&payload));
    // The largest first; the order is the file's, so the same table writes the same file.
    entries.sort_unstable_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)).then(a.0.cmp(&b.0)));
    entries.truncate(MAX_ENTRIES);
    let header = Header {
        plan: plan.id.clone(),
        unit: k,
        game: plan.game,
        entries: entries.len() as u64,
    };
    let mut bytes = Vec::with_capacity(MAGIC.len() + 256 + entries.len() * ENTRY_BYTES + 4);
    bytes.extend_from_slice(MAGIC);
    serde_json::to_writer(&mut bytes, &header).map_err(|e| PlanError::Refused(e.to_string()))?;
    bytes.push(b'\n');
    for &(key, tag, cells, payload) in &entries {
        bytes.extend_from_slice(&key.to_le_bytes());
        bytes.extend_from_slice(&tag.to_le_bytes());
        bytes.push(cells);
        bytes.extend_from_slice(&payload.to_le_bytes());
    }
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    let folder = proven_dir(dir);
    std::fs::create_dir_all(&folder).map_err(|e| PlanError::io(&folder, e))?;
    let path = proven_path(dir, k);
    crate::files::write_with(&path, crate::files::Accept::FileOnly, |f| f.write_all(&bytes))
        .map_err(|e| PlanError::io(&path, e))?;
    Ok(entries.len() as u64)
}

/// Most entries a unit loads (the files of the lowest unit numbers first): 27 bytes each in
/// the files, some 50 in memory while the unit runs.
pub const MAX_IMPORT: u64 = 1 << 22;

/// What [`import`] loaded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    /// Files read.
    pub files: usize,
    /// Entries stored into the table.
    pub entries: u64,
    /// One line for each file left out.
    pub warnings: Vec<String>,
    /// The entries loaded, by key and tag, for [`export`] to leave out.
    pub seen: std::collections::HashMap<(u128, u16), u64, std::hash::BuildHasherDefault<KeyHasher>>,
}

/// A hasher for the keys of [`Imported::seen`]: one multiply-and-mix a word. Millions of
/// entries go through it when a unit starts, where the standard SipHash took most of the
/// loading time (1.5 to 2 s for 2.4 M entries in the dev profile); its keys are the canonical
/// bits of components, not input an adversary chooses.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
}

/// Loads every unit's proven values but unit `k`'s own into the solver of `plan`'s game.
pub fn import(
    dir: &Path,
    plan: &Plan,
    k: usize,
    cram: &mut CramSolver,
    push: &mut PushCramSolver,
    control: &Control,
) -> Result<Imported, PlanError> {
    let mut out = Imported::default();
    let Ok(listing) = std::fs::read_dir(proven_dir(dir)) else {
        return Ok(out);
    };
    let mut units: Vec<usize> = listing
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_prefix("unit-")?.strip_suffix(".bin")?.parse().ok())
        .filter(|&u| u != k && u < plan.units)
        .collect();
    units.sort_unstable();
    for u in units {
        let path = proven_path(dir, u);
        if out.entries >= MAX_IMPORT {
            break;
        }
        match read(&path, plan, u) {
            Ok(entries) => {
                out.seen.reserve(entries.len());
                out.files += 1;
                out.entries += entries.len() as u64;
                store(plan.game, &entries, cram, push, control)?;
                out.seen
                    .extend(entries.iter().map(|&(key, tag, _, payload)| ((key, tag), payload)));
            }
            Err(e) => out.warnings.push(format!("{e}; left out")),
        }
    }
    Ok(out)
}

fn store(
    game: CramGame,
    entries: &[Entry],
    cram: &mut CramSolver,
    push: &mut PushCramSolver,
    control: &Control,
) -> Result<(), PlanError> {
    match game {
        CramGame::Cram => {
            let tables = cram.tables(control)?;
            let mut filled = Filled::default();
            for &(key, tag, _, payload) in entries {
                let w = (tag & !EXCLUDED) as usize;
                if !(1..=128).contains(&w) {
                    continue;
                }
                let fact = if tag & EXCLUDED != 0 {
                    Err(payload)
                } else {
                    Ok(payload as u32)
                };
                tables.restore(key, w, fact, &mut filled);
            }
            tables.flush(&mut filled);
        }
        CramGame::PushCram => {
            push.shared_table(control)?;
            for &(key, tag, cells, payload) in entries {
                push.restore(key, tag, cells, payload);
            }
            push.flush_restored();
        }
    }
    Ok(())
}

/// Reads and checks one file.
fn read(path: &Path, plan: &Plan, unit: usize) -> Result<Vec<Entry>, PlanError> {
    let bytes =
        crate::files::read_bounded(path, MAX_FILE_BYTES, "a proven-values").map_err(|e| PlanError::io(path, e))?;
    let damaged = |why: &str| PlanError::Damaged {
        path: path.to_path_buf(),
        why: why.into(),
    };
    let body = bytes
        .strip_prefix(MAGIC)
        .ok_or_else(|| damaged("not a proven-values file"))?;
    if bytes.len() < MAGIC.len() + 4 {
        return Err(damaged("truncated"));
    }
    let (all, crc) = bytes.split_at(bytes.len() - 4);
    if crc32fast::hash(all) != u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]) {
        return Err(damaged("its checksum does not match"));
    }
    let end = body
        .iter()
        .take(MAX_HEADER)
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("no header line"))?;
    let header: Header = serde_json::from_slice(&body[..end]).map_err(|_| damaged("its header is not readable"))?;
    if header.plan != plan.id || header.unit != unit || header.game != plan.game {
        return Err(PlanError::Mismatch {
            path: path.to_path_buf(),
            why: format!(
                "proven values of plan {} unit {}, not of plan {} unit {unit}",
                header.plan, header.unit, plan.id
            ),
        });
    }
    let data = &body[end + 1..body.len() - 4];
    if data.len() as u64 != header.entries * ENTRY_BYTES as u64 {
        return Err(damaged("its length does not match its entry count"));
    }
    Ok(data
        .chunks_exact(ENTRY_BYTES)
        .map(|c| {
            let mut key = [0u8; 16];
            key.copy_from_slice(&c[..16]);
            let mut payload = [0u8; 8];
            payload.copy_from_slice(&c[19..27]);
            (
                u128::from_le_bytes(key),
                u16::from_le_bytes([c[16], c[17]]),
                c[18],
                u64::from_le_bytes(payload),
            )
        })
        .collect())
}
