//! The only I/O: read a cluster dump (or, later, a live cluster) into a `model::Snapshot`.

pub mod convert;
pub mod dump;
