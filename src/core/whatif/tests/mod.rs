//! Unit tests of the what-if engine.
