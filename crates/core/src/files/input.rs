//! Input files read with a bound: a session, the window's state, a Cram checkpoint. What a path
//! names is looked at before it is opened: anything but a regular file (a FIFO would block the
//! open until someone writes to it; `/dev/zero` and `/dev/urandom` never end) is refused, and
//! so is a file larger than the caller's bound, before a byte is read. The file is opened
//! without blocking and checked again (it may have been swapped meanwhile), then read no
//! further than the bound.

use std::fs::File;
use std::io::{Error, ErrorKind, Read};
use std::path::Path;

/// `12.0 MiB`, `512 B`: a size in a refusal (this module sits below the solver's formatting).
fn human_bytes(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} B")
    } else {
        format!("{:.1} MiB", bytes as f64 / f64::from(1u32 << 20))
    }
}

/// Opens `path` for reading if it names a regular file of at most `limit` bytes; `what` names
/// the kind of file in the refusal ("a session is at most 64.0 MiB"). A missing file is the
/// `NotFound` error of the open.
pub fn open_regular(path: &Path, limit: u64, what: &str) -> std::io::Result<File> {
    let check = |m: &std::fs::Metadata| -> std::io::Result<()> {
        if !m.is_file() {
            let kind = kind_of(m);
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!("it is {kind}, not a regular file: give {what} file"),
            ));
        }
        if m.len() > limit {
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "it is {}, larger than {what} can be ({} at most): give {what} file",
                    human_bytes(m.len()),
                    human_bytes(limit)
                ),
            ));
        }
        Ok(())
    };
    // stat follows links and never blocks: refuse before opening
    check(&std::fs::metadata(path)?)?;
    let file = open_without_blocking(path)?;
    check(&file.metadata()?)?;
    Ok(file)
}

/// What a path that is not a regular file names, in words.
fn kind_of(m: &std::fs::Metadata) -> &'static str {
    if m.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a FIFO (a named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// Reads the whole of `path` (see [`open_regular`]), never more than `limit` bytes even if
/// the file grows while it is read.
pub fn read_bounded(path: &Path, limit: u64, what: &str) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path, limit, what)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "it grew past {} while it was read: give {what} file",
                human_bytes(limit)
            ),
        ));
    }
    Ok(bytes)
}

#[cfg(target_os = "linux")]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: a FIFO swapped in after the check opens at once instead of waiting for a
    // writer (and is then refused by the second check); a regular file ignores the flag
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(target_os = "linux"))]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_bound_are_read() {
        let dir = std::env::temp_dir().join(format!("nimscope-input-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("small");
        std::fs::write(&small, b"abc").unwrap();
        assert_eq!(read_bounded(&small, 3, "a test").unwrap(), b"abc");
        let e = read_bounded(&small, 2, "a test").unwrap_err().to_string();
        assert!(e.contains("larger than a test can be"), "{e}");
        assert!(
            read_bounded(&dir, 100, "a test")
                .unwrap_err()
                .to_string()
                .contains("folder")
        );
        assert_eq!(
            read_bounded(&dir.join("missing"), 100, "a test").unwrap_err().kind(),
            ErrorKind::NotFound
        );
        #[cfg(target_os = "linux")]
        {
            // devices that never end, and a FIFO with no writer (the open would block)
            for endless in ["/dev/zero", "/dev/urandom"] {
                let e = read_bounded(Path::new(endless), 1 << 20, "a test").unwrap_err();
                assert!(e.to_string().contains("not a regular file"), "{endless}: {e}");
            }
            let fifo = dir.join("fifo");
            let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
            // SAFETY: mkfifo on a NUL-terminated path this test owns
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            assert!(open_regular(&fifo, 100, "a test").is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
