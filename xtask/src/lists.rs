//! `cargo xtask list-probe`: read what `check -A` reads (Nodes, Services, EndpointSlices, Events on
//! Services, side by side on one thread, decoded into the k8s-openapi types, as `dump` reads them;
//! the other commands decode leaner) one way of several the API server offers, so `bench
//! --live-only` can time each way alone.

use std::io;
use std::path::Path;

use futures::{StreamExt, pin_mut};
use k8s_openapi::api::core::v1::{Event, Node, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::{Api, ListParams, WatchEvent, WatchParams};
use serde::de::DeserializeOwned;

use crate::live;

/// How a list is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Strategy {
    /// `limit=500` pages with `continue` tokens, no resourceVersion (a consistent read): what
    /// kubectl does, and the product before issue 19.
    Paged500,
    /// `limit=5000` pages, no resourceVersion.
    Paged5000,
    /// One request, no `limit`, no resourceVersion (consistent).
    Unpaged,
    /// One request, `resourceVersion=0&resourceVersionMatch=NotOlderThan`: whatever the watch cache
    /// holds (any staleness), no `limit`.
    Rv0,
    /// A streaming list: `watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, no
    /// resourceVersion (consistent), read until the bookmark that ends the initial events.
    WatchList,
}

impl Strategy {
    pub const ALL: [Strategy; 5] =
        [Strategy::Paged500, Strategy::Paged5000, Strategy::Unpaged, Strategy::Rv0, Strategy::WatchList];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Paged500 => "paged500",
            Strategy::Paged5000 => "paged5000",
            Strategy::Unpaged => "unpaged",
            Strategy::Rv0 => "rv0",
            Strategy::WatchList => "watch-list",
        }
    }
}

/// Read everything `check -A` reads with `strategy`; prints the counts (one line).
pub fn probe(kubeconfig: &Path, strategy: Strategy) -> io::Result<String> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let client = live::client_at(kubeconfig).await;
        let (nodes, services, slices, events) = tokio::join!(
            read::<Node>(Api::all(client.clone()), None, strategy),
            read::<Service>(Api::all(client.clone()), None, strategy),
            read::<EndpointSlice>(Api::all(client.clone()), None, strategy),
            read::<Event>(Api::all(client.clone()), Some("involvedObject.kind=Service"), strategy),
        );
        let count = |r: Result<usize, kube::Error>| r.map_err(io::Error::other);
        Ok(format!(
            "{} nodes, {} services, {} endpointslices, {} events",
            count(nodes)?,
            count(services)?,
            count(slices)?,
            count(events)?
        ))
    })
}

/// How many objects the read decoded (kept until the end, as the product keeps them).
async fn read<K>(api: Api<K>, fields: Option<&str>, strategy: Strategy) -> Result<usize, kube::Error>
where
    K: kube::Resource + Clone + DeserializeOwned + std::fmt::Debug + 'static,
{
    let mut lp = ListParams::default();
    if let Some(f) = fields {
        lp = lp.fields(f);
    }
    let items = match strategy {
        Strategy::Paged500 => paged(&api, lp, 500).await?,
        Strategy::Paged5000 => paged(&api, lp, 5000).await?,
        Strategy::Unpaged => api.list(&lp).await?.items,
        Strategy::Rv0 => api.list(&lp.match_any()).await?.items,
        Strategy::WatchList => watch_list(&api, fields).await?,
    };
    Ok(items.len())
}

async fn paged<K>(api: &Api<K>, lp: ListParams, page: u32) -> Result<Vec<K>, kube::Error>
where
    K: Clone + DeserializeOwned + std::fmt::Debug,
{
    let mut items = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut params = lp.clone().limit(page);
        if let Some(t) = &token {
            params = params.continue_token(t);
        }
        let list = api.list(&params).await?;
        items.extend(list.items);
        token = list.metadata.continue_.filter(|t| !t.is_empty());
        if token.is_none() {
            return Ok(items);
        }
    }
}

/// The initial events of a watch-list, up to the bookmark annotated `k8s.io/initial-events-end`.
async fn watch_list<K>(api: &Api<K>, fields: Option<&str>) -> Result<Vec<K>, kube::Error>
where
    K: Clone + DeserializeOwned + std::fmt::Debug + 'static,
{
    let mut wp = WatchParams::default().initial_events().timeout(290);
    if let Some(f) = fields {
        wp = wp.fields(f);
    }
    let stream = api.watch(&wp, "").await?;
    pin_mut!(stream);
    let mut items = Vec::new();
    while let Some(event) = stream.next().await {
        match event? {
            WatchEvent::Added(o) | WatchEvent::Modified(o) => items.push(o),
            WatchEvent::Deleted(_) => {}
            WatchEvent::Bookmark(b) => {
                if b.metadata.annotations.get("k8s.io/initial-events-end").is_some_and(|v| v == "true") {
                    return Ok(items);
                }
            }
            WatchEvent::Error(status) => return Err(kube::Error::Api(status)),
        }
    }
    Err(kube::Error::Service(Box::new(io::Error::other("the watch ended before its initial events"))))
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    /// `bench --live-only` passes `name()` to `list-probe --strategy`: every name parses back.
    #[test]
    fn every_strategy_name_is_its_command_line_value() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::from_str(s.name(), false), Ok(s));
        }
        assert_eq!(Strategy::value_variants().len(), Strategy::ALL.len());
    }
}
