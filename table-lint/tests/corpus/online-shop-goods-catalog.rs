//! online-shop (JavaScript, Express and Nuxt, @azure/data-tables): a student web shop whose
//! catalogue lives in Azure Tables (Azurite in the repository's configuration). Sources at
//! commit fd2b37b80650c8eccd4ca0b8ad6097ec8a055ae3 of https://github.com/CS-21-1-Totska-Sofiia/online-shop:
//! https://github.com/CS-21-1-Totska-Sofiia/online-shop/blob/fd2b37b80650c8eccd4ca0b8ad6097ec8a055ae3/server/services/AzureEntityService.js
//! with server/controllers/{CategoryController,GoodController}.js, server/router.js and the
//! client's stores/{category,good}.js.
//!
//! Two tables, loaded outside the code. `goods`: PartitionKey = the good's category, RowKey =
//! its id; properties name, price, imgUrl, thumbImgUrl. GET /goods/:category lists the
//! partition (`odata\`PartitionKey eq ${category}\``); GET /goods/:partitionKey/:rowKey reads
//! one good with getEntity, the client building that URL from the listed row's two keys.
//! `categories`: rows with name and parentCategory (`root` for the top level), read whole by
//! GET /categories (`listEntities()` with no filter) and turned into a tree by the client.

use table_runtime::{Backend, Query, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "goods", partition_key = "{category}", row_key = "{id}")]
struct Good {
    /// The category's name (`laptops`, `iphone`, ...).
    #[table(key_only, max_len = 64)]
    category: String,
    #[table(key_only, max_len = 64)]
    id: String,
    #[table(max_len = 200)]
    name: String,
    price: f64,
    #[table(rename = "imgUrl", max_len = 500)]
    img_url: String,
    #[table(rename = "thumbImgUrl", max_len = 500)]
    thumb_img_url: String,
}

/// The categories' keys are not in the code; the translation keys them by parent and name.
#[derive(TableEntity)]
#[table(name = "categories", partition_key = "{parent_category}", row_key = "{name}")]
struct Category {
    #[table(rename = "parentCategory", max_len = 64)]
    parent_category: String,
    #[table(max_len = 64)]
    name: String,
}

/// CategoryController.getAll: the whole categories table.
async fn all_categories<B: Backend>(categories: &Table<'_, B, Category>) {
    let _ = categories.query_all(&Query::all()).await;
}

/// GoodController.getByCategory: one category's partition.
async fn goods_of_category<B: Backend>(backend: &B, category: &str) {
    let q = Query::filter(&format!("PartitionKey eq '{}'", category)).unwrap();
    let _ = backend.query_page(Good::TABLE, &q).await;
}

/// GoodController.getOne: `getEntity(partitionKey, rowKey)`.
async fn one_good<B: Backend>(goods: &Table<'_, B, Good>, key: &<Good as TableEntity>::Key) {
    let _ = goods.get(key).await;
}
