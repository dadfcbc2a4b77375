//! The compact zone bar of `explain`: per zone, its CPU share next to its share of the endpoints
//! hinted after the next sync — block characters on a UTF-8 terminal, `#` and `.` otherwise.

use std::io::Write;

use super::RenderOptions;
use super::style::Palette;
use crate::escape::escape;
use crate::prose::picture::{self as words, bar};
use topo_engine::report::FamilyReport;

/// Cells of one bar.
const WIDTH: usize = 20;

/// One bar of `fraction` (0–1) of [`WIDTH`] cells.
pub(crate) fn draw(fraction: f64, unicode: bool) -> String {
    let fraction = if fraction.is_finite() { fraction.clamp(0.0, 1.0) } else { 0.0 };
    if !unicode {
        let filled = (fraction * WIDTH as f64).round() as usize;
        return format!("[{}{}]", "#".repeat(filled), ".".repeat(WIDTH - filled));
    }
    // Eighths of a cell: full blocks, then one partial block.
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (fraction * (WIDTH * 8) as f64).round() as usize;
    let (full, rest) = (eighths / 8, eighths % 8);
    let mut s = String::from("▕");
    s.push_str(&"█".repeat(full));
    if full < WIDTH {
        s.push(PARTS[rest]);
        s.push_str(&" ".repeat(WIDTH - full - 1));
    }
    s.push('▏');
    s
}

/// The bar of every zone of a family (nothing when it has no zones).
pub(crate) fn zones(
    f: &FamilyReport,
    o: &RenderOptions,
    p: &Palette,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if f.zones.is_empty() {
        return Ok(());
    }
    let hinted: i64 = f.zones.iter().map(|z| z.expected_hinted).sum();
    let ready: i64 = f.zones.iter().map(|z| z.ready_endpoints).sum();
    // Without hints after the sync, the bar compares with the ready endpoints instead.
    let (total, heading) = if hinted > 0 { (hinted, bar::HINTED) } else { (ready, bar::READY) };
    writeln!(out)?;
    super::wrap::paragraph(out, o.wrap(), "", "  ", &p.heading(heading))?;
    let width = f.zones.iter().map(|z| escape(&words::zone(&z.zone)).chars().count()).max().unwrap_or(0);
    for z in &f.zones {
        let count = if hinted > 0 { z.expected_hinted } else { z.ready_endpoints };
        let of_total = if total > 0 { count as f64 / total as f64 } else { 0.0 };
        let share = z.cpu_share.unwrap_or(0.0);
        let name = escape(&words::zone(&z.zone)).into_owned();
        writeln!(
            out,
            "  {name:<width$}  {} {:>6}  {} {}",
            draw(share, o.unicode),
            z.cpu_share.map_or_else(|| "-".to_string(), words::percent),
            draw(of_total, o.unicode),
            bar::count(count, total)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_fill_in_proportion_in_ascii_and_unicode() {
        assert_eq!(draw(0.5, false), format!("[{}{}]", "#".repeat(10), ".".repeat(10)));
        assert_eq!(draw(0.0, false), format!("[{}]", ".".repeat(20)));
        assert_eq!(draw(1.0, false), format!("[{}]", "#".repeat(20)));
        assert_eq!(draw(f64::NAN, false), draw(0.0, false));
        let half = draw(0.5, true);
        assert_eq!(half.chars().count(), 22, "{half}");
        assert_eq!(half.chars().filter(|c| *c == '█').count(), 10);
        assert_eq!(draw(1.0, true).chars().filter(|c| *c == '█').count(), 20);
        assert!(!draw(0.33, true).is_ascii() && draw(0.33, false).is_ascii());
    }
}
