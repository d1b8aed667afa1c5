use table_runtime::TableEntity;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Events",
    partition_key = "{tenant}",
    row_key = "{at:ticks}_{event_id}"
)]
#[table(rename_all = "PascalCase")]
pub struct Event {
    pub tenant: String,
    pub at: OffsetDateTime,
    pub event_id: Uuid,
    pub level: String,
    pub message: String,
}

fn main() {
    let at = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    let e = Event {
        tenant: "contoso".into(),
        at,
        event_id: Uuid::from_u128(7),
        level: "info".into(),
        message: "started".into(),
    };
    assert_eq!(e.partition_key().unwrap(), "contoso");
    assert_eq!(
        e.row_key().unwrap(),
        format!("{:019}_00000000-0000-0000-0000-000000000007", 638_355_968_000_000_000u64)
    );
    assert_eq!(Event::from_entity(&e.to_entity().unwrap()).unwrap(), e);
    let key = EventKey::parse(&e.partition_key().unwrap(), &e.row_key().unwrap()).unwrap();
    assert_eq!(key, e.key());
    let _ = Event::point_query("contoso", at, Uuid::nil()).unwrap();
    let _ = Event::range_by_at("contoso", at..).unwrap();
    let _ = Event::range_by_event_id("contoso", at, Uuid::nil()..).unwrap();
}
