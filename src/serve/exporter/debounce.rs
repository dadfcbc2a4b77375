//! When to recompute: after a quiet time following the last change that touched the state, so
//! that a burst (a rollout, a relist) gives one recompute, but never later than a maximum wait
//! after the first change still waiting, so that sustained churn cannot postpone every
//! recompute. Changes that touch nothing the engine reads never get here (the state says so).
//! Pure: the instants arrive as arguments.

use std::time::{Duration, Instant};

/// Quiet time after the last change before recomputing.
pub const QUIET: Duration = Duration::from_millis(20);

/// The longest a change waits for its recompute under continuous changes.
pub const MAX_WAIT: Duration = Duration::from_millis(200);

/// The changes waiting for a recompute.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Debounce {
    /// The first and the last change since the last recompute.
    waiting: Option<(Instant, Instant)>,
}

impl Debounce {
    /// A change touched the state at `now`.
    pub fn touched(&mut self, now: Instant) {
        let first = self.waiting.map_or(now, |(first, _)| first);
        self.waiting = Some((first, now));
    }

    /// When to recompute, if anything waits: the quiet time after the last change, at most the
    /// maximum wait after the first.
    pub fn due(&self) -> Option<Instant> {
        self.waiting.map(|(first, last)| (last + QUIET).min(first + MAX_WAIT))
    }

    /// The recompute ran.
    pub fn done(&mut self) {
        self.waiting = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_change_waits_the_quiet_time() {
        let t0 = Instant::now();
        let mut debounce = Debounce::default();
        assert_eq!(debounce.due(), None);
        debounce.touched(t0);
        assert_eq!(debounce.due(), Some(t0 + QUIET));
        debounce.done();
        assert_eq!(debounce.due(), None);
    }

    #[test]
    fn a_burst_gives_one_recompute_after_it() {
        let t0 = Instant::now();
        let mut debounce = Debounce::default();
        for ms in 0..10 {
            debounce.touched(t0 + Duration::from_millis(ms));
        }
        assert_eq!(debounce.due(), Some(t0 + Duration::from_millis(9) + QUIET));
    }

    #[test]
    fn continuous_changes_wait_at_most_the_maximum() {
        let t0 = Instant::now();
        let mut debounce = Debounce::default();
        // A change every 2 ms for 10 s: each one is within the quiet time of the previous.
        let mut recomputes = Vec::new();
        for ms in (0..10_000).step_by(2) {
            let now = t0 + Duration::from_millis(ms);
            if debounce.due().is_some_and(|due| due <= now) {
                recomputes.push(now);
                debounce.done();
            }
            debounce.touched(now);
        }
        assert!(recomputes.len() >= 40, "{}", recomputes.len());
        let mut previous = t0;
        for at in recomputes {
            assert!(at - previous <= MAX_WAIT + Duration::from_millis(2), "{:?}", at - previous);
            previous = at;
        }
    }
}
