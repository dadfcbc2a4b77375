//! Serde for the model's shared names ([`super::Names`]): written as plain strings, read into a
//! string of their own (a Snapshot read back through serde shares nothing until passed through
//! [`super::Names::share_snapshot`]). serde's own `rc` feature would do the same, at the cost of
//! rebuilding every crate that depends on serde with it.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `Option<Arc<str>>` as `Option<&str>`.
pub(super) mod name {
    use super::*;

    pub(in crate::model) fn serialize<S: Serializer>(
        value: &Option<Arc<str>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_deref().serialize(s)
    }

    pub(in crate::model) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Arc<str>>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(Arc::from))
    }
}

/// `Option<NameList>` as `Option<Vec<&str>>`.
pub(super) mod names {
    use super::*;

    pub(in crate::model) fn serialize<S: Serializer>(
        value: &Option<crate::model::NameList>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().map(|names| names.iter().map(|n| &**n).collect::<Vec<&str>>()).serialize(s)
    }

    pub(in crate::model) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<crate::model::NameList>, D::Error> {
        Ok(Option::<Vec<String>>::deserialize(d)?.map(|names| names.into_iter().map(Arc::from).collect()))
    }
}
