//! `kubectl-topo-config(5)`: the config file of `check` (read by `triage::config`), its keys, the
//! levels, where it is looked for, and its JSON Schema (`schema::config`).

use clap_mangen::roff::{Roff, bold, italic, roman};

/// The page's roff text.
pub(super) fn page() -> String {
    let mut r = Roff::new();
    r.control("TH", ["kubectl-topo-config", "5", "", &format!("kubectl-topo {}", env!("CARGO_PKG_VERSION"))]);
    r.control("SH", ["NAME"]).text([roman("kubectl-topo-config - the config file of kubectl topo check")]);
    r.control("SH", ["SYNOPSIS"]).text([italic("${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml")]);
    r.control("SH", ["DESCRIPTION"]).text([roman(
        "A YAML file that sets reasons aside for chosen Services and sets a failure level per reason \
         code, so that check lists known, accepted findings without failing on them. check reads \
         --config PATH, else the file KUBECTL_TOPO_CONFIG names, else the file above when it exists. \
         The file named by --config or KUBECTL_TOPO_CONFIG must exist; an empty file has no rules.",
    )]);
    r.control("PP", []).text([roman(
        "A reason set aside stays in the report: the table shows it as ignored:CODE, JSON and YAML move it \
         from reasons to ignored, SARIF keeps it as a suppressed result, JUnit in system-out. A family \
         whose every reason was set aside never fails check.",
    )]);
    keys(&mut r);
    r.control("SH", ["EXAMPLES"]).control("RS", ["4"]).control("nf", []);
    for line in EXAMPLE.lines() {
        r.text([roman(line)]);
    }
    r.control("fi", []).control("RE", []);
    r.control("SH", ["DIAGNOSTICS"]).text([roman(
        "A file that does not parse, a bad glob, an unknown reason code, level or key is one error line \
         naming the file, its line and column, and check exits with status 2.",
    )]);
    r.control("SH", ["ENVIRONMENT"]);
    r.control("TP", [])
        .text([bold("KUBECTL_TOPO_CONFIG")])
        .text([roman("The file, when --config is not given.")]);
    r.control("TP", [])
        .text([bold("XDG_CONFIG_HOME")])
        .text([roman("Where the default file is (default ~/.config).")]);
    r.control("SH", ["FILES"]);
    r.control("TP", []).text([italic("${XDG_CONFIG_HOME:-~/.config}/kubectl-topo/config.yaml")]);
    r.text([roman("The default file.")]);
    r.control("TP", []).text([italic(crate::schema::config::PATH)]);
    r.text([roman(format!(
        "Its JSON Schema, in the repository ({}), for editors that validate YAML.",
        crate::prose::reference::REPOSITORY
    ))]);
    r.control("SH", ["SEE ALSO"])
        .text([roman("kubectl-topo(1), kubectl-topo-check(1), kubectl-topo-reasons(1).")]);
    r.render()
}

fn keys(r: &mut Roff) {
    r.control("SH", ["KEYS"]);
    r.control("TP", []).text([bold("excludes")]).text([roman(
        "A list of rules, each setting reasons aside for the Services it matches: namespace and name \
         (shell globs such as kube-* or report-?; default *) and reasons (a list of reason codes; default \
         every reason).",
    )]);
    r.control("TP", []).text([bold("levels")]).text([roman(
        "A map from reason code to level. error: the reason fails check at any --fail-on but none. \
         warning: reported, never by itself a failure. ignore: set aside everywhere, like an exclude. A \
         code without a level fails by its Service's verdict at --fail-on.",
    )]);
    r.control("PP", []).text([roman(
        "Reason codes are taken in any case; kubectl topo reasons lists them. A Service annotation \
         kubectl-topo.io/ignore: \"CODE,CODE\" (or \"*\") does what an exclude does, for that Service.",
    )]);
}

const EXAMPLE: &str = "\
excludes:
  - namespace: \"kube-*\"
  - namespace: batch
    name: \"report-*\"
    reasons: [InsufficientEndpoints, OverloadThreshold]
levels:
  RewrittenEverySync: warning
  HintsInvalid: error
  NoManagedSlices: ignore";

#[cfg(test)]
mod tests {
    #[test]
    fn the_example_is_a_valid_config() {
        let rules = crate::triage::config::parse(super::EXAMPLE, std::path::Path::new("example.yaml"));
        assert!(rules.is_ok(), "{:?}", rules.err());
    }
}
