//! kubectl's extracts of a report: `-o name` (`service/NAME` per Service) and `-o jsonpath=TEMPLATE`
//! (kubectl's template syntax, `k8s.io/client-go/util/jsonpath`, over the `-o json` document).
//! Both read the JSON the run wrote, so they see exactly the fields `-o json` shows.
//!
//! The template subset: text outside `{…}` as is; in braces a path from the document's root
//! (`.field`, `['field']`, `[N]`, `[*]`, `.*`, chained), `range PATH` … `end` (nestable, the path
//! then relative to each element, `@` for the element itself), and string literals
//! (`{"\n"}`, `{"\t"}`). Refused, with one error line: filters `[?(…)]`, recursive descent `..`,
//! slices `[a:b]` and unions `[a,b]`.

use std::io::Write;

use serde_json::Value;

/// What `-o name|jsonpath=…` prints instead of the JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extract {
    /// `-o name`.
    Name,
    /// `-o jsonpath=TEMPLATE`, parsed.
    JsonPath(Template),
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template(Vec<Node>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Text(String),
    Path(Vec<Step>),
    Range(Vec<Step>, Vec<Node>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Field(String),
    Index(i64),
    All,
}

/// Why a template is refused: what, and where (a byte offset into the template).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} at character {at} of the template")]
pub struct TemplateError {
    what: &'static str,
    at: usize,
}

fn refuse(what: &'static str, at: usize) -> TemplateError {
    TemplateError { what, at }
}

impl Template {
    /// Parse `text` (what followed `jsonpath=`).
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let mut stack: Vec<(Vec<Step>, Vec<Node>)> = Vec::new();
        let mut nodes = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let at = text.len() - rest.len();
            let Some(open) = rest.find('{') else {
                nodes.push(Node::Text(rest.to_string()));
                break;
            };
            if open > 0 {
                nodes.push(Node::Text(rest[..open].to_string()));
            }
            let close = rest[open..].find('}').ok_or(refuse("unclosed {", at + open))? + open;
            let action = rest[open + 1..close].trim();
            let here = at + open + 1;
            if let Some(path) = action.strip_prefix("range ") {
                stack.push((path_steps(path.trim(), here)?, std::mem::take(&mut nodes)));
            } else if action == "end" {
                let (steps, outer) = stack.pop().ok_or(refuse("{end} without {range}", here))?;
                let body = std::mem::replace(&mut nodes, outer);
                nodes.push(Node::Range(steps, body));
            } else if let Some(literal) = action.strip_prefix('"') {
                let literal = literal.strip_suffix('"').ok_or(refuse("unclosed string", here))?;
                nodes.push(Node::Text(unescape(literal)));
            } else {
                nodes.push(Node::Path(path_steps(action, here)?));
            }
            rest = &rest[close + 1..];
        }
        if !stack.is_empty() {
            return Err(refuse("{range} without {end}", text.len()));
        }
        Ok(Template(nodes))
    }

    /// The template over `doc`.
    pub fn render(&self, doc: &Value) -> String {
        let mut out = String::new();
        render_nodes(&self.0, doc, &mut out);
        out
    }
}

fn unescape(literal: &str) -> String {
    literal.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\\"", "\"")
}

/// The steps of a path (`.a.b[*]`, `@.a`, `$.a`, `['a']`).
fn path_steps(path: &str, at: usize) -> Result<Vec<Step>, TemplateError> {
    if path.contains("..") {
        return Err(refuse("recursive descent (..) is not supported", at));
    }
    let mut steps = Vec::new();
    let mut rest = path.strip_prefix('$').or_else(|| path.strip_prefix('@')).unwrap_or(path);
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            match &after[..end] {
                "" => {}
                "*" => steps.push(Step::All),
                name => steps.push(Step::Field(name.to_string())),
            }
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']').ok_or(refuse("unclosed [", at))?;
            steps.push(subscript(after[..end].trim(), at)?);
            rest = &after[end + 1..];
        } else {
            return Err(refuse("a path starts with . (e.g. {.services[*].service.name})", at));
        }
    }
    Ok(steps)
}

fn subscript(inside: &str, at: usize) -> Result<Step, TemplateError> {
    if inside == "*" {
        return Ok(Step::All);
    }
    if inside.starts_with('?') {
        return Err(refuse("filters [?(…)] are not supported", at));
    }
    if inside.contains(':') {
        return Err(refuse("slices [a:b] are not supported", at));
    }
    if inside.contains(',') {
        return Err(refuse("unions [a,b] are not supported", at));
    }
    if let Some(quoted) = inside.strip_prefix('\'').and_then(|q| q.strip_suffix('\'')) {
        return Ok(Step::Field(quoted.to_string()));
    }
    inside.parse().map(Step::Index).map_err(|_| refuse("a subscript is [N], [*] or ['field']", at))
}

