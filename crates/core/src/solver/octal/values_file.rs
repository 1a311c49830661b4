//! The values file: G(0..N) of a one-heap ruleset in compact binary, written by `seq --values`
//! and `--checkpoint`, read back to resume a run, and hashed (SHA-256 of the whole file) for
//! the checksum `seq --stats` reports and certificates cite. The format (docs/values-file.md):
//!
//! ```text
//! offset  size  field
//!      0    16  magic "NIMSCOPE VALUES\n"
//!     16     4  format version, little-endian u32: 1
//!     20     4  bytes per value, u32: 1, 2 or 4 (the fewest that hold the largest value)
//!     24     8  count N of values, u64
//!     32     4  length L of the ruleset's name, u32
//!     36     L  the ruleset's name, UTF-8 ("octal(0.6)", "grundy")
//!   36+L     …  zeros up to a multiple of 8
//!      H  N·w   G(0), G(1), …, G(N − 1), little-endian, w bytes each
//! ```
//!
//! Everything in it is a function of the ruleset and N, so the same values give the same
//! bytes and the same checksum on every machine. A checkpoint is a values file whose count
//! says how many values were saved: values are appended and synced before the count is
//! updated, so a kill at any moment leaves a file whose count is right (bytes past it are
//! dropped on resume).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

/// The first 16 bytes of every values file.
pub const MAGIC: &[u8; 16] = b"NIMSCOPE VALUES\n";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// The longest ruleset name a file may carry.
const MAX_NAME: usize = 4096;
/// Where the count sits in the header.
const COUNT_AT: u64 = 24;

/// A values file's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The ruleset's name, as nimscope prints it.
    pub ruleset: String,
    /// Bytes per value: 1, 2 or 4.
    pub width: u8,
    /// How many values follow.
    pub count: u64,
}

/// The fewest bytes that hold `max`: 1, 2 or 4.
pub fn width_for(max: u32) -> u8 {
    match max {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        _ => 4,
    }
}

impl Header {
    /// The header's bytes (a multiple of 8).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(48 + self.ruleset.len());
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&u32::from(self.width).to_le_bytes());
        b.extend_from_slice(&self.count.to_le_bytes());
        b.extend_from_slice(&(self.ruleset.len() as u32).to_le_bytes());
        b.extend_from_slice(self.ruleset.as_bytes());
        b.resize(b.len().next_multiple_of(8), 0);
        b
    }

    /// The header's length in bytes.
    pub fn len(&self) -> u64 {
        (36 + self.ruleset.len()).next_multiple_of(8) as u64
    }

    /// Never: a header always has its magic, version and name (for clippy's `len` rule).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Reads a header; every field is checked, and a file that is not one is refused with the
    /// reason.
    pub fn read(r: &mut impl Read) -> Result<Header, String> {
        let mut fixed = [0u8; 36];
        r.read_exact(&mut fixed)
            .map_err(|_| "it is too short to be a values file".to_string())?;
        if &fixed[..16] != MAGIC {
            return Err("it is not a nimscope values file (its first bytes differ)".into());
        }
        let word = |at: usize| u32::from_le_bytes([fixed[at], fixed[at + 1], fixed[at + 2], fixed[at + 3]]);
        let version = word(16);
        if version != VERSION {
            return Err(format!(
                "it is a values file of format version {version}; this nimscope reads version {VERSION}"
            ));
        }
        let width = match word(20) {
            w @ (1 | 2 | 4) => w as u8,
            w => return Err(format!("it says {w} bytes a value; a values file has 1, 2 or 4")),
        };
        let mut count = [0u8; 8];
        count.copy_from_slice(&fixed[24..32]);
        let count = u64::from_le_bytes(count);
        let name_len = word(32) as usize;
        if name_len > MAX_NAME {
            return Err(format!("its ruleset name is {name_len} bytes long, over {MAX_NAME}"));
        }
        let padded = (36 + name_len).next_multiple_of(8) - 36;
        let mut name = vec![0u8; padded];
        r.read_exact(&mut name)
            .map_err(|_| "it ends inside its header".to_string())?;
        if name[name_len..].iter().any(|&b| b != 0) {
            return Err("its header's padding is not zero".into());
        }
        name.truncate(name_len);
        let ruleset = String::from_utf8(name).map_err(|_| "its ruleset name is not UTF-8".to_string())?;
        Ok(Header { ruleset, width, count })
    }
}

