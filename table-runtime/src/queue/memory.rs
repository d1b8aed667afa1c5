//! The in-process queue: messages in this process's memory, for tests and single-process use.
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

use super::{
    JobQueue, MessageId, Poisoned, QueueDepth, QueueError, QueueFuture, QueueOptions, Receipt,
    Received, done,
};

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

#[derive(Debug)]
struct Stored<M> {
    body: M,
    inserted_at: u64,
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

impl<M> Inner<M> {
    /// Moves a waiting message to the poison list with `reason` (nothing if it is gone).
    fn move_to_poison(&mut self, id: u64, reason: String) {
        if let Some(m) = self.messages.remove(&id) {
            self.poisoned.insert(
                id,
                Poisoned {
                    id: id_of(id),
                    dequeue_count: m.dequeue_count,
                    reason,
                    body: Some(m.body),
                    raw: None,
                },
            );
        }
    }
}

/// An in-process queue of `M` messages; share it between writers and workers by reference or
/// in an `Arc`. Its inherent methods are synchronous; through [`JobQueue`] the same queue
/// serves the patterns' writers and workers.
///
/// Messages live in this process's memory: a process that stops takes them with it. Use a
/// queue service ([`JobQueue`]'s Azure implementation) where work must outlive a restart.
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

fn id_of(n: u64) -> MessageId {
    MessageId(n.to_string())
}

fn receipt_of(id: u64, serial: u64) -> Receipt {
    Receipt {
        id: id_of(id),
        pop_receipt: serial.to_string(),
    }
}

/// The message number and serial a receipt names, if it is one of this queue's.
fn parse_receipt(receipt: &Receipt) -> Option<(u64, u64)> {
    Some((
        receipt.id.0.parse().ok()?,
        receipt.pop_receipt.parse().ok()?,
    ))
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
                inserted_at: now,
                visible_at: now.saturating_add(millis(hidden_for)),
                dequeue_count: 0,
                serial,
            },
        );
        receipt_of(id, serial)
    }

    /// Sends a message hidden for the visibility timeout, ahead of the write it follows up (see
    /// [`JobQueue::announce`]).
    pub fn announce(&self, body: M) -> Receipt {
        self.send_hidden(body, self.options.visibility_timeout)
    }

    /// Settles an announced message once its write returned (see [`JobQueue::settle`]).
    pub fn settle<R>(&self, receipt: &Receipt, outcome: &Result<R, crate::error::StoreError>) {
        let _ = if super::refused(outcome) {
            self.delete(receipt)
        } else {
            self.show(receipt)
        };
    }

    /// Receives the oldest visible message and hides it for the visibility timeout. A message
    /// already received `max_dequeue_count` times is moved to the poison list instead.
    pub fn receive(&self) -> Option<Received<M>> {
        self.receive_up_to(1).pop()
    }

    /// Receives up to `max` visible messages, oldest first (see [`Queue::receive`]).
    pub fn receive_up_to(&self, max: usize) -> Vec<Received<M>> {
        let now = self.clock.now_ms();
        let max_dequeue = self.options.max_dequeue_count;
        let hide_until = now.saturating_add(millis(self.options.visibility_timeout));
        let mut inner = self.lock();
        let inner = &mut *inner;
        let mut out = Vec::new();
        let mut poison = Vec::new();
        for (&id, message) in inner.messages.iter_mut() {
            if out.len() >= max {
                break;
            }
            if message.visible_at > now {
                continue;
            }
            if message.dequeue_count >= max_dequeue {
                poison.push(id);
                continue;
            }
            let serial = inner.next_serial;
            inner.next_serial += 1;
            message.dequeue_count += 1;
            message.serial = serial;
            message.visible_at = hide_until;
            out.push(Received {
                receipt: receipt_of(id, serial),
                dequeue_count: message.dequeue_count,
                inserted_ms: Some(message.inserted_at),
                body: message.body.clone(),
            });
        }
        for id in poison {
            let count = inner.messages.get(&id).map_or(0, |m| m.dequeue_count);
            inner.move_to_poison(
                id,
                format!(
                    "received {count} times without finishing (the most allowed is {max_dequeue})"
                ),
            );
        }
        out
    }

    fn check<'a>(
        inner: &'a mut Inner<M>,
        receipt: &Receipt,
    ) -> Result<(u64, &'a mut Stored<M>), QueueError> {
        let (id, serial) =
            parse_receipt(receipt).ok_or_else(|| QueueError::NotFound(receipt.id.clone()))?;
        let m = inner
            .messages
            .get_mut(&id)
            .ok_or_else(|| QueueError::NotFound(receipt.id.clone()))?;
        if m.serial != serial {
            return Err(QueueError::ReceiptMismatch(receipt.id.clone()));
        }
        Ok((id, m))
    }

    /// Deletes a message: the work it asked for is done.
    pub fn delete(&self, receipt: &Receipt) -> Result<(), QueueError> {
        let mut inner = self.lock();
        let (id, _) = Self::check(&mut inner, receipt)?;
        inner.messages.remove(&id);
        Ok(())
    }

    /// Makes a message visible now (a sender that finished its own step, or a worker handing
    /// the message back).
    pub fn show(&self, receipt: &Receipt) -> Result<(), QueueError> {
        self.hide_for(receipt, Duration::ZERO)
    }

    /// Keeps a message hidden for `duration` from now (a worker that needs longer). The
    /// receipt stays valid.
    pub fn hide_for(&self, receipt: &Receipt, duration: Duration) -> Result<(), QueueError> {
        let now = self.clock.now_ms();
        let mut inner = self.lock();
        let (_, m) = Self::check(&mut inner, receipt)?;
        m.visible_at = now.saturating_add(millis(duration));
        Ok(())
    }

    /// Moves a received message to the poison list with `reason`.
    pub fn poison(&self, receipt: &Receipt, reason: &str) -> Result<(), QueueError> {
        let mut inner = self.lock();
        let (id, _) = Self::check(&mut inner, receipt)?;
        inner.move_to_poison(id, reason.to_owned());
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

    /// How many messages wait, how long the oldest visible one has, and how many are poisoned.
    pub fn depth(&self) -> QueueDepth {
        let now = self.clock.now_ms();
        let inner = self.lock();
        QueueDepth {
            waiting: inner.messages.len() as u64,
            oldest_age: inner
                .messages
                .values()
                .filter(|m| m.visible_at <= now)
                .map(|m| m.inserted_at)
                .min()
                .map(|at| Duration::from_millis(now.saturating_sub(at))),
            poisoned: inner.poisoned.len() as u64,
        }
    }

    /// The poison list, oldest first.
    pub fn poisoned(&self) -> Vec<Poisoned<M>> {
        self.lock().poisoned.values().cloned().collect()
    }

    /// Puts a poisoned message back in the queue with a fresh dequeue count, after its cause
    /// was fixed.
    pub fn requeue_poisoned(&self, id: &MessageId) -> Result<(), QueueError> {
        let now = self.clock.now_ms();
        let mut inner = self.lock();
        let n =
            id.0.parse::<u64>()
                .map_err(|_| QueueError::NotFound(id.clone()))?;
        // Only a message that holds a job can go back; it leaves the poison list only then.
        if inner.poisoned.get(&n).is_none_or(|p| p.body.is_none()) {
            return Err(QueueError::NotFound(id.clone()));
        }
        let Some(body) = inner.poisoned.remove(&n).and_then(|p| p.body) else {
            return Err(QueueError::NotFound(id.clone()));
        };
        let serial = inner.next_serial;
        inner.next_serial += 1;
        inner.messages.insert(
            n,
            Stored {
                body,
                inserted_at: now,
                visible_at: now,
                dequeue_count: 0,
                serial,
            },
        );
        Ok(())
    }
}

