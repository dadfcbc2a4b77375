//! `JsonSchema` for what `-o json|yaml` prints (feature `schema`; kubectl-topo publishes the result
//! under docs/schema/). The report structs derive it next to their declarations; this module holds
//! what a derive cannot say: the enums that serialise through strum, and the envelope around a report.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value};
use strum::VariantArray;

use super::mode::Mode;
use super::proxy::ProxyMode;
use super::reason::ReasonCode;
use super::watch::ChangeKind;
use super::whatif::{SpreadBasis, SyncNote, TrafficSource};
use super::{API_VERSION, ControllerAction, EndpointStatus, Envelope, Kind, Verdict};

/// Every name a strum enum serialises as, in declaration order: the schema's `enum` list is read
/// from the same declaration as the names themselves, never kept by hand.
pub fn variant_names<T: VariantArray + Copy + Into<&'static str>>() -> Vec<&'static str> {
    T::VARIANTS.iter().map(|&variant| variant.into()).collect()
}

/// `{"type": "string", "enum": [every variant name]}` for enums serialised with
/// `#[serde(into = "&'static str")]` (a derive would only see a string).
macro_rules! string_enums {
    ($($name:ident),* $(,)?) => {$(
        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn schema_id() -> Cow<'static, str> {
                concat!(module_path!(), "::", stringify!($name)).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({ "type": "string", "enum": variant_names::<$name>() })
            }
        }
    )*};
}

string_enums!(
    Verdict,
    ControllerAction,
    EndpointStatus,
    Mode,
    ProxyMode,
    ReasonCode,
    SpreadBasis,
    TrafficSource,
    SyncNote,
    ChangeKind,
);

/// The report's own object with `apiVersion` and `kind` added as constants, both required: a
/// document of one kind, as `-o json|yaml` prints it.
impl<T: Kind + JsonSchema> JsonSchema for Envelope<'_, T> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Envelope", T::KIND).into()
    }
    fn schema_id() -> Cow<'static, str> {
        format!("{}::Envelope<{}>", module_path!(), T::schema_id()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = T::json_schema(generator);
        let object = schema.ensure_object();
        let api_version = json_schema!({ "description": "Always this version.", "const": API_VERSION });
        let kind = json_schema!({ "description": "Which report this is.", "const": T::KIND });
        let properties = object.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(properties) = properties {
            properties.insert("apiVersion".into(), api_version.to_value());
            properties.insert("kind".into(), kind.to_value());
        }
        let required = object.entry("required").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(required) = required {
            required.splice(0..0, ["apiVersion".into(), "kind".into()]);
        }
        schema
    }
}
