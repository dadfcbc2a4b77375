//! Giving freed memory back to the system after a large recompute. The binary's allocator
//! (mimalloc, `src/main.rs`) keeps what a thread freed for that thread to use again, and the
//! engine analyses a relist's Services on helper threads that end with the call: what they
//! allocated and the main thread freed stays in their abandoned segments, resident, until
//! something collects it. `serve` runs for months after one relist of every Service, so after a
//! recompute of many Services it collects at once (BENCHMARKS.md, the serve section).

// Links mimalloc and its C library (the binary's allocator) into every build of this crate, its
// tests included, so that the declaration below always resolves.
use mimalloc as _;

unsafe extern "C" {
    /// mimalloc's `mi_collect` (`mimalloc.h`): free what can be freed, return it to the system.
    /// libmimalloc-sys declares it only behind its `extended` feature, which brings one more
    /// crate (cty) for this one declaration.
    fn mi_collect(force: bool);
}

/// From how many Services analysed in one recompute the memory it freed is collected: a change
/// of one Service (the common case, on the latency path) collects nothing.
pub(crate) const COLLECT_AFTER: usize = 64;

/// Collect every freed block and abandoned segment of mimalloc's heaps and return the memory
/// they held to the system. A no-op for memory another allocator handed out (the unit tests').
pub(crate) fn release() {
    // SAFETY: `mi_collect` takes no pointer and may run on any thread at any time; it only
    // walks mimalloc's own heaps (an uninitialised one is left alone).
    unsafe { mi_collect(true) }
}
