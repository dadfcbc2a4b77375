//! TestAddHints.
