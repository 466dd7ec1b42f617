//! What a caller bounds a search by: depth, time, nodes.

use std::time::Duration;

/// What limits a search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Time to aim for; an unsettled search may use up to `max_time`.
    pub time: Option<Duration>,
    /// Time never to exceed.
    pub max_time: Option<Duration>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
}
