//! `getAllocations` safeguards and bit-exact values (docs/behaviour.md#step-a-allocations).
//!
//! Expected bit patterns come from a Go 1.26 run of a throwaway program that evaluates
//! upstream's exact expressions (`ratio * float64(n)`, `desired * (1 / (1 + overloadThreshold))`
//! with `const overloadThreshold float64 = 0.2`) and prints `math.Float64bits`.

use super::cpu_ratios;
use crate::core::testkit_tc::ratios;
use crate::core::topologycache::{Disabled, get_allocations, overload_factor};
use crate::core::zones::Ratios;

#[test]
fn overload_factor_is_gos_constant() {
    // Go: K=0.8333333333333334 bits=0x3feaaaaaaaaaaaab
    assert_eq!(overload_factor().to_bits(), 0x3fea_aaaa_aaaa_aaab);
}

#[test]
fn safeguards_fire_in_upstream_order() {
    let two = ratios(&[("a", 0.5), ("b", 0.5)]);
    assert_eq!(get_allocations(&Ratios::Nil, 0), Err(Disabled::InsufficientNodeInfo));
    assert_eq!(get_allocations(&Ratios::initial(), 100), Err(Disabled::OneZone));
    assert_eq!(get_allocations(&ratios(&[("a", 1.0)]), 100), Err(Disabled::OneZone));
    assert_eq!(get_allocations(&two, 1), Err(Disabled::InsufficientEndpoints { endpoints: 1, zones: 2 }));
    assert_eq!(get_allocations(&two, 0), Err(Disabled::InsufficientEndpoints { endpoints: 0, zones: 2 }));
    // 2 endpoints, 2 zones: min ceil(1 * K) = 1 each → fine, max 1.
    let allocations = get_allocations(&two, 2).unwrap();
    assert_eq!((allocations["a"].minimum, allocations["a"].maximum, allocations["a"].desired), (1, 1, 1.0));
    // 3 endpoints: min ceil(1.5 * K) = 2 each → Σ4 > 3.
    let refused = Disabled::OverloadThreshold { endpoints: 3, zones: 2, minimum_total: 4 };
    assert_eq!(get_allocations(&two, 3), Err(refused));
}

#[test]
fn w9_float_effect_on_minimum_bit_exact() {
    // Go: W9 zone0 ratio=0.4(0x3fd999999999999a) desired_raw=2.4000000000000004(0x4003333333333334)
    //     scaled=2.0000000000000004(0x4000000000000001) min=3 desired=3(0x4008000000000000)
    //     zone1 ratio=0.6(0x3fe3333333333333) desired_raw=3.5999999999999996(0x400ccccccccccccc)
    //     scaled=3(0x4008000000000000) min=3 desired=3.5999999999999996(0x400ccccccccccccc)
    let r = cpu_ratios(&[("a", 2000), ("b", 3000)]);
    let map = r.as_map().unwrap();
    assert_eq!((map["a"].to_bits(), map["b"].to_bits()), (0x3fd9_9999_9999_999a, 0x3fe3_3333_3333_3333));
    assert_eq!((map["a"] * 6.0).to_bits(), 0x4003_3333_3333_3334);
    let allocations = get_allocations(&r, 6).unwrap();
    let (a, b) = (allocations["a"], allocations["b"]);
    assert_eq!((a.minimum, a.maximum, a.desired.to_bits()), (3, 3, 0x4008_0000_0000_0000));
    assert_eq!((b.minimum, b.maximum, b.desired.to_bits()), (3, 3, 0x400c_cccc_cccc_cccc));
}

#[test]
fn w11_float_effect_refuses_hints_bit_exact() {
    // Go: W11a zone0 ratio=0.2(0x3fc999999999999a) desired_raw=1.2000000000000002(0x3ff3333333333334)
    //     scaled=1.0000000000000002(0x3ff0000000000001) min=2; zone1 ratio=0.8 desired_raw=4.800000000000001
    //     (0x4013333333333334) scaled=4.000000000000001(0x4010000000000001) min=5 → Σ7 > 6.
    let r = cpu_ratios(&[("a", 1000), ("b", 4000)]);
    let map = r.as_map().unwrap();
    assert_eq!((map["a"].to_bits(), map["b"].to_bits()), (0x3fc9_9999_9999_999a, 0x3fe9_9999_9999_999a));
    assert_eq!((map["a"] * 6.0 * overload_factor()).to_bits(), 0x3ff0_0000_0000_0001);
    assert_eq!((map["b"] * 6.0 * overload_factor()).to_bits(), 0x4010_0000_0000_0001);
    let refused = Disabled::OverloadThreshold { endpoints: 6, zones: 2, minimum_total: 7 };
    assert_eq!(get_allocations(&r, 6), Err(refused));
    // Go: W11b (2:3, n=3) zone0 scaled=1.0000000000000002(0x3ff0000000000001) min=2;
    //     zone1 desired_raw=1.7999999999999998(0x3ffccccccccccccc) scaled=1.5(0x3ff8000000000000) min=2.
    let r = cpu_ratios(&[("a", 2000), ("b", 3000)]);
    let map = r.as_map().unwrap();
    assert_eq!((map["a"] * 3.0 * overload_factor()).to_bits(), 0x3ff0_0000_0000_0001);
    assert_eq!((map["b"] * 3.0).to_bits(), 0x3ffc_cccc_cccc_cccc);
    let refused = Disabled::OverloadThreshold { endpoints: 3, zones: 2, minimum_total: 4 };
    assert_eq!(get_allocations(&r, 3), Err(refused));
}

#[test]
fn three_zone_upstream_case_allocations() {
    // Go: T3 (0.35/0.35/0.30, n=10) desired_raw 3.5/3.5/3 (0x400c000000000000, 0x4008000000000000), min 3 each.
    let allocations = get_allocations(&ratios(&[("a", 0.35), ("b", 0.35), ("c", 0.30)]), 10).unwrap();
    let bits: Vec<_> = allocations.values().map(|a| (a.minimum, a.maximum, a.desired.to_bits())).collect();
    assert_eq!(
        bits,
        [(3, 4, 0x400c_0000_0000_0000), (3, 4, 0x400c_0000_0000_0000), (3, 4, 0x4008_0000_0000_0000)]
    );
}
