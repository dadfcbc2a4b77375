//! The walls between the crate's modules, held by a test: each top-level module of `src/` may
//! name (`crate::…`) only the modules drawn below it in [`LAYERS`] (docs/architecture.md draws the
//! same order). A strict order has no cycle, so no import circle can come back either. A new
//! top-level module fails the test until it is placed.

/// The top-level modules, importers first: each may import only those after it.
const LAYERS: &[&str] = &[
    "entry",      // the whole command line: parse, resolve, run, print the error
    "internal",   // hidden entry points for tools (man pages, `__complete`)
    "app",        // one function per subcommand
    "serve",      // the exporter: watches → state → metrics, its HTTP listener
    "completion", // `__complete` and the shell scripts
    "error",      // everything that stops a run, with its hint and exit code
    "settings",   // every decision, once: `cli`'s values into the types of the modules below
    "cli",        // what was typed (clap)
    "schema",     // the JSON Schema of `-o json`
    "version",    // `kubectl topo version`
    "progress",   // the stderr progress line
    "source",     // reads a cluster: dumps, live, watches
    "render",     // to a writer it is given
    "prose",      // every English sentence about a finding
    "triage",     // what `check` lists and what fails it
    "escape",     // the one escaper for untrusted strings
    "exit",       // the exit code table
    "fixtures",   // model builders for the property tests (cfg(test))
];

/// Imports that break the order, each left to the developer who owns the file: none now.
const KNOWN: &[(&str, &str, &str)] = &[];

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{KNOWN, LAYERS};

    /// Every `.rs` file under `dir`.
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src/ reads") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The top-level modules a file names: through `crate::` (also `crate::{a, b::{c}}`), and
    /// through `super::` paths that climb out of its top-level module (`depth`: how deep the file's
    /// module is, 1 for `src/serve.rs`); comments left out.
    fn named(text: &str, depth: usize) -> Vec<String> {
        let code: String =
            text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
        let ident =
            |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
        let mut out = Vec::new();
        let mut at = 0;
        let next = |at: usize, word: &str| code[at..].find(word).map(|i| at + i);
        while let Some(found) = next(at, "crate::").into_iter().chain(next(at, "super::")).min() {
            at = found + 1;
            if code[..found]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            {
                continue; // `topo_engine_crate::`, `self::super::`, not a path's start
            }
            let mut rest = &code[found..];
            let mut climbed = 0;
            while let Some(after) = rest.strip_prefix("super::") {
                (rest, climbed) = (after, climbed + 1);
            }
            match rest.strip_prefix("crate::") {
                Some(after) if climbed == 0 => rest = after,
                _ if climbed >= depth => {}
                _ => continue,
            }
            out.extend(match rest.strip_prefix('{') {
                Some(group) => top_level(group).into_iter().map(|part| ident(part.trim())).collect(),
                None => vec![ident(rest)],
            });
        }
        out.retain(|m| !m.is_empty());
        out
    }

    /// The comma-separated parts of a `{…}` group (its opening brace already taken), nested groups
    /// kept whole inside their part.
    fn top_level(group: &str) -> Vec<&str> {
        let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 0 => {
                    parts.push(&group[start..i]);
                    if c == '}' {
                        return parts;
                    }
                    start = i + 1;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        parts.push(&group[start..]);
        parts
    }

    #[test]
    fn no_module_imports_one_drawn_above_it() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        files(&src, &mut all);
        let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
        let mut wrong = Vec::new();
        for path in &all {
            let relative = path.strip_prefix(&src).expect("under src");
            let first = relative.components().next().expect("a component").as_os_str().to_string_lossy();
            let top = first.strip_suffix(".rs").unwrap_or(&first).to_string();
            if matches!(top.as_str(), "lib" | "main" | "layers") {
                continue;
            }
            let Some(from) = rank(&top) else {
                wrong.push(format!("{}: module `{top}` is not placed in LAYERS", relative.display()));
                continue;
            };
            let shown = format!("src/{}", relative.display());
            let depth = relative.components().count();
            for target in named(&std::fs::read_to_string(path).expect("reads"), depth) {
                let Some(to) = rank(&target) else { continue };
                let known = KNOWN.iter().any(|(a, b, file)| *a == top && *b == target && *file == shown);
                if to < from && !known {
                    wrong.push(format!("{shown}: `{top}` imports `{target}`, drawn above it"));
                }
            }
        }
        assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
    }

    #[test]
    fn the_known_exceptions_still_exist() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (from, to, file) in KNOWN {
            let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
            assert!(
                named(&text, Path::new(file).components().count() - 1).iter().any(|m| m == to),
                "{file} no longer imports `{to}` from `{from}`: drop it from KNOWN"
            );
        }
    }

    #[test]
    fn paths_are_read_as_the_compiler_does() {
        let text = "use crate::cli::Cli; // crate::app\nuse crate::{render, settings::{X, Y}, triage};\n\
                    let x = topo_crate::y;\nuse super::super::prose::P;\nuse super::exit;";
        // From `src/a/b.rs`, `super::super::` is the crate; `super::` is `a`.
        assert_eq!(named(text, 2), ["cli", "render", "settings", "triage", "prose"]);
        // From `src/a/b/c.rs` neither leaves `a`.
        assert_eq!(named(text, 3), ["cli", "render", "settings", "triage"]);
    }
}
