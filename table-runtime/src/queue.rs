//! An in-process message queue with the semantics the *eventually consistent transactions*
//! pattern depends on, so work that spans partitions, tables or stores finishes even when a
//! worker dies halfway.
//!
//! - A received message is not removed: it is hidden for a visibility timeout. The worker
//!   deletes it (with the receipt it got) only after every step succeeded; a worker that dies
//!   leaves it hidden, and it comes back when the timeout ends.
//! - Each message counts how often it was received. One received more than
//!   [`QueueOptions::max_dequeue_count`] times goes to the poison list instead of to a worker,
//!   where it waits for someone to look at it ([`Queue::poisoned`], [`Queue::requeue_poisoned`]).
//! - A message can be sent hidden ([`Queue::send_hidden`]) and shown later: a writer announces
//!   work before doing the first step and shows the message once that step is done, so a crash
//!   in between still leaves a message that will finish the job.
//! - Time comes from a [`Clock`]; tests use [`Clock::manual`] and move it by hand.
//!
//! Because the steps a worker runs can repeat, each must be idempotent (insert-or-replace,
//! delete-if-exists). [`Steps`] lets a test stop a worker between any two of them.
//!
//! ```
//! use std::time::Duration;
//! use table_runtime::queue::{Clock, Queue, QueueOptions};
//!
//! let clock = Clock::manual();
//! let queue = Queue::with_clock(QueueOptions::default(), clock.clone());
//! queue.send("archive employee 456");
//! let first = queue.receive().unwrap();
//! // The worker died without deleting it: hidden until the timeout ends, then back.
//! assert!(queue.receive().is_none());
//! clock.advance(QueueOptions::default().visibility_timeout);
//! let again = queue.receive().unwrap();
//! assert_eq!(again.dequeue_count, 2);
//! // The first worker's receipt is no longer valid; the second one finishes the job.
//! assert!(queue.delete(&first.receipt).is_err());
//! queue.delete(&again.receipt).unwrap();
//! assert!(queue.is_empty());
//! # let _ = Duration::ZERO;
//! ```

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Where a queue reads the time: the system's monotonic clock, or a manual one for tests.
#[derive(Debug, Clone)]
pub struct Clock {
    manual: Option<Arc<AtomicU64>>,
    start: Instant,
}

impl Clock {
    /// The system's monotonic clock.
    pub fn system() -> Self {
        Clock {
            manual: None,
            start: Instant::now(),
        }
    }

    /// A clock that only moves when [`Clock::advance`] is called.
    pub fn manual() -> Self {
        Clock {
            manual: Some(Arc::new(AtomicU64::new(0))),
            start: Instant::now(),
        }
    }

    /// Moves a manual clock forward (no effect on the system clock).
    pub fn advance(&self, by: Duration) {
        if let Some(m) = &self.manual {
            m.fetch_add(
                u64::try_from(by.as_millis()).unwrap_or(u64::MAX),
                Ordering::SeqCst,
            );
        }
    }

    /// Milliseconds since the clock was made.
    pub fn now_ms(&self) -> u64 {
        match &self.manual {
            Some(m) => m.load(Ordering::SeqCst),
            None => u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

/// How a queue hides and gives up on messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueOptions {
    /// How long a received message stays hidden before it is given to another worker.
    pub visibility_timeout: Duration,
    /// How many times a message may be received; the next receive moves it to the poison list.
    pub max_dequeue_count: u32,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            visibility_timeout: Duration::from_secs(30),
            max_dequeue_count: 5,
        }
    }
}

/// Identifies one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MessageId(pub u64);

/// Proof of one receive of a message: deleting it or changing its visibility needs the receipt
/// of the latest receive, so a worker whose message was handed to another one can't delete it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Receipt {
    /// The message.
    pub id: MessageId,
    serial: u64,
}

/// A message handed to a worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Received<M> {
    /// What to delete when the work is done.
    pub receipt: Receipt,
    /// How many times the message has been received, this time included.
    pub dequeue_count: u32,
    /// The message.
    pub body: M,
}

/// A message moved aside after too many receives.
#[derive(Debug, Clone, PartialEq)]
pub struct Poisoned<M> {
    /// The message's id.
    pub id: MessageId,
    /// How many times it was received before it was moved.
    pub dequeue_count: u32,
    /// The message.
    pub body: M,
}

