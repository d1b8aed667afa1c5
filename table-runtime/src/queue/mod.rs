//! Message queues with the semantics the *eventually consistent transactions* pattern depends
//! on, so work that spans partitions, tables or stores finishes even when a worker dies halfway.
//!
//! - A received message is not removed: it is hidden for a visibility timeout. The worker
//!   deletes it (with the receipt it got) only after every step succeeded; a worker that dies
//!   leaves it hidden, and it comes back when the timeout ends.
//! - Each message counts how often it was received. One received more than
//!   [`QueueOptions::max_dequeue_count`] times goes to the poison list instead of to a worker,
//!   with the reason, where it waits for someone to look at it.
//! - A message can be sent hidden and shown later: a writer announces work before doing the
//!   first step and shows the message once that step is done, so a crash in between still
//!   leaves a message that will finish the job.
//!
//! [`JobQueue`] is that contract as a trait. Two queues implement it:
//!
//! - [`Queue`], in this process's memory, for tests (with a [`Clock`] a test moves by hand);
//! - Azure Queue Storage over its REST API (`table_http::queue::AzureQueue`), whose messages
//!   outlive the processes that send and receive them. Use it in production: a message in
//!   memory dies with the process that sent it, and with it the copy, the blob cleanup or the
//!   move it asked for.
//!
//! Every pattern that uses a queue (index copies in other partitions, id lists in their own
//! partition, large entities, archiving) takes `&dyn JobQueue<Job>`, so either works.
//! [`worker::Worker`] runs a pattern's worker as a long-running service on any of them.
//!
//! Because the steps a worker runs can repeat, each must be idempotent (insert-or-replace,
//! delete-if-exists). [`Steps`] lets a test stop a worker between any two of them.

use std::future::{Future, ready};
use std::pin::Pin;
use std::time::Duration;

mod memory;
pub mod worker;

pub use memory::{Clock, Queue};

/// The future a [`JobQueue`] method returns.
pub type QueueFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, QueueError>> + Send + 'a>>;

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

/// Identifies one message: a number in process, the service's message id on Azure.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MessageId(pub String);

impl std::fmt::Display for MessageId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Proof of one receive (or send) of a message: deleting it or changing its visibility needs
/// the receipt of the latest receive or visibility change, so a worker whose message was
/// handed to another one can't delete it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Receipt {
    /// The message.
    pub id: MessageId,
    /// The queue's proof of this receive (Azure's pop receipt).
    pub pop_receipt: String,
}

/// A message handed to a worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Received<M> {
    /// What to delete when the work is done.
    pub receipt: Receipt,
    /// How many times the message has been received, this time included.
    pub dequeue_count: u32,
    /// When the message was first sent, if the queue knows (milliseconds since the Unix epoch
    /// on Azure; on a [`Queue`], milliseconds on its [`Clock`]).
    pub inserted_ms: Option<u64>,
    /// The message.
    pub body: M,
}

/// A message moved aside: received too often, or not one a worker can run.
#[derive(Debug, Clone, PartialEq)]
pub struct Poisoned<M> {
    /// The message's id.
    pub id: MessageId,
    /// How many times it was received before it was moved.
    pub dequeue_count: u32,
    /// Why it was moved.
    pub reason: String,
    /// The message, when it could be read as a job.
    pub body: Option<M>,
    /// The message's text as the queue held it, when it could not be read as a job.
    pub raw: Option<String>,
}

/// How far the work on a queue lags behind: what a team alerts on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueDepth {
    /// Messages waiting, visible or hidden (approximate on Azure, which counts lazily).
    pub waiting: u64,
    /// How long the oldest visible message has waited since it was sent (`None` when no
    /// message is visible).
    pub oldest_age: Option<Duration>,
    /// Messages on the poison list.
    pub poisoned: u64,
}

/// Why a queue operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueueError {
    /// The message is gone (deleted or poisoned).
    #[error("message {0} is not in the queue")]
    NotFound(MessageId),
    /// The message was received again since this receipt was issued.
    #[error("message {0} was received again since this receipt was issued")]
    ReceiptMismatch(MessageId),
    /// The message is larger than the queue accepts.
    #[error("the message is {bytes} bytes encoded; the queue accepts at most {max}")]
    TooLarge {
        /// The encoded size.
        bytes: usize,
        /// The queue's limit.
        max: usize,
    },
    /// The message could not be written as the queue's text.
    #[error("the message cannot be encoded: {0}")]
    Encoding(String),
    /// The queue service refused the request.
    #[error("the queue service answered {status} {code}: {message}")]
    Service {
        /// The HTTP status.
        status: u16,
        /// The service's error code.
        code: String,
        /// The service's message.
        message: String,
    },
    /// The queue service could not be reached, or its answer could not be read.
    #[error("the queue service could not be reached: {0}")]
    Unreachable(String),
}

impl QueueError {
    /// Whether the message is gone or was taken by another worker: the work it asked for is
    /// done or is someone else's now.
    pub fn is_lost_receipt(&self) -> bool {
        matches!(
            self,
            QueueError::NotFound(_) | QueueError::ReceiptMismatch(_)
        )
    }
}

impl From<QueueError> for crate::error::StoreError {
    fn from(e: QueueError) -> Self {
        use crate::error::ErrorCode;
        let code = match &e {
            QueueError::NotFound(_) => ErrorCode::ResourceNotFound,
            QueueError::ReceiptMismatch(_) => ErrorCode::UpdateConditionNotSatisfied,
            QueueError::TooLarge { .. } => ErrorCode::RequestBodyTooLarge,
            QueueError::Encoding(_) => ErrorCode::InvalidInput,
            QueueError::Service { status, .. } if *status >= 500 => ErrorCode::InternalError,
            QueueError::Service { .. } => ErrorCode::InvalidInput,
            QueueError::Unreachable(_) => ErrorCode::InternalError,
        };
        crate::error::StoreError::new(code, format!("queue: {e}"))
    }
}

