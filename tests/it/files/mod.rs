//! Files: sessions field by field and the window's state file ([`sessions`]), and `export` at
//! every kind of path ([`export`]).

mod export;
mod sessions;