/// The values `steps` select from `value` (none when a field is missing, as kubectl's
/// `--allow-missing-template-keys`).
fn select<'a>(value: &'a Value, steps: &[Step]) -> Vec<&'a Value> {
    let mut current = vec![value];
    for step in steps {
        current = current
            .into_iter()
            .flat_map(|v| -> Vec<&Value> {
                match (step, v) {
                    (Step::Field(name), Value::Object(map)) => map.get(name).into_iter().collect(),
                    (Step::Index(i), Value::Array(items)) => {
                        let i = if *i < 0 { items.len() as i64 + i } else { *i };
                        usize::try_from(i).ok().and_then(|i| items.get(i)).into_iter().collect()
                    }
                    (Step::All, Value::Array(items)) => items.iter().collect(),
                    (Step::All, Value::Object(map)) => map.values().collect(),
                    _ => Vec::new(),
                }
            })
            .collect();
    }
    current
}

fn render_nodes(nodes: &[Node], doc: &Value, out: &mut String) {
    for node in nodes {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Path(steps) => {
                let values: Vec<String> = select(doc, steps).into_iter().map(scalar).collect();
                out.push_str(&values.join(" "));
            }
            Node::Range(steps, body) => {
                for item in select(doc, steps) {
                    render_nodes(body, item, out);
                }
            }
        }
    }
}

/// A value as kubectl prints it: strings bare, everything else as JSON.
fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `service/NAME` for every Service the document names (an object at a `service` key with a
/// `name`), once each, in document order.
fn names(doc: &Value) -> Vec<String> {
    fn walk(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    if let (true, Some(name)) = (key == "service", v.get("name").and_then(Value::as_str)) {
                        let line = format!("service/{name}");
                        if !found.contains(&line) {
                            found.push(line);
                        }
                    }
                    walk(v, found);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(doc, &mut found);
    found
}

/// `json` (what `-o json` wrote) as `extract` asks, to `out`; text from the cluster escaped.
pub(crate) fn write(extract: &Extract, json: &[u8], out: &mut dyn Write) -> std::io::Result<()> {
    let doc: Value = serde_json::from_slice(json).map_err(std::io::Error::other)?;
    match extract {
        Extract::Name => names(&doc).iter().try_for_each(|n| writeln!(out, "{}", crate::escape::escape(n))),
        Extract::JsonPath(template) => {
            // Control characters from the cluster stay escaped; the template's own newlines and tabs
            // are what the user asked for.
            let text = template.render(&doc);
            let safe: String = text
                .split_inclusive(['\n', '\t'])
                .map(|part| {
                    let (body, end) = part.split_at(part.trim_end_matches(['\n', '\t']).len());
                    format!("{}{end}", crate::escape::escape(body))
                })
                .collect();
            out.write_all(safe.as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(template: &str, doc: &Value) -> String {
        Template::parse(template).expect("parses").render(doc)
    }

    #[test]
    fn paths_ranges_and_literals_as_kubectl() {
        let doc = json!({"kind": "CheckReport", "services": [
            {"service": {"name": "a"}, "families": [{"verdict": "Active"}]},
            {"service": {"name": "b"}, "families": [{"verdict": "Blocked"}, {"verdict": "Drift"}]}]});
        assert_eq!(render("{.kind}", &doc), "CheckReport");
        assert_eq!(render("{.services[*].service.name}", &doc), "a b");
        assert_eq!(render("{.services[1].families[-1].verdict}", &doc), "Drift");
        assert_eq!(render("{$['kind']}", &doc), "CheckReport");
        assert_eq!(
            render(
                "{range .services[*]}{.service.name}:{range .families[*]}{.verdict} {end}{\"\\n\"}{end}",
                &doc
            ),
            "a:Active \nb:Blocked Drift \n"
        );
        assert_eq!(render("x={.missing}", &doc), "x=");
        assert_eq!(render("{.services[0].families}", &doc), "[{\"verdict\":\"Active\"}]");
    }

    #[test]
    fn the_rest_of_the_syntax_is_one_clear_refusal() {
        for (template, what) in [
            ("{.items[?(@.x==1)]}", "filters"),
            ("{..name}", "recursive descent"),
            ("{.items[0:2]}", "slices"),
            ("{.items[0,1]}", "unions"),
            ("{.kind", "unclosed {"),
            ("{range .items[*]}x", "without {end}"),
            ("{end}", "without {range}"),
            ("{kind}", "a path starts with ."),
        ] {
            let error = Template::parse(template).expect_err(template).to_string();
            assert!(error.contains(what) && error.contains("character"), "{template}: {error}");
        }
    }

    #[test]
    fn names_are_kubectls_lines_once_each() {
        let doc = json!({"before": {"service": {"namespace": "n", "name": "web"}},
            "after": {"service": {"namespace": "n", "name": "web"}},
            "items": [{"service": {"name": "db"}}]});
        assert_eq!(names(&doc), ["service/web", "service/db"]);
    }
}
