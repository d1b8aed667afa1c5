//! Simon Gilbert's blog sample "pessimistic concurrency with Azure Table storage" (C#, ASP.NET
//! Core MVC, WindowsAzure.Storage). Sources (commit 339ff6e647db41a42ad848d7f4418c67a5f56c3e of
//! https://github.com/sahgilbert/pessimistic-concurrency-azure-table-storage-aspdotnetmvccore):
//! SimonGilbert.Blog.Models/Order.cs, SimonGilbert.Blog.Repositories/OrderRepository.cs,
//! SimonGilbert.Blog.Services/OrderService.cs and SimonGilbert.Blog/Startup.cs.
//!
//! Table `Orders`. An order is keyed PartitionKey = the account id, RowKey = the order id, and
//! holds one property, `Status`, the name of an `OrderStatus` value. Create uploads an empty
//! `{orderId}.lck` blob (the lock) and Inserts the order. Update acquires a 15-second lease on
//! that blob, Retrieves the order by both keys, sets the status and Replaces it (with the ETag
//! the Retrieve returned), then releases the lease. Get is a Retrieve by both keys. There are
//! no queries, scans or deletes.

use table_runtime::{Backend, ETag, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "Orders", partition_key = "{account_id}", row_key = "{order_id}")]
#[table(rename_all = "PascalCase")]
struct Order {
    /// The customer account the order belongs to.
    account_id: String,
    /// The order's id, chosen by the caller.
    order_id: String,
    /// `OrderStatus.ToString()` (`Created`, then the states Update moves it to).
    status: String,
}

/// OrderService.Create -> OrderRepository.Create: `TableOperation.Insert` (after the lock blob
/// is uploaded).
async fn create<B: Backend>(orders: &Table<'_, B, Order>, order: &Order) {
    let _ = orders.insert(order).await;
}

/// OrderService.Get -> OrderRepository.Get: `TableOperation.Retrieve(accountId, orderId)`.
async fn get<B: Backend>(orders: &Table<'_, B, Order>, key: &<Order as TableEntity>::Key) {
    let _ = orders.get(key).await;
}

/// OrderService.Update, under the blob lease: Retrieve, set `Status`, `TableOperation.Replace`
/// of the entity read (so conditioned on its ETag).
async fn update_status<B: Backend>(
    orders: &Table<'_, B, Order>,
    key: &<Order as TableEntity>::Key,
    changed: &Order,
    etag: ETag,
) {
    let _ = orders.get(key).await;
    let _ = orders.replace(changed, IfMatch::ETag(etag)).await;
}
