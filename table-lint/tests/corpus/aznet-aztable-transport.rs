//! aznet (Go, azure-sdk-for-go `aztables`): a `net.Conn`/`net.Listener` implementation that
//! tunnels an encrypted byte stream through an Azure Storage account; its `aztable` driver
//! carries the stream in Table storage. Sources (commit f666cee79b07124ce398fce403ce74076cdb062e
//! of https://github.com/Atsika/aznet):
//! https://github.com/Atsika/aznet/blob/f666cee79b07124ce398fce403ce74076cdb062e/aztable.go,
//! with aznet.go (Dial, Conn.Read, Listener.Accept, janitor) and options.go at the same commit,
//! and docs/src/content/docs/drivers/aztable.md.
//!
//! Every entity of the driver has the same shape: the two keys and the payload (a Noise-encrypted
//! frame) cut into at most fifteen `Edm.Binary` properties of 64 KiB, `Data` then `Data01` to
//! `Data14` (up to 960 KiB per entity). Three kinds of tables:
//!
//! - the listener's bootstrap table `handshake` (name configurable): PartitionKey = the table's
//!   own name, the same for every row; RowKey = the connection id (a hyphenated UUID) the
//!   dialing client chose. Dial adds its first handshake message here (AddEntity, with a SAS
//!   that may only add). Accept, every second while it waits, lists the whole partition
//!   (`PartitionKey eq 'handshake'`, following pages), and for each handshake it can complete
//!   creates the session's two tables, posts the answer to the token table and deletes the
//!   handshake row (DeleteEntity, unconditional). A row whose handshake fails is skipped and
//!   left in place.
//! - the bootstrap table `token`: PartitionKey = `token`, RowKey = the connection id. The
//!   listener adds the answer (the session's SAS tokens, encrypted); the dialer polls it by both
//!   keys (GetEntity every poll interval, 500 ms by default, until it exists); the listener
//!   deletes it once data flows, and again when the connection is reaped.
//! - two tables per connection, `req<id>` (client to server) and `res<id>` (server to client),
//!   the id with its dashes removed: PartitionKey = `data`, RowKey = the frame's sequence number
//!   as nine zero-padded digits. The sender adds each frame once (AddEntity; a 409 on a resend
//!   counts as success). The receiver polls `PartitionKey eq 'data' and RowKey ge '<next seq>'`
//!   with `$top=100` (every 10 ms while busy, backing off to 500 ms when idle) and consumes the
//!   leading run of consecutive sequence numbers. Frames are never deleted one by one: when the
//!   connection closes or idles out, the listener deletes both tables. Closing the listener
//!   deletes the two bootstrap tables.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "handshake", partition_key = "handshake", row_key = "{conn_id}")]
#[table(rename_all = "PascalCase")]
struct Handshake {
    /// `uuid.New().String()` on the dialing side.
    conn_id: Uuid,
    /// The first 64 KiB of the first Noise message.
    data: Vec<u8>,
    data01: Option<Vec<u8>>,
    data02: Option<Vec<u8>>,
    data03: Option<Vec<u8>>,
    data04: Option<Vec<u8>>,
    data05: Option<Vec<u8>>,
    data06: Option<Vec<u8>>,
    data07: Option<Vec<u8>>,
    data08: Option<Vec<u8>>,
    data09: Option<Vec<u8>>,
    data10: Option<Vec<u8>>,
    data11: Option<Vec<u8>>,
    data12: Option<Vec<u8>>,
    data13: Option<Vec<u8>>,
    data14: Option<Vec<u8>>,
}

#[derive(TableEntity)]
#[table(name = "token", partition_key = "token", row_key = "{conn_id}")]
#[table(rename_all = "PascalCase")]
struct Token {
    conn_id: Uuid,
    /// The listener's encrypted answer: the session tables' SAS tokens.
    data: Vec<u8>,
    data01: Option<Vec<u8>>,
    data02: Option<Vec<u8>>,
    data03: Option<Vec<u8>>,
    data04: Option<Vec<u8>>,
    data05: Option<Vec<u8>>,
    data06: Option<Vec<u8>>,
    data07: Option<Vec<u8>>,
    data08: Option<Vec<u8>>,
    data09: Option<Vec<u8>>,
    data10: Option<Vec<u8>>,
    data11: Option<Vec<u8>>,
    data12: Option<Vec<u8>>,
    data13: Option<Vec<u8>>,
    data14: Option<Vec<u8>>,
}

/// One frame of one direction of one connection; the table is `req<id>` or `res<id>`.
#[derive(TableEntity)]
#[table(name = "reqsession", partition_key = "data", row_key = "{seq:09}")]
#[table(rename_all = "PascalCase")]
struct Frame {
    /// The frame's sequence number (a uint64 in the original); formatRowKey keeps its last
    /// nine digits.
    #[table(max = 999_999_999)]
    seq: u32,
    data: Vec<u8>,
    data01: Option<Vec<u8>>,
    data02: Option<Vec<u8>>,
    data03: Option<Vec<u8>>,
    data04: Option<Vec<u8>>,
    data05: Option<Vec<u8>>,
    data06: Option<Vec<u8>>,
    data07: Option<Vec<u8>>,
    data08: Option<Vec<u8>>,
    data09: Option<Vec<u8>>,
    data10: Option<Vec<u8>>,
    data11: Option<Vec<u8>>,
    data12: Option<Vec<u8>>,
    data13: Option<Vec<u8>>,
    data14: Option<Vec<u8>>,
}

/// Dial: PostHandshake (AddEntity).
async fn post_handshake<B: Backend>(handshakes: &Table<'_, B, Handshake>, hs: &Handshake) {
    let _ = handshakes.insert(hs).await;
}

/// Accept, every second: GetHandshakes lists the one partition, then each completed handshake
/// is deleted by its keys.
async fn accept_round<B: Backend>(
    backend: &B,
    handshakes: &Table<'_, B, Handshake>,
    done: &<Handshake as TableEntity>::Key,
) {
    let q = Query::filter("PartitionKey eq 'handshake'").unwrap();
    let _ = backend.query_page(Handshake::TABLE, &q).await;
    let _ = handshakes.delete(done, IfMatch::Any).await;
}

/// PostToken (listener), GetToken polled by the dialer, DeleteToken (listener).
async fn token_ops<B: Backend>(
    tokens: &Table<'_, B, Token>,
    answer: &Token,
    key: &<Token as TableEntity>::Key,
) {
    let _ = tokens.insert(answer).await;
    let _ = tokens.get(key).await;
    let _ = tokens.delete(key, IfMatch::Any).await;
}

/// WriteRaw: one AddEntity per frame.
async fn write_raw<B: Backend>(frames: &Table<'_, B, Frame>, frame: &Frame) {
    let _ = frames.insert(frame).await;
}

/// ReadRaw: the next frames from the receiver's position, at most 100.
async fn read_raw<B: Backend>(backend: &B, next_seq: u32) {
    let q = Query::filter(&format!(
        "PartitionKey eq 'data' and RowKey ge '{:09}'",
        next_seq
    ))
    .unwrap()
    .top(100);
    let _ = backend.query_page(Frame::TABLE, &q).await;
}

/// CleanupSession and CleanupBootstrap: whole tables dropped.
async fn cleanup<B: Backend>(backend: &B, req_table: &str, res_table: &str) {
    let _ = backend.delete_table(req_table).await;
    let _ = backend.delete_table(res_table).await;
    let _ = backend.delete_table(Handshake::TABLE).await;
    let _ = backend.delete_table(Token::TABLE).await;
}
