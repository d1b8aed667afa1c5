//! [`AzureQueue`]: Azure Queue Storage over its REST API behind
//! [`table_runtime::queue::JobQueue`], so the patterns' jobs outlive the processes that send
//! and run them.
//!
//! # Messages
//!
//! A job is sent as the base64 of its JSON: text that any XML body carries as it is. The
//! service holds at most 64 KiB ([`MAX_MESSAGE_TEXT`]) of text per message; a job's text is
//! refused before it is sent ([`QueueError::TooLarge`]) when it is over [`MAX_JOB_TEXT`], which
//! keeps 1 KiB of that room for the note that goes with the job if it is ever moved to the
//! poison queue. Messages never expire (`messagettl=-1`): a job waits until a worker finishes
//! it.
//!
//! # The poison queue
//!
//! Each queue `name` has a poison queue `name-poison`, made by
//! [`AzureQueue::create_if_missing`] with it. A received message goes there instead of to the
//! worker when it was received more than [`QueueOptions::max_dequeue_count`] times, or when its
//! text is not a job of this queue's type. A worker's [`JobQueue::poison`] sends one there too.
//! The poison queue's message is a JSON note, `{"reason", "dequeue_count", "id", "text"}`: why,
//! how often the job had been received, its id and its text as the main queue held them. The
//! move is a send to the poison queue and then a delete from the main one; a crash between them
//! leaves the job in both, and it is moved again (so listed twice) when it comes back.
//!
//! # Differences from the in-process queue
//!
//! - [`JobQueue::in_flight`] is `None`: the service can't list hidden messages.
//! - [`JobQueue::poisoned`] peeks, so it shows at most 32 entries (the oldest).
//! - [`JobQueue::depth`]'s `waiting` is the service's approximate count.
//! - Times are in whole seconds: visibility timeouts are rounded up (and kept within the
//!   service's bounds: 1 s to 7 days for a receive, 0 to 7 days for a send or a
//!   [`JobQueue::hide_for`]), and insertion times are to the second.
//! - [`JobQueue::requeue_poisoned`] sends the job's text again as a new message (with a new id),
//!   also when it is not a job of this queue's type: a newer worker may read it.
//!
//! # Retries
//!
//! A request the service may have acted on is repeated after a failure only where the repeat
//! cannot change the outcome (see the comment at each call); a request whose connection could
//! not even be opened is always repeated.

use std::marker::PhantomData;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use hyper::Method;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;
use table_runtime::queue::{
    JobQueue, MessageId, Poisoned, QueueDepth, QueueError, QueueFuture, QueueOptions, Receipt,
    Received,
};

use crate::auth;
use crate::connection::{Connection, ConnectionError, StorageService};
use crate::transport::{Answer, Call, Dialect, HttpOptions, Repeat, Transport};
use crate::wire::{self, encode};
use crate::xml;

/// The most text one message holds, as the service counts it: 64 KiB.
pub const MAX_MESSAGE_TEXT: usize = 64 * 1024;

/// The most text a job may encode to: [`MAX_MESSAGE_TEXT`] less 1 KiB, kept for the note that
/// goes with the job to the poison queue.
pub const MAX_JOB_TEXT: usize = MAX_MESSAGE_TEXT - 1024;

/// The suffix that names a queue's poison queue.
pub const POISON_SUFFIX: &str = "-poison";

/// The longest visibility timeout the service accepts: 7 days.
const MAX_VISIBILITY_SECS: u64 = 7 * 24 * 60 * 60;

/// The most messages one Get or Peek Messages returns.
const MAX_BATCH: usize = 32;

/// How long [`AzureQueue::requeue_poisoned`] hides the poison entries it looks through.
const SEARCH_VISIBILITY_SECS: u64 = 30;

/// An Azure Storage queue of `M` jobs (and its poison queue), reached over HTTP with SharedKey
/// or a SAS.
///
/// Cloning is cheap: clones share the connection pool and the I/O runtime.
///
/// ```no_run
/// use table_http::queue::AzureQueue;
/// use table_runtime::queue::{JobQueue, QueueOptions};
///
/// let queue: AzureQueue<String> =
///     AzureQueue::from_connection_string("UseDevelopmentStorage=true", "jobs", QueueOptions::default())?;
/// pollster::block_on(async {
///     queue.create_if_missing().await?;
///     queue.send("archive employee 456".to_owned()).await?;
///     if let Some(job) = queue.receive().await? {
///         // ... do the work, then:
///         queue.delete(&job.receipt).await?;
///     }
///     Ok::<(), table_runtime::queue::QueueError>(())
/// })?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct AzureQueue<M> {
    http: Transport,
    name: String,
    poison_name: String,
    options: QueueOptions,
    jobs: PhantomData<fn(M) -> M>,
}

