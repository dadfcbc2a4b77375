//! What each path of `serve` answers: `/metrics` in the format the scraper asked for, `/healthz`
//! (the process runs), `/readyz` (every watch has listed once). Pure: the HTTP server in
//! `serve::driver` hands requests in and writes the replies out.

use super::format::{Encoding, Format};

/// An HTTP request, as much of it as [`respond`] reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The `Accept` header.
    pub accept: Option<String>,
    /// The `Accept-Encoding` header.
    pub accept_encoding: Option<String>,
}

/// The answer to a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// `Content-Encoding`, when the body is compressed.
    pub content_encoding: Option<&'static str>,
    /// Body.
    pub body: Vec<u8>,
}

const TEXT: &str = "text/plain; charset=utf-8";

/// The landing page at `/`, as the exporter guide asks: what this is and links to each path.
/// Static text only.
const LANDING: &str = "<!DOCTYPE html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>kubectl topo serve</title></head>
<body>
<h1>kubectl topo serve</h1>
<p>Topology hints of every Service, recomputed as the EndpointSlice controller and kube-proxy would.</p>
<ul>
<li><a href=\"/metrics\">/metrics</a>: the metrics</li>
<li><a href=\"/healthz\">/healthz</a>: the process runs</li>
<li><a href=\"/readyz\">/readyz</a>: every watch has listed once</li>
</ul>
</body>
</html>
";

fn text(status: u16, body: &str) -> Reply {
    Reply { status, content_type: TEXT, content_encoding: None, body: body.as_bytes().to_vec() }
}

/// True when the answer may be large (`/metrics`: 15 MB at 10,000 Services): the server sends
/// only a few of those at once.
pub fn is_large(request: &Request) -> bool {
    request.path == "/metrics"
}

/// The answer when too many large answers are being sent already.
pub fn busy() -> Reply {
    text(503, "busy: too many /metrics answers are being sent; try again\n")
}

/// `/metrics` without a bearer token the API server authenticates (`--auth=tokenreview`).
pub fn unauthenticated() -> Reply {
    text(
        401,
        "unauthorized: send a bearer token the API server authenticates (Authorization: Bearer TOKEN)\n",
    )
}

/// `/metrics` for a user the API server does not allow to `get` it.
pub fn forbidden() -> Reply {
    text(403, "forbidden: the token's user may not get the non-resource URL /metrics (grant it with RBAC)\n")
}

/// `/metrics` while the API server cannot be asked about a token.
pub fn cannot_authorize() -> Reply {
    text(
        503,
        "cannot check the token now: the API server did not answer its TokenReview or SubjectAccessReview; try again\n",
    )
}

