//! `--request-timeout` as kubectl reads it: a bare integer is seconds, anything else is a Go
//! duration (`500ms`, `1.5s`, `1m30s`, `2h45m`), parsed as Go's `time.ParseDuration` parses it.

use std::time::Duration;

/// `--request-timeout` when none is given.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// `--request-timeout` of `version` when none is given: it answers at once.
pub(crate) const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// Nanoseconds per unit, as Go's `unitMap` (`time/format.go`).
fn unit_nanos(unit: &str) -> Option<u64> {
    Some(match unit {
        "ns" => 1,
        "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

/// Mirrors Go's `time.ParseDuration` for durations that are not negative: a sequence of decimal
/// numbers, each with an optional fraction and a unit; `"0"` alone needs none. None when the text
/// is not such a duration or overflows Go's `int64` nanoseconds.
pub(crate) fn parse_go_duration(text: &str) -> Option<Duration> {
    let mut s = text.strip_prefix('+').unwrap_or(text);
    if s == "0" {
        return Some(Duration::ZERO);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        let (whole, rest) = split_digits(s);
        let (fraction, rest) = match rest.strip_prefix('.') {
            Some(after) => split_digits(after),
            None => ("", rest),
        };
        // Go's `!pre && !post`: a number needs a digit before or after its point.
        if whole.is_empty() && fraction.is_empty() {
            return None;
        }
        let unit_len = rest.find(|c: char| c == '.' || c.is_ascii_digit()).unwrap_or(rest.len());
        let nanos = unit_nanos(&rest[..unit_len])?;
        total = total.checked_add(scaled(whole, fraction, nanos)?)?;
        s = &rest[unit_len..];
    }
    (total <= i64::MAX as u64).then(|| Duration::from_nanos(total))
}

/// The leading ASCII digits of `s`, and the rest.
fn split_digits(s: &str) -> (&str, &str) {
    s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()))
}

/// `whole.fraction` units of `nanos` each, in nanoseconds: the whole part exactly (None on
/// overflow, as Go's `leadingInt`), the fraction as Go adds it (`float64(f) * unit / scale`,
/// digits past `u64` ignored like `leadingFraction`).
fn scaled(whole: &str, fraction: &str, nanos: u64) -> Option<u64> {
    let v: u64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let mut value = v.checked_mul(nanos)?;
    let (mut f, mut scale) = (0u64, 1.0f64);
    for digit in fraction.bytes().map(|b| u64::from(b - b'0')) {
        match f.checked_mul(10).and_then(|x| x.checked_add(digit)) {
            Some(next) => (f, scale) = (next, scale * 10.0),
            None => break,
        }
    }
    if f > 0 {
        // As Go: the fractional nanoseconds are truncated toward zero.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let extra = (f as f64 * (nanos as f64 / scale)) as u64;
        value = value.checked_add(extra)?;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_parse_as_go_parses_them() {
        let ms = Duration::from_millis;
        for (text, want) in [
            ("0", Duration::ZERO),
            ("500ms", ms(500)),
            ("1.5s", ms(1500)),
            ("1m30s", Duration::from_secs(90)),
            ("2h45m", Duration::from_secs(9900)),
            (".5s", ms(500)),
            ("1.s", Duration::from_secs(1)),
            ("+3s", Duration::from_secs(3)),
            ("1h1m1s1ms1us1ns", Duration::from_nanos(3_661_001_001_001)),
            ("10\u{b5}s", Duration::from_micros(10)),
            ("0.000000001s", Duration::from_nanos(1)),
        ] {
            assert_eq!(parse_go_duration(text), Some(want), "{text}");
        }
    }

    #[test]
    fn what_go_refuses_is_refused_and_overflow_never_panics() {
        for bad in
            ["", "1", "s", ".s", "1.5", "-1s", "1x", "1 s", "3000000h", "18446744073709551615ns", "1..5s"]
        {
            assert_eq!(parse_go_duration(bad), None, "{bad:?}");
        }
        assert_eq!(
            parse_go_duration("2562047h47m16.854775807s"),
            Some(Duration::from_nanos(i64::MAX as u64))
        );
    }
}
