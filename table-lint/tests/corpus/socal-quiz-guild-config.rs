//! socal.quiz (TypeScript, @azure/data-tables): the per-guild quiz settings of a Discord quiz
//! bot. Source at commit c7c84f58b66e4396a63faaef15f5228e2fc7e57e:
//! https://github.com/glennawatson/socal.quiz/blob/c7c84f58b66e4396a63faaef15f5228e2fc7e57e/src/util/guildQuizConfigStorage.ts
//! with src/functions/guildConfigHttpTriggers.ts and src/handlers/quizManagerBase.ts.
//!
//! GuildQuizConfig: PartitionKey = guild id, RowKey = scope (`default`, or a bank name for that
//! bank's overrides); properties guildId, scope, defaultQuestionShowTimeMs, advanceMode
//! (`auto` or `manual`), interQuestionMessages (a list of `{ messageId, content, imageUrl }`)
//! and summaryDurationMs, each optional. getConfig is getEntity(guild, scope) (a 404 means none);
//! upsertConfig is upsertEntity; deleteConfig is deleteEntity(guild, scope);
//! getEffectiveConfig reads the guild's `default` row and, for a bank, the bank's row.

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "GuildQuizConfig", partition_key = "{guild_id}", row_key = "{scope}")]
#[table(rename_all = "camelCase")]
struct GuildQuizConfigEntity {
    /// The Discord guild (a snowflake, up to 20 digits).
    #[table(max_len = 20)]
    guild_id: String,
    /// `default` or a bank name.
    scope: String,
    default_question_show_time_ms: Option<i32>,
    advance_mode: Option<String>,
    /// The list of messages shown between questions, as JSON text.
    inter_question_messages: Option<String>,
    summary_duration_ms: Option<i32>,
}

/// getConfig / getEffectiveConfig (one or two point reads), upsertConfig, deleteConfig.
async fn config<B: Backend>(
    table: &Table<'_, B, GuildQuizConfigEntity>,
    guild_default: &<GuildQuizConfigEntity as TableEntity>::Key,
    bank_override: &<GuildQuizConfigEntity as TableEntity>::Key,
    row: &GuildQuizConfigEntity,
) {
    let _ = table.get(guild_default).await;
    let _ = table.get(bank_override).await;
    let _ = table.upsert(row).await;
    let _ = table.delete(bank_override, IfMatch::Any).await;
}
