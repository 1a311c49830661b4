//! Files: session validation field by field, and export at every kind of path.

mod export_paths;
mod session_validation;
