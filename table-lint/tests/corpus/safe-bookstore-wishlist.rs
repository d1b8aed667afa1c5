//! SAFE-Stack BookStore sample (F#, Azure.Data.Tables): each user's wish list of books in the
//! `book` table. Source:
//! https://github.com/SAFE-Stack/SAFE-BookStore/blob/2d3dddb944df0d0576bcee0ffe8d93c5522f91b1/src/Server/Storage.fs
//! and src/Server/Jobs.fs (the reset job) at the same commit.
//!
//! One row per book on a user's list: PartitionKey = the user name, RowKey = the book title with
//! the characters `/ \ # ?` filtered out (`BookTitle.isAllowed`). Properties Title, Authors,
//! ImageLink, Link. Loading a list reads the user's partition; saving a list reads the partition,
//! deletes every existing row in one transaction, then UpsertReplaces the new list in a second
//! transaction. A Quartz job resets the demo user's list every two hours the same way.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "book", partition_key = "{user_name}", row_key = "{title}")]
#[table(rename_all = "PascalCase")]
struct BookEntity {
    /// `wishList.UserName.Value`.
    user_name: String,
    /// The RowKey is the title without `/ \ # ?`; the stored Title property keeps them.
    title: String,
    authors: String,
    image_link: String,
    link: String,
}

/// getWishListFromDB, and the first step of saveWishListToDB:
/// `table.Query<BookEntity>($"PartitionKey eq '{userName.Value}'")`.
fn wish_list(user_name: &str) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", user_name)).unwrap()
}

/// saveWishListToDB: one transaction deleting the existing rows, then one transaction of
/// UpsertReplace actions for the new list (both in the user's partition).
async fn save_wish_list<B: Backend>(backend: &B, existing: &[BookEntity], books: &[BookEntity]) {
    let mut delete_all = table_runtime::Transaction::new();
    for book in existing {
        let _ = delete_all.delete(book, table_runtime::IfMatch::Any);
    }
    let _ = delete_all.commit(backend).await;
    let mut insert_all = table_runtime::Transaction::new();
    for book in books {
        let _ = insert_all.upsert(book);
    }
    let _ = insert_all.commit(backend).await;
}

/// The same upsert, one book at a time, as a typed table write.
async fn save_book<B: Backend>(books: &Table<'_, B, BookEntity>, book: &BookEntity) {
    let _ = books.upsert(book).await;
}