/// Values to write or hash: a slice in the width the engine keeps them, or any function of
/// the index (a certified period gives values it does not store).
pub enum Values<'a> {
    /// Values held in 16 bits.
    U16(&'a [u16]),
    /// Values held in 32 bits.
    U32(&'a [u32]),
    /// `n` values, G(i) given by the function.
    By(u64, &'a dyn Fn(u64) -> u32),
}

impl Values<'_> {
    /// How many values.
    pub fn len(&self) -> u64 {
        match self {
            Values::U16(v) => v.len() as u64,
            Values::U32(v) => v.len() as u64,
            Values::By(n, _) => *n,
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(i), `i < len()`.
    #[inline]
    pub fn get(&self, i: u64) -> u32 {
        match self {
            Values::U16(v) => u32::from(v[i as usize]),
            Values::U32(v) => v[i as usize],
            Values::By(_, f) => f(i),
        }
    }

    /// The largest value (0 when empty).
    pub fn max(&self) -> u32 {
        match self {
            Values::U16(v) => v.iter().copied().max().map_or(0, u32::from),
            Values::U32(v) => v.iter().copied().max().unwrap_or(0),
            Values::By(n, f) => (0..*n).map(f).max().unwrap_or(0),
        }
    }

    /// Feeds the values `from..to`, `width` bytes each, little-endian, to `out` a block at a time.
    pub fn encode(
        &self,
        width: u8,
        from: u64,
        to: u64,
        out: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        const BLOCK: u64 = 1 << 16;
        let mut buf: Vec<u8> = Vec::with_capacity(BLOCK as usize * 4);
        let mut i = from;
        while i < to {
            let end = (i + BLOCK).min(to);
            buf.clear();
            match (self, width) {
                // the common cases without a call per value
                (Values::U16(v), 2) => {
                    for &x in &v[i as usize..end as usize] {
                        buf.extend_from_slice(&x.to_le_bytes());
                    }
                }
                (Values::U16(v), 1) => buf.extend(v[i as usize..end as usize].iter().map(|&x| x as u8)),
                _ => {
                    for j in i..end {
                        let x = self.get(j).to_le_bytes();
                        buf.extend_from_slice(&x[..usize::from(width)]);
                    }
                }
            }
            out(&buf)?;
            i = end;
        }
        Ok(())
    }
}

/// The SHA-256 of the values file of `values` for `ruleset`, in hexadecimal: what `sha256sum`
/// prints for the file `write` makes.
pub fn checksum(ruleset: &str, values: &Values) -> String {
    let width = width_for(values.max());
    let header = Header {
        ruleset: ruleset.to_string(),
        width,
        count: values.len(),
    };
    let mut h = Sha256::new();
    h.update(header.to_bytes());
    let _ = values.encode(width, 0, values.len(), &mut |b| {
        h.update(b);
        Ok(())
    });
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a file, in hexadecimal.
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut f = File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            break;
        }
        h.update(&buf[..k]);
    }
    Ok(hex(&h.finalize()))
}

/// Writes the values file of `values` for `ruleset` to `path`, replacing it whole (a reader
/// sees the old file or the new one).
pub fn write(path: &Path, ruleset: &str, values: &Values) -> std::io::Result<()> {
    let width = width_for(values.max());
    let header = Header {
        ruleset: ruleset.to_string(),
        width,
        count: values.len(),
    };
    crate::files::write_with(path, crate::files::Accept::FileOrStream, |f| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        w.write_all(&header.to_bytes())?;
        values.encode(width, 0, values.len(), &mut |b| w.write_all(b))?;
        w.flush()
    })
}

/// The largest values file read back: 64 GiB (2^35 values of 2 bytes).
pub const MAX_FILE: u64 = 64 << 30;

/// Reads a values file: its header and its first `count` values (bytes past them, left by a
/// kill during a save, are ignored). A file shorter than its count says is refused.
pub fn read(path: &Path) -> Result<(Header, Vec<u32>), String> {
    let file = crate::files::open_regular(path, MAX_FILE, "a values").map_err(|e| e.to_string())?;
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let mut r = std::io::BufReader::with_capacity(1 << 20, file);
    let header = Header::read(&mut r)?;
    let body = size.saturating_sub(header.len());
    let need = header.count.saturating_mul(u64::from(header.width));
    if body < need {
        return Err(format!(
            "it says {} values of {} bytes but holds {body} bytes of values (damaged or cut short)",
            header.count, header.width
        ));
    }
    let mut values = Vec::with_capacity(header.count as usize);
    let w = usize::from(header.width);
    let mut buf = vec![0u8; (1 << 16) * w];
    let mut left = header.count as usize;
    while left > 0 {
        let take = left.min(1 << 16);
        r.read_exact(&mut buf[..take * w]).map_err(|e| e.to_string())?;
        values.extend(buf[..take * w].chunks_exact(w).map(|c| {
            let mut x = [0u8; 4];
            x[..w].copy_from_slice(c);
            u32::from_le_bytes(x)
        }));
        left -= take;
    }
    Ok((header, values))
}

/// A checkpoint being written: the values file of the prefix computed so far, grown in place.
pub struct Appender {
    file: File,
    header: Header,
}

impl Appender {
    /// Starts a checkpoint file at `path` holding `values` (written whole, replacing the file),
    /// then keeps it open to grow.
    pub fn create(path: &Path, ruleset: &str, values: &Values) -> std::io::Result<Appender> {
        write(path, ruleset, values)?;
        let file = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
        let header = Header {
            ruleset: ruleset.to_string(),
            width: width_for(values.max()),
            count: values.len(),
        };
        Ok(Appender { file, header })
    }