impl<M: Clone + Send + 'static> JobQueue<M> for Queue<M> {
    fn options(&self) -> QueueOptions {
        self.options
    }
    fn send_hidden(&self, body: M, hidden_for: Duration) -> QueueFuture<'_, Receipt> {
        done(Ok(Queue::send_hidden(self, body, hidden_for)))
    }
    fn receive_batch(&self, max: usize) -> QueueFuture<'_, Vec<Received<M>>> {
        done(Ok(self.receive_up_to(max)))
    }
    fn delete<'a>(&'a self, receipt: &'a Receipt) -> QueueFuture<'a, ()> {
        done(Queue::delete(self, receipt))
    }
    fn hide_for<'a>(
        &'a self,
        receipt: &'a Receipt,
        duration: Duration,
    ) -> QueueFuture<'a, Receipt> {
        done(Queue::hide_for(self, receipt, duration).map(|()| receipt.clone()))
    }
    fn poison<'a>(&'a self, message: &'a Received<M>, reason: &'a str) -> QueueFuture<'a, ()> {
        done(Queue::poison(self, &message.receipt, reason))
    }
    fn poisoned(&self) -> QueueFuture<'_, Vec<Poisoned<M>>> {
        done(Ok(Queue::poisoned(self)))
    }
    fn requeue_poisoned<'a>(&'a self, id: &'a MessageId) -> QueueFuture<'a, ()> {
        done(Queue::requeue_poisoned(self, id))
    }
    fn depth(&self) -> QueueFuture<'_, QueueDepth> {
        done(Ok(Queue::depth(self)))
    }
    fn in_flight(&self) -> QueueFuture<'_, Option<Vec<M>>> {
        done(Ok(Some(self.pending())))
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
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
            Err(QueueError::ReceiptMismatch(first.receipt.id.clone()))
        );
        q.delete(&second.receipt).unwrap();
        assert_eq!(
            q.delete(&second.receipt),
            Err(QueueError::NotFound(second.receipt.id.clone()))
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
        assert_eq!(
            (poisoned[0].body, poisoned[0].dequeue_count),
            (Some("bad"), 2)
        );
        assert!(
            poisoned[0].reason.contains("received 2 times"),
            "{}",
            poisoned[0].reason
        );
        assert!(q.is_empty());
        q.requeue_poisoned(&poisoned[0].id).unwrap();
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
    fn depth_counts_waiting_and_ages_the_oldest_visible_message() {
        let (clock, q) = queue(5);
        assert_eq!(q.depth(), QueueDepth::default());
        q.send("a");
        clock.advance(Duration::from_secs(3));
        q.send("b");
        q.send_hidden("c", Duration::from_secs(60));
        let d = q.depth();
        assert_eq!(d.waiting, 3);
        assert_eq!(d.oldest_age, Some(Duration::from_secs(3)));
        let a = q.receive().unwrap();
        assert_eq!(q.depth().oldest_age, Some(Duration::ZERO));
        q.poison(&a.receipt, "not a job").unwrap();
        let d = q.depth();
        assert_eq!((d.waiting, d.poisoned), (2, 1));
        assert_eq!(q.poisoned()[0].reason, "not a job");
    }
}
