//! FAQ Plus (C#, Teams bot, Microsoft.WindowsAzure.Storage): the escalation tickets the bot
//! creates when a user asks an expert. Source:
//! https://github.com/OfficeDev/microsoft-teams-apps-faqplus/blob/af6f093befedbc631ff14890810aa168aeab9481/Source/Microsoft.Teams.Apps.FAQPlusPlus.Common/Providers/TicketsProvider.cs
//!
//! Every ticket: PartitionKey the constant `TicketInfo`, RowKey the ticket id (a GUID). Writes are
//! InsertOrReplace; a ticket is read by its id; the experts' lists are `Status eq 3` (resolved)
//! or `Status ne 3` (open), without a PartitionKey.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "Tickets", partition_key = "TicketInfo", row_key = "{ticket_id}")]
#[table(rename_all = "PascalCase")]
struct TicketEntity {
    ticket_id: String,
    /// 0 unassigned, 1 assigned, 2 pending, 3 resolved.
    status: i32,
    title: String,
    description: Option<String>,
    requester_name: String,
    requester_user_principal_name: String,
    requester_conversation_id: String,
    assigned_to_name: Option<String>,
    assigned_to_object_id: Option<String>,
    date_created: OffsetDateTime,
    date_assigned: Option<OffsetDateTime>,
    date_closed: Option<OffsetDateTime>,
    sme_card_activity_id: Option<String>,
    sme_thread_conversation_id: Option<String>,
}

/// GetTicketAsync: `TableOperation.Retrieve(PartitionKey, ticketId)`.
fn ticket(ticket_id: &str) -> Query {
    Query::filter(&format!("PartitionKey eq 'TicketInfo' and RowKey eq '{}'", ticket_id)).unwrap()
}

/// GetTicketsAsync(isResolved: true).
fn resolved_tickets() -> Query {
    Query::filter("Status eq 3").unwrap()
}

/// GetTicketsAsync(isResolved: false).
fn open_tickets() -> Query {
    Query::filter("Status ne 3").unwrap()
}

/// UpsertTicketAsync: InsertOrReplace.
async fn upsert_ticket<B: Backend>(tickets: &Table<'_, B, TicketEntity>, ticket: &TicketEntity) {
    let _ = tickets.upsert(ticket).await;
}