/// The reply to `request`; `ready` after the first full list; `scrape` gives the text of
/// `/metrics` in the format the scraper asked for (called only for that path).
pub fn respond(request: &Request, ready: bool, scrape: impl FnOnce(Format) -> String) -> Reply {
    if !matches!(request.method.as_str(), "GET" | "HEAD") {
        return text(405, "only GET and HEAD\n");
    }
    match request.path.as_str() {
        "/metrics" => {
            let format = Format::negotiate(request.accept.as_deref());
            let encoding = Encoding::negotiate(request.accept_encoding.as_deref());
            let body = encoding.encode(scrape(format).into_bytes());
            Reply {
                status: 200,
                content_type: format.content_type(),
                content_encoding: encoding.header(),
                body,
            }
        }
        "/healthz" => text(200, "ok\n"),
        "/readyz" if ready => text(200, "ok\n"),
        "/readyz" => text(503, "not ready: listing Nodes, Services and EndpointSlices\n"),
        "/" => Reply {
            status: 200,
            content_type: "text/html; charset=utf-8",
            content_encoding: None,
            body: LANDING.as_bytes().to_vec(),
        },
        _ => text(404, "not found: /metrics, /healthz or /readyz\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::exporter::Exporter;
    use crate::serve::exporter::exposition::Exposition;
    use crate::serve::exporter::metrics::Health;
    use topo_engine::model::Behaviour;

    fn get(path: &str, accept: Option<&str>) -> Request {
        Request {
            method: "GET".into(),
            path: path.into(),
            accept: accept.map(str::to_string),
            accept_encoding: None,
        }
    }

    #[test]
    fn ready_only_after_the_first_list_and_healthy_throughout() {
        let (state, health) = (Exporter::new(Behaviour::default()), Health::default());
        let exposition = Exposition::new(None);
        let scrape = |format| exposition.scrape(&state, &health, format);
        assert_eq!(respond(&get("/readyz", None), false, scrape).status, 503);
        assert_eq!(respond(&get("/readyz", None), true, scrape).status, 200);
        assert_eq!(respond(&get("/healthz", None), false, scrape).status, 200);
        assert_eq!(respond(&get("/nope", None), true, scrape).status, 404);
        let options = Request { method: "OPTIONS".into(), ..get("/metrics", None) };
        assert_eq!(respond(&options, true, scrape).status, 405);
    }

    #[test]
    fn the_landing_page_links_every_path_and_each_answers() {
        let (state, health) = (Exporter::new(Behaviour::default()), Health::default());
        let exposition = Exposition::new(None);
        let scrape = |format| exposition.scrape(&state, &health, format);
        let landing = respond(&get("/", None), false, scrape);
        assert_eq!((landing.status, landing.content_type), (200, "text/html; charset=utf-8"));
        let html = String::from_utf8(landing.body).unwrap();
        let links: Vec<&str> = html.split("href=\"").skip(1).filter_map(|l| l.split('"').next()).collect();
        assert_eq!(links, ["/metrics", "/healthz", "/readyz"]);
        for link in links {
            assert_eq!(respond(&get(link, None), true, scrape).status, 200, "{link}");
        }
    }

    #[test]
    fn metrics_in_the_format_asked_for_with_the_cluster_label() {
        let (state, health) = (Exporter::new(Behaviour::default()), Health::default());
        let eu = Exposition::new(Some("eu-1"));
        let om = respond(&get("/metrics", Some("application/openmetrics-text")), true, |format| {
            eu.scrape(&state, &health, format)
        });
        assert!(om.content_type.starts_with("application/openmetrics-text"));
        let body = String::from_utf8(om.body).unwrap();
        assert!(body.ends_with("# EOF\n"), "{body}");
        assert!(body.contains("kubectl_topo_ready{cluster=\"eu-1\"} 0"), "{body}");
        let exposition = Exposition::new(None);
        let plain =
            respond(&get("/metrics", None), true, |format| exposition.scrape(&state, &health, format));
        assert!(plain.content_type.starts_with("text/plain; version=0.0.4"));
        let body = String::from_utf8(plain.body).unwrap();
        assert!(!body.contains("# EOF"), "{body}");
        assert!(body.contains("# TYPE kubectl_topo_watch_restarts_total counter"), "{body}");
    }

    #[test]
    fn metrics_are_gzipped_when_asked_and_only_metrics() {
        use std::io::Read;
        let (state, health) = (Exporter::new(Behaviour::default()), Health::default());
        let exposition = Exposition::new(None);
        let scrape = |format| exposition.scrape(&state, &health, format);
        let gzip = Request { accept_encoding: Some("gzip, deflate, br".into()), ..get("/metrics", None) };
        let zipped = respond(&gzip, true, scrape);
        assert_eq!(zipped.content_encoding, Some("gzip"));
        let mut text = String::new();
        flate2::read::GzDecoder::new(zipped.body.as_slice()).read_to_string(&mut text).unwrap();
        assert_eq!(text.as_bytes(), respond(&get("/metrics", None), true, scrape).body);
        let health_check = Request { path: "/healthz".into(), ..gzip };
        let plain = respond(&health_check, true, scrape);
        assert_eq!((plain.content_encoding, plain.body.as_slice()), (None, &b"ok\n"[..]));
    }
}
