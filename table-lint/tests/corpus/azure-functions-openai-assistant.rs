//! Azure Functions OpenAI extension, assistants: the chat history and state of each assistant
//! (one chat session). Source:
//! https://github.com/Azure/azure-functions-openai-extension/blob/03bfdfbf8bc313136b4b7d53ac88ee315b441138/src/WebJobs.Extensions.OpenAI/Assistants/AssistantService.cs
//! with https://github.com/Azure/azure-functions-openai-extension/blob/05c61a746d2a95c81dcb045b02b58033d755907e/src/WebJobs.Extensions.OpenAI/Models/ChatMessageTableEntity.cs
//! and https://github.com/Azure/azure-functions-openai-extension/blob/91ec16ef578fa67fc9479c942e1ff3a4ebc786cf/src/WebJobs.Extensions.OpenAI/Models/AssistantStateEntity.cs.
//!
//! PartitionKey = the assistant id (chosen by the caller, e.g. a user's chat id). In the
//! partition: the state row (RowKey `state`: created and updated times, message and token counts)
//! and one row per message, RowKey `"msg-" + messageNumber.ToString("X4")` (1-based, 4 uppercase
//! hex digits). CreateAssistant deletes the partition's rows in batches of 100 and adds the
//! system message and the state row in one transaction; PostMessage reads the whole partition,
//! calls the model, and adds the new messages together with the state row's update in one
//! transaction (function-call loops are capped at 50 messages so the batch stays under 100).

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "ChatState", partition_key = "{assistant_id}", row_key = "state")]
#[table(rename_all = "PascalCase")]
struct AssistantStateEntity {
    assistant_id: String,
    exists: bool,
    created_at: OffsetDateTime,
    last_updated_at: OffsetDateTime,
    total_messages: i32,
    total_tokens: i32,
}

#[derive(TableEntity)]
#[table(name = "ChatState", partition_key = "{assistant_id}", row_key = "msg-{message_number:05}")]
#[table(rename_all = "PascalCase")]
struct ChatMessageTableEntity {
    assistant_id: String,
    /// 1-based; the original writes 4 hex digits, which hold numbers up to 65,535.
    #[table(max = 65_535)]
    message_number: u32,
    content: String,
    /// `system`, `user`, `assistant`, `function` or `tool`.
    role: String,
    name: Option<String>,
    created_at: OffsetDateTime,
    /// The tool calls as JSON.
    tool_calls: Option<String>,
}

/// LoadChatStateAsync(id) and the reset in CreateAssistantAsync: the assistant's partition.
fn chat_state(assistant_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", assistant_id)).unwrap()
}

/// CreateAssistantAsync / PostMessageAsync: new messages are `Add` actions of the turn's
/// transaction (the state row is added, then merged).
async fn add_message<B: Backend>(chat: &Table<'_, B, ChatMessageTableEntity>, message: &ChatMessageTableEntity) {
    let _ = chat.insert(message).await;
}
