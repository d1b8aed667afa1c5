//! UnoCash.Fable (F#, Azure Functions API with FSharp.Azure.Storage over
//! Microsoft.Azure.Cosmos.Table; Fable front end): a personal expense tracker where each signed-in
//! user keeps accounts and records expenses against them (receipts are read by Form Recognizer).
//! Sources (commit 0005ef429fce95e14b138b6f1fdcba910c539c51 of
//! https://github.com/UnoSD/UnoCash.Fable):
//! https://github.com/UnoSD/UnoCash.Fable/blob/0005ef429fce95e14b138b6f1fdcba910c539c51/UnoCash.Core/ExpenseReader.fs,
//! with UnoCash.Core/Table.fs, ExpenseTable.fs, ExpenseWriter.fs, AccountReader.fs,
//! AccountWriter.fs, CurrencyWriter.fs, UnoCash.Dto/Expense.fs, UnoCash.Dto/Account.fs and
//! UnoCash.Api/GetExpenses.fs, AddExpense.fs, DeleteExpense.fs and GetAccounts.fs.
//!
//! Each record type is stored in a table named after it. The keys are computed by a shared
//! helper: PartitionKey = the user's UPN (from the JWT cookie) followed directly by a
//! per-type part, with the characters keys cannot hold removed; RowKey = the record's GUID id.
//! Every record field is also stored as a property, the id included.
//!
//! `Expense`: PartitionKey = UPN + the expense's account name (no separator), RowKey = the
//! expense id. Properties Amount (a double), Payee, Description, Date, Account, Type, Status,
//! Tags, Id. GetExpenses without an id lists the user's account: `PartitionKey eq '<upn+account>'`.
//! With an id it runs the same query with `Id eq guid'<id>'` added (a property of the record) and
//! returns what matches. AddExpense inserts (Insert, failing if the id exists); DeleteExpense
//! deletes by both keys with ETag `*`. There is no update.
//!
//! `Account`: PartitionKey = the UPN alone (the per-type part is empty), RowKey = the account
//! id. Properties CurrencyId, Name, InitialBalance, Id. GetAccounts lists the user's partition;
//! AddAccount inserts. (A `Currency` table keyed the same way is only ever inserted into.)

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "Expense", partition_key = "{owner_account}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Expense {
    /// The user's UPN immediately followed by the account name, forbidden characters removed.
    owner_account: String,
    id: Uuid,
    amount: f64,
    payee: String,
    description: String,
    date: OffsetDateTime,
    account: String,
    #[table(rename = "Type")]
    kind: String,
    status: String,
    tags: String,
}

#[derive(TableEntity)]
#[table(name = "Account", partition_key = "{upn}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct Account {
    upn: String,
    id: Uuid,
    currency_id: Uuid,
    name: String,
    initial_balance: f64,
}

/// ExpenseReader.getAll: every expense of one of the user's accounts.
fn account_expenses(owner_account: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", owner_account)).unwrap()
}

/// ExpenseReader.get: one expense, found by its Id property inside the account's partition.
fn one_expense(owner_account: &str, id: &str) -> Query {
    Query::filter(&format!(
        "(PartitionKey eq '{}') and (Id eq guid'{}')",
        owner_account, id
    ))
    .unwrap()
}

/// AccountReader.getAll: the user's accounts.
fn user_accounts(upn: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", upn)).unwrap()
}

/// AddExpense (Insert) and DeleteExpense (ForceDelete: both keys, ETag `*`).
async fn expense_writes<B: Backend>(
    expenses: &Table<'_, B, Expense>,
    expense: &Expense,
    key: &<Expense as TableEntity>::Key,
) {
    let _ = expenses.insert(expense).await;
    let _ = expenses.delete(key, IfMatch::Any).await;
}

/// AddAccount (Insert).
async fn add_account<B: Backend>(accounts: &Table<'_, B, Account>, account: &Account) {
    let _ = accounts.insert(account).await;
}

/// The reads, as the API functions run them.
async fn expense_reads<B: Backend>(backend: &B, owner_account: &str, id: &str, upn: &str) {
    let _ = backend.query_page(Expense::TABLE, &account_expenses(owner_account)).await;
    let _ = backend.query_page(Expense::TABLE, &one_expense(owner_account, id)).await;
    let _ = backend.query_page(Account::TABLE, &user_accounts(upn)).await;
}
