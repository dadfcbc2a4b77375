//! One API read, the way every read is sent: under `--request-timeout`, retried with backoff a
//! bounded number of times on transient failures (429, 5xx, an answer cut off mid-body), and, for
//! lists, paged with `continue` tokens and restarted from the first page when a token expires (410).
//!
//! kube's own retry layer is switched off (`connect`): it retries up to 15 times with delays up to
//! 1000 s, which a diagnostic run must not do.

use std::future::Future;
use std::time::Duration;

use kube::api::{Api, GetParams, ListParams};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::Connection;
use crate::source::error::{Failure, SourceError, classify};

/// Page size of every list call (kubectl uses 500 too).
pub(crate) const PAGE_SIZE: u32 = 500;

/// How often a transient failure is retried and how long to wait in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all (the first one included).
    pub attempts: u32,
    /// Delay before the second attempt; doubled for each further one.
    pub first_delay: Duration,
    /// Upper bound of one delay.
    pub max_delay: Duration,
}

/// 4 attempts, waiting 0.25 s, 0.5 s and 1 s: under 2 s added to a failing run.
pub const RETRY: RetryPolicy =
    RetryPolicy { attempts: 4, first_delay: Duration::from_millis(250), max_delay: Duration::from_secs(2) };

/// A list restarts from its first page at most this often when its `continue` token expires.
pub const LIST_RESTARTS: u32 = 2;

impl RetryPolicy {
    /// The wait after failed attempt `attempt` (1-based): exponential, capped.
    pub fn delay(&self, attempt: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
        self.first_delay.saturating_mul(factor).min(self.max_delay)
    }
}

/// Worth sending again: the server was briefly unable to answer (429, 500, 502, 503, 504) or the
/// answer was cut off. Never 4xx verdicts, TLS, refused connections or timeouts.
pub(crate) fn retryable(error: &kube::Error) -> bool {
    match classify(error) {
        Failure::Status(code, _) => matches!(code, 429 | 500 | 502 | 503 | 504),
        Failure::Truncated(_) => true,
        _ => false,
    }
}

/// Run one read (`call` makes a fresh request each time) under `--request-timeout` per attempt,
/// retrying transient failures with [`RETRY`]; failures become one-line errors naming `action`.
pub async fn timed<T, F, Fut>(conn: &Connection, action: &str, mut call: F) -> Result<T, SourceError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, kube::Error>>,
{
    let mut attempt = 1;
    loop {
        match once(conn, action, call()).await? {
            Ok(value) => return Ok(value),
            Err(source) if attempt < RETRY.attempts && retryable(&source) => {
                tokio::time::sleep(RETRY.delay(attempt)).await;
                attempt += 1;
            }
            Err(source) => return Err(failed(conn.timeout, action, &conn.server, source, attempt)),
        }
    }
}

/// The error of a request that failed for good. A timeout is one error whichever timer noticed it
/// (ours around the request, or kube's read and connect timeouts set to the same limit): one
/// wording, `timed out after Ns trying to …`.
pub(super) fn failed(
    limit: Option<Duration>,
    action: &str,
    server: &str,
    source: kube::Error,
    attempts: u32,
) -> SourceError {
    let (action, server) = (action.to_string(), server.to_string());
    match limit {
        Some(after) if matches!(classify(&source), Failure::Timeout(_)) => {
            SourceError::Timeout { action, server, after }
        }
        _ => SourceError::Kube { action, server, source, attempts },
    }
}

/// One attempt; only the timeout is an `Err` here (it is never retried).
async fn once<T>(
    conn: &Connection,
    action: &str,
    call: impl Future<Output = Result<T, kube::Error>>,
) -> Result<Result<T, kube::Error>, SourceError> {
    match conn.timeout {
        Some(limit) => tokio::time::timeout(limit, call).await.map_err(|_| SourceError::Timeout {
            action: action.to_string(),
            server: conn.server.clone(),
            after: limit,
        }),
        None => Ok(call.await),
    }
}

/// A complete list, 500 items per page, following `continue` tokens. The list is the one of `api`
/// (its kind and namespace); its items are decoded into `T`: the kind's k8s-openapi type, or a
/// lean type that reads only some fields.
pub async fn list_all<K, T>(
    conn: &Connection,
    api: &Api<K>,
    params: ListParams,
    action: &str,
) -> Result<Vec<T>, SourceError>
where
    K: kube::Resource,
    T: DeserializeOwned,
{
    list_paged(conn, api, params, action, PAGE_SIZE).await
}

/// [`list_all`] with a chosen page size (tests page through small lists). A `continue` token that
/// expired (410 Gone: the server compacted the snapshot the pages came from) restarts the list
/// from its first page, at most [`LIST_RESTARTS`] times, as client-go's pager does.
pub async fn list_paged<K, T>(
    conn: &Connection,
    api: &Api<K>,
    params: ListParams,
    action: &str,
    page_size: u32,
) -> Result<Vec<T>, SourceError>
where
    K: kube::Resource,
    T: DeserializeOwned,
{
    let mut restarts = 0;
    loop {
        match pages(conn, api.resource_url(), &params, action, page_size).await {
            Err(Paging::Expired(_)) if restarts < LIST_RESTARTS => restarts += 1,
            Err(Paging::Expired(e) | Paging::Failed(e)) => return Err(e),
            Ok(items) => return Ok(items),
        }
    }
}

