//! Failed sign-ins per address: after too many in a minute the address is blocked for a while,
//! so the server is no oracle for guessing keys. Time comes in as an argument, so the rule is
//! tested without waiting.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The window in which failures are counted.
const WINDOW: Duration = Duration::from_secs(60);

/// How many failed sign-ins an address may make, and for how long it is blocked after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Failed public-key sign-ins allowed in a minute; one more blocks the address.
    pub failures: usize,
    /// How long a blocked address stays blocked.
    pub block: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            failures: 10,
            block: Duration::from_secs(5 * 60),
        }
    }
}

#[derive(Debug, Default)]
struct Address {
    failures: VecDeque<Instant>,
    blocked_until: Option<Instant>,
}

/// What a failed sign-in did to its address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failed {
    /// Counted.
    Counted,
    /// That failure blocked the address (log it once).
    Blocked,
}

/// The failed sign-ins of every address.
#[derive(Debug, Default)]
pub struct Gate {
    limits: Limits,
    addresses: HashMap<IpAddr, Address>,
}

impl Gate {
    /// A gate with these limits.
    pub fn new(limits: Limits) -> Gate {
        Gate {
            limits,
            addresses: HashMap::new(),
        }
    }

    /// Whether the address is blocked now.
    pub fn blocked(&mut self, ip: IpAddr, now: Instant) -> bool {
        let Some(a) = self.addresses.get_mut(&ip) else {
            return false;
        };
        match a.blocked_until {
            Some(until) if now < until => true,
            Some(_) => {
                // The block is over; the address starts afresh.
                self.addresses.remove(&ip);
                false
            }
            None => false,
        }
    }

    /// Counts a failed sign-in from the address.
    pub fn failed(&mut self, ip: IpAddr, now: Instant) -> Failed {
        let limits = self.limits;
        let a = self.addresses.entry(ip).or_default();
        while a
            .failures
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            a.failures.pop_front();
        }
        a.failures.push_back(now);
        if a.failures.len() >= limits.failures && a.blocked_until.is_none() {
            a.blocked_until = Some(now + limits.block);
            return Failed::Blocked;
        }
        Failed::Counted
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Forgets what is over: blocks that ended and failures older than the window (the server
    /// sweeps now and then, so the map stays as small as the attack).
    pub fn sweep(&mut self, now: Instant) {
        self.addresses.retain(|_, a| {
            a.failures.retain(|t| now.duration_since(*t) < WINDOW);
            a.blocked_until.is_some_and(|u| now < u) || !a.failures.is_empty()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    #[test]
    fn ten_failures_in_a_minute_block_the_address_for_a_while() {
        let mut g = Gate::new(Limits {
            failures: 10,
            block: Duration::from_secs(300),
        });
        let t0 = Instant::now();
        for i in 0..9 {
            assert_eq!(
                g.failed(ip(1), t0 + Duration::from_secs(i)),
                Failed::Counted
            );
        }
        assert!(!g.blocked(ip(1), t0 + Duration::from_secs(9)));
        assert_eq!(
            g.failed(ip(1), t0 + Duration::from_secs(9)),
            Failed::Blocked
        );
        assert!(g.blocked(ip(1), t0 + Duration::from_secs(10)));
        // Another address is not affected.
        assert!(!g.blocked(ip(2), t0 + Duration::from_secs(10)));
        // Still blocked after four minutes, free after five.
        assert!(g.blocked(ip(1), t0 + Duration::from_secs(250)));
        assert!(!g.blocked(ip(1), t0 + Duration::from_secs(310)));
        assert_eq!(
            g.failed(ip(1), t0 + Duration::from_secs(311)),
            Failed::Counted
        );
    }

    #[test]
    fn failures_spread_over_more_than_a_minute_do_not_block() {
        let mut g = Gate::new(Limits::default());
        let t0 = Instant::now();
        for i in 0..30 {
            let r = g.failed(ip(1), t0 + Duration::from_secs(7 * i));
            assert_eq!(r, Failed::Counted);
        }
        assert!(!g.blocked(ip(1), t0 + Duration::from_secs(7 * 30)));
        g.sweep(t0 + Duration::from_secs(7 * 30 + 61));
        assert!(g.addresses.is_empty());
    }
}
