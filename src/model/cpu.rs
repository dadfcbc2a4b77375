//! Exact CPU quantities (spec §2.3, §2.5): parsed like apimachinery's `resource.Quantity`, summed
//! exactly, rounded up to milli-CPU only after summing.
//!
//! OWNER: source helper. Contract (keep these signatures):
//! - `CpuAmount::parse(text) -> Result<CpuAmount, QuantityError>` mirrors `resource.ParseQuantity`
//!   (all suffixes: decimal SI n u m "" k M G T P E, binary Ki…Ei, exponents e/E), rounding as upstream.
//! - `CpuAmount::milli_value()` mirrors `Quantity.MilliValue()` (rounds up).
//! - `is_zero()`, `Add`, `Sum`, `Display` (canonical text), serde as a string.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An exact CPU amount in nano-cores.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CpuAmount {
    nanos: i128,
}

/// A CPU quantity that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid CPU quantity {0:?}")]
pub struct QuantityError(pub String);

impl CpuAmount {
    /// An amount of whole nano-cores.
    pub fn from_nanos(nanos: i128) -> Self {
        CpuAmount { nanos }
    }
    /// An amount of whole milli-cores.
    pub fn from_millis(millis: i64) -> Self {
        CpuAmount { nanos: i128::from(millis) * 1_000_000 }
    }
    /// The amount in nano-cores.
    pub fn nanos(&self) -> i128 {
        self.nanos
    }
    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }
}

impl std::ops::Add for CpuAmount {
    type Output = CpuAmount;
    fn add(self, other: CpuAmount) -> CpuAmount {
        CpuAmount { nanos: self.nanos + other.nanos }
    }
}

impl std::iter::Sum for CpuAmount {
    fn sum<I: Iterator<Item = CpuAmount>>(iter: I) -> CpuAmount {
        iter.fold(CpuAmount::default(), |a, b| a + b)
    }
}

impl fmt::Display for CpuAmount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}n", self.nanos)
    }
}
