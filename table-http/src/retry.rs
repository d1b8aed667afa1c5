//! When and how often a failed request is tried again.
//!
//! A request is repeated after a transient failure (no answer within the timeout, the connection
//! reset, or a 500, 503 or 408 answer) only when repeating it cannot change the outcome: reads,
//! upserts, and replaces, merges and deletes conditioned on `If-Match: *`. Inserts, writes
//! conditioned on an ETag, table creation and deletion, and transactions are sent once, except
//! when the connection could not even be opened (then nothing reached the service).
//!
//! Waits grow exponentially from [`RetryPolicy::initial_delay`] up to
//! [`RetryPolicy::max_delay`], each drawn at random between half and all of its nominal length
//! so that clients that failed together do not retry together.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// How a backend repeats requests after transient failures.
///
/// ```
/// use std::time::Duration;
/// use table_http::RetryPolicy;
///
/// let patient = RetryPolicy {
///     max_retries: 6,
///     initial_delay: Duration::from_millis(200),
///     ..RetryPolicy::default()
/// };
/// assert!(patient.delay(0) <= Duration::from_millis(200));
/// assert!(RetryPolicy::none().max_retries == 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0: never retry).
    pub max_retries: u32,
    /// The nominal wait before the first retry.
    pub initial_delay: Duration,
    /// The longest nominal wait.
    pub max_delay: Duration,
    /// How long one attempt may take, from sending the request to reading the whole answer.
    pub attempt_timeout: Duration,
}

impl Default for RetryPolicy {
    /// Three retries, waits from 100 ms up to 5 s, 30 s per attempt.
    fn default() -> RetryPolicy {
        RetryPolicy {
            max_retries: 3,
            initial_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(5),
            attempt_timeout: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// Never retry (the timeout of an attempt stays 30 s).
    pub fn none() -> RetryPolicy {
        RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        }
    }

    /// The wait before retry number `retry` (0-based): the nominal
    /// `initial_delay * 2^retry`, capped at `max_delay`, scaled by a random factor in `[0.5, 1]`.
    pub fn delay(&self, retry: u32) -> Duration {
        let nominal = self
            .initial_delay
            .saturating_mul(1u32.checked_shl(retry.min(31)).unwrap_or(u32::MAX))
            .min(self.max_delay);
        let half = nominal / 2;
        let extra_nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
        let jitter = if extra_nanos == 0 {
            0
        } else {
            random_u64() % (extra_nanos + 1)
        };
        half + Duration::from_nanos(jitter)
    }
}

/// A random identifier (for multipart boundaries).
pub(crate) fn random_id() -> u64 {
    random_u64()
}

/// A random number from the standard library's randomly keyed hasher: good enough for jitter.
fn random_u64() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_and_stay_within_bounds() {
        let policy = RetryPolicy {
            max_retries: 10,
            initial_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            attempt_timeout: Duration::from_secs(1),
        };
        for retry in 0..40 {
            let nominal = (Duration::from_millis(100) * 2u32.saturating_pow(retry.min(20)))
                .min(Duration::from_secs(1));
            for _ in 0..20 {
                let d = policy.delay(retry);
                assert!(d >= nominal / 2 && d <= nominal, "{retry}: {d:?}");
            }
        }
        let zero = RetryPolicy {
            initial_delay: Duration::ZERO,
            ..policy
        };
        assert_eq!(zero.delay(3), Duration::ZERO);
    }

    #[test]
    fn jitter_varies() {
        let policy = RetryPolicy::default();
        let delays: std::collections::HashSet<Duration> =
            (0..50).map(|_| policy.delay(2)).collect();
        assert!(delays.len() > 1);
    }
}
