//! socal.quiz (TypeScript, @azure/data-tables): a Discord quiz bot on Azure Functions. Guild
//! admins build question banks with slash commands or a web client; the bot registers its
//! commands in a guild on the first interaction it sees there. Sources at commit
//! c7c84f58b66e4396a63faaef15f5228e2fc7e57e:
//! https://github.com/glennawatson/socal.quiz/blob/c7c84f58b66e4396a63faaef15f5228e2fc7e57e/src/util/questionStorage.ts
//! src/util/guildStorage.ts, src/handlers/discordBotService.ts,
//! src/handlers/actions/addQuestionToBankCommand.ts, src/functions/questionBankHttpTriggers.ts.
//!
//! QuizQuestionBanks: one entity per bank, PartitionKey = guild id, RowKey = bank name, with
//! guildId, name and questions (the array of every question: id, text, answers, correct answer
//! id, show time, image keys, explanation). Reads: getEntity(guild, bank); the bank names of a
//! guild by listEntities with the filter odata`PartitionKey eq '${guildId}'` (the tag quotes the
//! value again). Writes: upsertEntity in a one-action transaction, after reading the bank and
//! changing its list (add, edit, delete a question); deleteEntity(guild, bank).
//! GuildRegistrations: PartitionKey `RegisteredGuilds`, RowKey = guild id, no other property;
//! getEntity on every interaction (handleInteraction), upsertEntity when a guild is registered.

use table_runtime::{Backend, BatchOperation, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "QuizQuestionBanks", partition_key = "{guild_id}", row_key = "{name}")]
#[table(rename_all = "camelCase")]
struct QuestionBankEntity {
    /// The Discord guild (a snowflake, up to 20 digits).
    #[table(max_len = 20)]
    guild_id: String,
    /// The bank's name as the admin typed it.
    name: String,
    /// Every question of the bank, as JSON text.
    questions: String,
}

#[derive(TableEntity)]
#[table(name = "GuildRegistrations", partition_key = "RegisteredGuilds", row_key = "{guild_id}")]
struct GuildRegistrationEntity {
    #[table(key_only, max_len = 20)]
    guild_id: String,
}

/// getQuestionBankNames: the text the odata tag builds from `PartitionKey eq '${guildId}'`.
fn bank_names(guild_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq ''{}''", guild_id)).unwrap()
}

/// getQuestionBank, upsertQuestionBank (a transaction of one upsert), deleteQuestionBank.
async fn banks<B: Backend>(
    backend: &B,
    table: &Table<'_, B, QuestionBankEntity>,
    key: &<QuestionBankEntity as TableEntity>::Key,
    bank: &QuestionBankEntity,
) {
    let _ = table.get(key).await;
    let ops = vec![BatchOperation::Upsert(bank.to_entity().unwrap())];
    let _ = backend.execute_batch(QuestionBankEntity::TABLE, ops).await;
    let _ = table.delete(key, IfMatch::Any).await;
}

/// isGuildRegistered (every interaction) and markGuildAsRegistered.
async fn registrations<B: Backend>(
    table: &Table<'_, B, GuildRegistrationEntity>,
    key: &<GuildRegistrationEntity as TableEntity>::Key,
    row: &GuildRegistrationEntity,
) {
    let _ = table.get(key).await;
    let _ = table.upsert(row).await;
}
