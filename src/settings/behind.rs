//! `explain deploy/NAME`, `explain statefulset/NAME`, `explain pod/NAME` (and `TYPE NAME` in two
//! words): the object whose Services `explain` finds and explains, as kubectl names the resource
//! (short name, singular, plural, with the group, in any case).

use super::SettingsError;

/// The kind of object `explain` finds the Services in front of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BehindKind {
    /// `deploy`, `deployment`, `deployments` (`.apps`).
    Deployment,
    /// `sts`, `statefulset`, `statefulsets` (`.apps`).
    StatefulSet,
    /// `po`, `pod`, `pods`.
    Pod,
}

/// `explain KIND/NAME` for a workload or a Pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Behind {
    /// Its kind.
    pub kind: BehindKind,
    /// Its name.
    pub name: String,
}

/// The kind `word` names, as kubectl resolves resource names.
pub(crate) fn kind_of(word: &str) -> Option<BehindKind> {
    let word = word.to_ascii_lowercase();
    let resource = word.strip_suffix(".apps").or_else(|| word.strip_suffix(".v1.apps")).unwrap_or(&word);
    let resource = resource.strip_suffix(".v1.").or_else(|| resource.strip_suffix(".v1")).unwrap_or(resource);
    Some(match resource {
        "deploy" | "deployment" | "deployments" => BehindKind::Deployment,
        "sts" | "statefulset" | "statefulsets" => BehindKind::StatefulSet,
        "po" | "pod" | "pods" => BehindKind::Pod,
        _ => return None,
    })
}

/// The object of `explain`'s words when they name a Deployment, StatefulSet or Pod; `None` for
/// Services (or anything else, which the Service parser refuses in its words).
pub(super) fn parse(words: &[String]) -> Result<Option<Behind>, SettingsError> {
    let (kind, name) = match words {
        [one] => match one.split_once('/') {
            Some((kind, name)) => (kind, name),
            None => return Ok(None),
        },
        [kind, name] if !kind.contains('/') && !name.contains('/') => (kind.as_str(), name.as_str()),
        _ => return Ok(None),
    };
    let Some(kind) = kind_of(kind) else { return Ok(None) };
    // The same name rules as a Service's (a DNS subdomain).
    let name = super::parse_service_ref(name).map_err(|_| SettingsError::ServiceRef(words.join(" ")))?;
    Ok(Some(Behind { kind, name }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(words: &[&str]) -> Option<Behind> {
        parse(&words.iter().map(|w| (*w).to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn kubectl_names_of_workloads_and_pods() {
        let web = |kind| Some(Behind { kind, name: "web".into() });
        assert_eq!(parsed(&["deploy/web"]), web(BehindKind::Deployment));
        assert_eq!(parsed(&["Deployments.apps/web"]), web(BehindKind::Deployment));
        assert_eq!(parsed(&["deployment", "web"]), web(BehindKind::Deployment));
        assert_eq!(parsed(&["sts/web"]), web(BehindKind::StatefulSet));
        assert_eq!(parsed(&["pod/web"]), web(BehindKind::Pod));
        assert_eq!(parsed(&["po", "web"]), web(BehindKind::Pod));
        assert_eq!(parsed(&["svc/web"]), None);
        assert_eq!(parsed(&["web"]), None);
        assert_eq!(parsed(&["svc", "a", "b"]), None);
        assert!(parse(&["deploy/Web_1".to_string()]).is_err(), "not a DNS name");
    }
}
