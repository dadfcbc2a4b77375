//! The watched objects decoded lean: each Node, Service and EndpointSlice of a list page or a
//! watch event goes from the API server's JSON straight into the model, through the readers' own
//! lean types (`source::convert::lean`, held equal to the k8s-openapi conversion by its tests),
//! keeping only the metadata the watcher reads (name, namespace, resourceVersion). The k8s-openapi
//! types decoded every field first (a Node's images and managedFields, a slice's targetRefs…): a
//! page of 500 of them held megabytes that the model never read, and took most of a relist's CPU.

use std::borrow::Cow;
use std::marker::PhantomData;

use k8s_openapi::api::core::v1::{Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::{Deserialize, Deserializer};

use crate::serve::exporter::Object;
use crate::source::convert::lean::{self, Head};

/// A watched object of `A`'s kind (a k8s-openapi type, named for its API coordinates only).
#[derive(Debug, Clone)]
pub(crate) struct Lean<A> {
    meta: ObjectMeta,
    /// The model's object; `None` for a Node whose CPU does not parse (left out, as a one-shot
    /// read leaves it out).
    pub object: Option<Object>,
    kind: PhantomData<fn() -> A>,
}

impl<A> Lean<A> {
    /// Namespace (empty for Nodes) and name.
    pub(crate) fn key(&self) -> (String, String) {
        (self.meta.namespace.clone().unwrap_or_default(), self.meta.name.clone().unwrap_or_default())
    }
}

/// How one kind's objects become the model's.
pub(crate) trait Decode {
    /// What the watcher reads of one object and the model's object, in one pass over its text.
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(Head, Option<Object>), D::Error>;
}

impl Decode for Node {
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(Head, Option<Object>), D::Error> {
        let mut node = lean::Node::deserialize(deserializer)?;
        Ok((node.head(), node.into_model().ok().map(Object::Node)))
    }
}

impl Decode for Service {
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(Head, Option<Object>), D::Error> {
        let mut service = lean::Service::deserialize(deserializer)?;
        Ok((service.head(), Some(Object::Service(service.into_model()))))
    }
}

impl Decode for EndpointSlice {
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<(Head, Option<Object>), D::Error> {
        let mut slice = lean::EndpointSlice::deserialize(deserializer)?;
        Ok((slice.head(), Some(Object::Slice(slice.into_model()))))
    }
}

impl<'de, A: Decode> Deserialize<'de> for Lean<A> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // One pass over the object's text: the metadata the watcher reads and the model together
        // (read once for a raw copy, once for the metadata and once into the model, decoding was
        // about a sixth of the CPU of an EndpointSlice change).
        let (head, object) = A::decode(deserializer)?;
        let Head { name, namespace, resource_version } = head;
        let meta = ObjectMeta { name, namespace, resource_version, ..ObjectMeta::default() };
        Ok(Lean { meta, object, kind: PhantomData })
    }
}

impl<A: k8s_openapi::Resource> kube::Resource for Lean<A> {
    type DynamicType = ();
    type Scope = A::Scope;

