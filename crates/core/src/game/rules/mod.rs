//! The leaf rulesets, one file per family. Each family exposes its move generator on plain
//! numbers (heap sizes), so the generic solver, the grid fills and the sequence fills share it.

pub mod cram_board;
pub mod euclid;
pub mod fibonacci;
pub mod heaps;
pub mod one_heap;
pub mod paging;
pub mod typed;
