//! Exact CPU quantities (docs/behaviour.md#nodes-and-zone-cpu-ratios): parsed like apimachinery's `resource.Quantity`, summed
//! exactly, rounded up to milli-CPU only after summing.
//!
//! Upstream keeps a Quantity either as a scaled `int64Amount` or as an arbitrary-precision
//! `inf.Dec`, and `MilliValue()` behaves differently on the two (on overflow one gives 0 or a
//! wrapped product, the other a wrapped quotient; negative values round differently).
//! [`CpuAmount`] therefore remembers which of the two apimachinery v0.36.0 would hold, so that
//! [`CpuAmount::milli_value`] and `+` give Go's answers bit for bit, including on absurd inputs
//! (checked against Go on ~2,200 generated inputs). Equality, ordering and hashing compare the
//! exact value only.
//!
//! One deliberate difference: the exact value must fit in an `i128` of nano-cores (about ±1.7e29
//! cores). Go accepts larger decimal values (`1e100`); we reject them at parse time, and sums that
//! would leave the range saturate.

mod parse;
#[cfg(test)]
mod tests;

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An exact CPU amount, as apimachinery's `resource.Quantity` would hold it.
#[derive(Clone, Copy)]
pub struct CpuAmount {
    repr: Repr,
}

/// Go's two internal representations; `value · 10^scale` and `unscaled · 10^-scale` respectively.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repr {
    /// `int64Amount{value, scale}`: the value is `value · 10^scale` (scale ≥ −9).
    Int { value: i64, scale: i32 },
    /// `inf.Dec`: the value is `unscaled · 10^-scale` (scale ≤ 9).
    Dec { unscaled: i128, scale: i32 },
}

/// A CPU quantity that does not parse (holds the text as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid CPU quantity {0:?}")]
pub struct QuantityError(pub String);

const NANOS_PER_MILLI: i128 = 1_000_000;

impl CpuAmount {
    /// Parses `text` exactly like apimachinery v0.36.0 `resource.ParseQuantity` (no surrounding
    /// whitespace; the JSON decoder's trimming is the caller's job). Values finer than a
    /// nano-core are rounded away from zero; binary-suffixed values are capped at 2^63−1 cores.
    pub fn parse(text: &str) -> Result<CpuAmount, QuantityError> {
        parse::parse_quantity(text)
            .map(|repr| CpuAmount { repr })
            .ok_or_else(|| QuantityError(text.to_string()))
    }

    /// [`CpuAmount::parse`] for text a user or a dump gives us: Go's parser reads a bare sign or
    /// dot (`-`, `+`, `.`) as 0, which no API server writes back (it stores `"0"`); such text is
    /// a typo, not a zero, so it is refused here.
    pub fn parse_input(text: &str) -> Result<CpuAmount, QuantityError> {
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return Err(QuantityError(text.to_string()));
        }
        CpuAmount::parse(text)
    }

    /// An amount of whole nano-cores.
    pub fn from_nanos(nanos: i128) -> Self {
        let repr = match i64::try_from(nanos) {
            Ok(value) => Repr::Int { value, scale: -9 },
            Err(_) => Repr::Dec { unscaled: nanos, scale: 9 },
        };
        CpuAmount { repr }
    }

    /// An amount of whole milli-cores.
    pub fn from_millis(millis: i64) -> Self {
        CpuAmount { repr: Repr::Int { value: millis, scale: -3 } }
    }

    /// The exact amount in nano-cores.
    pub fn nanos(&self) -> i128 {
        match self.repr {
            // Both conversions are exact: every constructor keeps the value within i128 nanos.
            Repr::Int { value, scale } => i128::from(value) * pow10_i128((scale + 9) as u32),
            Repr::Dec { unscaled, scale } => unscaled * pow10_i128((9 - scale) as u32),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        match self.repr {
            Repr::Int { value, .. } => value == 0,
            Repr::Dec { unscaled, .. } => unscaled == 0,
        }
    }

    /// Milli-cores as `Quantity.MilliValue()` returns them: rounded up (towards +∞ for positive
    /// values), and with Go's overflow behaviour (a wrapped `int64`, or 0) for absurd amounts.
    // mirrors quantity.go: ScaledValue(Milli) → amount.go AsScaledInt64 / scale_int.go scaledValue
    pub fn milli_value(&self) -> i64 {
        match self.repr {
            Repr::Int { value, scale } if scale < -3 => parse::negative_scale_i64(value, (-3 - scale) as u32),
            Repr::Int { value, scale } => parse::positive_scale_i64(value, scale as i64 + 3).0,
            Repr::Dec { unscaled, scale } => dec_scaled_value(unscaled, scale, 3),
        }
    }

    /// The exact amount rounded up (towards +∞) to whole milli-cores, without Go's overflow quirks.
    pub fn millis_ceil(&self) -> i128 {
        self.nanos().div_euclid(NANOS_PER_MILLI) + i128::from(self.nanos().rem_euclid(NANOS_PER_MILLI) != 0)
    }

    fn as_dec(self) -> (i128, i32) {
        match self.repr {
            Repr::Int { value, scale } => (i128::from(value), -scale),
            Repr::Dec { unscaled, scale } => (unscaled, scale),
        }
    }
}