    /// How many values the file holds.
    pub fn count(&self) -> u64 {
        self.header.count
    }

    /// Appends `values[count..]`, syncs, then records the new count (a kill in between leaves
    /// the old count, and the file stays a values file of the old prefix). A value too wide for
    /// the file rewrites it whole at the new width.
    pub fn save(&mut self, path: &Path, values: &Values) -> std::io::Result<()> {
        let to = values.len();
        let from = self.header.count;
        if to <= from {
            return Ok(());
        }
        let mut widest = 0;
        for i in from..to {
            widest = widest.max(values.get(i));
        }
        if width_for(widest) > self.header.width {
            *self = Appender::create(path, &self.header.ruleset, values)?;
            return Ok(());
        }
        let at = self.header.len() + from * u64::from(self.header.width);
        self.file.seek(SeekFrom::Start(at))?;
        {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, &mut self.file);
            values.encode(self.header.width, from, to, &mut |b| w.write_all(b))?;
            w.flush()?;
        }
        self.file.sync_data()?;
        self.file.seek(SeekFrom::Start(COUNT_AT))?;
        self.file.write_all(&to.to_le_bytes())?;
        self.file.sync_data()?;
        self.header.count = to;
        Ok(())
    }

    /// Drops bytes past the count (left by a kill during a save).
    pub fn trim(&mut self) -> std::io::Result<()> {
        let end = self.header.len() + self.header.count * u64::from(self.header.width);
        self.file.set_len(end)
    }

    /// Opens an existing checkpoint to grow it, after [`read`] accepted it.
    pub fn reopen(path: &Path, header: Header) -> std::io::Result<Appender> {
        let file = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
        let mut a = Appender { file, header };
        a.trim()?;
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("nimscope-values-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&d);
        d
    }

    #[test]
    fn written_files_read_back_and_hash_as_sha256sum_would() {
        let path = temp("roundtrip");
        let v: Vec<u16> = (0..1000u16).map(|i| i % 300).collect();
        write(&path, "octal(0.6)", &Values::U16(&v)).unwrap();
        let (h, back) = read(&path).unwrap();
        assert_eq!(h.ruleset, "octal(0.6)");
        assert_eq!(h.width, 2);
        assert_eq!(back, v.iter().map(|&x| u32::from(x)).collect::<Vec<_>>());
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len() as u64, h.len() + 2000);
        assert_eq!(&bytes[..16], MAGIC);
        assert_eq!(file_sha256(&path).unwrap(), checksum("octal(0.6)", &Values::U16(&v)));
        // the SHA-256 of the empty input, to pin the hash
        let empty = {
            let mut h = Sha256::new();
            h.update(b"");
            hex(&h.finalize())
        };
        assert_eq!(
            empty,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // small values take one byte each
        let small: Vec<u32> = (0..100).map(|i| i % 7).collect();
        write(&path, "grundy", &Values::U32(&small)).unwrap();
        assert_eq!(read(&path).unwrap().0.width, 1);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let path = temp("damaged");
        let v: Vec<u32> = (0..50).collect();
        write(&path, "grundy", &Values::U32(&v)).unwrap();
        let good = std::fs::read(&path).unwrap();
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (good[..good.len() - 1].to_vec(), "cut short"),
            (b"hello".to_vec(), "too short"),
            ([b"X".as_slice(), &good[1..]].concat(), "not a nimscope values file"),
            (
                {
                    let mut b = good.clone();
                    b[16] = 9;
                    b
                },
                "version 9",
            ),
            (
                {
                    let mut b = good.clone();
                    b[20] = 3;
                    b
                },
                "1, 2 or 4",
            ),
        ];
        for (bytes, why) in cases {
            std::fs::write(&path, &bytes).unwrap();
            let e = read(&path).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_checkpoint_grows_in_place_and_widens_when_needed() {
        let path = temp("append");
        let mut v: Vec<u32> = (0..10).collect();
        let mut a = Appender::create(&path, "octal(0.6)", &Values::U32(&v)).unwrap();
        v.extend(10..200);
        a.save(&path, &Values::U32(&v)).unwrap();
        assert_eq!(read(&path).unwrap().1, v);
        v.extend([1000, 3]);
        a.save(&path, &Values::U32(&v)).unwrap();
        let (h, back) = read(&path).unwrap();
        assert_eq!((h.width, back), (2, v.clone()));
        // the file is the one `write` makes of the same values
        assert_eq!(file_sha256(&path).unwrap(), checksum("octal(0.6)", &Values::U32(&v)));
        // bytes past the count (a kill during a save) are ignored, then trimmed
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&[7, 7, 7]).unwrap();
        let (h, back) = read(&path).unwrap();
        assert_eq!(back, v);
        Appender::reopen(&path, h).unwrap();
        assert_eq!(file_sha256(&path).unwrap(), checksum("octal(0.6)", &Values::U32(&v)));
        std::fs::remove_file(&path).unwrap();
    }
}
