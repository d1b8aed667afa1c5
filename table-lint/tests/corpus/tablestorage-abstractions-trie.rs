//! TableStorage.Abstractions.Trie (C#, WindowsAzure.Storage through TableStorage.Abstractions):
//! a "begins with" (type-ahead) index in Azure Table Storage, one table per index. Source:
//! https://github.com/giometrix/TableStorage.Abstractions.Trie/blob/06cb74fa377a16585a6adc610c89a86dc31cfdec/src/TableStorage.Abstractions.Trie/TrieSearch.cs
//! and, at the same commit, TrieEntry.cs, TrieSearchOptions.cs, MultiIndexTrieSearch.cs, README.md.
//!
//! IndexAsync(data, index): the index text (lower-cased unless case-sensitive) is cut into its
//! prefixes of length MinimumIndexLength (default 1) to MaximumIndexLength (default 20); for each
//! prefix a TrieEntry `{Index = prefix, Key = id, Data = data}` is inserted with PartitionKey =
//! the prefix and RowKey = the id (TableEntityConverters stores `Data` as JSON), all prefixes in
//! parallel, 409 ignored. FindAsync(term, pageSize = 10): the first page of the term's partition.
//! DeleteAsync deletes (prefix, id) for every prefix with ETag `*`; ReindexAsync deletes the old
//! prefixes and indexes the new text. GetIndexSizeAsync counts the table's records;
//! GetAllIndexEntriesAsync reads them all. MultiIndexTrieSearch runs several indexes (full name,
//! last name, e-mail in the README) side by side and de-duplicates in memory.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "CustomerFullNameIndex", partition_key = "{term}", row_key = "{key}")]
#[table(rename_all = "PascalCase")]
struct TrieEntry {
    /// A prefix of the indexed text, 1 to 20 characters.
    #[table(max_len = 20)]
    term: String,
    /// The indexed object's id property, as a string.
    key: String,
    /// The whole indexed object, as JSON.
    data: String,
}

/// FindAsync(term, pageSize): GetByPartitionKeyPagedAsync, the first page.
fn find(term: &str, page_size: usize) -> Query {
    Query::filter(&format!("PartitionKey eq '{}'", term)).unwrap().top(page_size)
}

/// GetIndexSizeAsync (GetRecordCountAsync) and GetAllIndexEntriesAsync (GetAllRecordsAsync).
async fn whole_index<B: Backend>(backend: &B) {
    let _ = backend.query_page(TrieEntry::TABLE, &Query::all()).await;
}

/// IndexAsync: one insert per prefix; DeleteAsync: one delete per prefix.
async fn index_and_delete<B: Backend>(
    entries: &Table<'_, B, TrieEntry>,
    copies: &[TrieEntry],
    keys: &[<TrieEntry as TableEntity>::Key],
) {
    for copy in copies {
        let _ = entries.insert(copy).await;
    }
    for key in keys {
        let _ = entries.delete(key, IfMatch::Any).await;
    }
}
