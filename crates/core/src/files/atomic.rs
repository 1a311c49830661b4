//! The one atomic writer: readers of a path see either the old file or the whole new one, and
//! nothing but the contents changes:
//!
//! - a symbolic link is followed, through a chain of links, to the file it names (which need
//!   not exist yet: a link to a file on a larger disk is how a user puts a checkpoint there);
//!   that file is written through a temporary file beside it and a rename, so the link stays a
//!   link and the rename stays within the target's folder;
//! - a regular file keeps its mode (and group, when the user may set it). A file without its
//!   owner's write permission, or owned by another user, is refused: replacing it would
//!   override the protection or change its owner, which only root may keep;
//! - a FIFO or a character device (a pipe, `/dev/null`, a terminal) is written to directly when
//!   the caller accepts streams ([`Accept::FileOrStream`]: figures and sessions), and refused
//!   without being opened otherwise ([`Accept::FileOnly`]: a checkpoint is read back, and
//!   opening a FIFO would block until someone reads it);
//! - a folder, a block device or a socket is refused.
//!
//! A temporary file left by a failure is removed; none is ever opened through a link
//! (`create_new`).

use std::fs::File;
use std::io::{Error, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a path may name for a write besides a regular file (or nothing yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    /// A FIFO or a character device is written to directly (`-o /dev/stdout`).
    FileOrStream,
    /// Only a regular file: the writer refuses anything else before opening it.
    FileOnly,
}

/// Most links followed from one path (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// Writes `bytes` to what `path` names (see the module's header), accepting streams.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(path, Accept::FileOrStream, |f| f.write_all(bytes))
}

/// Writes what `fill` writes into the file it is given to what `path` names (see the module's
/// header): a temporary file beside the target, synced and renamed over it, or a stream. A
/// failure of `fill` leaves the target as it was.
pub fn write_with<T>(
    path: &Path,
    accept: Accept,
    fill: impl FnOnce(&mut File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    match destination(path, accept)? {
        Destination::File { target, old } => replace(&target, old.as_ref(), fill),
        Destination::Stream => {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            let t = fill(&mut f)?;
            f.flush()?;
            Ok(t)
        }
    }
}

/// Checks, before a long job, that `path` can be written as [`write_with`] would write it: the
/// target is acceptable and a file can be created beside it. Creates and removes one empty
/// temporary file.
pub fn check_writable(path: &Path, accept: Accept) -> std::io::Result<()> {
    match destination(path, accept)? {
        Destination::File { target, .. } => {
            let probe = temporary_path(&target);
            std::fs::OpenOptions::new().write(true).create_new(true).open(&probe)?;
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Destination::Stream => Ok(()),
    }
}

/// Where a write to a path goes.
enum Destination {
    /// A regular file at `target` (the path with its links followed), replaced (`old`: its
    /// metadata) or created.
    File {
        target: PathBuf,
        old: Option<std::fs::Metadata>,
    },
    /// A FIFO or a character device, written to directly.
    Stream,
}

/// The file `path` leads to after its links, without opening anything.
pub fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    p.parent().unwrap_or(Path::new("")).join(to)
                };
            }
            Ok(_) => return Ok(p),
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
        }
    }
    Err(Error::new(
        ErrorKind::InvalidInput,
        format!("it leads through more than {MAX_LINKS} symbolic links (a loop?)"),
    ))
}

fn destination(path: &Path, accept: Accept) -> std::io::Result<Destination> {
    let refuse = |kind: ErrorKind, why: &str| Err(Error::new(kind, why.to_string()));
    // The kernel follows the links first: it also knows the links of /proc (`/dev/stdout` →
    // `/proc/self/fd/1` → `pipe:[…]`), whose text names no file. Only a path that leads
    // nowhere yet is followed link by link, to create the file the last link names.
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let target = follow_links(path)?;
            return Ok(Destination::File { target, old: None });
        }
        Err(e) => return Err(e),
    };
    let target = if meta.is_file() && std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        std::fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    let kind = meta.file_type();
    if kind.is_file() {
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
        return Ok(Destination::File {
            target,
            old: Some(meta),
        });
    }
    if kind.is_dir() {
        return refuse(ErrorKind::IsADirectory, "it is a folder: give a file name");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() || kind.is_char_device() {
            return match accept {
                Accept::FileOrStream => Ok(Destination::Stream),
                Accept::FileOnly => refuse(
                    ErrorKind::InvalidInput,
                    "it is a FIFO or a device, not a regular file: give a file name",
                ),
            };
        }
    }
    let _ = accept;
    refuse(
        ErrorKind::InvalidInput,
        "it is not a regular file, a FIFO or a character device (a block device or a socket is never written)",
    )
}

