//! Bot Framework v3 `TableBotDataStore`: user, conversation and private conversation state.
//! Source: https://github.com/microsoft/BotBuilder-Azure/blob/3c555623f8043df52ea4a35b7c0122b5295f43ca/CSharp/Library/Microsoft.Bot.Builder.Azure/TableBotDataStore.cs
//!
//! `GetEntityKey`: conversation data `({channelId}:conversation, conversationId)`, user data
//! `({channelId}:user, userId)`, private data `({channelId}:private, "{conversationId}:{userId}")`,
//! all sanitized for Azure keys. The state is one gzipped JSON `Data` binary property; loads and
//! saves are point operations with ETags. (The class's own notes say it keeps all conversation
//! data in one partition and will not scale; TableBotDataStore2 replaced it.)

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "botdata", partition_key = "{channel_id}:conversation", row_key = "{conversation_id}")]
#[table(rename_all = "PascalCase")]
struct ConversationData {
    channel_id: String,
    conversation_id: String,
    bot_id: String,
    user_id: String,
    data: Vec<u8>,
}

#[derive(TableEntity)]
#[table(name = "botdata", partition_key = "{channel_id}:user", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct UserData {
    channel_id: String,
    user_id: String,
    bot_id: String,
    conversation_id: String,
    data: Vec<u8>,
}

#[derive(TableEntity)]
#[table(name = "botdata", partition_key = "{channel_id}:private", row_key = "{conversation_id}:{user_id}")]
#[table(rename_all = "PascalCase")]
struct PrivateConversationData {
    channel_id: String,
    conversation_id: String,
    user_id: String,
    bot_id: String,
    data: Vec<u8>,
}
