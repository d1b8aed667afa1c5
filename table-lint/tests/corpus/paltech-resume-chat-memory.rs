//! PalTech-Task (Python, FastAPI, azure-data-tables aio): the conversation memory of the resume
//! analyser's chat, a running summary the model rewrites after every answer. Sources at commit
//! 41cfe4c366b25e90811f0076df0bd331e375ede6 of https://github.com/Krishna-Mouli/PalTech-Task:
//! https://github.com/Krishna-Mouli/PalTech-Task/blob/41cfe4c366b25e90811f0076df0bd331e375ede6/apis/services/memorymodule/memoryservice.py
//! with apis/data/memory.py, apis/services/database/azuretable.py and apis/APIs/v1/resumeapis.py.
//!
//! The chat routes carry sourceid, resumeid and conversationid. Before answering, MemoryModule
//! reads the summary with `PartitionKey eq '<sourceid>' and RowKey eq '<resumeid>' and
//! conversationid eq '<conversationid>'`; it then upserts (MERGE) a row with PartitionKey =
//! sourceid, RowKey = resumeid and the properties conversationid, userid (a configured default
//! user) and summarizedcontent. The reset route deletes the row by PartitionKey and RowKey.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "MemorySummarizersPALTECH", partition_key = "{source_id}", row_key = "{resume_id}")]
struct MemorySummarizer {
    #[table(key_only, max_len = 64)]
    source_id: String,
    #[table(key_only, max_len = 64)]
    resume_id: String,
    /// The model's summary of the conversation so far.
    summarizedcontent: String,
    /// The route's conversationid, a property only.
    conversationid: String,
    userid: String,
}

/// get_summerized_conversation_content: the memory of this conversation, if any.
fn conversation_memory(source_id: &str, resume_id: &str, conversation_id: &str) -> Query {
    Query::filter(&format!(
        "PartitionKey eq '{}' and RowKey eq '{}' and conversationid eq '{}'",
        source_id, resume_id, conversation_id
    ))
    .unwrap()
}

/// update_or_add_summary_content: the new summary, a MERGE upsert to the same keys.
async fn save_memory<B: Backend>(memory: &Table<'_, B, MemorySummarizer>, row: &MemorySummarizer) {
    let _ = memory.upsert_merge(row).await;
}

/// delete_memory, on the resetchat route.
async fn reset<B: Backend>(
    memory: &Table<'_, B, MemorySummarizer>,
    key: &<MemorySummarizer as TableEntity>::Key,
) {
    let _ = memory.delete(key, IfMatch::Any).await;
}