/// Writes through a new temporary file beside `target`, which gets the mode and group of
/// `old` (the file it replaces, if any), and renames it over `target`.
fn replace<T>(
    target: &Path,
    old: Option<&std::fs::Metadata>,
    fill: impl FnOnce(&mut File) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let tmp = temporary_path(target);
    let result = (|| {
        // create_new: never opens an existing file or a link someone left under that name
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Some(old) = old {
            keep_owner_and_mode(&f, old)?;
        }
        let t = fill(&mut f)?;
        f.flush()?;
        f.sync_all()?;
        std::fs::rename(&tmp, target)?;
        Ok(t)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Gives the new file `f` the mode of `old`, and its group; refuses if `old` belongs to
/// another user, or to a group `f` cannot be given (only root could keep those).
#[cfg(unix)]
fn keep_owner_and_mode(f: &File, old: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let new = f.metadata()?;
    if new.uid() != old.uid() {
        return Err(Error::new(
            ErrorKind::PermissionDenied,
            format!(
                "it belongs to user {}: a replacement would belong to user {} (not replaced)",
                old.uid(),
                new.uid()
            ),
        ));
    }
    if new.gid() != old.gid() {
        std::os::unix::fs::fchown(f, None, Some(old.gid())).map_err(|e| {
            Error::new(
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
fn keep_owner_and_mode(f: &File, old: &std::fs::Metadata) -> std::io::Result<()> {
    f.set_permissions(old.permissions())
}

/// `dir/.name.tmp-PID-N` beside `path`, N counting this process's writes (the window may
/// export and save at once; a checkpoint saves while the search runs).
fn temporary_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nimscope-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn failed_writes_leave_nothing_behind() {
        let dir = temp_dir("failed");
        assert!(write_atomic(&dir.join("missing-folder").join("x.png"), b"abc").is_err());
        let ok = dir.join("x.png");
        write_atomic(&ok, b"abc").unwrap();
        assert_eq!(std::fs::read(&ok).unwrap(), b"abc");
        // a failing fill leaves the old contents
        let r: std::io::Result<()> = write_with(&ok, Accept::FileOnly, |f| {
            f.write_all(b"half")?;
            Err(Error::other("stopped"))
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read(&ok).unwrap(), b"abc");
        assert_eq!(names(&dir), ["x.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_their_target_even_before_it_exists() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("links");
        let far = dir.join("far");
        std::fs::create_dir(&far).unwrap();
        // a link to a file that does not exist yet: the file is created where it points
        std::os::unix::fs::symlink(far.join("ck.bin"), dir.join("ck.bin")).unwrap();
        write_with(&dir.join("ck.bin"), Accept::FileOnly, |f| f.write_all(b"one")).unwrap();
        assert!(
            std::fs::symlink_metadata(dir.join("ck.bin"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(far.join("ck.bin")).unwrap(), b"one");
        // replaced through a relative chain, keeping the target's mode
        std::fs::set_permissions(far.join("ck.bin"), std::fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("ck.bin", dir.join("again.bin")).unwrap();
        write_with(&dir.join("again.bin"), Accept::FileOnly, |f| f.write_all(b"two")).unwrap();
        assert_eq!(std::fs::read(far.join("ck.bin")).unwrap(), b"two");
        assert_eq!(
            std::fs::metadata(far.join("ck.bin")).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert!(
            std::fs::symlink_metadata(dir.join("again.bin"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // temporary files were made beside the target, and none is left
        assert_eq!(names(&far), ["ck.bin"]);
        assert_eq!(names(&dir), ["again.bin", "ck.bin", "far"]);
        // a loop of links is refused
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        assert!(write_atomic(&dir.join("loop-a"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_fifo_is_refused_for_files_only_without_blocking() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("f");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: mkfifo on a NUL-terminated path this test owns
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // no reader: opening it to write would block forever
        let e = write_with(&fifo, Accept::FileOnly, |f| f.write_all(b"x")).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        assert!(check_writable(&fifo, Accept::FileOnly).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
