//! Firepuma.Payments (C#, Azure Functions with MediatR, Azure.Data.Tables): a payments
//! microservice that client applications call to prepare PayFast payments and that receives
//! PayFast's notifications. Sources, at commit 7486d85abc8efaac8e94c8f979977f4fbd3ea5eb of
//! https://github.com/francoishill/Firepuma.Payments:
//! https://github.com/francoishill/Firepuma.Payments/blob/7486d85abc8efaac8e94c8f979977f4fbd3ea5eb/Firepuma.Payments.FunctionApp/Infrastructure/CommandHandling/TableModels/CommandExecutionEvent.cs
//! with Infrastructure/CommandHandling/PipelineBehaviors/AuditCommandsBehaviour.cs,
//! ServiceCollectionExtensions.cs, TableModels/PaymentNotificationTrace.cs,
//! PayFast/TableModels/PayFastOnceOffPayment.cs, PayFast/PayFastPaymentGateway.cs,
//! Commands/{AddPayment,UpdatePayment}.cs in Firepuma.Payments.FunctionApp,
//! Firepuma.Payments.Implementations/Config/{BasePaymentApplicationConfig,PayFastClientAppConfig}.cs,
//! Firepuma.Payments.FunctionAppManager/Queries/GetAllClientApps.cs and
//! Firepuma.Payments.Abstractions/ValueObjects/PaymentId.cs.
//!
//! PaymentsServiceCommandExecutions: every MediatR command is audited by a row with
//! PartitionKey = "" and RowKey = `(DateTime.MaxValue.Ticks - UtcNow.Ticks):D19` + `-` + a new
//! GUID, added before the handler runs and replaced (ETag *) with the outcome after it.
//! Payments: PartitionKey = the client application id, RowKey = the payment id the client sends
//! (the sample client makes it inverted ticks, `-`, a GUID); added by AddPayment, read by
//! GetEntity and replaced with its ETag by UpdatePayment.
//! PaymentNotificationTraces: PartitionKey = the application id, RowKey = inverted ticks, `-`, a
//! GUID; one row added per notification received.
//! PaymentApplicationConfigs: PartitionKey = the gateway, `PayFast`, RowKey = the application id;
//! added by the manager app, read by GetEntity for each payment, and listed whole by
//! `QueryAsync(c => true)` in the manager.

use table_runtime::{Backend, ETag, IfMatch, Query, Table, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(TableEntity)]
#[table(name = "PaymentsServiceCommandExecutions", partition_key = "", row_key = "{at:inverted_ticks}-{id}")]
#[table(rename_all = "PascalCase")]
struct CommandExecutionEvent {
    /// `DateTime.UtcNow` when the audit row is made; only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    /// `Guid.NewGuid().ToString()`; only in the RowKey.
    #[table(key_only)]
    id: Uuid,
    command_id: String,
    successful: Option<bool>,
    type_name: String,
    type_namespace: String,
    /// The command as JSON.
    payload: String,
    created_on: OffsetDateTime,
    /// The handler's response as JSON.
    result: Option<String>,
    error_message: Option<String>,
    error_stack_track: Option<String>,
    execution_time_in_seconds: f64,
    total_time_in_seconds: f64,
    updated: Option<OffsetDateTime>,
}

#[derive(TableEntity)]
#[table(name = "Payments", partition_key = "{application_id}", row_key = "{payment_id}")]
#[table(rename_all = "PascalCase")]
struct PayFastOnceOffPayment {
    /// Get-only over the PartitionKey, written by the serializer too.
    #[table(max_len = 64)]
    application_id: String,
    /// Get-only over the RowKey, written by the serializer too.
    #[table(max_len = 100)]
    payment_id: String,
    gateway_type_id: String,
    /// `New`, `Succeeded`, `Cancelled`, ...
    status: String,
    status_changed_on: Option<OffsetDateTime>,
    email_address: String,
    name_first: String,
    immediate_amount_in_rands: f64,
    item_name: String,
    item_description: String,
    payfast_payment_token: Option<String>,
}

#[derive(TableEntity)]
#[table(name = "PaymentNotificationTraces", partition_key = "{application_id}", row_key = "{at:inverted_ticks}-{id}")]
#[table(rename_all = "PascalCase")]
struct PaymentNotificationTrace {
    #[table(key_only, max_len = 64)]
    application_id: String,
    /// `DateTime.UtcNow` when the notification is handled; only in the RowKey.
    #[table(key_only)]
    at: OffsetDateTime,
    #[table(key_only)]
    id: Uuid,
    payment_id: String,
    gateway_internal_transaction_id: String,
    /// PayFast's notification as JSON.
    payment_notification_json: String,
    incoming_request_uri: String,
}

#[derive(TableEntity)]
#[table(name = "PaymentApplicationConfigs", partition_key = "PayFast", row_key = "{application_id}")]
#[table(rename_all = "PascalCase")]
struct PayFastClientAppConfig {
    /// `[IgnoreDataMember]` over the RowKey: only in the key.
    #[table(key_only, max_len = 64)]
    application_id: String,
    application_secret: String,
    is_sandbox: bool,
    merchant_id: String,
    merchant_key: String,
    pass_phrase: Option<String>,
}

/// AuditCommandsBehaviour: the row added before the command, then replaced with its outcome.
async fn audit<B: Backend>(audits: &Table<'_, B, CommandExecutionEvent>, row: &CommandExecutionEvent) {
    let _ = audits.insert(row).await;
    let _ = audits.replace(row, IfMatch::Any).await;
}

/// AddPayment; GetPaymentDetails (GetEntity); UpdatePayment (a trace added, the payment
/// replaced with the ETag it was read with).
async fn payment_flow<B: Backend>(
    payments: &Table<'_, B, PayFastOnceOffPayment>,
    traces: &Table<'_, B, PaymentNotificationTrace>,
    key: &<PayFastOnceOffPayment as TableEntity>::Key,
    payment: &PayFastOnceOffPayment,
    trace: &PaymentNotificationTrace,
    etag: &ETag,
) {
    let _ = payments.insert(payment).await;
    let _ = payments.get(key).await;
    let _ = traces.insert(trace).await;
    let _ = payments.replace(payment, IfMatch::ETag(etag.clone())).await;
}

/// GetApplicationConfigAsync (GetEntity("PayFast", app id)); the manager's AddClientAppTableRecord
/// (AddEntity, and on a 409 GetEntity of the row already there) and GetAllClientApps
/// (`c => true`, the whole table).
async fn configs<B: Backend>(
    apps: &Table<'_, B, PayFastClientAppConfig>,
    key: &<PayFastClientAppConfig as TableEntity>::Key,
    config: &PayFastClientAppConfig,
) {
    let _ = apps.get(key).await;
    if apps.insert(config).await.is_err() {
        let _ = apps.get(key).await;
    }
    let _ = apps.query_all(&Query::all()).await;
}
