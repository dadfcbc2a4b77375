//! Kubernetes label selectors as typed after `-l` (equality- and set-based), matched against labels.

/// One requirement of a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

/// A parsed label selector; all requirements must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

impl Selector {
    /// Parse `app=web,tier!=db,env in (a,b),!legacy,track`.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let requirements = split_top_level(text)
            .into_iter()
            .map(|part| {
                parse_requirement(part.trim()).ok_or_else(|| format!("{text:?}: cannot parse {part:?}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selector { requirements })
    }

    /// True when every requirement holds for `labels`.
    pub fn matches(&self, labels: &super::StrMap) -> bool {
        self.requirements.iter().all(|r| match r {
            Requirement::Equals(k, v) => labels.get(k) == Some(v),
            Requirement::NotEquals(k, v) => labels.get(k) != Some(v),
            Requirement::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
            Requirement::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
            Requirement::Exists(k) => labels.contains_key(k),
            Requirement::DoesNotExist(k) => !labels.contains_key(k),
        })
    }
}

/// Split on commas outside parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn parse_requirement(part: &str) -> Option<Requirement> {
    let valid = |s: &str| {
        !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
    };
    let value_ok = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if let Some(key) = part.strip_prefix('!') {
        return valid(key.trim()).then(|| Requirement::DoesNotExist(key.trim().to_string()));
    }
    for (op, set) in [(" notin ", false), (" in ", true)] {
        if let Some((key, rest)) = part.split_once(op) {
            let inner = rest.trim().strip_prefix('(')?.strip_suffix(')')?;
            let values: Vec<String> = inner.split(',').map(|v| v.trim().to_string()).collect();
            if !valid(key.trim()) || !values.iter().all(|v| value_ok(v)) {
                return None;
            }
            let key = key.trim().to_string();
            return Some(if set { Requirement::In(key, values) } else { Requirement::NotIn(key, values) });
        }
    }
    let (key, value, negate) = if let Some((k, v)) = part.split_once("!=") {
        (k, v, true)
    } else if let Some((k, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
        (k, v, false)
    } else {
        return valid(part).then(|| Requirement::Exists(part.to_string()));
    };
    let (key, value) = (key.trim(), value.trim());
    if !valid(key) || !value_ok(value) {
        return None;
    }
    let (k, v) = (key.to_string(), value.to_string());
    Some(if negate { Requirement::NotEquals(k, v) } else { Requirement::Equals(k, v) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> super::super::StrMap {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn matches_like_kubectl() {
        let l = labels(&[("app", "web"), ("tier", "front")]);
        for (sel, want) in [
            ("app=web", true),
            ("app==web", true),
            ("app!=web", false),
            ("app=web,tier=front", true),
            ("app in (web, api)", true),
            ("app notin (web)", false),
            ("missing notin (x)", true),
            ("tier", true),
            ("!tier", false),
            ("!legacy", true),
            ("app=web,env in (prod)", false),
        ] {
            assert_eq!(Selector::parse(sel).unwrap().matches(&l), want, "{sel}");
        }
    }

    #[test]
    fn rejects_garbage() {
        for bad in ["", "a=b=c", "app in web", "=x", "a b", "!"] {
            assert!(Selector::parse(bad).is_err(), "{bad}");
        }
    }
}
