//! DEFRA RPA "Manual Invoice Templates" invoice API (C#, Azure.Data.Tables, ASP.NET minimal
//! API): the invoices that Rural Payments Agency staff raise by hand for a funding scheme, each
//! with payment request headers and their lines. Sources (commit
//! 179263bef315d378d17176bdfb02a5723fc9134d of https://github.com/DEFRA/rpa-mit-invoice,
//! before the move to Cosmos DB):
//! https://github.com/DEFRA/rpa-mit-invoice/blob/179263bef315d378d17176bdfb02a5723fc9134d/EST.MIT.Invoice.Api/Services/TableService.cs
//! with EST.MIT.Invoice.Api/Services/Models/InvoiceEntity.cs,
//! EST.MIT.Invoice.Api/Endpoints/InvoiceEndpoints.cs and EST.MIT.Invoice.Api/Models/*.cs.
//!
//! One table (its name from Storage:TableName): PartitionKey = the invoice's SchemeType,
//! RowKey = the invoice's Id, both from the request body; properties Data (the whole invoice
//! as JSON: headers, each with its invoice lines and appendix references), Status, CreatedBy,
//! UpdatedBy. GET /invoice/{scheme}/{invoiceId} reads by keys; POST reads the keys and then
//! AddEntityAsync; PUT reads the keys and then UpdateEntityAsync(ETag.All, Replace).

use table_runtime::{Backend, IfMatch, Table, TableEntity};

#[derive(TableEntity)]
#[table(name = "invoices", partition_key = "{scheme_type}", row_key = "{id}")]
#[table(rename_all = "PascalCase")]
struct InvoiceRow {
    /// The funding scheme the invoice belongs to.
    #[table(key_only)]
    scheme_type: String,
    /// The invoice id the caller supplies.
    #[table(key_only)]
    id: String,
    /// JsonSerializer.Serialize(invoice): every header and line, unbounded.
    data: String,
    status: String,
    created_by: String,
    updated_by: String,
}

/// GetInvoice: GetEntityAsync(scheme, invoiceId); also the existence check of create and update.
async fn get_invoice<B: Backend>(invoices: &Table<'_, B, InvoiceRow>, key: &<InvoiceRow as TableEntity>::Key) {
    let _ = invoices.get(key).await;
}

/// CreateInvoice: AddEntityAsync.
async fn create_invoice<B: Backend>(invoices: &Table<'_, B, InvoiceRow>, row: &InvoiceRow) {
    let _ = invoices.insert(row).await;
}

/// UpdateInvoice: UpdateEntityAsync(entity, ETag.All, Replace).
async fn update_invoice<B: Backend>(invoices: &Table<'_, B, InvoiceRow>, row: &InvoiceRow) {
    let _ = invoices.replace(row, IfMatch::Any).await;
}
