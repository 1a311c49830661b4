//! Every file nimscope writes, and every input file it reads, goes through this module:
//!
//! - [`atomic`]: one writer for figures, sessions, the window's state and Cram checkpoints. It
//!   follows symbolic links (the file is replaced beside the link's target, the link stays),
//!   keeps the replaced file's mode, and leaves either the old file or the whole new one;
//! - [`input`]: input files are opened only when they are regular files no larger than the
//!   caller's bound (a FIFO, `/dev/zero` or `/dev/urandom` is refused before a byte is read,
//!   and nothing blocks on opening), and are read with that bound.

pub mod atomic;
pub mod input;

pub use atomic::{Accept, write_atomic, write_with};
pub use input::{open_regular, read_bounded};
