//! poc-bots EchoBot (C#, Bot Framework, Azure.Data.Tables): a proof-of-concept Teams bot by
//! Sam Betts that caches, for each user who installs it, the conversation reference it needs to
//! send proactive messages. Sources (commit 836c0e22eb7261e0831b12f56fe852c2af0abba2 of
//! https://github.com/sambetts/poc-bots):
//! https://github.com/sambetts/poc-bots/blob/836c0e22eb7261e0831b12f56fe852c2af0abba2/EchoBot/src/EchoBot/ConversationCache/AzureTableBotConversationCache.cs,
//! with EchoBot/src/EchoBot/ConversationCache/CachedUserAndConversationData.cs.
//!
//! One table, `ConversationCache`. Every row has PartitionKey `Users`; the RowKey is the user's
//! AAD object id (or the channel user id when there is none); properties ServiceUrl,
//! ConversationId and ChannelId. The cache's constructor queries `PartitionKey eq 'Users'` and
//! loads every row into a ConcurrentDictionary. When a conversation update arrives for a user not
//! in memory, it point-reads the row and, if missing, adds it (AddEntity). Removing a user
//! deletes the row by its keys. All other reads are served from memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "ConversationCache", partition_key = "Users", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct CachedUserAndConversationData {
    /// The AAD object id (a GUID), or the channel's user id.
    #[table(max_len = 128)]
    user_id: String,
    service_url: String,
    conversation_id: String,
    channel_id: String,
}

/// The constructor: every cached user, from the one partition.
async fn load<B: Backend>(backend: &B) {
    let users = Query::filter("PartitionKey eq 'Users'").unwrap();
    let _ = backend.query_page(CachedUserAndConversationData::TABLE, &users).await;
}

/// AddOrUpdateUserAndConversationId: a point read, and an insert when the user is new;
/// RemoveFromCache: a delete by the keys.
async fn install_and_remove<B: Backend>(
    cache: &Table<'_, B, CachedUserAndConversationData>,
    row: &CachedUserAndConversationData,
    key: &<CachedUserAndConversationData as TableEntity>::Key,
) {
    if cache.get(key).await.ok().flatten().is_none() {
        let _ = cache.insert(row).await;
    }
    let _ = cache.delete(key, IfMatch::Any).await;
}
