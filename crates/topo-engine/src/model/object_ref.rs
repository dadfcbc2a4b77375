//! A namespaced reference, shared by the front doors' model (`frontdoor.rs`, `ingress.rs`).

use serde::{Deserialize, Serialize};

/// A namespaced reference (`namespace/name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ObjectRef {
    /// Its namespace (a reference without one is resolved to the referrer's when read).
    pub namespace: String,
    /// Its name.
    pub name: String,
}
