//! Port of apimachinery v0.36.0 `ParseQuantity` (quantity.go) and the int64 helpers it relies on
//! (math.go, amount.go), producing the representation Go would hold.

use super::Repr;

/// apimachinery `maxInt64Factors`: digits that always fit an int64.
const MAX_INT64_FACTORS: i32 = 18;
/// Nano-cores in the binary-SI cap (2^63−1 cores).
const BINARY_CAP_NANOS: i128 = i64::MAX as i128 * 1_000_000_000;

/// The pieces `parseQuantityString` splits a quantity into.
struct Scanned<'a> {
    positive: bool,
    value: &'a str,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
}

// mirrors quantity.go: parseQuantityString (byte-wise, like Go's string indexing); as long as the
// upstream function, whose steps it follows one by one.
#[allow(clippy::too_many_lines)]
fn scan(text: &str) -> Option<Scanned<'_>> {
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut out = Scanned { positive: true, value: "", num: "", denom: "", suffix: "" };
    let mut pos = 0;
    match bytes.first() {
        Some(b'-') => {
            out.positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    while pos < end && bytes[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        (out.num, out.value) = ("0", "0");
        return Some(out);
    }
    let start = pos;
    while pos < end && bytes[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        (out.num, out.value) = (&text[start..], text);
        return Some(out);
    }
    out.num = if pos == start { "0" } else { &text[start..pos] };
    if bytes[pos] == b'.' {
        pos += 1;
        let denom_start = pos;
        while pos < end && bytes[pos].is_ascii_digit() {
            pos += 1;
        }
        out.denom = &text[denom_start..pos];
        if pos >= end {
            out.value = text;
            return Some(out);
        }
    }
    out.value = &text[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&bytes[pos]) {
        pos += 1;
    }
    if pos < end && matches!(bytes[pos], b'-' | b'+') {
        pos += 1;
    }
    while pos < end && bytes[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos < end {
        return None; // ErrFormatWrong
    }
    out.suffix = &text[suffix_start..];
    Some(out)
}

/// A suffix's base-10 exponent, or base-2 exponent when `binary`.
struct Suffix {
    exponent: i32,
    binary: bool,
}

// mirrors suffix.go: fastLookup.interpret / suffixHandler.interpret
fn interpret(suffix: &str) -> Option<Suffix> {
    let decimal = |exponent| Some(Suffix { exponent, binary: false });
    let binary = |exponent| Some(Suffix { exponent, binary: true });
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        // "e<int64>"; Go converts the parsed int64 with int32(parsed), which wraps.
        _ if suffix.len() > 1 && matches!(suffix.as_bytes()[0], b'e' | b'E') => {
            suffix[1..].parse::<i64>().ok().and_then(|parsed| decimal(parsed as i32))
        }
        _ => None,
    }
}

/// Parses like `resource.ParseQuantity`; `None` where Go returns an error or the exact value
/// leaves the i128-nano range.
// mirrors quantity.go: ParseQuantity
pub(super) fn parse_quantity(text: &str) -> Option<Repr> {
    if text.is_empty() {
        return None;
    }
    if text == "0" {
        return Some(Repr::Int { value: 0, scale: 0 });
    }
    let scanned = scan(text)?;
    let suffix = interpret(scanned.suffix)?;
    if let Some(repr) = try_int64_amount(&scanned, &suffix) {
        return repr;
    }
    dec_amount(&scanned, &suffix)
}

/// The int64 fast path. `None` means "fall through to inf.Dec"; `Some(None)` means out of range.
fn try_int64_amount(scanned: &Scanned<'_>, suffix: &Suffix) -> Option<Option<Repr>> {
    let digits = i32::try_from(scanned.num.len() + scanned.denom.len()).unwrap_or(i32::MAX);
    let (precision, mut scale, mantissa) = if !suffix.binary {
        (MAX_INT64_FACTORS - digits, suffix.exponent, 1i64)
    } else if scanned.denom.is_empty() {
        // 1Mi (2^20) has ~6 digits of decimal precision: Go's float32(exponent)*3/10 is exact here.
        let num_len = i32::try_from(scanned.num.len()).unwrap_or(i32::MAX);
        (15 - num_len - suffix.exponent * 3 / 10 - 1, 0, 1i64 << suffix.exponent)
    } else {
        (-1, 0, 1)
    };
    if precision < 0 {
        return None;
    }
    scale = scale.wrapping_sub(scanned.denom.len() as i32);
    if scale < -9 {
        return None;
    }
    // At most 18 digits (precision ≥ 0), so this cannot fail.
    let value: i64 = format!("{}{}", scanned.num, scanned.denom).parse().ok()?;
    let result = value.checked_mul(mantissa)?;
    let value = if scanned.positive { result } else { -result };
    Some(int_nanos(value, scale).map(|_| Repr::Int { value, scale }))
}

/// The exact nano-cores of `value · 10^scale`, if they fit an i128.
pub(super) fn int_nanos(value: i64, scale: i32) -> Option<i128> {
    if value == 0 {
        return Some(0);
    }
    let exponent = u32::try_from(i64::from(scale) + 9).ok()?;
    10i128.checked_pow(exponent)?.checked_mul(i128::from(value))
}

/// The inf.Dec path: exact value, rounded away from zero to nano-cores, binary SI capped.
fn dec_amount(scanned: &Scanned<'_>, suffix: &Suffix) -> Option<Repr> {
    // inf.Dec SetString: [sign] digits [. digits], at least one digit.
    let unsigned = scanned.value.trim_start_matches(['+', '-']);
    let (int_part, frac_part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None; // ErrNumeric
    }
    // Digits of the unscaled integer, most significant first, without leading zeros.
    let mut digits: Vec<u8> = int_part.bytes().chain(frac_part.bytes()).map(|b| b - b'0').collect();
    let first_nonzero = digits.iter().position(|&d| d != 0).unwrap_or(digits.len());
    digits.drain(..first_nonzero);
    let mut exponent = 9 - frac_part.len() as i64; // of nano-cores
    if suffix.binary {
        for _ in 0..suffix.exponent {
            double(&mut digits);
        }
    } else {
        exponent += i64::from(suffix.exponent);
    }
    let nanos = round_up_to_integer(&digits, exponent);
    let nanos = match nanos {
        Some(n) if suffix.binary && n > BINARY_CAP_NANOS => BINARY_CAP_NANOS,
        None if suffix.binary => BINARY_CAP_NANOS,
        Some(n) => n,
        None => return None, // beyond ±1.7e29 cores: Go accepts, we refuse
    };
    let unscaled = if scanned.positive { nanos } else { -nanos };
    Some(Repr::Dec { unscaled, scale: 9 })
}

/// Doubles a big decimal digit string in place.
fn double(digits: &mut Vec<u8>) {
    let mut carry = 0;
    for digit in digits.iter_mut().rev() {
        let twice = *digit * 2 + carry;
        *digit = twice % 10;
        carry = twice / 10;
    }
    if carry > 0 {
        digits.insert(0, carry);
    }
}

/// `digits · 10^exponent`, rounded up to an integer when fractional (inf.RoundUp on magnitudes);
/// `None` when it does not fit an i128.
fn round_up_to_integer(digits: &[u8], exponent: i64) -> Option<i128> {
    if digits.is_empty() {
        return Some(0);
    }
    let (whole, dropped): (&[u8], &[u8]) = if exponent >= 0 {
        (digits, &[])
    } else {
        let keep = digits.len().saturating_sub(usize::try_from(-exponent).unwrap_or(usize::MAX));
        digits.split_at(keep)
    };
    let mut value: i128 = 0;
    for &digit in whole {
        value = value.checked_mul(10)?.checked_add(i128::from(digit))?;
    }
    if exponent > 0 {
        value = 10i128.checked_pow(u32::try_from(exponent).ok()?)?.checked_mul(value)?;
    }
    let fractional = dropped.iter().any(|&d| d != 0);
    value.checked_add(i128::from(fractional))
}

// mirrors math.go: negativeScaleInt64 (divides by 10^scale, rounding away from zero)
pub(super) fn negative_scale_i64(base: i64, scale: u32) -> i64 {
    if scale == 0 {
        return base;
    }
    let mut value = base;
    let mut fraction = false;
    for _ in 0..scale {
        if !fraction && value % 10 != 0 {
            fraction = true;
        }
        value /= 10;
        if value == 0 {
            return match (fraction, base > 0) {
                (false, _) => 0,
                (true, true) => 1,
                (true, false) => -1,
            };
        }
    }
    if fraction { if base > 0 { value + 1 } else { value - 1 } } else { value }
}

// mirrors math.go: int64MultiplyScale (and its 10/100/1000 variants): the wrapped product plus
// whether it is exact; `MinInt64` gives (0, false)
fn multiply_scale_i64(a: i64, b: i64) -> (i64, bool) {
    if a == 0 || a == 1 {
        return (a * b, true);
    }
    if a == i64::MIN {
        return (0, false);
    }
    let c = a.wrapping_mul(b);
    (c, c / b == a)
}

// mirrors math.go: positiveScaleInt64 — multiplies by 10^scale. On overflow the fast cases
// (1, 2, 3, 6, 9) return the wrapped product, the general loop returns 0; MilliValue ignores the
// flag and uses the value either way.
pub(super) fn positive_scale_i64(base: i64, scale: i64) -> (i64, bool) {
    match scale {
        0 => (base, true),
        1 => multiply_scale_i64(base, 10),
        2 => multiply_scale_i64(base, 100),
        3 => multiply_scale_i64(base, 1000),
        6 => multiply_scale_i64(base, 1_000_000),
        9 => multiply_scale_i64(base, 1_000_000_000),
        _ => {
            let mut value = base;
            for _ in 0..scale {
                if value == 0 {
                    break; // 0 stays 0; saves Go's up to 2^31 idle iterations
                }
                let (next, ok) = multiply_scale_i64(value, 10);
                if !ok {
                    return (0, false);
                }
                value = next;
            }
            (value, true)
        }
    }
}

// mirrors amount.go: (*int64Amount).Add; None means "overflow, switch to inf.Dec"
pub(super) fn int64_amount_add(a: i64, sa: i32, b: i64, sb: i32) -> Option<(i64, i32)> {
    if b == 0 {
        return Some((a, sa));
    }
    if a == 0 {
        return Some((b, sb));
    }
    if sa == sb {
        return Some((a.checked_add(b)?, sa));
    }
    if sa > sb {
        let c = exact(positive_scale_i64(a, i64::from(sa) - i64::from(sb)))?;
        Some((c.checked_add(b)?, sb))
    } else {
        let c = exact(positive_scale_i64(b, i64::from(sb) - i64::from(sa)))?;
        Some((a.checked_add(c)?, sa))
    }
}

fn exact((value, ok): (i64, bool)) -> Option<i64> {
    ok.then_some(value)
}