impl<M> Clone for AzureQueue<M> {
    fn clone(&self) -> Self {
        AzureQueue {
            http: self.http.clone(),
            name: self.name.clone(),
            poison_name: self.poison_name.clone(),
            options: self.options,
            jobs: PhantomData,
        }
    }
}

impl<M> std::fmt::Debug for AzureQueue<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AzureQueue")
            .field("name", &self.name)
            .field("connection", self.http.connection())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// One message as the service gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ServiceMessage {
    id: MessageId,
    /// Absent from peeks.
    pop_receipt: Option<String>,
    dequeue_count: u32,
    inserted: Option<SystemTime>,
    text: String,
}

impl ServiceMessage {
    fn receipt(&self) -> Result<Receipt, QueueError> {
        let pop_receipt = self.pop_receipt.clone().ok_or_else(|| {
            QueueError::Unreachable(format!(
                "the service gave message {} without a pop receipt",
                self.id
            ))
        })?;
        Ok(Receipt {
            id: self.id.clone(),
            pop_receipt,
        })
    }
}

/// The note a poisoned job carries in the poison queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
struct Envelope {
    reason: String,
    dequeue_count: u32,
    /// The job's id in the main queue.
    id: String,
    /// The job's text as the main queue held it.
    text: String,
}

impl<M> AzureQueue<M>
where
    M: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
{
    /// The queue `queue` of the account a connection string names (its `QueueEndpoint`, see
    /// [`Connection::parse_for`]), with default HTTP options.
    pub fn from_connection_string(
        text: &str,
        queue: &str,
        options: QueueOptions,
    ) -> Result<AzureQueue<M>, ConnectionError> {
        AzureQueue::new(
            Connection::parse_for(text, StorageService::Queue)?,
            queue,
            options,
            HttpOptions::default(),
        )
    }

    /// The queue `queue` at a parsed connection (whose endpoint is the queue service's).
    pub fn new(
        connection: Connection,
        queue: &str,
        options: QueueOptions,
        http: HttpOptions,
    ) -> Result<AzureQueue<M>, ConnectionError> {
        Ok(AzureQueue {
            http: Transport::new(connection, http, Dialect::Storage)?,
            name: queue.to_owned(),
            poison_name: format!("{queue}{POISON_SUFFIX}"),
            options,
            jobs: PhantomData,
        })
    }

    /// The queue's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The poison queue's name: the queue's, with [`POISON_SUFFIX`].
    pub fn poison_queue_name(&self) -> &str {
        &self.poison_name
    }

    /// The connection the queue is reached through.
    pub fn connection(&self) -> &Connection {
        self.http.connection()
    }

    /// Creates the queue and its poison queue where they do not exist yet; queues that exist
    /// are left as they are.
    ///
    /// The service checks the names: 3 to 63 lowercase letters, digits and single hyphens,
    /// starting with a letter or digit. The poison queue's name is 7 characters longer, so a
    /// queue's own name has at most 56. A name it refuses is a [`QueueError::Service`] that
    /// names the queue.
    pub async fn create_if_missing(&self) -> Result<(), QueueError> {
        self.create(&self.name).await?;
        self.create(&self.poison_name).await
    }

    async fn create(&self, queue: &str) -> Result<(), QueueError> {
        // Create Queue is idempotent (201 when made, 204 when it was there): safe to repeat.
        let call = Call::new(Method::PUT, format!("/{}", encode(queue)), Repeat::Safe);
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        match (answer.status, xml::error_of(&answer).0.as_str()) {
            (201 | 204, _) | (409, "QueueAlreadyExists") => Ok(()),
            _ => Err(match queue_error(&answer, queue, None) {
                QueueError::Service {
                    status,
                    code,
                    message,
                } => QueueError::Service {
                    status,
                    code,
                    message: format!("creating queue `{queue}`: {message}"),
                },
                other => other,
            }),
        }
    }

    /// Adds a message with `text` to `queue`, hidden for `hidden_secs`.
    async fn put_text(
        &self,
        queue: &str,
        text: &str,
        hidden_secs: u64,
    ) -> Result<ServiceMessage, QueueError> {
        let body = format!(
            "<QueueMessage><MessageText>{}</MessageText></QueueMessage>",
            xml::escape(text)
        );
        // Not repeated after an unknown outcome: the first attempt may have added the message,
        // and a repeat would add it twice (a second copy of a hidden announcement would show
        // itself later, after its sender withdrew the first).
        let call = Call::new(
            Method::POST,
            format!("/{}/messages", encode(queue)),
            Repeat::ConnectFailuresOnly,
        )
        .param("visibilitytimeout", &hidden_secs.to_string())
        .param("messagettl", "-1")
        .body("application/xml; charset=utf-8", body);
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        if answer.status != 201 {
            return Err(queue_error(&answer, queue, None));
        }
        read_messages(&answer.body)?
            .into_iter()
            .next()
            .ok_or_else(|| QueueError::Unreachable("Put Message answered no message".into()))
    }

    /// Receives up to 32 messages of `queue`, hiding them for `hidden_secs`.
    async fn get_messages(
        &self,
        queue: &str,
        count: usize,
        hidden_secs: u64,
    ) -> Result<Vec<ServiceMessage>, QueueError> {
        // Not repeated after an unknown outcome: a Get that reached the service hid its
        // messages and counted one more receive of each; a repeat would leave those hidden
        // (for a whole visibility timeout, with nobody holding their receipts) and take others.
        let call = Call::new(
            Method::GET,
            format!("/{}/messages", encode(queue)),
            Repeat::ConnectFailuresOnly,
        )
        .param("numofmessages", &count.clamp(1, MAX_BATCH).to_string())
        .param("visibilitytimeout", &hidden_secs.to_string());
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        if answer.status != 200 {
            return Err(queue_error(&answer, queue, None));
        }
        read_messages(&answer.body)
    }

    /// Up to 32 visible messages of `queue`, left as they are.
    async fn peek(&self, queue: &str, count: usize) -> Result<Vec<ServiceMessage>, QueueError> {
        // A peek changes nothing: safe to repeat.
        let call = Call::new(
            Method::GET,
            format!("/{}/messages", encode(queue)),
            Repeat::Safe,
        )
        .param("peekonly", "true")
        .param("numofmessages", &count.clamp(1, MAX_BATCH).to_string());
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        if answer.status != 200 {
            return Err(queue_error(&answer, queue, None));
        }
        read_messages(&answer.body)
    }

    /// The approximate number of messages in `queue`.
    async fn approximate_count(&self, queue: &str) -> Result<u64, QueueError> {
        // Reading the metadata changes nothing: safe to repeat.
        let call = Call::new(Method::GET, format!("/{}", encode(queue)), Repeat::Safe)
            .param("comp", "metadata");
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        if answer.status != 200 {
            return Err(queue_error(&answer, queue, None));
        }
        let count = answer.header("x-ms-approximate-messages-count");
        count
            .and_then(|c| c.trim().parse().ok())
            .ok_or_else(|| {
                QueueError::Unreachable(format!(
                    "the metadata of queue `{queue}` has no message count (x-ms-approximate-messages-count: {count:?})"
                ))
            })
    }

    async fn delete_in(&self, queue: &str, receipt: &Receipt) -> Result<(), QueueError> {
        // Repeated after an unknown outcome: if the first attempt deleted the message, the
        // repeat finds it gone (404), which is read as done below; if it did not, the repeat
        // deletes it. Either way the message ends up deleted, as asked.
        let call = Call::new(
            Method::DELETE,
            format!("/{}/messages/{}", encode(queue), encode(&receipt.id.0)),
            Repeat::Safe,
        )
        .param("popreceipt", &receipt.pop_receipt);
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        match answer.status {
            204 | 200 => Ok(()),
            _ => match queue_error(&answer, queue, Some(&receipt.id)) {
                QueueError::NotFound(_) if answer.repeated => Ok(()),
                e => Err(e),
            },
        }
    }

    async fn update_visibility(
        &self,
        queue: &str,
        receipt: &Receipt,
        hidden_secs: u64,
    ) -> Result<Receipt, QueueError> {
        // Not repeated after an unknown outcome: an update that reached the service replaced
        // the pop receipt, so a repeat would fail with PopReceiptMismatch and the new receipt
        // would be lost.
        let call = Call::new(
            Method::PUT,
            format!("/{}/messages/{}", encode(queue), encode(&receipt.id.0)),
            Repeat::ConnectFailuresOnly,
        )
        .param("popreceipt", &receipt.pop_receipt)
        .param("visibilitytimeout", &hidden_secs.to_string());
        let answer = self.http.send_or(call, QueueError::Unreachable).await?;
        if answer.status != 204 && answer.status != 200 {
            return Err(queue_error(&answer, queue, Some(&receipt.id)));
        }
        let pop_receipt = answer.header("x-ms-popreceipt").ok_or_else(|| {
            QueueError::Unreachable("Update Message answered without x-ms-popreceipt".into())
        })?;
        Ok(Receipt {
            id: receipt.id.clone(),
            pop_receipt: pop_receipt.to_owned(),
        })
    }

    /// Sends the note for a job to the poison queue (making the poison queue if it is
    /// missing), then deletes the job from the main queue.
    async fn move_to_poison(
        &self,
        envelope: &Envelope,
        receipt: &Receipt,
    ) -> Result<(), QueueError> {
        let text = envelope_text(envelope);
        match self.put_text(&self.poison_name, &text, 0).await {
            Err(QueueError::Service { status: 404, .. }) => {
                self.create(&self.poison_name).await?;
                self.put_text(&self.poison_name, &text, 0).await?;
            }
            other => {
                other?;
            }
        }
        self.delete_in(&self.name, receipt).await
    }

    /// Receives a batch and sorts it: jobs to hand out, the rest to the poison queue.
    async fn receive_up_to(&self, max: usize) -> Result<Vec<Received<M>>, QueueError> {
        let hidden_secs = seconds_up(self.options.visibility_timeout).clamp(1, MAX_VISIBILITY_SECS);
        let max_dequeue = self.options.max_dequeue_count;
        let mut out = Vec::new();
        // Messages moved to the poison queue leave room in the batch: fetch again until the
        // batch is full or the queue has no more visible messages.
        while out.len() < max {
            let want = (max - out.len()).min(MAX_BATCH);
            let batch = match self.get_messages(&self.name, want, hidden_secs).await {
                Ok(batch) => batch,
                // The messages already received are hidden now: hand them out.
                Err(_) if !out.is_empty() => break,
                Err(e) => return Err(e),
            };
            let fetched = batch.len();
            for message in batch {
                let receipt = message.receipt()?;
                let reason = if message.dequeue_count > max_dequeue {
                    // The service counts this receive too; the in-process queue counts the
                    // receives that reached a worker.
                    let times = message.dequeue_count - 1;
                    Some((
                        times,
                        format!(
                            "received {times} times without finishing (the most allowed is {max_dequeue})"
                        ),
                    ))
                } else {
                    match decode_job::<M>(&message.text) {
                        Ok(body) => {
                            out.push(Received {
                                receipt: receipt.clone(),
                                dequeue_count: message.dequeue_count,
                                inserted_ms: message.inserted.map(unix_ms),
                                body,
                            });
                            None
                        }
                        Err(why) => Some((
                            message.dequeue_count,
                            format!("not one of this queue's jobs: {why}"),
                        )),
                    }
                };
                if let Some((dequeue_count, reason)) = reason {
                    let envelope = Envelope {
                        reason,
                        dequeue_count,
                        id: message.id.0.clone(),
                        text: message.text.clone(),
                    };
                    // A move that fails leaves the message hidden in the main queue; it comes
                    // back after the visibility timeout and is moved then. The jobs of this
                    // batch are handed out all the same.
                    let _ = self.move_to_poison(&envelope, &receipt).await;
                }
            }
            if fetched < want {
                break;
            }
        }
        Ok(out)
    }

    async fn poison_received(&self, message: &Received<M>, reason: &str) -> Result<(), QueueError> {
        // Checks the receipt first (a worker whose receipt is stale must not move a job that
        // another worker holds now), and keeps the message hidden while it is moved.
        let hidden_secs = seconds_up(self.options.visibility_timeout).clamp(1, MAX_VISIBILITY_SECS);
        let receipt = self
            .update_visibility(&self.name, &message.receipt, hidden_secs)
            .await?;
        let envelope = Envelope {
            reason: reason.to_owned(),
            dequeue_count: message.dequeue_count,
            id: message.receipt.id.0.clone(),
            text: encode_job(&message.body)?,
        };
        self.move_to_poison(&envelope, &receipt).await
    }

    async fn list_poisoned(&self) -> Result<Vec<Poisoned<M>>, QueueError> {
        let messages = match self.peek(&self.poison_name, MAX_BATCH).await {
            Ok(messages) => messages,
            Err(QueueError::Service { status: 404, .. }) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        Ok(messages.iter().map(poisoned_of).collect())
    }

    async fn requeue(&self, id: &MessageId) -> Result<(), QueueError> {
        // The service receives from the front only: look through the poison queue a batch at
        // a time (each batch stays hidden while the next is fetched) until the entry turns up,
        // then show the others again.
        let mut looked_at: Vec<Receipt> = Vec::new();
        let mut found: Option<(Receipt, String)> = None;
        loop {
            let batch = match self
                .get_messages(&self.poison_name, MAX_BATCH, SEARCH_VISIBILITY_SECS)
                .await
            {
                Ok(batch) => batch,
                Err(QueueError::Service { status: 404, .. }) => Vec::new(),
                Err(e) => {
                    self.show_again(&looked_at).await;
                    return Err(e);
                }
            };
            let fetched = batch.len();
            for message in batch {
                let Ok(receipt) = message.receipt() else {
                    continue;
                };
                let envelope = serde_json::from_str::<Envelope>(&message.text).ok();
                let matches = message.id == *id || envelope.as_ref().is_some_and(|e| e.id == id.0);
                if matches && found.is_none() {
                    let text = envelope.map_or(message.text, |e| e.text);
                    found = Some((receipt, text));
                } else {
                    looked_at.push(receipt);
                }
            }
            if found.is_some() || fetched < MAX_BATCH {
                break;
            }
        }
        self.show_again(&looked_at).await;
        let Some((receipt, text)) = found else {
            return Err(QueueError::NotFound(id.clone()));
        };
        // Sent before the entry is deleted: a failure between the two leaves the job in both
        // queues, never in neither.
        let sent = self.put_text(&self.name, &text, 0).await;
        if let Err(e) = sent {
            self.show_again(std::slice::from_ref(&receipt)).await;
            return Err(e);
        }
        self.delete_in(&self.poison_name, &receipt).await
    }

    /// Shows poison entries hidden while they were looked through; one that can't be shown
    /// shows itself when its short hiding time ends.
    async fn show_again(&self, receipts: &[Receipt]) {
        for receipt in receipts {
            let _ = self.update_visibility(&self.poison_name, receipt, 0).await;
        }
    }

    async fn queue_depth(&self) -> Result<QueueDepth, QueueError> {
        let waiting = self.approximate_count(&self.name).await?;
        let oldest_age = self
            .peek(&self.name, 1)
            .await?
            .first()
            .and_then(|m| m.inserted)
            .map(|inserted| {
                SystemTime::now()
                    .duration_since(inserted)
                    .unwrap_or(Duration::ZERO)
            });
        let poisoned = match self.approximate_count(&self.poison_name).await {
            Ok(n) => n,
            Err(QueueError::Service { status: 404, .. }) => 0,
            Err(e) => return Err(e),
        };
        Ok(QueueDepth {
            waiting,
            oldest_age,
            poisoned,
        })
    }
}

impl<M> JobQueue<M> for AzureQueue<M>
where
    M: Serialize + DeserializeOwned + Clone + Send + Sync + 'static,
{
    fn options(&self) -> QueueOptions {
        self.options
    }

    fn send_hidden(&self, body: M, hidden_for: Duration) -> QueueFuture<'_, Receipt> {
        Box::pin(async move {
            let text = encode_job(&body)?;
            if text.len() > MAX_JOB_TEXT {
                return Err(QueueError::TooLarge {
                    bytes: text.len(),
                    max: MAX_JOB_TEXT,
                });
            }
            let hidden_secs = seconds_up(hidden_for).min(MAX_VISIBILITY_SECS);
            self.put_text(&self.name, &text, hidden_secs)
                .await?
                .receipt()
        })
    }

    fn receive_batch(&self, max: usize) -> QueueFuture<'_, Vec<Received<M>>> {
        Box::pin(self.receive_up_to(max))
    }

    fn delete<'a>(&'a self, receipt: &'a Receipt) -> QueueFuture<'a, ()> {
        Box::pin(self.delete_in(&self.name, receipt))
    }

    fn hide_for<'a>(
        &'a self,
        receipt: &'a Receipt,
        duration: Duration,
    ) -> QueueFuture<'a, Receipt> {
        let hidden_secs = seconds_up(duration).min(MAX_VISIBILITY_SECS);
        Box::pin(self.update_visibility(&self.name, receipt, hidden_secs))
    }

    fn poison<'a>(&'a self, message: &'a Received<M>, reason: &'a str) -> QueueFuture<'a, ()> {
        Box::pin(self.poison_received(message, reason))
    }

    fn poisoned(&self) -> QueueFuture<'_, Vec<Poisoned<M>>> {
        Box::pin(self.list_poisoned())
    }

    fn requeue_poisoned<'a>(&'a self, id: &'a MessageId) -> QueueFuture<'a, ()> {
        Box::pin(self.requeue(id))
    }

    fn depth(&self) -> QueueFuture<'_, QueueDepth> {
        Box::pin(self.queue_depth())
    }

    fn in_flight(&self) -> QueueFuture<'_, Option<Vec<M>>> {
        // The service can't list hidden messages.
        Box::pin(std::future::ready(Ok(None)))
    }
}