/// A queue of `M` jobs, in process or on a service. Object safe: patterns hold a
/// `&dyn JobQueue<M>`.
///
/// Every method returns a boxed future; the in-process [`Queue`]'s are ready at once.
pub trait JobQueue<M: Send + 'static>: Send + Sync {
    /// The queue's options.
    fn options(&self) -> QueueOptions;

    /// Adds a message hidden for `hidden_for` (zero: visible at once), and returns the receipt
    /// that can show it earlier or withdraw it. If the sender dies before either, the message
    /// appears when the time is up.
    fn send_hidden(&self, body: M, hidden_for: Duration) -> QueueFuture<'_, Receipt>;

    /// Receives up to `max` visible messages, oldest first as far as the queue keeps order, and
    /// hides each for the visibility timeout. A message already received
    /// `max_dequeue_count` times is moved to the poison list instead, and one that is not a
    /// job of this queue's type too, each with its reason.
    fn receive_batch(&self, max: usize) -> QueueFuture<'_, Vec<Received<M>>>;

    /// Deletes a message: the work it asked for is done.
    fn delete<'a>(&'a self, receipt: &'a Receipt) -> QueueFuture<'a, ()>;

    /// Keeps a message hidden for `duration` from now (zero: shows it now) and returns the
    /// receipt to use from now on.
    fn hide_for<'a>(&'a self, receipt: &'a Receipt, duration: Duration)
    -> QueueFuture<'a, Receipt>;

    /// Moves a received message to the poison list with `reason`: a job that can never
    /// succeed (its table is gone, its entity can't be read) instead of one more try.
    fn poison<'a>(&'a self, message: &'a Received<M>, reason: &'a str) -> QueueFuture<'a, ()>;

    /// The poison list, oldest first.
    fn poisoned(&self) -> QueueFuture<'_, Vec<Poisoned<M>>>;

    /// Puts a poisoned message back in the queue with a fresh dequeue count, after its cause
    /// was fixed.
    fn requeue_poisoned<'a>(&'a self, id: &'a MessageId) -> QueueFuture<'a, ()>;

    /// How many messages wait and how old the oldest visible one is.
    fn depth(&self) -> QueueFuture<'_, QueueDepth>;

    /// Every waiting message's body, hidden ones too, when the queue can list them (the
    /// in-process one can; Azure's can't list hidden messages, and gives `None`).
    fn in_flight(&self) -> QueueFuture<'_, Option<Vec<M>>>;

    /// Adds a message, visible at once.
    fn send(&self, body: M) -> QueueFuture<'_, MessageId> {
        let sent = self.send_hidden(body, Duration::ZERO);
        Box::pin(async move { Ok(sent.await?.id) })
    }

    /// Receives the oldest visible message, if any (see [`JobQueue::receive_batch`]).
    fn receive(&self) -> QueueFuture<'_, Option<Received<M>>> {
        let batch = self.receive_batch(1);
        Box::pin(async move { Ok(batch.await?.into_iter().next()) })
    }

    /// Sends a message hidden for the visibility timeout, ahead of the write it follows up: the
    /// first half of the announce / write / [`JobQueue::settle`] sequence that keeps a crash
    /// between a write and its follow-up from losing the follow-up.
    fn announce(&self, body: M) -> QueueFuture<'_, Receipt> {
        self.send_hidden(body, self.options().visibility_timeout)
    }

    /// Settles an announced message once its write returned: withdrawn if the service refused
    /// the write (nothing changed, nothing to follow up), shown otherwise (the write happened,
    /// or may have). If that fails the message shows itself when its time is up, which is just
    /// as safe, so this never fails.
    fn settle<'a>(
        &'a self,
        receipt: &'a Receipt,
        refused: bool,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            let _ = if refused {
                self.delete(receipt).await
            } else {
                self.hide_for(receipt, Duration::ZERO).await.map(drop)
            };
        })
    }
}

/// A ready future for the in-process implementations.
pub(crate) fn done<'a, T: Send + 'a>(value: Result<T, QueueError>) -> QueueFuture<'a, T> {
    Box::pin(ready(value))
}

/// Settles an announced message after a write's `outcome` (see [`JobQueue::settle`]).
pub async fn settle<M: Send + 'static, R>(
    queue: &dyn JobQueue<M>,
    receipt: &Receipt,
    outcome: &Result<R, crate::error::StoreError>,
) {
    queue.settle(receipt, refused(outcome)).await;
}

/// Whether a write's outcome was a refusal, so nothing changed and its announced follow-up is
/// withdrawn rather than shown.
pub(crate) fn refused<R>(outcome: &Result<R, crate::error::StoreError>) -> bool {
    matches!(outcome, Err(e) if e.is_refusal())
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
    /// The job can never succeed (its table is gone, say): it went to the poison list with
    /// this reason.
    Poisoned(String),
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_trait_settles_announced_messages_by_outcome() {
        let clock = Clock::manual();
        let q: Queue<&'static str> = Queue::with_clock(QueueOptions::default(), clock);
        let dyn_q: &dyn JobQueue<&'static str> = &q;
        let refused = pollster::block_on(dyn_q.announce("refused")).unwrap();
        let written = pollster::block_on(dyn_q.announce("written")).unwrap();
        assert!(q.receive().is_none());
        pollster::block_on(dyn_q.settle(&refused, true));
        pollster::block_on(dyn_q.settle(&written, false));
        let got = pollster::block_on(dyn_q.receive()).unwrap().unwrap();
        assert_eq!(got.body, "written");
        assert_eq!(q.len(), 1);
    }
}
