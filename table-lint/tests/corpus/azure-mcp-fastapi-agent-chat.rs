//! azure-mcp-fastapi-agent (Python, azure-data-tables): the chat backend of an LLM agent app
//! (Azure AI Foundry agents, Entra ID users, MCP tools): users, agents, chat sessions and
//! messages. Source:
//! https://github.com/TM-Atharva/azure-mcp-fastapi-agent/blob/beec1a4083d2c12715eb1dd92355408f37243fe8/backend/table_storage.py
//! with backend/main.py and backend/azure_foundry.py at the same commit.
//!
//! Four tables. `users`: PartitionKey = RowKey = the Entra object id (get, create or replace on
//! login). `agents`: PartitionKey = the literal `agents` ("all agents in same partition for
//! efficient queries"), RowKey = the Foundry agent id, plus the app's own `id` (a UUID);
//! `get_all_agents` filters `is_active eq true` in the partition and `get_agent_by_id` finds an
//! agent by its `id` property, which the chat endpoints do on every turn (the session stores that
//! id). `sessions`: PartitionKey = the user's Entra id, RowKey = the session UUID; the user's
//! sessions are one partition read, sorted by `updated_at` in memory, and every chat turn replaces
//! the session to bump `updated_at`. `messages`: PartitionKey = the session id, RowKey =
//! `f"{timestamp}_{message_id}"` with `timestamp = datetime.now(timezone.utc).isoformat()`;
//! `get_session_messages` reads the whole session, sorts by RowKey and keeps the last `limit`
//! (20 per chat turn); deleting a session deletes its messages one by one.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "users", partition_key = "{azure_id}", row_key = "{azure_id}")]
struct User {
    azure_id: String,
    id: Uuid,
    email: String,
    name: String,
    avatar_url: String,
    created_at: String,
    last_login: String,
}

#[derive(TableEntity)]
#[table(name = "agents", partition_key = "agents", row_key = "{azure_agent_id}")]
struct Agent {
    /// The Azure AI Foundry agent id, e.g. `asst_...`.
    azure_agent_id: String,
    /// The app's own id for the agent, a UUID.
    id: Uuid,
    name: String,
    description: String,
    /// JSON.
    capabilities: String,
    is_active: bool,
    created_at: String,
    updated_at: String,
}

#[derive(TableEntity)]
#[table(name = "sessions", partition_key = "{user_azure_id}", row_key = "{id}")]
struct ChatSession {
    user_azure_id: String,
    id: Uuid,
    agent_id: String,
    title: String,
    created_at: String,
    updated_at: String,
    is_active: bool,
}

#[derive(TableEntity)]
#[table(name = "messages", partition_key = "{session_id}", row_key = "{created_at:%Y-%m-%dT%H:%M:%S.%f}+00:00_{id}")]
struct ChatMessage {
    session_id: Uuid,
    /// `datetime.now(timezone.utc).isoformat()`, also the start of the RowKey.
    created_at: OffsetDateTime,
    /// `str(uuid.uuid4())`.
    id: Uuid,
    role: String,
    content: String,
    /// JSON.
    metadata: String,
}

/// get_all_agents.
fn active_agents() -> Query {
    Query::filter("PartitionKey eq 'agents' and is_active eq true").unwrap()
}

/// get_agent_by_id(agent_id): on every chat turn.
fn agent_by_id(agent_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'agents' and id eq '{}'", agent_id)).unwrap()
}

/// get_agent_by_azure_id: `get_entity("agents", azure_agent_id)`.
fn agent_by_azure_id(azure_agent_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'agents' and RowKey eq '{}'", azure_agent_id)).unwrap()
}

/// get_user_by_azure_id / get_session_by_id: `get_entity` point reads.
fn user_and_session(azure_id: &str, session_id: &str) -> (Query, Query) {
    (
        Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", azure_id, azure_id)).unwrap(),
        Query::filter(&format!("PartitionKey eq '{}' and RowKey eq '{}'", azure_id, session_id)).unwrap(),
    )
}

/// get_user_sessions(user_azure_id).
fn sessions_of_user(user_azure_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_azure_id)).unwrap()
}

/// get_session_messages(session_id, limit) and delete_session: the whole session.
fn messages_of_session(session_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", session_id)).unwrap()
}

/// create_user / create_or_update_agent: get, then `update_entity(mode="replace")` or
/// `create_entity`.
async fn user_and_agent_writes<B: Backend>(
    users: &Table<'_, B, User>,
    agents: &Table<'_, B, Agent>,
    user: &User,
    agent: &Agent,
) {
    let _ = users.replace(user, IfMatch::Any).await;
    let _ = users.insert(user).await;
    let _ = agents.replace(agent, IfMatch::Any).await;
    let _ = agents.insert(agent).await;
}

/// create_session, update_session_timestamp (replace), delete_session.
async fn session_writes<B: Backend>(
    sessions: &Table<'_, B, ChatSession>,
    session: &ChatSession,
    key: &<ChatSession as TableEntity>::Key,
) {
    let _ = sessions.insert(session).await;
    let _ = sessions.replace(session, IfMatch::Any).await;
    let _ = sessions.delete(key, IfMatch::Any).await;
}

/// create_message (twice per chat turn); delete_session deletes each message.
async fn message_writes<B: Backend>(
    messages: &Table<'_, B, ChatMessage>,
    message: &ChatMessage,
    key: &<ChatMessage as TableEntity>::Key,
) {
    let _ = messages.insert(message).await;
    let _ = messages.delete(key, IfMatch::Any).await;
}
