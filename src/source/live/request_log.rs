//! `-v 6` (kubectl's `--v=6`): one stderr line per API request, as client-go's round tripper logs
//! it — `GET https://host/api/v1/nodes?limit=500 200 OK in 5 milliseconds`. The layer sits
//! outside kube's authentication layers, so it never sees a token or any other header; the line
//! is escaped like every string that reaches the terminal.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use http::{Request, Response};
use tower::{Layer, Service};

/// The level from which requests are logged (client-go logs URL and status at 6).
pub(crate) const REQUESTS: u8 = 6;

/// Wraps the client's service to log each request.
#[derive(Debug, Clone)]
pub(crate) struct RequestLog {
    server: Arc<str>,
}

impl RequestLog {
    /// Requests to `server` (`https://host:port`, prefixed to the path kube sends).
    pub(crate) fn new(server: &str) -> Self {
        RequestLog { server: Arc::from(server.trim_end_matches('/')) }
    }
}

impl<S> Layer<S> for RequestLog {
    type Service = Logged<S>;

    fn layer(&self, inner: S) -> Logged<S> {
        Logged { inner, server: self.server.clone() }
    }
}

/// The wrapped service.
#[derive(Debug, Clone)]
pub(crate) struct Logged<S> {
    inner: S,
    server: Arc<str>,
}

impl<S, B, R> Service<Request<B>> for Logged<S>
where
    S: Service<Request<B>, Response = Response<R>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let line = request_line(request.method(), request.uri(), &self.server);
        let started = Instant::now();
        let answer = self.inner.call(request);
        Box::pin(async move {
            let answer = answer.await;
            let status = match &answer {
                Ok(response) => response.status().to_string(),
                Err(_) => "(no answer)".to_string(),
            };
            let millis = started.elapsed().as_millis();
            eprintln!("{}", crate::escape::escape(&format!("{line} {status} in {millis} milliseconds")));
            answer
        })
    }
}

/// `METHOD URL`: kube sends the path and query; the server is put in front of them.
fn request_line(method: &http::Method, uri: &http::Uri, server: &str) -> String {
    if uri.authority().is_some() { format!("{method} {uri}") } else { format!("{method} {server}{uri}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_the_method_and_the_whole_url() {
        let path: http::Uri = "/api/v1/nodes?limit=500".parse().unwrap();
        assert_eq!(
            request_line(&http::Method::GET, &path, "https://h:6443"),
            "GET https://h:6443/api/v1/nodes?limit=500"
        );
        let full: http::Uri = "https://h:6443/version".parse().unwrap();
        assert_eq!(request_line(&http::Method::GET, &full, "https://other"), "GET https://h:6443/version");
    }
}
