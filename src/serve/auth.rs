//! `serve --auth=tokenreview`: who may read `/metrics`, decided by the API server as
//! kube-rbac-proxy and the Kubernetes components decide it. The caller's bearer token is sent in
//! a TokenReview (authentication.k8s.io/v1: who is it?), then the user it names in a
//! SubjectAccessReview for `get` on the non-resource URL `/metrics` (authorization.k8s.io/v1: may
//! it?). Answers are kept [`TTL`] per token (by a keyed hash, never the token itself), at most
//! [`CACHED`] of them, so a scrape every few seconds costs the API server two requests a minute.
//! The exporter's account needs `create` on both reviews (the `system:auth-delegator`
//! ClusterRole). `/healthz`, `/readyz` and `/` stay open: the kubelet's probes carry no token.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use k8s_openapi::api::authentication::v1::{TokenReview, TokenReviewSpec};
use k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, SubjectAccessReview, SubjectAccessReviewSpec,
};
use kube::api::{Api, PostParams};

/// How long an answer about a token is kept.
pub(crate) const TTL: Duration = Duration::from_secs(60);

/// How many tokens' answers are kept (all are dropped when full: a flood of bad tokens costs the
/// API server requests, never our memory).
pub(crate) const CACHED: usize = 1024;

/// What the API server says of a caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// Authenticated and allowed to `get` `/metrics`.
    Admitted,
    /// No bearer token, or one the API server does not authenticate: 401.
    Unauthenticated,
    /// Authenticated, not allowed: 403.
    Forbidden,
    /// The API server could not be asked (not reached yet, or an error): 503, not kept.
    Unavailable,
}

/// The token check, shared by every connection.
pub(crate) struct Gate {
    /// The API client, once connected.
    client: OnceLock<kube::Client>,
    hasher: RandomState,
    cache: Mutex<HashMap<u64, (Admission, Instant)>>,
}

impl Gate {
    /// A gate that refuses with [`Admission::Unavailable`] until [`Gate::connect`].
    pub(crate) fn new() -> Self {
        Gate { client: OnceLock::new(), hasher: RandomState::new(), cache: Mutex::new(HashMap::new()) }
    }

    /// Ask this API server from now on.
    pub(crate) fn connect(&self, client: kube::Client) {
        let _ = self.client.set(client);
    }

    /// What the API server says of the caller with this `Authorization` header.
    pub(crate) async fn admit(&self, authorization: Option<&str>) -> Admission {
        let Some(token) = bearer(authorization) else { return Admission::Unauthenticated };
        let key = self.hasher.hash_one(token);
        let now = Instant::now();
        if let Some((admission, at)) = self.lock().get(&key).copied()
            && now.duration_since(at) < TTL
        {
            return admission;
        }
        let Some(client) = self.client.get() else { return Admission::Unavailable };
        let admission = review(client, token).await;
        if admission != Admission::Unavailable {
            let mut cache = self.lock();
            if cache.len() >= CACHED {
                cache.clear();
            }
            cache.insert(key, (admission, now));
        }
        admission
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, (Admission, Instant)>> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The token of `Bearer TOKEN` (the scheme in any case, as RFC 6750 allows).
pub(crate) fn bearer(authorization: Option<&str>) -> Option<&str> {
    let (scheme, token) = authorization?.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// TokenReview, then SubjectAccessReview for the user it names.
async fn review(client: &kube::Client, token: &str) -> Admission {
    let review = TokenReview {
        spec: TokenReviewSpec { token: token.to_string(), audiences: None },
        ..TokenReview::default()
    };
    let Ok(reviewed) = Api::<TokenReview>::all(client.clone()).create(&PostParams::default(), &review).await
    else {
        return Admission::Unavailable;
    };
    let status = reviewed.status.unwrap_or_default();
    let (true, Some(user)) = (status.authenticated == Some(true), status.user) else {
        return Admission::Unauthenticated;
    };
    let access = SubjectAccessReview {
        spec: SubjectAccessReviewSpec {
            user: user.username,
            uid: user.uid,
            groups: user.groups,
            extra: user.extra,
            non_resource_attributes: Some(NonResourceAttributes {
                path: Some("/metrics".to_string()),
                verb: Some("get".to_string()),
            }),
            ..SubjectAccessReviewSpec::default()
        },
        ..SubjectAccessReview::default()
    };
    match Api::<SubjectAccessReview>::all(client.clone()).create(&PostParams::default(), &access).await {
        Ok(answer) if answer.status.as_ref().is_some_and(|s| s.allowed) => Admission::Admitted,
        Ok(_) => Admission::Forbidden,
        Err(_) => Admission::Unavailable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bearer_token_is_a_token() {
        assert_eq!(bearer(Some("Bearer abc.def")), Some("abc.def"));
        assert_eq!(bearer(Some("bearer   abc ")), Some("abc"));
        assert_eq!(bearer(Some("Basic dXNlcjpwYXNz")), None);
        assert_eq!(bearer(Some("Bearer ")), None);
        assert_eq!(bearer(Some("Bearer")), None);
        assert_eq!(bearer(None), None);
    }

    #[tokio::test]
    async fn without_a_token_or_an_api_server_nobody_is_admitted() {
        let gate = Gate::new();
        assert_eq!(gate.admit(None).await, Admission::Unauthenticated);
        assert_eq!(gate.admit(Some("Basic x")).await, Admission::Unauthenticated);
        // Not connected yet: not kept, asked again once connected.
        assert_eq!(gate.admit(Some("Bearer t")).await, Admission::Unavailable);
        assert!(gate.lock().is_empty());
    }
}
