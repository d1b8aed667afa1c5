//! MasterProjectScada (C#, Service Fabric services, WindowsAzure.Storage): a student SCADA
//! system for a power network model (acquisition, processing, alarms, a WPF operator UI). In the
//! Service Fabric version the measurement history moved from Entity Framework to Table storage.
//! Sources (commit 20618275438c01a0525a7e3fdd02b2de085a259d of
//! https://github.com/majadj96/MasterProjectScada):
//! https://github.com/majadj96/MasterProjectScada/blob/20618275438c01a0525a7e3fdd02b2de085a259d/ServiceFabricApp/MeasurementRepositoryService/MeasurementTableRepository.cs,
//! with ServiceFabricApp/RepositoryCore/Measurement.cs,
//! ServiceFabricApp/BackEndProcessorService/BackEndPocessingModule.cs and
//! ServiceFabricApp/ScadaCommon/ServiceProxies/MeasurementRepositoryProxy.cs.
//!
//! One table, `MeasurementsTable`. Every row has PartitionKey `Measurement`; the RowKey is the
//! UTC time the row was built, as `MM.dd.yyyy.hh:mm:ss.fff.tt` (month first, 12-hour clock,
//! AM/PM last). Properties: Id, Gid (the measured point's global id, a long), Value (int) and
//! ChangedTime (local DateTime.Now for analog points, the point's timestamp for digital ones).
//!
//! Writes: each processing cycle, BackEndPocessingModule.Process builds one Measurement per
//! polled point in a loop (each constructor calling DateTime.UtcNow), then AddMeasurements
//! inserts them one by one. Reads: GetAllMeasurementsByGid and GetAllMeasurementsByTime are
//! LINQ queries on the `Measurement` partition that test Gid, and Gid and ChangedTime; the
//! client sends those tests as the filter and reads every page.

use table_runtime::{Backend, Query, Table, TableEntity};
use time::OffsetDateTime;

#[derive(TableEntity)]
#[table(name = "MeasurementsTable", partition_key = "Measurement", row_key = "{written_at:iso}")]
#[table(rename_all = "PascalCase")]
struct Measurement {
    /// `DateTime.UtcNow` in the constructor; only in the key in the original, and written there
    /// as `MM.dd.yyyy.hh:mm:ss.fff.tt`.
    written_at: OffsetDateTime,
    id: i32,
    gid: i64,
    value: i32,
    changed_time: Option<OffsetDateTime>,
}

/// AddMeasurements: `TableOperation.Insert` of each row of the cycle, one after another.
async fn add_measurements<B: Backend>(table: &Table<'_, B, Measurement>, cycle: &[Measurement]) {
    for row in cycle {
        let _ = table.insert(row).await;
    }
}

/// GetAllMeasurementsByGid: the partition, filtered on Gid, every page.
async fn by_gid<B: Backend>(backend: &B, gid: i64) {
    let q = Query::filter(&format!("(PartitionKey eq 'Measurement') and (Gid eq {}L)", gid)).unwrap();
    let _ = backend.query_page(Measurement::TABLE, &q).await;
}

/// GetAllMeasurementsByTime: the partition, filtered on Gid and a ChangedTime window.
async fn by_time<B: Backend>(backend: &B, gid: i64, start: &str, end: &str) {
    let q = Query::filter(&format!(
        "(PartitionKey eq 'Measurement') and (((Gid eq {}L) and (ChangedTime gt datetime'{}')) and (ChangedTime lt datetime'{}'))",
        gid, start, end
    ))
    .unwrap();
    let _ = backend.query_page(Measurement::TABLE, &q).await;
}