/// Why a queue refused a delete or visibility change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueueError {
    /// The message is gone (deleted or poisoned).
    #[error("message {0:?} is not in the queue")]
    NotFound(MessageId),
    /// The message was received again since this receipt was issued.
    #[error("message {0:?} was received again since this receipt was issued")]
    ReceiptMismatch(MessageId),
}

#[derive(Debug)]
struct Stored<M> {
    body: M,
    visible_at: u64,
    dequeue_count: u32,
    serial: u64,
}

#[derive(Debug)]
struct Inner<M> {
    next_id: u64,
    next_serial: u64,
    messages: BTreeMap<u64, Stored<M>>,
    poisoned: BTreeMap<u64, Poisoned<M>>,
}

/// An in-process queue of `M` messages; share it between writers and workers by reference or
/// in an `Arc`.
#[derive(Debug)]
pub struct Queue<M> {
    options: QueueOptions,
    clock: Clock,
    inner: Mutex<Inner<M>>,
}

impl<M: Clone> Default for Queue<M> {
    fn default() -> Self {
        Queue::new(QueueOptions::default())
    }
}

impl<M: Clone> Queue<M> {
    /// An empty queue on the system clock.
    pub fn new(options: QueueOptions) -> Self {
        Queue::with_clock(options, Clock::system())
    }

    /// An empty queue reading time from `clock`.
    pub fn with_clock(options: QueueOptions, clock: Clock) -> Self {
        Queue {
            options,
            clock,
            inner: Mutex::new(Inner {
                next_id: 1,
                next_serial: 1,
                messages: BTreeMap::new(),
                poisoned: BTreeMap::new(),
            }),
        }
    }

    /// The queue's options.
    pub fn options(&self) -> QueueOptions {
        self.options
    }

    /// The queue's clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    fn lock(&self) -> MutexGuard<'_, Inner<M>> {
        // A panic elsewhere while holding the lock leaves plain data behind, still consistent:
        // every mutation below completes before the guard drops.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a message, visible at once.
    pub fn send(&self, body: M) -> MessageId {
        self.send_hidden(body, Duration::ZERO).id
    }

    /// Adds a message hidden for `hidden_for`, and returns the receipt that can show it earlier
    /// ([`Queue::show`]) or withdraw it ([`Queue::delete`]). If the sender dies before either,
    /// the message appears when the time is up.
    pub fn send_hidden(&self, body: M, hidden_for: Duration) -> Receipt {
        let now = self.clock.now_ms();
        let mut inner = self.lock();
        let id = inner.next_id;
        inner.next_id += 1;
        let serial = inner.next_serial;
        inner.next_serial += 1;
        inner.messages.insert(
            id,
            Stored {
                body,
                visible_at: now.saturating_add(millis(hidden_for)),
                dequeue_count: 0,
                serial,
            },
        );
        Receipt {
            id: MessageId(id),
            serial,
        }
    }

    /// Sends a message hidden for the visibility timeout, ahead of the write it follows up: the
    /// first half of the announce / write / [`Queue::settle`] sequence that keeps a crash
    /// between a write and its follow-up from losing the follow-up.
    pub fn announce(&self, body: M) -> Receipt {
        self.send_hidden(body, self.options.visibility_timeout)
    }

    /// Settles an announced message once its write returned: withdrawn if the service refused
    /// the write (nothing changed, nothing to follow up), shown otherwise (the write happened,
    /// or may have). If the receipt is no longer valid the message shows itself when its time
    /// is up, which is just as safe.
    pub fn settle<R>(&self, receipt: &Receipt, outcome: &Result<R, crate::error::StoreError>) {
        let _ = match outcome {
            Err(e) if e.is_refusal() => self.delete(receipt),
            _ => self.show(receipt),
        };
    }

