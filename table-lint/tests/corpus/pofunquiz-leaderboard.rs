//! PoFunQuiz leaderboard: one entity per submitted score.
//! Source: https://github.com/punkouter26/PoFunQuiz/blob/aeca05f1e77e86c4cde1b374c7e3f49e7f459fb8/src/PoFunQuiz.Web/Features/Leaderboard/LeaderboardRepository.cs
//! and src/PoFunQuiz.Web/Features/Leaderboard/SubmitScore.cs, src/PoFunQuiz.Web/Models/LeaderboardEntry.cs.
//!
//! SubmitScore: `RowKey = Guid.NewGuid()`, `PartitionKey = entry.Category` after checking it is
//! one of `QuestionCategories.All` (eight names, else "General"). GetTopScoresAsync reads the
//! first `count * 3` entities of the category's partition and sorts them by Score in memory.

use table_runtime::{Query, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// `QuestionCategories.All`, stored as its name.
enum QuestionCategory {
    General,
    Science,
    History,
    Geography,
    Technology,
    Sports,
    Entertainment,
    Arts,
}

#[derive(TableEntity)]
#[table(name = "PoFunQuizPlayers", partition_key = "{category}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct LeaderboardEntry {
    category: QuestionCategory,
    id: Uuid,
    player_name: String,
    score: i32,
    max_streak: i32,
    date_played: OffsetDateTime,
    wins: i32,
    losses: i32,
}

/// GetTopScoresAsync(category, count): the partition's first `count * 3` rows (`maxPerPage:
/// candidateLimit`, reading pages until that many arrived), then
/// `OrderByDescending(Score).Take(count)` in memory.
async fn top_score_candidates<B: table_runtime::Backend>(backend: &B, category: &str, count: usize) {
    let safe_category = category.replace('\'', "''");
    let candidates = Query::filter(&format!("PartitionKey eq '{}'", safe_category))
        .unwrap()
        .top(count * 3);
    let _ = backend.query_page(LeaderboardEntry::TABLE, &candidates).await;
}
