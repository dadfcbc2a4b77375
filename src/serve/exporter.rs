//! `serve`'s pure half: the objects held in memory ([`store`]), the incremental recompute of the
//! Services a change affects ([`state`]), the metrics of a scrape ([`metrics`]), the text kept
//! between scrapes ([`exposition`]) and the exposition format a scraper asked for ([`format`]).
//! No I/O: `serve::follow` feeds it watch events and `serve` (with `serve::driver`) serves what
//! it encodes; the clock arrives as an argument.

pub mod debounce;
pub mod exposition;
pub mod format;
pub mod metrics;
mod names;
pub mod policy;
pub mod routes;
pub mod stability;
pub mod state;
pub mod store;
mod summary;

#[cfg(test)]
mod tests;

pub use state::Exporter;
pub use store::{Change, Object, Resource};
#[cfg(test)]
mod policy_tests;