/// A job's message text: the base64 of its JSON.
fn encode_job<M: Serialize>(job: &M) -> Result<String, QueueError> {
    let json = serde_json::to_vec(job).map_err(|e| QueueError::Encoding(e.to_string()))?;
    Ok(base64::engine::general_purpose::STANDARD.encode(json))
}

/// A job read back from its message text; the error says why the text is not one.
fn decode_job<M: DeserializeOwned>(text: &str) -> Result<M, String> {
    let json = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("its text is not base64 ({e})"))?;
    serde_json::from_slice(&json)
        .map_err(|e| format!("its JSON does not read as the job type ({e})"))
}

/// The poison queue's text for a note: its JSON in ASCII, with `<`, `>` and `&` escaped too,
/// so the XML body carries it unchanged and the service counts exactly its length. A note that
/// would not fit in a message has its reason cut (to no less than 200 characters), then (only
/// for a text that is not a job of ours: a job's text leaves room) its text.
fn envelope_text(envelope: &Envelope) -> String {
    const KEPT_REASON: usize = 200;
    let whole = render_envelope(envelope);
    if whole.len() <= MAX_MESSAGE_TEXT {
        return whole;
    }
    let reason: Vec<char> = envelope.reason.chars().collect();
    let cut_reason = |keep: usize| -> String {
        if keep < reason.len() {
            reason[..keep].iter().collect::<String>() + "…"
        } else {
            envelope.reason.clone()
        }
    };
    if reason.len() > KEPT_REASON {
        let with_reason = |keep: usize| {
            render_envelope(&Envelope {
                reason: cut_reason(keep),
                ..envelope.clone()
            })
        };
        if let Some(text) = longest_fitting(KEPT_REASON, reason.len(), with_reason) {
            return text;
        }
    }
    let text: Vec<char> = envelope.text.chars().collect();
    let reason = format!(
        "{} (text cut to fit, from {} characters)",
        cut_reason(KEPT_REASON),
        text.len()
    );
    let with_text = |keep: usize| {
        render_envelope(&Envelope {
            reason: reason.clone(),
            text: text[..keep].iter().collect(),
            ..envelope.clone()
        })
    };
    longest_fitting(0, text.len(), with_text).unwrap_or_else(|| with_text(0))
}

