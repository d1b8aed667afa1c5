//! Orleans `AzureTableGrainStorage`: one entity per grain and grain-state type.
//! Source: https://github.com/dotnet/orleans/blob/e558829b0b0f696e98c222438106e643fb53928f/src/Azure/Orleans.Persistence.AzureStorage/Providers/Storage/AzureTableStorage.cs
//!
//! PartitionKey: `SanitizeTableProperty($"{ServiceId}_{grainId}")` (`/ \ # ?` replaced by `_`;
//! a GrainId prints as `type/key`, so it becomes `type_key`).
//! RowKey: `SanitizeTableProperty(grainType)` (the state's type name).
//! The serialized state is split over binary properties `Data`, `Data1` ... `Data14` of at most
//! 64 KiB each (`MAX_DATA_CHUNKS_COUNT = 15`), and larger states are refused before the write.
//! Reads, writes and deletes are point operations with the ETag.

use table_runtime::TableEntity;

#[derive(TableEntity)]
#[table(name = "OrleansGrainState", partition_key = "{service_id}_{grain_id}", row_key = "{grain_type}")]
struct GrainStateEntity {
    /// `ClusterOptions.ServiceId`.
    service_id: String,
    /// The sanitized grain id (`type_key`).
    grain_id: String,
    /// The sanitized state type name.
    grain_type: String,
    #[table(rename = "Data")]
    data: Option<Vec<u8>>,
    #[table(rename = "Data1")]
    data1: Option<Vec<u8>>,
    #[table(rename = "Data2")]
    data2: Option<Vec<u8>>,
    #[table(rename = "Data3")]
    data3: Option<Vec<u8>>,
    #[table(rename = "Data4")]
    data4: Option<Vec<u8>>,
    #[table(rename = "Data5")]
    data5: Option<Vec<u8>>,
    #[table(rename = "Data6")]
    data6: Option<Vec<u8>>,
    #[table(rename = "Data7")]
    data7: Option<Vec<u8>>,
    #[table(rename = "Data8")]
    data8: Option<Vec<u8>>,
    #[table(rename = "Data9")]
    data9: Option<Vec<u8>>,
    #[table(rename = "Data10")]
    data10: Option<Vec<u8>>,
    #[table(rename = "Data11")]
    data11: Option<Vec<u8>>,
    #[table(rename = "Data12")]
    data12: Option<Vec<u8>>,
    #[table(rename = "Data13")]
    data13: Option<Vec<u8>>,
    #[table(rename = "Data14")]
    data14: Option<Vec<u8>>,
}
