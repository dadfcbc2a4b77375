//! `watch` lines, like `kubectl get -w`: one per change, written and flushed as they happen.
//! Table: `TIME  NAMESPACE/NAME  FAMILY  BEFORE → AFTER  WHY`; `-o json`: one envelope per line;
//! `-o yaml`: one document per change.

use std::io::Write;

use super::style::Palette;
use super::{Format, RenderOptions};
use crate::escape::escape;
use crate::prose;
use crate::prose::whatif::zone_counts;
use topo_engine::report::Kind;
use topo_engine::report::watch::{FamilyState, ServiceChange};

/// Write one change.
pub fn change(change: &ServiceChange, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    match options.format {
        Format::Json => {
            crate::escape::json::to_writer(&mut *out, &change.clone().present(&prose::view).envelope())?;
            writeln!(out)?;
        }
        Format::Yaml => {
            let text = crate::escape::yaml::to_string(&change.clone().present(&prose::view).envelope())
                .map_err(std::io::Error::other)?;
            writeln!(out, "---")?;
            out.write_all(text.as_bytes())?;
        }
        // Settings refuses the picture and report formats for `watch`.
        _ => line(change, options, out)?,
    }
    out.flush()
}

fn line(change: &ServiceChange, options: &RenderOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let palette = Palette::new(options.color);
    let verdict = |state: &Option<FamilyState>| match state {
        Some(s) => palette.verdict(s.verdict, &s.verdict.to_string()),
        None => "-".to_string(),
    };
    let mut text = format!(
        "{}  {}/{}  {}  {} → {}  {}",
        palette.dim(&change.time),
        escape(&change.service.namespace),
        escape(&change.service.name),
        change.address_type,
        verdict(&change.before),
        verdict(&change.after),
        escape(&prose::watch::why(change)),
    );
    if options.wide()
        && let Some(after) = &change.after
    {
        text.push_str(&format!("  [hinted {}]", escape(&zone_counts(&after.hinted))));
    }
    writeln!(out, "{text}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use topo_engine::report::reason::{Reason, ReasonCode};
    use topo_engine::report::watch::ChangeKind;
    use topo_engine::report::{ServiceRef, Verdict};

    fn sample() -> ServiceChange {
        let blocked = FamilyState {
            address_type: "IPv4".into(),
            verdict: Verdict::Blocked,
            reasons: vec![Reason::new(ReasonCode::InsufficientEndpoints)],
            hinted: Default::default(),
            endpoint_hints: Default::default(),
        };
        let active = FamilyState {
            verdict: Verdict::Active,
            reasons: vec![],
            hinted: [("zone-a".to_string(), 1)].into(),
            ..blocked.clone()
        };
        ServiceChange {
            time: "2026-11-21T17:30:00.000Z".into(),
            service: ServiceRef { namespace: "ns".into(), name: "web\x1b[2J".into() },
            address_type: "IPv4".into(),
            change: ChangeKind::Changed,
            before: Some(active),
            after: Some(blocked),
            cleared: vec![],
            rehinted: vec![],
        }
    }

    fn render(format: Format) -> String {
        let options = RenderOptions { format, color: false, no_headers: false, unicode: false, width: None };
        let mut out = Vec::new();
        change(&sample(), &options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn table_line_has_time_service_transition_and_reason_sentence() {
        let text = render(Format::Table);
        assert_eq!(text.lines().count(), 1);
        assert!(text.starts_with("2026-11-21T17:30:00.000Z  ns/web"), "{text}");
        assert!(!text.contains('\x1b'), "escapes from the cluster are sanitised: {text:?}");
        assert!(text.contains("IPv4  Active → Blocked  "), "{text}");
        let sentence = prose::sentence(&Reason::new(ReasonCode::InsufficientEndpoints));
        assert!(text.trim_end().ends_with(&sentence), "{text}");
    }

    #[test]
    fn json_is_one_enveloped_object_per_line() {
        let text = render(Format::Json);
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["apiVersion"], topo_engine::report::API_VERSION);
        assert_eq!(v["kind"], "ServiceChange");
        assert_eq!(v["before"]["verdict"], "Active");
        assert_eq!(v["after"]["verdict"], "Blocked");
        assert_eq!(v["after"]["reasons"][0]["code"], "InsufficientEndpoints");
    }

    #[test]
    fn yaml_is_one_document_per_change() {
        let text = render(Format::Yaml);
        assert!(text.starts_with("---\n"));
        assert!(text.contains("kind: ServiceChange"), "{text}");
    }
}