/// `10^exp` for `exp ≤ 38`.
fn pow10_i128(exp: u32) -> i128 {
    10i128.pow(exp)
}

/// Go's `big.Int.Int64()`: the low 64 bits, two's complement.
fn wrap64(value: i128) -> i64 {
    value as i64
}

// mirrors scale_int.go: scaledValue (always rounds up when scaling down; may overflow)
fn dec_scaled_value(unscaled: i128, scale: i32, new_scale: i32) -> i64 {
    let dif = scale - new_scale;
    match dif.cmp(&0) {
        Ordering::Equal => wrap64(unscaled),
        // Go: unscaled.Int64() * int64(math.Pow10(-dif)); Pow10 beyond int64 converts to MinInt64
        // on amd64. The range invariant keeps -dif ≤ 18 in practice.
        Ordering::Less => {
            let factor = if -dif <= 18 { 10i64.pow((-dif) as u32) } else { i64::MIN };
            wrap64(unscaled).wrapping_mul(factor)
        }
        Ordering::Greater if unscaled < i128::from(i64::MAX) && dif < 19 => {
            // Fast path: truncating int64 division, then +1 on any remainder (also for negatives).
            let value = wrap64(unscaled);
            let divisor = 10i64.pow(dif as u32);
            let result = value / divisor;
            if value % divisor != 0 { result + 1 } else { result }
        }
        Ordering::Greater => {
            // Big path: Euclidean DivMod, +1 on a remainder, then Int64() (wrapping).
            let divisor = pow10_i128(dif.min(38) as u32);
            let result = wrap64(unscaled.div_euclid(divisor));
            if unscaled.rem_euclid(divisor) != 0 { result.wrapping_add(1) } else { result }
        }
    }
}

impl Default for CpuAmount {
    /// Zero, like Go's zero `resource.Quantity`.
    fn default() -> Self {
        CpuAmount { repr: Repr::Int { value: 0, scale: 0 } }
    }
}

impl std::ops::Add for CpuAmount {
    type Output = CpuAmount;
    // mirrors quantity.go: (*Quantity).Add — int64 arithmetic while it fits, then inf.Dec
    fn add(self, other: CpuAmount) -> CpuAmount {
        if let (Repr::Int { value: a, scale: sa }, Repr::Int { value: b, scale: sb }) =
            (self.repr, other.repr)
            && let Some((value, scale)) = parse::int64_amount_add(a, sa, b, sb)
            && parse::int_nanos(value, scale).is_some()
        {
            return CpuAmount { repr: Repr::Int { value, scale } };
        }
        let ((ua, sa), (ub, sb)) = (self.as_dec(), other.as_dec());
        let scale = sa.max(sb);
        let align = |u: i128, s: i32| u.checked_mul(pow10_i128((scale - s) as u32));
        let sum = align(ua, sa).zip(align(ub, sb)).and_then(|(a, b)| a.checked_add(b));
        let repr = match sum {
            Some(unscaled) => Repr::Dec { unscaled, scale },
            // Beyond ±1.7e29 cores: saturate (Go's inf.Dec would keep growing).
            None => {
                let negative = self.nanos() < 0 && other.nanos() < 0;
                Repr::Dec { unscaled: if negative { i128::MIN } else { i128::MAX }, scale: 9 }
            }
        };
        CpuAmount { repr }
    }
}

impl std::iter::Sum for CpuAmount {
    fn sum<I: Iterator<Item = CpuAmount>>(iter: I) -> CpuAmount {
        iter.fold(CpuAmount::default(), |a, b| a + b)
    }
}

impl PartialEq for CpuAmount {
    fn eq(&self, other: &Self) -> bool {
        self.nanos() == other.nanos()
    }
}

impl Eq for CpuAmount {}

impl PartialOrd for CpuAmount {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CpuAmount {
    fn cmp(&self, other: &Self) -> Ordering {
        self.nanos().cmp(&other.nanos())
    }
}

impl Hash for CpuAmount {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.nanos().hash(state);
    }
}

impl fmt::Debug for CpuAmount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CpuAmount({self})")
    }
}

impl fmt::Display for CpuAmount {
    /// Canonical decimal-SI text, like `Quantity.String()` for DecimalSI: the largest suffix that
    /// keeps the number whole (`1500m`, `2`, `100u`, `1536k`). Beyond `E` the number grows
    /// (`1000E`) where Go would print a bare, wrong number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nanos = self.nanos();
        if nanos == 0 {
            return f.write_str("0");
        }
        let (mut mantissa, mut exponent) = (nanos, -9i32);
        while mantissa % 1000 == 0 && exponent < 18 {
            mantissa /= 1000;
            exponent += 3;
        }
        let suffix = match exponent {
            -9 => "n",
            -6 => "u",
            -3 => "m",
            0 => "",
            3 => "k",
            6 => "M",
            9 => "G",
            12 => "T",
            15 => "P",
            _ => "E",
        };
        write!(f, "{mantissa}{suffix}")
    }
}

impl Serialize for CpuAmount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CpuAmount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        CpuAmount::parse(&text).map_err(serde::de::Error::custom)
    }
}
