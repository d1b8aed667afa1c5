//! Littlefinger (TypeScript, @azure/data-tables): the expenses of a personal expense tracker,
//! with the per-user tags and recurring-expense templates they refer to. Sources (commit
//! 737d606e3a898c20a9a316af602ce649ab77b66b of https://github.com/Andrei15193/Littlefinger):
//! https://github.com/Andrei15193/Littlefinger/blob/737d606e3a898c20a9a316af602ce649ab77b66b/app/data/repositories/azureStorage/expenses/AzureStorageExpensesRepository.ts,
//! with app/data/repositories/azureStorage/expenses/AzureStorageExpenseTagsRepository.ts and
//! AzureStorageExpenseTemplatesRepository.ts, app/data/azureStorage/entities/Expenses.ts,
//! app/model/ExpensesUtils.ts and the queue consumers expensesMonthChangeRequestConsumer,
//! expenseTagsRenameRequestConsumer and expenseTagsRemoveRequestConsumer (index.ts each).
//!
//! `expenses`: PartitionKey = `<user oid>-<YYYY-MM>` (the month of the expense's date),
//! RowKey = a v4 UUID; properties month, id, name, shop, tags (a JSON array of tag names),
//! price, currency, quantity, date, state and an optional warning. The month page lists
//! `PartitionKey eq '<user>-<month>'`; an expense is read, replaced (with its ETag) and
//! deleted (with its ETag) by its keys. Moving an expense to another month marks it
//! `changingMonth` (Merge with ETag) and queues a request; the consumer inserts the copy in the
//! new month's partition and deletes the old row with its ETag. `expenseTags`: PartitionKey =
//! user, RowKey = the lower-cased tag name, read as the user's partition with every expense
//! page. `expenseTemplates`: PartitionKey = user, RowKey = a v4 UUID, listed per user. Renaming
//! or removing a tag queues a request whose consumer lists the whole `expenses` table and the
//! whole `expenseTemplates` table with no filter, and merges (with the row's ETag) a new tags
//! array into every row, of any user, holding a tag of that name.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "expenses", partition_key = "{user_id}-{month}", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct Expense {
    /// The B2C `oid` claim.
    user_id: Uuid,
    /// `date.toISOString().substring(0, 7)`: `2023-01`.
    #[table(max_len = 7)]
    month: String,
    id: Uuid,
    name: String,
    shop: String,
    /// JSON array of tag names.
    tags: String,
    price: f64,
    #[table(max_len = 3)]
    currency: String,
    quantity: f64,
    date: OffsetDateTime,
    /// `ready` or `changingMonth`.
    state: String,
    warning: Option<String>,
    warning_activation: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "expenseTags", partition_key = "{user_id}", row_key = "{name_key}")]
#[table(rename_all = "camelCase")]
struct ExpenseTag {
    user_id: Uuid,
    /// The tag's name in lower case.
    #[table(max_len = 100)]
    name_key: String,
    name: String,
    color: i32,
    state: String,
    warning: Option<String>,
    warning_activation: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "expenseTemplates", partition_key = "{user_id}", row_key = "{id}")]
#[table(rename_all = "camelCase")]
struct ExpenseTemplate {
    user_id: Uuid,
    id: Uuid,
    name: String,
    shop: String,
    tags: String,
    price: f64,
    currency: String,
    quantity: f64,
    day_of_month: i32,
}

/// getAllAsync: one user's month.
async fn month_page<B: Backend>(backend: &B, user: Uuid, month: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}-{}'", user, month)).unwrap();
    let _ = backend.query_page(Expense::TABLE, &q).await;
}

/// The user's tags (with every expense read) and templates.
async fn user_lists<B: Backend>(backend: &B, user: Uuid) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", user)).unwrap();
    let _ = backend.query_page(ExpenseTag::TABLE, &q).await;
    let _ = backend.query_page(ExpenseTemplate::TABLE, &q).await;
}

/// The tag rename and tag removal consumers: every expense and every template of the tables.
async fn tag_consumers<B: Backend>(backend: &B) {
    let _ = backend.query_page(Expense::TABLE, &Query::all()).await;
    let _ = backend.query_page(ExpenseTemplate::TABLE, &Query::all()).await;
}

/// getAsync, addAsync, updateAsync (Replace with the ETag, or Merge with the ETag when the
/// month changes), removeAsync, and the month-change consumer's insert plus delete.
async fn expense_writes<B: Backend>(
    expenses: &Table<'_, B, Expense>,
    tags: &Table<'_, B, ExpenseTag>,
    expense: &Expense,
    moved: &Expense,
    key: &<Expense as TableEntity>::Key,
    tag: &ExpenseTag,
    etag: IfMatch,
) {
    let _ = expenses.get(key).await;
    let _ = expenses.insert(expense).await;
    let _ = expenses.replace(expense, etag.clone()).await;
    let _ = expenses.merge(expense, etag.clone()).await;
    let _ = expenses.insert(moved).await;
    let _ = expenses.delete(key, etag.clone()).await;
    let _ = tags.insert(tag).await;
    let _ = tags.replace(tag, etag).await;
}
