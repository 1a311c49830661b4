//! PNG files for figures: RGBA pixels with the figure's provenance as UTF-8 text chunks
//! (`iTXt`: a title may be `Zeruclid φ`), and [`write_atomic`], which replaces a file so that a
//! failed export leaves nothing half-written and what the path names keeps its kind, target
//! and mode. No timestamps: the same figure gives the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use image::RgbaImage;

/// Encodes `image` as a PNG with `text` as iTXt chunks (keyword, UTF-8 value), in the order
/// given. Keywords are Latin-1, 1 to 79 characters (ours are fixed ASCII words).
pub fn encode(image: &RgbaImage, text: &[(String, String)]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, image.width(), image.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        for (k, v) in text {
            encoder.add_itxt_chunk(k.clone(), v.clone())?;
        }
        let mut writer = encoder.write_header()?;
        writer.write_image_data(image.as_raw())?;
        writer.finish()?;
    }
    Ok(out)
}

/// Writes `bytes` to what `path` names, so that readers see either the old file or the whole
/// new one and nothing but the contents changes:
///
/// - a regular file is replaced through a temporary file beside it and a rename; the new file
///   gets the old one's mode (and group, when the user may set it). A file without its
///   owner's write permission, or owned by another user, is refused: replacing it would
///   override the protection or change its owner, which only root may keep;
/// - a symlink is followed to its target (through a chain of links), which is replaced as
///   above; the link stays. A link to nothing is refused;
/// - a FIFO or a character device (a pipe, `/dev/null`, a terminal) is written to directly;
/// - a folder, a block device or a socket is refused.
///
/// A temporary file left by a failure is removed; none is ever opened through a link.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    let refuse = |kind: ErrorKind, why: &str| Err(Error::new(kind, why.to_string()));
    let meta = match std::fs::metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
                return refuse(
                    ErrorKind::NotFound,
                    "it is a symbolic link to a file that does not exist (not followed)",
                );
            }
            None
        }
        Err(e) => return Err(e),
    };
    let Some(meta) = meta else {
        return replace(path, bytes, None);
    };
    let kind = meta.file_type();
    if kind.is_file() {
        // the file itself, wherever links lead, so the link is kept and the rename stays in
        // the target's folder
        let target = if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
            std::fs::canonicalize(path)?
        } else {
            path.to_path_buf()
        };
        #[cfg(unix)]
        let read_only = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o200 == 0;
        #[cfg(not(unix))]
        let read_only = meta.permissions().readonly();
        if read_only {
            return refuse(
                ErrorKind::PermissionDenied,
                "it is read-only (make it writable to replace it)",
            );
        }
        return replace(&target, bytes, Some(&meta));
    }
    if kind.is_dir() {
        return refuse(ErrorKind::IsADirectory, "it is a folder: give a file name");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() || kind.is_char_device() {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            return f.write_all(bytes).and_then(|()| f.flush());
        }
    }
    refuse(
        ErrorKind::InvalidInput,
        "it is not a regular file, a FIFO or a character device (a block device or a socket is never written)",
    )
}

/// Writes `bytes` to a new temporary file beside `target`, gives it the mode and group of
/// `old` (the file it replaces, if any) and renames it over `target`.
fn replace(target: &Path, bytes: &[u8], old: Option<&std::fs::Metadata>) -> std::io::Result<()> {
    let tmp = temporary_path(target);
    let result = (|| {
        // create_new: never opens an existing file or a link someone left under that name
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Some(old) = old {
            keep_owner_and_mode(&f, old)?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Gives the new file `f` the mode of `old`, and its group; refuses if `old` belongs to
/// another user, or to a group `f` cannot be given (only root could keep those).
#[cfg(unix)]
fn keep_owner_and_mode(f: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let new = f.metadata()?;
    if new.uid() != old.uid() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "it belongs to user {}: a replacement would belong to user {} (not replaced)",
                old.uid(),
                new.uid()
            ),
        ));
    }
    if new.gid() != old.gid() {
        std::os::unix::fs::fchown(f, None, Some(old.gid())).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "it belongs to group {}, which a replacement could not keep ({e}; not replaced)",
                    old.gid()
                ),
            )
        })?;
    }
    f.set_permissions(old.permissions())
}

#[cfg(not(unix))]
fn keep_owner_and_mode(f: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    f.set_permissions(old.permissions())
}

/// `dir/.name.tmp-PID-N` beside `path`, N counting this process's writes (the window may
/// export and save at once).
fn temporary_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// The text chunks of a PNG file (UTF-8 `iTXt`, then Latin-1 `tEXt` of older figures), for
/// tests and inspection.
pub fn read_text_chunks(bytes: &[u8]) -> Result<Vec<(String, String)>, png::DecodingError> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info()?;
    let info = reader.info();
    let mut out = Vec::new();
    for t in &info.utf8_text {
        out.push((t.keyword.clone(), t.get_text()?));
    }
    out.extend(
        info.uncompressed_latin1_text
            .iter()
            .map(|t| (t.keyword.clone(), t.text.clone())),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_chunks_round_trip_and_bytes_are_deterministic() {
        let img = RgbaImage::from_fn(7, 5, |x, y| image::Rgba([x as u8 * 30, y as u8 * 40, 9, 255]));
        let text = vec![
            ("Software".to_string(), "nimscope".to_string()),
            ("k".into(), "v w".into()),
            ("Title".into(), "Zeruclid φ: G(1, a, b) ∈ ℕ".into()),
        ];
        let a = encode(&img, &text).unwrap();
        assert_eq!(a, encode(&img, &text).unwrap());
        assert_eq!(read_text_chunks(&a).unwrap(), text);
        let back = image::load_from_memory(&a).unwrap().to_rgba8();
        assert_eq!(back, img);
    }

    #[test]
    fn failed_writes_leave_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("nimscope-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("missing-folder").join("x.png");
        assert!(write_atomic(&target, b"abc").is_err());
        let ok = dir.join("x.png");
        write_atomic(&ok, b"abc").unwrap();
        assert_eq!(std::fs::read(&ok).unwrap(), b"abc");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["x.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
