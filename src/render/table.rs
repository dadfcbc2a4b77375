//! kubectl-style tables: upper-case headers, no borders, three spaces between columns.

use tabled::builder::Builder;
use tabled::settings::{Padding, Style};

/// Render rows under headers (headers omitted with `no_headers`), one line per row, no trailing blanks.
pub(crate) fn table(headers: &[&str], rows: Vec<Vec<String>>, no_headers: bool) -> String {
    if rows.is_empty() && no_headers {
        return String::new();
    }
    let mut builder = Builder::default();
    if !no_headers {
        builder.push_record(headers.iter().map(|h| h.to_string()));
    }
    for row in rows {
        builder.push_record(row);
    }
    let mut t = builder.build();
    t.with(Style::blank()).with(Padding::new(0, 2, 0, 0));
    let mut text: String = t.to_string().lines().map(|l| format!("{}\n", l.trim_end())).collect();
    if text.trim().is_empty() {
        text.clear();
    }
    text
}

/// An optional value, or `-`.
pub(crate) fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_else(|| "-".to_string())
}

/// A ratio as a percentage with one decimal.
pub(crate) fn percent(ratio: Option<f64>) -> String {
    ratio.map(|r| format!("{:.1}%", r * 100.0)).unwrap_or_else(|| "-".to_string())
}

/// A list joined with commas, or `-` when absent, `[]` when empty.
pub(crate) fn list(values: Option<&Vec<String>>) -> String {
    match values {
        None => "-".to_string(),
        Some(v) if v.is_empty() => "[]".to_string(),
        Some(v) => v.join(","),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_like_layout() {
        let t = table(
            &["NAME", "ZONE"],
            vec![vec!["a".into(), "zone-1".into()], vec!["bbbb".into(), "z".into()]],
            false,
        );
        assert_eq!(t, "NAME   ZONE\na      zone-1\nbbbb   z\n");
        let t = table(&["NAME"], vec![vec!["a".into()]], true);
        assert_eq!(t, "a\n");
    }
}
