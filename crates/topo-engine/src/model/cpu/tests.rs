use super::*;

/// `(input, MilliValue)`; `None` = `ParseQuantity` error.
/// Expected values came from apimachinery v0.36.0 `ParseQuantity(s)` + `MilliValue()` (go1.26,
/// throwaway program under /tmp); do not edit them by hand.
const GO_MILLI_VALUES: &[(&str, Option<i64>)] = &[
    ("2", Some(2000)),
    ("1500m", Some(1500)),
    ("0.5", Some(500)),
    ("1.25", Some(1250)),
    ("100u", Some(1)),
    ("1n", Some(1)),
    ("0.0000000001", Some(1)),
    ("1e3", Some(1_000_000)),
    ("1Ki", Some(1_024_000)),
    ("-1", Some(-1000)),
    ("9223372036854775807", Some(-1000)),
    ("1E", Some(0)),
    ("999999999999999999999", Some(2_003_764_205_206_895_640)),
    ("abc", None),
    ("1.2.3", None),
    ("1 m", None),
    ("m", Some(0)),
    ("", None),
    (".5", Some(500)),
    ("1.", Some(1000)),
    ("+1", Some(1000)),
    ("-1500m", Some(-1500)),
    ("-1n", Some(-1)),
    ("-0.0000000001", Some(1)),
    ("1E-3", Some(1)),
    ("1e-3", Some(1)),
    ("1.5Gi", Some(1_610_612_736_000)),
    ("0.5Ki", Some(512_000)),
    ("9Ei", Some(-1000)),
    ("1Mi", Some(1_048_576_000)),
    ("1930m", Some(1930)),
    ("3920m", Some(3920)),
    ("0.1m", Some(1)),
    ("1.0000000001", Some(1001)),
    ("1k", Some(1_000_000)),
    ("2M", Some(2_000_000_000)),
    ("1G", Some(1_000_000_000_000)),
    ("1T", Some(1_000_000_000_000_000)),
    ("1P", Some(1_000_000_000_000_000_000)),
    ("1Ei", Some(-9_223_372_036_854_775_808)),
    ("1K", None),
    ("1i", None),
    (".", Some(0)),
    ("-", Some(0)),
    ("0", Some(0)),
    ("00", Some(0)),
    ("1e", None),
    ("1Mi5", None),
    ("1e+3", Some(1_000_000)),
    ("0x10", None),
    (" 1", None),
    ("1.5n", Some(1)),
    ("-1.5n", Some(1)),
    ("9223372036854775808", Some(0)),
    ("1e4294967296", Some(1000)),
    ("-9223372036854775807", Some(1000)),
    ("123456789.123456789", Some(123_456_789_124)),
    ("0.5e1", Some(5000)),
    ("1.e2", Some(100_000)),
    ("1.2Ki", Some(1_228_800)),
    ("-1.5", Some(-1500)),
    ("1.5m", Some(2)),
    // int64 fast path overflowing in positiveScaleInt64's ×1000 case: Go returns the wrapped product.
    ("+123456789012345678", Some(-5_670_419_503_621_183_312)),
    ("-123456789012345678", Some(5_670_419_503_621_183_312)),
    ("+123456789012345678M", Some(-1_055_827_309_402_551_296)),
];

#[test]
fn milli_value_matches_apimachinery() {
    for &(text, expected) in GO_MILLI_VALUES {
        let got = CpuAmount::parse(text).ok().map(|amount| amount.milli_value());
        assert_eq!(got, expected, "{text:?}");
    }
}

#[test]
fn sums_match_apimachinery() {
    // Go: a := MustParse(x); a.Add(MustParse(y)); a.MilliValue()
    let sum = |a: &str, b: &str| (CpuAmount::parse(a).unwrap() + CpuAmount::parse(b).unwrap()).milli_value();
    assert_eq!(sum("1930m", "0.0000000001"), 1931);
    assert_eq!(sum("1E", "8E"), 0);
    assert_eq!(sum("9", "1n"), 9001);
}

