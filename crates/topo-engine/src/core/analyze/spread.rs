//! Where endpoints go when a Service is scaled: the spread rule shared by `simulate --replicas`
//! and "replicas needed", so that what one predicts is what the other builds, starting from the
//! same reading of today's spread ([`ready_spread`]).
//!
//! Rule (largest remainder, exact integer arithmetic): zone `z` with weight `w_z` (today's ready
//! endpoints in `z`, or the zone's CPU when the Service has none) gets `floor(n · w_z / W)`
//! endpoints; the seats left over go one each to the zones with the largest remainder
//! `n · w_z mod W`, ties broken by the larger weight, then by zone name (the zone-less group `""`
//! last). A zone with weight 0 never gets an endpoint, and scaling up never takes one away from a
//! zone (`floor(n · w / W)` grows with `n`).

use std::collections::BTreeMap;

use crate::model::EndpointSlice;

/// Endpoints per zone; the key `""` holds endpoints without a zone.
pub type ZoneSpread = BTreeMap<String, i64>;

/// Today's spread: the ready endpoints of `slices` per zone (`""` = no zone).
pub fn ready_spread<'a>(slices: impl IntoIterator<Item = &'a EndpointSlice>) -> ZoneSpread {
    let mut out = ZoneSpread::new();
    for e in slices.into_iter().flat_map(|s| &s.endpoints).filter(|e| e.controller_ready()) {
        add_one(&mut out, e.zone.as_deref().unwrap_or_default());
    }
    out
}

/// One more for `key`: a key already counted is found by `&str`, so counting the endpoints of a
/// zone allocates its name once, not once per endpoint.
pub(crate) fn add_one(counts: &mut BTreeMap<String, i64>, key: &str) {
    match counts.get_mut(key) {
        Some(count) => *count += 1,
        None => _ = counts.insert(key.to_string(), 1),
    }
}

/// Split `n` endpoints over the zones of `weights` by the largest-remainder rule (module docs).
/// Zones with weight 0 are kept with 0; an empty or all-zero `weights` gives an empty spread.
pub fn spread(weights: &BTreeMap<String, i64>, n: i64) -> ZoneSpread {
    let total: i128 = weights.values().map(|w| i128::from((*w).max(0))).sum();
    if total == 0 || n <= 0 {
        return weights.keys().map(|z| (z.clone(), 0)).collect();
    }
    let mut out = ZoneSpread::new();
    let mut remainders: Vec<(i128, i64, &String)> = Vec::new();
    let mut given = 0;
    for (zone, weight) in weights {
        let share = i128::from(n) * i128::from((*weight).max(0));
        let seats = (share / total) as i64;
        given += seats;
        out.insert(zone.clone(), seats);
        if *weight > 0 {
            remainders.push((share % total, *weight, zone));
        }
    }
    // Largest remainder first, then larger weight, then zone name with "" (no zone) last.
    remainders.sort_by(|a, b| {
        b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then((a.2.is_empty(), a.2).cmp(&(b.2.is_empty(), b.2)))
    });
    for (_, _, zone) in remainders.into_iter().take((n - given) as usize) {
        *out.get_mut(zone).expect("zone present") += 1;
    }
    out
}

/// `n` endpoints spread evenly over `zones` (every weight 1; ties by zone name).
pub fn even(zones: &[String], n: i64) -> ZoneSpread {
    spread(&zones.iter().map(|z| (z.clone(), 1)).collect(), n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
        pairs.iter().map(|(z, n)| (z.to_string(), *n)).collect()
    }

    #[test]
    fn proportional_with_largest_remainder() {
        // a:2 b:1 → 4: quotas 2.67/1.33 → 2/1, the seat left goes to a (remainder 2/3).
        assert_eq!(spread(&w(&[("a", 2), ("b", 1)]), 4), w(&[("a", 3), ("b", 1)]));
        // Equal remainders: the larger weight wins, then the zone name.
        assert_eq!(spread(&w(&[("a", 1), ("b", 1), ("c", 1)]), 4), w(&[("a", 2), ("b", 1), ("c", 1)]));
        assert_eq!(spread(&w(&[("a", 1), ("b", 2)]), 1), w(&[("a", 0), ("b", 1)]));
        // The zone-less group loses ties against named zones.
        assert_eq!(spread(&w(&[("", 1), ("a", 1)]), 1), w(&[("", 0), ("a", 1)]));
    }

    #[test]
    fn totals_and_no_moves_against_the_direction_of_scaling() {
        let weights = w(&[("a", 5), ("b", 3), ("c", 0), ("", 1)]);
        for n in 0..=200 {
            let s = spread(&weights, n);
            assert_eq!(s.values().sum::<i64>(), n, "{n}");
            assert_eq!(s["c"], 0);
            for (zone, k) in &s {
                let today = weights[zone];
                assert!(if n >= 9 { *k >= today } else { *k <= today }, "{n} {zone}: {k} vs {today}");
            }
        }
    }

    #[test]
    fn even_and_degenerate_inputs() {
        let zones = vec!["b".to_string(), "a".to_string()];
        assert_eq!(even(&zones, 3), w(&[("a", 2), ("b", 1)]));
        assert_eq!(spread(&w(&[("a", 0)]), 3), w(&[("a", 0)]));
        assert!(spread(&BTreeMap::new(), 3).is_empty());
    }
}