/// `get` of one object of `api`'s kind, decoded into `T`; `None` when there is none (404).
pub async fn get_opt<K, T>(
    conn: &Connection,
    api: &Api<K>,
    name: &str,
    action: &str,
) -> Result<Option<T>, SourceError>
where
    K: kube::Resource,
    T: DeserializeOwned,
{
    let request = kube::core::Request::new(api.resource_url());
    let get = || async {
        let mut req = request.get(name, &GetParams::default()).map_err(kube::Error::BuildRequest)?;
        req.extensions_mut().insert("get");
        match conn.client.request::<T>(req).await {
            Ok(object) => Ok(Some(object)),
            Err(kube::Error::Api(status)) if status.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    };
    timed(conn, action, get).await
}

/// Why a paged list stopped.
enum Paging {
    /// 410 on a `continue` page: the list can be restarted.
    Expired(SourceError),
    /// Anything else.
    Failed(SourceError),
}

/// One page of a list: its items and the token of the next page.
#[derive(Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
struct Page<T> {
    #[serde(default)]
    metadata: PageMeta,
    /// Required, as kube's `ObjectList` requires it; a list of none may say `"items": null`.
    #[serde(deserialize_with = "null_as_default")]
    items: Vec<T>,
}

/// A field given as `null` reads as its default, as kube and k8s-openapi read it (serde alone
/// refuses `null` where it is not an `Option`).
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}

#[derive(Deserialize, Default)]
struct PageMeta {
    #[serde(rename = "continue")]
    continue_: Option<String>,
}

async fn pages<T>(
    conn: &Connection,
    url_path: &str,
    params: &ListParams,
    action: &str,
    page_size: u32,
) -> Result<Vec<T>, Paging>
where
    T: DeserializeOwned,
{
    let request = kube::core::Request::new(url_path);
    let mut items = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut lp = params.clone().limit(page_size);
        if let Some(t) = &token {
            lp = lp.continue_token(t);
        }
        let list = || async {
            let mut req = request.list(&lp).map_err(kube::Error::BuildRequest)?;
            req.extensions_mut().insert("list");
            conn.client.request::<Page<T>>(req).await
        };
        let page = match timed(conn, action, list).await {
            Ok(page) => page,
            Err(e) if token.is_some() && e.is_api_status(410) => return Err(Paging::Expired(e)),
            Err(e) => return Err(Paging::Failed(e)),
        };
        items.extend(page.items);
        token = page.metadata.continue_.filter(|t| !t.is_empty());
        if token.is_none() {
            return Ok(items);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(code: u16) -> kube::Error {
        kube::Error::Api(Box::new(kube::core::Status::failure("boom", "InternalError").with_code(code)))
    }

    /// As kube's `ObjectList`: `items` must be there, and `null` is a list of none.
    #[test]
    fn a_page_needs_its_items_and_reads_null_as_none() {
        let page = |text: &str| serde_json::from_str::<Page<serde_json::Value>>(text);
        let next = page(r#"{"metadata":{"continue":"t1"},"items":[{"a":1},{"b":2}]}"#).unwrap();
        assert_eq!((next.items.len(), next.metadata.continue_.as_deref()), (2, Some("t1")));
        assert!(page(r#"{"metadata":{},"items":null}"#).unwrap().items.is_empty());
        assert!(page(r#"{"items":[]}"#).unwrap().metadata.continue_.is_none());
        let missing = page(r#"{"metadata":{}}"#).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(missing.starts_with("missing field `items`"), "{missing}");
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        assert_eq!(RETRY.delay(1), Duration::from_millis(250));
        assert_eq!(RETRY.delay(2), Duration::from_millis(500));
        assert_eq!(RETRY.delay(3), Duration::from_secs(1));
        assert_eq!(RETRY.delay(4), Duration::from_secs(2));
        assert_eq!(RETRY.delay(40), Duration::from_secs(2));
    }

    #[test]
    fn only_transient_failures_are_retried() {
        for code in [429, 500, 502, 503, 504] {
            assert!(retryable(&status(code)), "{code}");
        }
        for code in [400, 401, 403, 404, 410, 422, 501] {
            assert!(!retryable(&status(code)), "{code}");
        }
    }

    #[test]
    fn a_timeout_noticed_by_kube_reads_as_one_noticed_by_our_timer() {
        let kube_timeout = || {
            kube::Error::Service(Box::new(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "operation timed out",
            )))
        };
        let limit = Some(Duration::from_secs(2));
        let ours = SourceError::Timeout {
            action: "list nodes".into(),
            server: "https://x".into(),
            after: Duration::from_secs(2),
        };
        let theirs = failed(limit, "list nodes", "https://x", kube_timeout(), 1);
        assert_eq!(theirs.to_string(), ours.to_string());
        assert_eq!(theirs.to_string(), "timed out after 2s trying to list nodes on https://x");
        assert_eq!(theirs.hint("k"), ours.hint("k"));
        // Other failures keep their own words.
        assert!(matches!(failed(limit, "list nodes", "https://x", status(500), 4), SourceError::Kube { .. }));
    }
}
