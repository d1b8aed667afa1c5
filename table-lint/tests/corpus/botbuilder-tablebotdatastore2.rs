//! Bot Framework v3 `TableBotDataStore2`: the scalable replacement of TableBotDataStore.
//! Source: https://github.com/microsoft/BotBuilder-Azure/blob/103e59b3214ab25b9ad387b54a72e8c3e5358aa8/CSharp/Library/Microsoft.Bot.Builder.Azure/TableBotDataStore2.cs
//!
//! One table per bot and channel (`botdata{BotId}{ChannelId}`, cut to 63 characters).
//! User data `(userId, "user")`, conversation data `(conversationId, "conversation")`,
//! private conversation data `(conversationId, userId)`. Point operations with ETags only.

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "botdatamybotmsteams", partition_key = "{user_id}", row_key = "user")]
#[table(rename_all = "PascalCase")]
struct UserData {
    user_id: String,
    bot_id: String,
    channel_id: String,
    data: Vec<u8>,
}

#[derive(TableEntity)]
#[table(name = "botdatamybotmsteams", partition_key = "{conversation_id}", row_key = "conversation")]
#[table(rename_all = "PascalCase")]
struct ConversationData {
    conversation_id: String,
    bot_id: String,
    channel_id: String,
    data: Vec<u8>,
}

#[derive(TableEntity)]
#[table(name = "botdatamybotmsteams", partition_key = "{conversation_id}", row_key = "{user_id}")]
#[table(rename_all = "PascalCase")]
struct PrivateConversationData {
    conversation_id: String,
    user_id: String,
    bot_id: String,
    channel_id: String,
    data: Vec<u8>,
}