#[test]
fn values_beyond_i128_nanos_are_refused() {
    // Go accepts these (MilliValue 0 for "1e1000000"); we refuse rather than hold a wrong value.
    for text in ["1e1000000", "1e30", "-1e30", "1e2147483647"] {
        assert_eq!(CpuAmount::parse(text), Err(QuantityError(text.to_string())), "{text}");
    }
    assert_eq!(CpuAmount::parse("1e-2147483648").unwrap().nanos(), 1);
}

#[test]
fn exact_values_and_rounding_below_nano() {
    let nanos = |text| CpuAmount::parse(text).unwrap().nanos();
    assert_eq!(nanos("1930m"), 1_930_000_000);
    assert_eq!(nanos("0.0000000001"), 1, "rounded up to 1n");
    assert_eq!(nanos("-0.0000000001"), -1, "rounded away from zero");
    assert_eq!(nanos("1.5n"), 2);
    assert_eq!(nanos("9Ei"), i128::from(i64::MAX) * 1_000_000_000, "binary SI capped at 2^63-1");
    assert_eq!(nanos("999999999999999999999"), 999_999_999_999_999_999_999 * 1_000_000_000);
}

#[test]
fn display_is_canonical_and_round_trips() {
    for (text, canonical) in [
        ("1.5", "1500m"),
        ("2", "2"),
        ("100u", "100u"),
        ("0.0000000001", "1n"),
        ("1Ki", "1024"),
        ("1e3", "1k"),
        ("0", "0"),
        ("-1.5", "-1500m"),
        ("1930m", "1930m"),
        ("999999999999999999999", "999999999999999999999"),
        ("1e21", "1000E"),
    ] {
        let amount = CpuAmount::parse(text).unwrap();
        assert_eq!(amount.to_string(), canonical, "{text}");
        assert_eq!(CpuAmount::parse(canonical).unwrap(), amount, "{canonical}");
    }
}

#[test]
fn constructors_add_and_sum() {
    assert_eq!(CpuAmount::from_millis(1500), CpuAmount::parse("1.5").unwrap());
    assert_eq!(CpuAmount::from_nanos(5).to_string(), "5n");
    assert!(CpuAmount::default().is_zero() && CpuAmount::parse("0m").unwrap().is_zero());
    let total: CpuAmount = ["1930m", "1930m", "1930m"].iter().map(|t| CpuAmount::parse(t).unwrap()).sum();
    assert_eq!((total.to_string(), total.milli_value()), ("5790m".to_string(), 5790));
    let huge = CpuAmount::from_nanos(i128::MAX) + CpuAmount::from_nanos(1);
    assert_eq!(huge.nanos(), i128::MAX, "saturates instead of overflowing");
    assert_eq!(CpuAmount::parse("1.5m").unwrap().millis_ceil(), 2);
    assert_eq!(CpuAmount::parse("-1.5m").unwrap().millis_ceil(), -1);
}

#[test]
fn serde_uses_the_canonical_string() {
    let amount = CpuAmount::parse("1.5").unwrap();
    assert_eq!(serde_json::to_string(&amount).unwrap(), "\"1500m\"");
    assert_eq!(serde_json::from_str::<CpuAmount>("\"1500m\"").unwrap(), amount);
    assert!(serde_json::from_str::<CpuAmount>("\"abc\"").is_err());
}

#[test]
fn never_panics_on_odd_text() {
    for text in ["-", "+", ".", "+.", "-.e5", "e5", "1e-", "1e+", "Ki", "١", "1é", "0.", "00000.00000e-99999"]
    {
        let _ = CpuAmount::parse(text).map(|a| (a.milli_value(), a.to_string()));
    }
}

#[test]
fn input_parsing_refuses_a_bare_sign_or_dot() {
    // Go reads these as 0; as input they are typos, and no API server writes them back.
    for text in ["-", "+", ".", "+.", "-.", ""] {
        assert!(CpuAmount::parse(text).is_ok() || text.is_empty(), "{text:?} mirrors Go");
        assert_eq!(CpuAmount::parse_input(text), Err(QuantityError(text.to_string())), "{text:?}");
    }
    assert_eq!(CpuAmount::parse_input("-0").map(|a| a.milli_value()), Ok(0));
    assert_eq!(CpuAmount::parse_input(".5").map(|a| a.milli_value()), Ok(500));
}
