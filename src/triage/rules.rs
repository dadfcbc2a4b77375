//! Ignore rules and failure levels: what the config file says (already validated by its loader,
//! [`super::config`]) and what a Service's `kubectl-topo.io/ignore` annotation says. Pure: a rule
//! decides, for one reason of one Service, whether it is set aside, and how much a kept reason
//! weighs for the exit code.

use std::collections::{BTreeMap, BTreeSet};

use strum::VariantArray;
use topo_engine::report::ServiceRef;
use topo_engine::report::reason::ReasonCode;

use super::pattern::NamePattern;

/// The Service annotation that sets reasons aside: comma-separated reason codes, or `*` / `all`.
/// Under a domain this project owns (`kubectl-topo.io`), like kube-score's `kube-score/ignore`.
pub(crate) const IGNORE_ANNOTATION: &str = "kubectl-topo.io/ignore";

/// How much a reason weighs for `check`'s exit code (config file `levels:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::Display, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "lowercase")]
pub enum Level {
    /// The Service fails `check` whatever its verdict (unless `--fail-on none`).
    Error,
    /// Reported, but never by itself a reason to fail.
    Warning,
    /// Set aside everywhere, like an exclude for this code.
    Ignore,
}

impl Level {
    /// `error`, `warning` or `ignore`.
    pub fn parse(text: &str) -> Option<Level> {
        Level::VARIANTS.iter().copied().find(|l| <&str>::from(*l) == text)
    }
}

/// One exclude of the config file: Services whose namespace and name match, for the given reason
/// codes (every code when `reasons` is None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exclude {
    /// Namespace glob (`*` when not given).
    pub namespace: NamePattern,
    /// Service name glob (`*` when not given).
    pub name: NamePattern,
    /// The codes set aside; None = all.
    pub reasons: Option<BTreeSet<ReasonCode>>,
}

/// The config file's rules (empty without a config file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IgnoreRules {
    /// Excludes, in file order.
    pub excludes: Vec<Exclude>,
    /// Failure level per code.
    pub levels: BTreeMap<ReasonCode, Level>,
}

/// What a Service's annotation sets aside.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnnotationRule {
    /// `*` or `all`: every reason.
    pub all: bool,
    /// The named codes.
    pub codes: BTreeSet<ReasonCode>,
    /// Names that are no reason code (reported as a note, otherwise without effect).
    pub unknown: Vec<String>,
}

impl AnnotationRule {
    /// Parse the annotation's value: `*`, `all`, or codes separated by commas (spaces allowed).
    pub fn parse(value: &str) -> AnnotationRule {
        let mut rule = AnnotationRule::default();
        for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                _ if word == "*" || word.eq_ignore_ascii_case("all") => rule.all = true,
                _ => match parse_code(word) {
                    Some(code) => {
                        rule.codes.insert(code);
                    }
                    None => rule.unknown.push(word.to_string()),
                },
            }
        }
        rule
    }

    fn covers(&self, code: ReasonCode) -> bool {
        self.all || self.codes.contains(&code)
    }
}

/// A reason code by its name in any case (as kubectl matches resource names).
pub(crate) fn parse_code(text: &str) -> Option<ReasonCode> {
    ReasonCode::VARIANTS.iter().copied().find(|c| <&str>::from(*c).eq_ignore_ascii_case(text))
}

impl IgnoreRules {
    /// The level of `code` (None: the verdict and `--fail-on` decide).
    pub fn level(&self, code: ReasonCode) -> Option<Level> {
        self.levels.get(&code).copied()
    }

    /// True when a rule sets `code` aside for `service` (config excludes, `ignore` level, or the
    /// Service's annotation).
    pub fn ignores(
        &self,
        service: &ServiceRef,
        annotation: Option<&AnnotationRule>,
        code: ReasonCode,
    ) -> bool {
        annotation.is_some_and(|a| a.covers(code))
            || self.level(code) == Some(Level::Ignore)
            || self.excludes.iter().any(|e| {
                e.namespace.matches(&service.namespace)
                    && e.name.matches(&service.name)
                    && e.reasons.as_ref().is_none_or(|r| r.contains(&code))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svc(namespace: &str, name: &str) -> ServiceRef {
        ServiceRef { namespace: namespace.into(), name: name.into() }
    }

    #[test]
    fn annotation_values() {
        let rule = AnnotationRule::parse(" OverloadThreshold , HintsMissing,Nope,");
        assert_eq!(rule.codes, BTreeSet::from([ReasonCode::OverloadThreshold, ReasonCode::HintsMissing]));
        assert_eq!((rule.all, rule.unknown), (false, vec!["Nope".to_string()]));
        assert!(AnnotationRule::parse("*").all && AnnotationRule::parse("all").all);
        assert_eq!(AnnotationRule::parse(""), AnnotationRule::default());
    }

    #[test]
    fn excludes_levels_and_annotations_each_set_reasons_aside() {
        let rules = IgnoreRules {
            excludes: vec![
                Exclude {
                    namespace: NamePattern::new("kube-*").unwrap(),
                    name: NamePattern::any(),
                    reasons: None,
                },
                Exclude {
                    namespace: NamePattern::any(),
                    name: NamePattern::new("batch-*").unwrap(),
                    reasons: Some(BTreeSet::from([ReasonCode::InsufficientEndpoints])),
                },
            ],
            levels: BTreeMap::from([(ReasonCode::NoManagedSlices, Level::Ignore)]),
        };
        let code = ReasonCode::InsufficientEndpoints;
        assert!(rules.ignores(&svc("kube-system", "dns"), None, ReasonCode::OverloadThreshold));
        assert!(rules.ignores(&svc("jobs", "batch-1"), None, code));
        assert!(!rules.ignores(&svc("jobs", "batch-1"), None, ReasonCode::OverloadThreshold));
        assert!(!rules.ignores(&svc("jobs", "web"), None, code));
        assert!(rules.ignores(&svc("jobs", "web"), None, ReasonCode::NoManagedSlices));
        let annotation = AnnotationRule::parse("InsufficientEndpoints");
        assert!(rules.ignores(&svc("jobs", "web"), Some(&annotation), code));
    }

    #[test]
    fn levels_by_name() {
        assert_eq!(Level::parse("warning"), Some(Level::Warning));
        assert_eq!(Level::parse("Warning"), None);
        assert_eq!(Level::Error.to_string(), "error");
    }
}