    fn kind(_: &()) -> Cow<'_, str> {
        A::KIND.into()
    }

    fn group(_: &()) -> Cow<'_, str> {
        A::GROUP.into()
    }

    fn version(_: &()) -> Cow<'_, str> {
        A::VERSION.into()
    }

    fn api_version(_: &()) -> Cow<'_, str> {
        A::API_VERSION.into()
    }

    fn plural(_: &()) -> Cow<'_, str> {
        A::URL_PATH_SEGMENT.into()
    }

    fn meta(&self) -> &ObjectMeta {
        &self.meta
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.meta
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::Resource;
    use kube::api::WatchEvent;
    use kube::core::ObjectList;

    const NODE: &str = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","resourceVersion":"42",
        "labels":{"topology.kubernetes.io/zone":"a","kubernetes.io/hostname":"n1"},
        "managedFields":[{"manager":"kubelet","fieldsV1":{"f:status":{}}}]},
        "status":{"allocatable":{"cpu":"3500m"},"conditions":[{"type":"Ready","status":"True"}],
        "images":[{"names":["x"],"sizeBytes":1}],"nodeInfo":{"kubeletVersion":"v1.36.3"}}}"#;

    /// The model the k8s-openapi path makes of the same text.
    fn typed_node(text: &str) -> Object {
        let typed: Node = serde_json::from_str(text).unwrap();
        Object::Node(crate::source::convert::node_from(&typed).unwrap())
    }

    #[test]
    fn a_watch_event_keeps_the_model_and_what_the_watcher_reads() {
        let line = format!(r#"{{"type":"MODIFIED","object":{NODE}}}"#);
        let WatchEvent::Modified(node) = serde_json::from_str::<WatchEvent<Lean<Node>>>(&line).unwrap()
        else {
            panic!("a modification")
        };
        assert_eq!(node.meta().resource_version.as_deref(), Some("42"));
        assert_eq!(node.key(), (String::new(), "n1".to_string()));
        assert_eq!(node.object, Some(typed_node(NODE)));
        assert_eq!(Lean::<Node>::url_path(&(), None), "/api/v1/nodes");
        assert_eq!(
            Lean::<EndpointSlice>::url_path(&(), Some("ns")),
            "/apis/discovery.k8s.io/v1/namespaces/ns/endpointslices"
        );
    }

    #[test]
    fn a_list_page_decodes_each_item_lean_and_a_bad_cpu_leaves_the_node_out() {
        let bad = NODE.replace("3500m", "lots").replace("\"n1\"", "\"n2\"");
        let page = format!(
            r#"{{"apiVersion":"v1","kind":"NodeList","metadata":{{"resourceVersion":"7","continue":"c"}},"items":[{NODE},{bad}]}}"#
        );
        let list: ObjectList<Lean<Node>> = serde_json::from_str(&page).unwrap();
        assert_eq!(list.metadata.resource_version.as_deref(), Some("7"));
        assert_eq!(list.items.len(), 2);
        assert_eq!(list.items[0].object, Some(typed_node(NODE)));
        assert_eq!((list.items[1].object.clone(), list.items[1].key().1), (None, "n2".to_string()));
    }

    #[test]
    fn services_and_slices_give_the_models_the_k8s_openapi_path_gives() {
        let service = r#"{"metadata":{"name":"s","namespace":"ns","resourceVersion":"1",
            "annotations":{"service.kubernetes.io/topology-mode":"Auto"}},
            "spec":{"selector":{"app":"s"},"ports":[{"port":80,"nodePort":30080}],"clusterIP":"10.0.0.1"}}"#;
        let lean: Lean<Service> = serde_json::from_str(service).unwrap();
        let typed: Service = serde_json::from_str(service).unwrap();
        assert_eq!(lean.object, Some(Object::Service(crate::source::convert::service_from(&typed))));
        let slice = r#"{"metadata":{"name":"s-1","namespace":"ns","resourceVersion":"2",
            "labels":{"kubernetes.io/service-name":"s","endpointslice.kubernetes.io/managed-by":"endpointslice-controller.k8s.io"}},
            "addressType":"IPv4","ports":[{"port":80,"protocol":"TCP"}],
            "endpoints":[{"addresses":["10.1.0.1"],"conditions":{"ready":true},"nodeName":"n1","zone":"a",
            "hints":{"forZones":[{"name":"a"}]},"targetRef":{"kind":"Pod","name":"p"}}]}"#;
        let lean: Lean<EndpointSlice> = serde_json::from_str(slice).unwrap();
        let typed: EndpointSlice = serde_json::from_str(slice).unwrap();
        assert_eq!(lean.object, Some(Object::Slice(crate::source::convert::slice_from(&typed))));
        assert_eq!(lean.key(), ("ns".to_string(), "s-1".to_string()));
    }

    #[test]
    fn an_object_of_the_wrong_shape_is_an_error_not_a_guess() {
        let error = serde_json::from_str::<Lean<Node>>(r#"{"metadata":{"name":7}}"#).unwrap_err();
        assert!(error.to_string().contains("invalid type"), "{error}");
    }
}
