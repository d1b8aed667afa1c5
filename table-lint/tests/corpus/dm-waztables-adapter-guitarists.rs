//! dm-waztables-adapter (Ruby): a DataMapper adapter over the waz-storage/waz-tables gem, shown
//! with the `Guitarist` model of its README and functional spec. Source:
//! https://github.com/jpgarcia/dm-waztables-adapter/blob/103f32744bb1ed20b18021974a2ec7ad473061ff/lib/dm-waztables-adapter/adapter.rb
//! with README.markdown (model and usage) and spec/functional_spec.rb at the same commit.
//!
//! Each DataMapper model is one table named after its storage name (`guitarists`), and every
//! row of that table gets the storage name again as its PartitionKey: the adapter has no way to
//! choose another, as its README admits. The RowKey is the model's key property (`id`, a
//! String), and `create` also copies every attribute into the entity, the key included, so `id`
//! is stored a second time as an ordinary property. `read` turns DataMapper conditions into a
//! `$filter` over those ordinary properties (`(id eq '1')`, `(age ge 50)`, joined by `and`),
//! with `$top` for a limit and no continuation, and never names PartitionKey or RowKey: so
//! `Guitarist.get('1')`, `Guitarist.all` and `Guitarist.all(:age.gte => 50)` are all queries
//! over the whole table. `update` reads the entity by its keys and writes it back
//! (waz-tables' update_entity, no ETag); `delete` removes each resource by its keys, after
//! `destroy!` on a collection has read that collection with the same kind of query.

use table_runtime::{Backend, IfMatch, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "guitarists", partition_key = "guitarists", row_key = "{row_id}")]
struct Guitarist {
    /// The DataMapper key (`property :id, String, :key => true`) as the RowKey.
    row_id: String,
    /// The same key copied into the entity as property `id` by `create`, which merges every
    /// attribute.
    id: String,
    name: String,
    /// A Ruby Integer, which waz-tables writes as Edm.Int32.
    age: i32,
}

/// `Guitarist.create(...)` and `yngwie.save` on a new resource: insert_entity.
async fn create<B: Backend>(guitarists: &Table<'_, B, Guitarist>, g: &Guitarist) {
    let _ = guitarists.insert(g).await;
}

/// `Guitarist.get('1')`: DataMapper reads through the adapter's `read`, which filters on the
/// copied `id` property, not on RowKey.
async fn get_by_id<B: Backend>(guitarists: &Table<'_, B, Guitarist>) {
    let q = Query::filter("(id eq '1')").unwrap();
    let _ = guitarists.query_page(&q, None).await;
}

/// `Guitarist.all`: no conditions, so an empty expression; one page, no continuation.
async fn all<B: Backend>(guitarists: &Table<'_, B, Guitarist>) {
    let q = Query::all();
    let _ = guitarists.query_page(&q, None).await;
}

/// `ritchie.age = 66; ritchie.save`: get_entity by the two keys, then update_entity.
async fn update<B: Backend>(
    guitarists: &Table<'_, B, Guitarist>,
    key: &<Guitarist as TableEntity>::Key,
    changed: &Guitarist,
) {
    let _ = guitarists.get(key).await;
    let _ = guitarists.replace(changed, IfMatch::Any).await;
}

/// `Guitarist.all(:age.gte => 50).destroy!`: the condition becomes `(age ge 50)` over the
/// table, then every row found is deleted by its keys, one request each.
async fn destroy_older<B: Backend>(guitarists: &Table<'_, B, Guitarist>) {
    let q = Query::filter("(age ge 50)").unwrap();
    let page = guitarists.query_page(&q, None).await.unwrap();
    for g in &page.items {
        let _ = guitarists.delete_value(g, IfMatch::Any).await;
    }
}

/// `Guitarist.all.destroy!` in the spec: every row read and deleted one by one.
async fn destroy_all<B: Backend>(guitarists: &Table<'_, B, Guitarist>) {
    let q = Query::all();
    let page = guitarists.query_page(&q, None).await.unwrap();
    for g in &page.items {
        let _ = guitarists.delete_value(g, IfMatch::Any).await;
    }
}
