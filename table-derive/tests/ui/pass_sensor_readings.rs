use table_runtime::TableEntity;
use time::OffsetDateTime;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "SensorReadings",
    partition_key = "{device_id}",
    row_key = "{taken_at:inverted_ticks}"
)]
struct Reading {
    device_id: String,
    taken_at: OffsetDateTime,
    temperature: f64,
    humidity: f64,
}

fn main() {
    let at = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    let r = Reading {
        device_id: "dev-1".into(),
        taken_at: at,
        temperature: 21.5,
        humidity: 0.5,
    };
    assert_eq!(Reading::TABLE, "SensorReadings");
    assert_eq!(r.row_key().unwrap().len(), 19);
    assert_eq!(Reading::from_entity(&r.to_entity().unwrap()).unwrap(), r);
    let key = ReadingKey::parse(&r.partition_key().unwrap(), &r.row_key().unwrap()).unwrap();
    assert_eq!(key.taken_at, at);
    let _ = Reading::latest("dev-1", 10).unwrap();
    let _ = Reading::range_by_taken_at("dev-1", at..).unwrap();
}
