//! The rules of `table-lint data`, one file each: what the data of a live table shows about its
//! key design. They judge the statistics gathered in one pass ([`crate::data::collect`]) and,
//! with designs given, the comparison with them ([`crate::data::drift`]).

pub mod awkward_key_characters;
pub mod guid_keys_ranged;
pub mod index_copy_drift;
pub mod keys_outside_design;
pub mod mixed_case_keys;
pub mod newest_partition_takes_writes;
pub mod partition_skew;
pub mod property_drift;
pub mod undiscriminated_types;
pub mod unpadded_numbers;
pub mod write_heat;

/// Percent of `part` in `whole`, one decimal.
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// A Unix second as an ISO 8601 UTC time.
pub fn utc(second: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(second)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| format!("{second} (Unix seconds)"))
}
