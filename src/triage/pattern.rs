//! Name patterns of `--exclude-namespace` and the config file's excludes: shell globs (`*`, `?`,
//! `[a-z]`, `{a,b}`) matched against a whole namespace or Service name, through `globset`.

use globset::{Glob, GlobMatcher};

/// A compiled glob with the text it came from (compared and shown by its text).
#[derive(Debug, Clone)]
pub struct NamePattern {
    text: String,
    matcher: GlobMatcher,
}

impl NamePattern {
    /// Compile `text`; the error is globset's reason, e.g. "unclosed character class; missing ']'".
    pub(crate) fn new(text: &str) -> Result<NamePattern, String> {
        let glob = Glob::new(text).map_err(|e| e.kind().to_string())?;
        Ok(NamePattern { text: text.to_string(), matcher: glob.compile_matcher() })
    }

    /// `*`: every name.
    pub(crate) fn any() -> NamePattern {
        NamePattern::new("*").expect("`*` is a valid glob")
    }

    /// True when the whole of `name` matches.
    pub(crate) fn matches(&self, name: &str) -> bool {
        self.matcher.is_match(name)
    }
}

impl PartialEq for NamePattern {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for NamePattern {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_names() {
        let kube = NamePattern::new("kube-*").unwrap();
        assert!(kube.matches("kube-system") && kube.matches("kube-"));
        assert!(!kube.matches("my-kube-system"));
        let alt = NamePattern::new("{web,api}-?").unwrap();
        assert!(alt.matches("web-1") && alt.matches("api-x") && !alt.matches("web-10"));
        assert!(NamePattern::any().matches("") && NamePattern::any().matches("default"));
    }

    #[test]
    fn a_bad_glob_says_why() {
        assert_eq!(NamePattern::new("web-[").unwrap_err(), "unclosed character class; missing ']'");
        assert!(NamePattern::new("{a,b").unwrap_err().contains("unclosed alternate group"));
    }
}
