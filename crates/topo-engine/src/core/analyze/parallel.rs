//! Services are analysed independently: `check` spreads them over a few threads. The output is
//! the same as one thread's, in the same order (each result is kept at its input's index).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Below this many items one thread is faster than starting others.
const MIN_PER_WORKER: usize = 32;

/// `items.iter().map(f).collect()`, on up to `workers` threads; items are taken one at a time, so
/// a few large Services do not keep one thread busy while the others wait.
pub(super) fn map_in_order<T, R, F>(items: &[T], workers: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let workers = workers.min(items.len() / MIN_PER_WORKER).max(1);
    if workers == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else { break };
            let result = f(item);
            *slots[index].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        }
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        work();
        // A panic in a helper is re-raised here, as it would be on one thread.
        helpers.into_iter().for_each(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
    });
    // Every slot is filled: each index below `items.len()` was taken by exactly one thread.
    slots.into_iter().filter_map(|slot| slot.into_inner().unwrap_or_else(|e| e.into_inner())).collect()
}

#[cfg(test)]
mod tests {
    use super::map_in_order;

    #[test]
    fn results_keep_the_input_order_on_any_number_of_workers() {
        let items: Vec<u64> = (0..1000).collect();
        let expected: Vec<u64> = items.iter().map(|i| i * i).collect();
        for workers in [0, 1, 2, 3, 8] {
            assert_eq!(map_in_order(&items, workers, |i| i * i), expected, "{workers} workers");
        }
        assert_eq!(map_in_order(&items[..5], 4, |i| i + 1), vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn work_is_shared_between_threads() {
        use std::collections::HashSet;
        use std::sync::{Condvar, Mutex};
        use std::time::{Duration, Instant};
        let items: Vec<u64> = (0..256).collect();
        let (seen, arrived) = (Mutex::new(HashSet::new()), Condvar::new());
        // Each call waits until two threads have taken an item (or a shared 10 s deadline passes,
        // so one thread alone ends the test after 10 s and fails the assertion below).
        let deadline = Instant::now() + Duration::from_secs(10);
        map_in_order(&items, 2, |_| {
            let mut threads = seen.lock().unwrap();
            threads.insert(std::thread::current().id());
            arrived.notify_all();
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = arrived.wait_timeout_while(threads, left, |t| t.len() < 2);
            drop(wait.unwrap());
        });
        assert_eq!(seen.lock().unwrap().len(), 2);
    }
}
