//! Unit tests of `simulate`: the description of changes, and the sync decision.

mod changes;
mod sync;
