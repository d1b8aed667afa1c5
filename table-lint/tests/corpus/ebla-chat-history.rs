//! Ebla Computer Consultancy ai-projects (Python, azure-data-tables): the chat history of an
//! LLM chatbot service (FastAPI), messages and conversations. Sources (commit
//! 97a7bb2a27bd945267a7ff30dfa9056f7fc1d68d of https://github.com/Ebla-Computer-Consultancy/ai-projects):
//! https://github.com/Ebla-Computer-Consultancy/ai-projects/blob/97a7bb2a27bd945267a7ff30dfa9056f7fc1d68d/wrapperfunction/chat_history/service/chat_history_service.py,
//! model/message_entity.py, model/conversation_entity.py, model/Generic_Table_Client.py,
//! integration/cosmos_db_connector.py and chatbot/service/chatbot_service.py.
//!
//! Two tables (their names come from settings). Every MessageEntity and ConversationEntity is
//! created with `partition_key = str(uuid4())` and `row_key = str(uuid4())`, so each entity is
//! alone in a fresh partition; the conversation and message ids are ordinary properties. All
//! reads are `query_entities` filters on properties: a user's conversations (`user_id eq`), a
//! conversation (`conversation_id eq`), a message (`message_id eq`), a conversation's messages
//! (`conversation_id eq`, read again on every chat turn to build the LLM's history, of which the
//! last N are kept), the user's questions of a conversation, the unanswered messages
//! (`is_answered eq 'undefined'`), the conversations still to analyse (`sentiment eq
//! 'undefined'`) and a bot's conversations. Writes: `create_entity`; updates read the entity by
//! its property, then `update_entity` (MERGE).

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "messages", partition_key = "{partition_key}", row_key = "{row_key}")]
struct MessageEntity {
    /// `str(uuid4())`, fresh for every message.
    partition_key: Uuid,
    /// `str(uuid4())`.
    row_key: Uuid,
    message_id: Option<String>,
    /// `datetime.now().isoformat()`.
    timestamp: String,
    content: String,
    conversation_id: String,
    /// `user`, `assistant`, `tool`, ...
    role: String,
    context: String,
    /// `message`, `document` or `video`.
    #[table(rename = "MessageType")]
    message_type: String,
    completion_tokens: Option<i64>,
    prompt_tokens: Option<i64>,
    total_tokens: Option<i64>,
    /// `"undefined"` until the Q&A pass marks it.
    is_answered: String,
    question_id: Option<String>,
    #[table(rename = "Exception")]
    exception: Option<String>,
    display_in_chat: bool,
}

#[derive(TableEntity)]
#[table(name = "conversations", partition_key = "{partition_key}", row_key = "{row_key}")]
struct ConversationEntity {
    partition_key: Uuid,
    row_key: Uuid,
    user_id: String,
    timestamp: String,
    conversation_id: String,
    /// `"undefined"` until the sentiment pass fills it.
    sentiment: String,
    feedback: i32,
    bot_name: String,
    title: String,
    client_ip: String,
    forwarded_ip: String,
    device_info: String,
}

/// get_conversations(user_id).
fn conversations_of_user(user_id: &str) -> Query {
    Query::filter(&format!("user_id eq '{}'", user_id)).unwrap()
}

/// get_conversation_data(conversation_id), behind every conversation update.
fn conversation(conversation_id: &str) -> Query {
    Query::filter(&format!(" conversation_id eq '{}'", conversation_id)).unwrap()
}

/// get_message_data(message_id), behind every message update.
fn message(message_id: &str) -> Query {
    Query::filter(&format!(" message_id eq '{}'", message_id)).unwrap()
}

/// get_messages(conversation_id): the conversation's history, on every chat turn.
fn messages_of_conversation(conversation_id: &str) -> Query {
    Query::filter(&format!("conversation_id eq '{}'", conversation_id)).unwrap()
}

/// get_user_messages(conversation_id), for the sentiment analysis.
fn user_messages(conversation_id: &str) -> Query {
    Query::filter(&format!(
        "conversation_id eq '{}' and role eq 'user' and MessageType eq 'message'",
        conversation_id
    ))
    .unwrap()
}

/// get_question_answer_pairs: `get_messages(filter_condition="is_answered eq 'undefined'")`.
fn unanswered() -> Query {
    Query::filter("is_answered eq 'undefined'").unwrap()
}

/// perform_sentiment_analysis: `get_conversations_by_condition("sentiment eq 'undefined'")`.
fn conversations_to_analyse() -> Query {
    Query::filter("sentiment eq 'undefined'").unwrap()
}

/// get_conversations_by_bot_name(bot_name), or every conversation without a bot name.
fn conversations_of_bot(bot_name: &str) -> (Query, Query) {
    (
        Query::filter(&format!("bot_name eq '{}'", bot_name)).unwrap(),
        Query::all(),
    )
}

/// add_entity: `create_entity`; update_message / update_conversation: `update_entity(MERGE)`.
async fn writes<B: Backend>(
    messages: &Table<'_, B, MessageEntity>,
    conversations: &Table<'_, B, ConversationEntity>,
    msg: &MessageEntity,
    conv: &ConversationEntity,
) {
    let _ = conversations.insert(conv).await;
    let _ = messages.insert(msg).await;
    let _ = messages.merge(msg, IfMatch::Any).await;
    let _ = conversations.merge(conv, IfMatch::Any).await;
}
