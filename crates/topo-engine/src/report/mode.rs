//! The mode the controller applies to a Service and what decided it: codes and facts.

use serde::Serialize;

/// The mode the controller applies, as displayed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::Display, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(into = "&'static str")]
pub enum Mode {
    /// Annotation path: CPU-proportional hints.
    Auto,
    /// `trafficDistribution: PreferClose`.
    PreferClose,
    /// `trafficDistribution: PreferSameZone`.
    PreferSameZone,
    /// `trafficDistribution: PreferSameNode`.
    PreferSameNode,
    /// Hints are removed.
    None,
}

/// What decided the mode, as data (no English).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ModeSource {
    /// The annotation the controller reads (key and value as written).
    Annotation {
        /// Annotation key.
        key: String,
        /// Annotation value.
        value: String,
    },
    /// A Service field.
    Field {
        /// Field path: `spec.trafficDistribution` (`core::mode::FIELD_TRAFFIC_DISTRIBUTION`).
        name: String,
        /// Its value; `None` when unset (possible in 1.30–1.32, where the gate alone decides).
        value: Option<String>,
    },
    /// Neither an annotation nor the field is set.
    Nothing,
}
