//! The inspector: the selected position (clicked on the map or the strip, or typed), its value,
//! outcome and the mex computation made visible, its options as a lazily expanding move tree,
//! the nim-sum table (Nim) or the Zeckendorf representation (Fibonacci Nim), and play mode.
//!
//! [`InspectorState`] is the inspector's document part (serde, for sessions) plus caches that
//! are never saved. Reports come from the worker's inspector lane, one position at a time: the
//! game being played first, then the selected position, then the expanded tree nodes in the
//! order they are shown.
//!
//! Keyboard: while the pointer is over the inspector, or after a click inside it (until a
//! click elsewhere), the arrow keys move through the tree (up/down), expand (right or Enter)
//! and collapse (left); otherwise they pan the map as before.

mod move_tree;
mod play;
mod state;
mod view;

pub use state::{InspectorState, MapMarks, OPTION_LIMIT, PATH_SEPARATOR, TREE_PAGE, TreeRow};
pub use view::{nim_sum_table, nim_sum_table_ui};
