//! The routing bands of one family and one state as inline SVG: a bar per origin zone on top, a
//! bar per destination zone below, and one band per routed zone pair whose width is its share of
//! all requests. Columns line up with the zone cards above (same count, same widths).

use std::fmt::Write as _;

use super::super::escape::html as esc;
use super::super::graph::Route;
use crate::prose::picture as words;

/// Width of a drawing across the page in SVG units: about the page's width in pixels, so text
/// keeps its size ([`HALF_WIDTH`] for the halves of a side-by-side page).
pub(crate) const FULL_WIDTH: f64 = 1100.0;
/// See [`FULL_WIDTH`].
pub(crate) const HALF_WIDTH: f64 = 540.0;
/// Room between a column's edge and its bars.
const PAD: f64 = 12.0;
const TOP: f64 = 4.0;
const BAR: f64 = 10.0;
/// Room under the destination bars for their labels.
const FOOT: f64 = 18.0;
const HEIGHT: f64 = 150.0;
/// Width of one character of a label (13px, page.css's `svg.bands text`), rounded up: a digit of
/// system-ui or DejaVu Sans at weight 600 is about 0.6 em, `%` a little more. A label is drawn only
/// where this width fits, so labels never overlap in narrow columns.
const CHAR_WIDTH: f64 = 8.5;

/// What a destination column's endpoints receive: the words when they fit the column, else the
/// bare percentage, else nothing (the zone card above says it): a label must not run into the next
/// column's.
fn received_label(fraction_of_all: f64, col_width: f64) -> Option<String> {
    [words::received(fraction_of_all), words::percent(fraction_of_all)]
        .into_iter()
        .find(|l| label_width(l) <= col_width - PAD)
}

/// The room a label takes, by [`CHAR_WIDTH`].
fn label_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// Colours of origin zones, by column (the Tableau 10 palette, readable on white).
pub(crate) const COLOURS: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    "#bab0ac",
];

/// Which state a band shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// With today's hints.
    Now,
    /// After the controller's next sync.
    Expected,
}

impl State {
    fn attr(self) -> &'static str {
        match self {
            State::Now => "now",
            State::Expected => "expected",
        }
    }
    fn words(self) -> &'static str {
        match self {
            State::Now => words::STATE_NOW,
            State::Expected => words::STATE_AFTER,
        }
    }
    fn of(self, r: &Route<'_>) -> (f64, f64) {
        let (now, expected) = r.of_all();
        match self {
            State::Now => (now, r.share.now),
            State::Expected => (expected, r.share.expected),
        }
    }
}

/// One SVG of bands for `state` over `columns`.
pub(crate) fn svg(columns: &[&str], routes: &[Route<'_>], state: State, width: f64) -> String {
    // Looked up once per band: hundreds of zones make tens of thousands of bands.
    let index: std::collections::HashMap<&str, usize> =
        columns.iter().enumerate().rev().map(|(i, c)| (*c, i)).collect();
    let col = |z: &str| index.get(z).copied().unwrap_or(0);
    let live: Vec<&Route<'_>> = routes.iter().filter(|r| state.of(r).0 > 0.0).collect();
    // Scale: the fullest bar (an origin's requests, or what a destination receives) fills its column.
    let mut out_sum = vec![0.0; columns.len()];
    let mut in_sum = vec![0.0; columns.len()];
    live.iter().for_each(|r| out_sum[col(r.from)] += state.of(r).0);
    live.iter().for_each(|r| in_sum[col(r.to)] += state.of(r).0);
    let fullest = out_sum.iter().chain(&in_sum).copied().fold(0.0, f64::max);
    let col_width = width / columns.len().max(1) as f64;
    let scale = if fullest > 0.0 { (col_width - 2.0 * PAD) / fullest } else { 0.0 };
    let mut s = format!(
        "<svg class=\"bands\" data-state=\"{}\" viewBox=\"0 0 {width} {HEIGHT}\" \
         role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">",
        state.attr()
    );
    let bottom = HEIGHT - FOOT - BAR;
    for i in 0..columns.len() {
        let x = i as f64 * col_width + PAD;
        let (o, d) = (out_sum[i] * scale, in_sum[i] * scale);
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(
            s,
            "<rect class=\"from\" x=\"{x:.1}\" y=\"{TOP}\" width=\"{o:.1}\" height=\"{BAR}\" fill=\"{colour}\"/>\
             <rect class=\"to\" x=\"{x:.1}\" y=\"{bottom:.1}\" width=\"{d:.1}\" height=\"{BAR}\" fill=\"#555\"/>"
        );
        if let (true, Some(label)) = (in_sum[i] > 0.0, received_label(in_sum[i], col_width)) {
            let _ = write!(
                s,
                "<text class=\"received\" x=\"{x:.1}\" y=\"{:.1}\">{}</text>",
                HEIGHT - 4.0,
                esc(&label)
            );
        }
    }
    let mut out_at: Vec<f64> = (0..columns.len()).map(|i| i as f64 * col_width + PAD).collect();
    let mut in_at = out_at.clone();
    for r in live {
        let (of_all, of_origin) = state.of(r);
        let (from, to) = (col(r.from), col(r.to));
        let w = (of_all * scale).max(0.5);
        let (x0, x1) = (out_at[from], in_at[to]);
        out_at[from] += w;
        in_at[to] += w;
        band(&mut s, [x0, x1, w], from, r, of_origin, state);
    }
    s.push_str("</svg>");
    s
}

/// One band as a closed path from the origin bar down to the destination bar, with a tooltip and,
/// when it is wide enough, its percentage of the origin's requests.
fn band(s: &mut String, [x0, x1, w]: [f64; 3], from: usize, r: &Route<'_>, of_origin: f64, state: State) {
    let (y0, y1) = (TOP + BAR, HEIGHT - FOOT - BAR);
    let ym = (y0 + y1) / 2.0;
    let _ = write!(
        s,
        "<path class=\"band\" data-state=\"{}\" data-from=\"{}\" data-to=\"{}\" fill=\"{}\" \
         d=\"M{x0:.1},{y0} C{x0:.1},{ym} {x1:.1},{ym} {x1:.1},{y1} L{:.1},{y1} C{:.1},{ym} {:.1},{ym} {:.1},{y0} Z\">\
         <title>{}</title></path>",
        state.attr(),
        esc(r.from),
        esc(r.to),
        COLOURS[from % COLOURS.len()],
        x1 + w,
        x1 + w,
        x0 + w,
        x0 + w,
        esc(&words::band(r.from, r.to, of_origin, state.words()))
    );
    let label = words::percent_short(of_origin);
    if w >= label_width(&label) + 4.0 {
        // Just under the origin bar, where the bands of one zone sit side by side and never cross,
        // inside its own band's width.
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>",
            x0 + w / 2.0,
            y0 + 16.0,
        );
    }
}