    /// Receives the oldest visible message and hides it for the visibility timeout. A message
    /// already received `max_dequeue_count` times is moved to the poison list instead.
    pub fn receive(&self) -> Option<Received<M>> {
        let now = self.clock.now_ms();
        let mut inner = self.lock();
        loop {
            let id = inner
                .messages
                .iter()
                .find(|(_, m)| m.visible_at <= now)
                .map(|(id, _)| *id)?;
            let serial = inner.next_serial;
            inner.next_serial += 1;
            let max = self.options.max_dequeue_count;
            let message = inner.messages.get_mut(&id)?;
            if message.dequeue_count >= max {
                let m = inner.messages.remove(&id)?;
                inner.poisoned.insert(
                    id,
                    Poisoned {
                        id: MessageId(id),
                        dequeue_count: m.dequeue_count,
                        body: m.body,
                    },
                );
                continue;
            }
            message.dequeue_count += 1;
            message.serial = serial;
            message.visible_at = now.saturating_add(millis(self.options.visibility_timeout));
            return Some(Received {
                receipt: Receipt {
                    id: MessageId(id),
                    serial,
                },
                dequeue_count: message.dequeue_count,
                body: message.body.clone(),
            });
        }
    }

    fn check<'a>(
        inner: &'a mut Inner<M>,
        receipt: &Receipt,
    ) -> Result<&'a mut Stored<M>, QueueError> {
        let m = inner
            .messages
            .get_mut(&receipt.id.0)
            .ok_or(QueueError::NotFound(receipt.id))?;
        if m.serial != receipt.serial {
            return Err(QueueError::ReceiptMismatch(receipt.id));
        }
        Ok(m)
    }

    /// Deletes a message: the work it asked for is done.
    pub fn delete(&self, receipt: &Receipt) -> Result<(), QueueError> {
        let mut inner = self.lock();
        Self::check(&mut inner, receipt)?;
        inner.messages.remove(&receipt.id.0);
        Ok(())
    }

    /// Makes a message visible now (a sender that finished its own step, or a worker handing
    /// the message back).
    pub fn show(&self, receipt: &Receipt) -> Result<(), QueueError> {
        self.hide_for(receipt, Duration::ZERO)
    }

    /// Keeps a message hidden for `duration` from now (a worker that needs longer).
    pub fn hide_for(&self, receipt: &Receipt, duration: Duration) -> Result<(), QueueError> {
        let now = self.clock.now_ms();
        let mut inner = self.lock();
        let m = Self::check(&mut inner, receipt)?;
        m.visible_at = now.saturating_add(millis(duration));
        Ok(())
    }

    /// Messages waiting (visible or hidden), not counting poisoned ones.
    pub fn len(&self) -> usize {
        self.lock().messages.len()
    }

    /// Whether no message is waiting (poisoned ones aside).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The waiting messages' bodies, oldest first (for tests and inspection).
    pub fn pending(&self) -> Vec<M> {
        self.lock()
            .messages
            .values()
            .map(|m| m.body.clone())
            .collect()
    }

    /// The poison list, oldest first.
    pub fn poisoned(&self) -> Vec<Poisoned<M>> {
        self.lock().poisoned.values().cloned().collect()
    }

    /// Puts a poisoned message back in the queue with a fresh dequeue count, after its cause
    /// was fixed.
    pub fn requeue_poisoned(&self, id: MessageId) -> Result<(), QueueError> {
        let now = self.clock.now_ms();
        let mut inner = self.lock();
        let p = inner
            .poisoned
            .remove(&id.0)
            .ok_or(QueueError::NotFound(id))?;
        let serial = inner.next_serial;
        inner.next_serial += 1;
        inner.messages.insert(
            id.0,
            Stored {
                body: p.body,
                visible_at: now,
                dequeue_count: 0,
                serial,
            },
        );
        Ok(())
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A budget of worker steps, so a test can stop a worker between any two steps as if its
/// process died there.
#[derive(Debug, Clone, Default)]
pub struct Steps {
    limit: Option<usize>,
    taken: usize,
}

/// The simulated death of a worker (see [`Steps::crash_after`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the worker stopped after {0} steps (simulated crash)")]
pub struct Crashed(pub usize);

impl Steps {
    /// No limit: the worker runs every step.
    pub fn unlimited() -> Self {
        Steps::default()
    }

    /// The worker stops before its `n + 1`th step, as if killed after `n` steps.
    pub fn crash_after(n: usize) -> Self {
        Steps {
            limit: Some(n),
            taken: 0,
        }
    }

    /// Called before each step: `Err` if the budget is spent.
    pub fn step(&mut self) -> Result<(), Crashed> {
        if self.limit.is_some_and(|l| self.taken >= l) {
            return Err(Crashed(self.taken));
        }
        self.taken += 1;
        Ok(())
    }

    /// Steps taken so far.
    pub fn taken(&self) -> usize {
        self.taken
    }
}

/// What one round of a worker did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkOutcome {
    /// No visible message.
    Idle,
    /// A message was processed and deleted.
    Done,
    /// The worker stopped between steps (simulated crash); the message stays hidden and
    /// comes back after the visibility timeout.
    Crashed,
    /// A step failed; the message stays hidden and comes back after the visibility timeout
    /// (and goes to the poison list if it keeps failing).
    Failed(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(max: u32) -> (Clock, Queue<&'static str>) {
        let clock = Clock::manual();
        let q = Queue::with_clock(
            QueueOptions {
                visibility_timeout: Duration::from_secs(10),
                max_dequeue_count: max,
            },
            clock.clone(),
        );
        (clock, q)
    }

    #[test]
    fn received_messages_stay_hidden_until_the_timeout() {
        let (clock, q) = queue(5);
        q.send("a");
        q.send("b");
        let a = q.receive().unwrap();
        assert_eq!(a.body, "a");
        let b = q.receive().unwrap();
        assert_eq!(b.body, "b");
        assert!(q.receive().is_none());
        clock.advance(Duration::from_millis(9_999));
        assert!(q.receive().is_none());
        clock.advance(Duration::from_millis(1));
        assert_eq!(q.receive().unwrap().body, "a");
        assert_eq!(q.len(), 2);
    }

    #[test]
    fn a_stale_receipt_cannot_delete() {
        let (clock, q) = queue(5);
        q.send("a");
        let first = q.receive().unwrap();
        clock.advance(Duration::from_secs(10));
        let second = q.receive().unwrap();
        assert_eq!(
            q.delete(&first.receipt),
            Err(QueueError::ReceiptMismatch(first.receipt.id))
        );
        q.delete(&second.receipt).unwrap();
        assert_eq!(
            q.delete(&second.receipt),
            Err(QueueError::NotFound(second.receipt.id))
        );
    }

    #[test]
    fn too_many_receives_poison_a_message() {
        let (clock, q) = queue(2);
        q.send("bad");
        q.send("good");
        for n in 1..=2 {
            let m = q.receive().unwrap();
            assert_eq!((m.body, m.dequeue_count), ("bad", n));
            let g = q.receive().unwrap();
            assert_eq!(g.body, "good");
            if n == 2 {
                q.delete(&g.receipt).unwrap();
            }
            clock.advance(Duration::from_secs(10));
        }
        assert!(q.receive().is_none());
        let poisoned = q.poisoned();
        assert_eq!(poisoned.len(), 1);
        assert_eq!((poisoned[0].body, poisoned[0].dequeue_count), ("bad", 2));
        assert!(q.is_empty());
        q.requeue_poisoned(poisoned[0].id).unwrap();
        let again = q.receive().unwrap();
        assert_eq!((again.body, again.dequeue_count), ("bad", 1));
    }

    #[test]
    fn hidden_sends_appear_when_shown_or_when_time_is_up() {
        let (clock, q) = queue(5);
        let shown = q.send_hidden("shown", Duration::from_secs(60));
        q.send_hidden("forgotten", Duration::from_secs(60));
        assert!(q.receive().is_none());
        q.show(&shown).unwrap();
        let got = q.receive().unwrap();
        assert_eq!(got.body, "shown");
        q.delete(&got.receipt).unwrap();
        clock.advance(Duration::from_secs(60));
        assert_eq!(q.receive().unwrap().body, "forgotten");
    }

    #[test]
    fn steps_stop_at_the_budget() {
        let mut s = Steps::crash_after(2);
        assert!(s.step().is_ok());
        assert!(s.step().is_ok());
        assert_eq!(s.step(), Err(Crashed(2)));
        let mut u = Steps::unlimited();
        for _ in 0..100 {
            u.step().unwrap();
        }
        assert_eq!(u.taken(), 100);
    }
}