/// `render(k)` for the largest `k` in `least..=most` whose rendering fits in a message, if any.
fn longest_fitting(least: usize, most: usize, render: impl Fn(usize) -> String) -> Option<String> {
    if render(least).len() > MAX_MESSAGE_TEXT {
        return None;
    }
    // `low` always fits; `high` is the most that might.
    let (mut low, mut high) = (least, most);
    while low < high {
        let middle = low + (high - low).div_ceil(2);
        if render(middle).len() <= MAX_MESSAGE_TEXT {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    Some(render(low))
}

fn render_envelope(envelope: &Envelope) -> String {
    let json = serde_json::to_value(envelope).unwrap_or(Json::Null);
    let ascii = String::from_utf8(wire::ascii_json(&json)).unwrap_or_default();
    // These characters only occur inside JSON strings, where `\u00XX` means the same.
    ascii
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// A poison queue's message as a poison-list entry.
fn poisoned_of<M: DeserializeOwned>(message: &ServiceMessage) -> Poisoned<M> {
    match serde_json::from_str::<Envelope>(&message.text) {
        Ok(envelope) => {
            let body = decode_job::<M>(&envelope.text).ok();
            Poisoned {
                id: MessageId(envelope.id),
                dequeue_count: envelope.dequeue_count,
                reason: envelope.reason,
                raw: body.is_none().then_some(envelope.text),
                body,
            }
        }
        Err(_) => Poisoned {
            id: message.id.clone(),
            dequeue_count: message.dequeue_count,
            reason: "not a poison-list note (put in the poison queue by something else)".into(),
            body: None,
            raw: Some(message.text.clone()),
        },
    }
}

/// Reads a `QueueMessagesList`.
fn read_messages(body: &[u8]) -> Result<Vec<ServiceMessage>, QueueError> {
    let root = xml::parse(body)
        .map_err(|e| QueueError::Unreachable(format!("the message list cannot be read: {e}")))?;
    if root.name != "QueueMessagesList" {
        return Err(QueueError::Unreachable(format!(
            "expected a QueueMessagesList, got <{}>",
            root.name
        )));
    }
    root.children("QueueMessage")
        .map(|m| {
            let id = m
                .child_text("MessageId")
                .filter(|id| !id.is_empty())
                .ok_or_else(|| {
                    QueueError::Unreachable("a listed message has no MessageId".into())
                })?;
            Ok(ServiceMessage {
                id: MessageId(id.to_owned()),
                pop_receipt: m.child_text("PopReceipt").map(str::to_owned),
                dequeue_count: m
                    .child_text("DequeueCount")
                    .and_then(|c| c.trim().parse().ok())
                    .unwrap_or(0),
                inserted: m
                    .child_text("InsertionTime")
                    .and_then(auth::parse_http_date)
                    .map(SystemTime::from),
                text: m.child_text("MessageText").unwrap_or_default().to_owned(),
            })
        })
        .collect()
}

/// The error an answer stands for, for a request on `queue` (about message `id`, if any).
fn queue_error(answer: &Answer, queue: &str, id: Option<&MessageId>) -> QueueError {
    let (code, body_message) = xml::error_of(answer);
    match (answer.status, code.as_str(), id) {
        (404, "MessageNotFound", Some(id)) => QueueError::NotFound(id.clone()),
        (400, "PopReceiptMismatch", Some(id)) => QueueError::ReceiptMismatch(id.clone()),
        (404, "QueueNotFound", _) => QueueError::Service {
            status: 404,
            code,
            message: format!(
                "queue `{queue}` does not exist; create it first (AzureQueue::create_if_missing)"
            ),
        },
        (status, _, _) => QueueError::Service {
            status,
            message: body_message.unwrap_or_else(|| format!("HTTP {status} on queue `{queue}`")),
            code,
        },
    }
}

/// Whole seconds, rounded up.
fn seconds_up(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::testing::{Reply, fake_service};
    use std::sync::atomic::Ordering::SeqCst;

    #[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
    struct Job {
        n: u32,
    }

    fn fake_queue(port: u16) -> AzureQueue<Job> {
        let connection =
            Connection::development_on(&format!("http://127.0.0.1:{port}/devstoreaccount1"))
                .unwrap();
        let http = HttpOptions {
            retry: crate::RetryPolicy {
                max_retries: 2,
                initial_delay: Duration::from_millis(1),
                max_delay: Duration::from_millis(5),
                attempt_timeout: Duration::from_millis(500),
            },
            io_threads: 1,
        };
        AzureQueue::new(connection, "jobs", QueueOptions::default(), http).unwrap()
    }

    fn receipt() -> Receipt {
        Receipt {
            id: MessageId("m1".into()),
            pop_receipt: "p+/=".into(),
        }
    }

    const MISSING: &str = "x-ms-error-code: MessageNotFound\r\n";

    #[test]
    fn jobs_encode_as_base64_json_and_back() {
        let text = encode_job(&Job { n: 7 }).unwrap();
        assert_eq!(text, "eyJuIjo3fQ==");
        assert_eq!(decode_job::<Job>(&text), Ok(Job { n: 7 }));
        let why = decode_job::<Job>("not base64!").unwrap_err();
        assert!(why.contains("not base64"), "{why}");
        let why = decode_job::<Job>(&encode_job(&"text").unwrap()).unwrap_err();
        assert!(why.contains("does not read as the job type"), "{why}");
    }

    #[test]
    fn notes_fit_in_a_message_and_read_back() {
        let note = Envelope {
            reason: "it <failed> & été".into(),
            dequeue_count: 6,
            id: "m1".into(),
            text: encode_job(&Job { n: 1 }).unwrap(),
        };
        let text = envelope_text(&note);
        assert!(text.is_ascii() && !text.contains(['<', '>', '&']), "{text}");
        assert_eq!(serde_json::from_str::<Envelope>(&text).unwrap(), note);
        let message = ServiceMessage {
            id: MessageId("p1".into()),
            pop_receipt: None,
            dequeue_count: 1,
            inserted: None,
            text,
        };
        let entry: Poisoned<Job> = poisoned_of(&message);
        assert_eq!(entry.id, MessageId("m1".into()));
        assert_eq!(
            (entry.dequeue_count, entry.body, entry.raw),
            (6, Some(Job { n: 1 }), None)
        );

        // The largest job, with a long reason: the reason is cut, the job kept whole.
        let largest = "A".repeat(MAX_JOB_TEXT);
        let note = Envelope {
            reason: "why ".repeat(5000),
            dequeue_count: 1,
            id: "m2".into(),
            text: largest.clone(),
        };
        let text = envelope_text(&note);
        assert!(text.len() <= MAX_MESSAGE_TEXT, "{}", text.len());
        let back: Envelope = serde_json::from_str(&text).unwrap();
        assert_eq!(back.text, largest);
        assert!(back.reason.starts_with("why why") && back.reason.ends_with('…'));

        // A foreign text too large to keep with its note is cut, and the reason says so.
        let foreign = "<".repeat(MAX_MESSAGE_TEXT);
        let note = Envelope {
            reason: "not one of this queue's jobs".into(),
            dequeue_count: 1,
            id: "m3".into(),
            text: foreign,
        };
        let text = envelope_text(&note);
        assert!(text.len() <= MAX_MESSAGE_TEXT, "{}", text.len());
        let back: Envelope = serde_json::from_str(&text).unwrap();
        assert!(back.reason.contains("text cut to fit"), "{}", back.reason);
        assert!(back.text.len() > 1000 && back.text.chars().all(|c| c == '<'));

        // Something else in the poison queue is listed as it is.
        let junk = ServiceMessage {
            text: "junk".into(),
            ..message
        };
        let entry: Poisoned<Job> = poisoned_of(&junk);
        assert_eq!(entry.id, MessageId("p1".into()));
        assert_eq!((entry.body, entry.raw.as_deref()), (None, Some("junk")));
    }

    #[test]
    fn message_lists_are_read() {
        let body = b"<?xml version=\"1.0\" encoding=\"utf-8\"?><QueueMessagesList><QueueMessage>\
            <MessageId>m1</MessageId><InsertionTime>Mon, 01 Jan 2024 00:00:00 GMT</InsertionTime>\
            <ExpirationTime>Fri, 31 Dec 9999 23:59:59 GMT</ExpirationTime><PopReceipt>AgAA+/==</PopReceipt>\
            <TimeNextVisible>Mon, 01 Jan 2024 00:00:30 GMT</TimeNextVisible><DequeueCount>3</DequeueCount>\
            <MessageText>a &lt;b&gt;</MessageText></QueueMessage><QueueMessage><MessageId>m2</MessageId>\
            <DequeueCount>0</DequeueCount><MessageText/></QueueMessage></QueueMessagesList>";
        let messages = read_messages(body).unwrap();
        assert_eq!(messages.len(), 2);
        let m = &messages[0];
        assert_eq!(m.id, MessageId("m1".into()));
        assert_eq!(m.pop_receipt.as_deref(), Some("AgAA+/=="));
        assert_eq!((m.dequeue_count, m.text.as_str()), (3, "a <b>"));
        assert_eq!(m.inserted.map(unix_ms), Some(1_704_067_200_000));
        assert_eq!(messages[1].pop_receipt, None);
        assert!(messages[1].receipt().is_err());
        assert_eq!(read_messages(b"<QueueMessagesList/>").unwrap(), []);
        assert!(read_messages(b"<Other/>").is_err());
        assert!(read_messages(b"<QueueMessagesList><QueueMessage/></QueueMessagesList>").is_err());
    }

    #[test]
    fn visibility_is_in_whole_seconds_rounded_up() {
        assert_eq!(seconds_up(Duration::ZERO), 0);
        assert_eq!(seconds_up(Duration::from_millis(1)), 1);
        assert_eq!(seconds_up(Duration::from_millis(1000)), 1);
        assert_eq!(seconds_up(Duration::from_millis(1001)), 2);
    }

    #[test]
    fn deletes_repeat_and_a_repeat_that_finds_nothing_is_done() {
        // The first answer was lost: the repeat finds the message gone.
        let (port, count) = fake_service(vec![Reply::Close, Reply::With(404, MISSING, "")]);
        pollster::block_on(fake_queue(port).delete(&receipt())).unwrap();
        assert_eq!(count.load(SeqCst), 2);
        // Busy, then deleted.
        let (port, count) = fake_service(vec![Reply::Status(503, ""), Reply::Status(204, "")]);
        pollster::block_on(fake_queue(port).delete(&receipt())).unwrap();
        assert_eq!(count.load(SeqCst), 2);
        // At the first try, a missing message is NotFound and a stale receipt a mismatch.
        let (port, _) = fake_service(vec![
            Reply::With(404, MISSING, ""),
            Reply::With(400, "x-ms-error-code: PopReceiptMismatch\r\n", ""),
        ]);
        let queue = fake_queue(port);
        let id = receipt().id;
        assert_eq!(
            pollster::block_on(queue.delete(&receipt())),
            Err(QueueError::NotFound(id.clone()))
        );
        assert_eq!(
            pollster::block_on(queue.delete(&receipt())),
            Err(QueueError::ReceiptMismatch(id))
        );
    }

    #[test]
    fn sends_receives_and_updates_are_not_repeated_once_they_may_have_landed() {
        let queue_not_found = "<?xml version=\"1.0\"?><Error><Code>QueueNotFound</Code>\
                               <Message>The specified queue does not exist.\nRequestId:1</Message></Error>";
        let (port, count) = fake_service(vec![Reply::Status(503, ""), Reply::Status(201, "")]);
        let err = pollster::block_on(fake_queue(port).send(Job { n: 1 })).unwrap_err();
        assert!(
            matches!(err, QueueError::Service { status: 503, .. }),
            "{err:?}"
        );
        assert_eq!(count.load(SeqCst), 1);
        let (port, count) = fake_service(vec![Reply::Close, Reply::Status(200, "")]);
        let err = pollster::block_on(fake_queue(port).receive()).unwrap_err();
        assert!(matches!(err, QueueError::Unreachable(_)), "{err:?}");
        assert_eq!(count.load(SeqCst), 1);
        let (port, count) = fake_service(vec![Reply::Silent, Reply::Status(204, "")]);
        let err = pollster::block_on(fake_queue(port).hide_for(&receipt(), Duration::ZERO));
        assert!(
            matches!(err, Err(QueueError::Unreachable(ref why)) if why.contains("no answer within"))
        );
        assert_eq!(count.load(SeqCst), 1);
        // A missing queue says which, and what to do.
        let (port, _) = fake_service(vec![Reply::Status(404, queue_not_found)]);
        match pollster::block_on(fake_queue(port).send(Job { n: 1 })) {
            Err(QueueError::Service {
                status: 404,
                code,
                message,
            }) => {
                assert_eq!(code, "QueueNotFound");
                assert!(message.contains("`jobs`") && message.contains("create_if_missing"));
            }
            other => panic!("{other:?}"),
        }
        // Reads are repeated.
        let (port, count) = fake_service(vec![
            Reply::Status(500, ""),
            Reply::With(200, "x-ms-approximate-messages-count: 4\r\n", ""),
            Reply::Status(200, "<QueueMessagesList/>"),
            Reply::With(200, "x-ms-approximate-messages-count: 1\r\n", ""),
        ]);
        let depth = pollster::block_on(fake_queue(port).depth()).unwrap();
        assert_eq!(
            (depth.waiting, depth.oldest_age, depth.poisoned),
            (4, None, 1)
        );
        assert_eq!(count.load(SeqCst), 4);
    }
}
