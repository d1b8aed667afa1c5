//! `TableEntity::design()`: each design described as text, snapshotted, and checked against
//! what the generated code does with the same sample values (keys, index copies, queries).

use std::fmt;
use std::str::FromStr;

use table_runtime::design::{SampleBounds, SampleValue};
use table_runtime::key::encode::KeyEncodingError;
use table_runtime::key::segment::{Follows, KeySegment, parse_verbatim, push_verbatim};
use table_runtime::{ConversionError, DateTime, Entity, TableEntity};
use time::OffsetDateTime;
use uuid::Uuid;

/// Verbatim keys, an entity type, an index in the partition and a projected one elsewhere.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(entity_type = "Employee", version = 2, rename_all = "PascalCase")]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_last_name",
    partition_key = "lastname_{department}",
    row_key = "{last_name}_{employee_id:06}",
    project(first_name, last_name),
    eventual
))]
struct Employee {
    #[table(max_len = 64)]
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    email: String,
    first_name: String,
    last_name: String,
    age: i32,
}

/// Escaped text segments, a signed integer at its type's width and a GUID.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Contacts",
    partition_key = "{company:escaped}",
    row_key = "{last_name:escaped}_{first_name:escaped}_{rank}"
)]
#[table(index(name = "by_id", partition_key = "id_{contact_id}", row_key = "contact"))]
struct Contact {
    company: String,
    last_name: String,
    first_name: String,
    rank: i16,
    contact_id: Uuid,
}

/// Newest first: inverted ticks, so `latest` is generated; a date bucket in an index.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "SensorReadings",
    partition_key = "{device_id}",
    row_key = "{taken_at:inverted_ticks}"
)]
#[table(index(
    name = "by_day",
    partition_key = "day_{taken_at:date}",
    row_key = "{device_id}_{taken_at:ticks}"
))]
struct Reading {
    device_id: String,
    taken_at: OffsetDateTime,
    temperature: f64,
}

/// A two-letter country code: a key segment of a type of its own, stored as text.
#[derive(Debug, Clone, PartialEq)]
struct Country(String);

impl KeySegment for Country {
    fn push_key(&self, out: &mut String, follows: Follows<'_>) -> Result<(), KeyEncodingError> {
        push_verbatim(out, &self.0, follows)
    }
    fn parse_key<'t>(
        text: &'t str,
        follows: Follows<'_>,
    ) -> Result<(Self, &'t str), KeyEncodingError> {
        let (code, rest) = parse_verbatim(text, follows)?;
        Ok((Country(code.to_owned()), rest))
    }
}

impl fmt::Display for Country {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Country {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(Country(s.to_owned()))
    }
}

/// A user type in the keys (no sample: its placeholder stays), a `DateTime` in ISO form, and
/// a key whose separator the text samples hold (`a`), so those examples fail with the reason.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Stores",
    partition_key = "{country}_{city}",
    row_key = "shop_{opened:iso}_{store_no:04}"
)]
#[table(index(name = "by_manager", row_key = "mgr_{manager}a{store_no:04}"))]
#[table(allow(TK005, reason = "store numbers stay below 10,000"))]
struct Shop {
    #[table(as_string)]
    country: Country,
    city: String,
    opened: DateTime,
    store_no: u16,
    manager: String,
}

/// Anything in the Contacts table's company partitions.
#[derive(Debug, Clone, PartialEq, TableEntity)]
enum ContactsEntity {
    Contact(Contact),
    Note(Note),
}

/// A note on a company, beside its contacts.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Contacts",
    partition_key = "{company:escaped}",
    row_key = "note_{at:ticks}"
)]
struct Note {
    company: String,
    at: DateTime,
    text: String,
}

/// A `TableEntity` written by hand: the text tells what its constants say.
struct Manual;

impl TableEntity for Manual {
    const TABLE: &'static str = "Manual";
    type Key = table_runtime::RawKey;
    const ENTITY_TYPE: Option<&'static str> = Some("Manual");
    fn partition_key(&self) -> Result<String, ConversionError> {
        Ok("p".into())
    }
    fn row_key(&self) -> Result<String, ConversionError> {
        Ok("r".into())
    }
    fn to_entity(&self) -> Result<Entity, ConversionError> {
        Ok(Entity::new("p", "r"))
    }
    fn from_entity(_: &Entity) -> Result<Self, ConversionError> {
        Ok(Manual)
    }
}

/// The sample of a field with no declared bounds.
fn sample<T: SampleValue>(field: &str) -> T {
    T::sample(field, 1)
}

/// The example a line of the text gives for a key: what follows `label: template -> `.
fn example<'t>(text: &'t str, label: &str, template: &str) -> &'t str {
    let start = format!("{label}: {template} -> ");
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix(start.as_str()))
        .unwrap_or_else(|| panic!("no `{start}` line in:\n{text}"))
}

/// The result line of a query call in the text (the line after the call).
fn query_result<'t>(text: &'t str, call: &str) -> &'t str {
    let mut lines = text.lines();
    lines
        .find(|l| l.trim_start() == call)
        .and_then(|_| lines.next())
        .map(str::trim_start)
        .unwrap_or_else(|| panic!("no call `{call}` in:\n{text}"))
}

#[test]
fn verbatim_design_with_indexes() {
    insta::assert_snapshot!(Employee::design());
}

#[test]
fn escaped_design() {
    insta::assert_snapshot!(Contact::design());
}

#[test]
fn inverted_ticks_design_with_latest() {
    insta::assert_snapshot!(Reading::design());
}

#[test]
fn user_types_and_keys_the_samples_cannot_make() {
    insta::assert_snapshot!(Shop::design());
}

#[test]
fn enum_design_lists_its_variants() {
    insta::assert_snapshot!(ContactsEntity::design());
}

#[test]
fn hand_written_impl_is_outlined() {
    assert_eq!(
        Manual::design(),
        "a hand-written TableEntity (table Manual)\nentity type: Manual\n"
    );
}

#[test]
fn examples_are_the_keys_the_entity_writes() {
    let text = Employee::design();
    let ann = Employee {
        department: String::sample_within(
            "department",
            1,
            SampleBounds {
                max_len: Some(64),
                ..Default::default()
            },
        ),
        employee_id: u32::sample_within(
            "employee_id",
            1,
            SampleBounds {
                max: Some(999_999),
                ..Default::default()
            },
        ),
        email: sample("email"),
        first_name: sample("first_name"),
        last_name: sample("last_name"),
        age: 0,
    };
    assert_eq!(
        example(&text, "PartitionKey", "{department}"),
        ann.partition_key().unwrap()
    );
    assert_eq!(
        example(&text, "RowKey", "empid_{employee_id:06}"),
        ann.row_key().unwrap()
    );
    let copies = ann.index_entities().unwrap();
    assert_eq!(copies.len(), 2);
    assert_eq!(
        example(&text, "RowKey", "email_{email}"),
        copies[0].entity.row_key
    );
    assert_eq!(
        example(&text, "PartitionKey", "lastname_{department}"),
        copies[1].entity.partition_key
    );
    assert_eq!(
        example(&text, "RowKey", "{last_name}_{employee_id:06}"),
        copies[1].entity.row_key
    );

    // Each query line is what calling the constructor with the samples returns.
    let q = Employee::range_by_employee_id("Department1", 42..57).unwrap();
    assert_eq!(
        query_result(&text, "range_by_employee_id(\"Department1\", 42..57)"),
        format!("range query: {}", q.filter())
    );
    let q = Employee::by_last_name_point_query("Department1", "LastName1", 42).unwrap();
    assert_eq!(
        query_result(
            &text,
            "by_last_name_point_query(\"Department1\", \"LastName1\", 42)"
        ),
        format!("point query: {}", q.filter())
    );
    // A range over verbatim text that more key follows says how it keeps the exact values.
    let q =
        Employee::by_last_name_range_by_last_name("Department1", "LastName1".."LastName2").unwrap();
    let check = q.row_key_check().unwrap().describe();
    assert!(text.contains(&format!("    then {check}\n")), "{text}");
}

#[test]
fn escaped_and_time_examples_are_the_keys_the_entity_writes() {
    let text = Contact::design();
    let contact = Contact {
        company: sample("company"),
        last_name: sample("last_name"),
        first_name: sample("first_name"),
        rank: sample("rank"),
        contact_id: sample("contact_id"),
    };
    assert_eq!(
        example(
            &text,
            "RowKey",
            "{last_name:escaped}_{first_name:escaped}_{rank}"
        ),
        contact.row_key().unwrap()
    );
    assert_eq!(
        example(&text, "PartitionKey", "id_{contact_id}"),
        contact.index_entities().unwrap()[0].entity.partition_key
    );

    let text = Reading::design();
    let reading = Reading {
        device_id: sample("device_id"),
        taken_at: sample("taken_at"),
        temperature: 20.5,
    };
    assert_eq!(
        example(&text, "RowKey", "{taken_at:inverted_ticks}"),
        reading.row_key().unwrap()
    );
    let copy = &reading.index_entities().unwrap()[0].entity;
    assert_eq!(
        example(&text, "PartitionKey", "day_{taken_at:date}"),
        copy.partition_key
    );
    assert_eq!(
        example(&text, "RowKey", "{device_id}_{taken_at:ticks}"),
        copy.row_key
    );
    let latest = Reading::latest("DeviceId1", 10).unwrap();
    assert_eq!(
        query_result(&text, "latest(\"DeviceId1\", 10)"),
        format!("partition scan, first 10: {}", latest.filter())
    );
}

#[test]
fn a_key_the_samples_cannot_make_shows_the_error_and_a_user_type_its_placeholder() {
    let text = Shop::design();
    // The separator `a` is in the text sample `Manager1`: the same error a write would give.
    let shop = Shop {
        country: Country("NZ".into()),
        city: sample("city"),
        opened: sample("opened"),
        store_no: sample("store_no"),
        manager: sample("manager"),
    };
    let err = shop.index_entities().unwrap_err();
    assert_eq!(
        example(&text, "RowKey", "mgr_{manager}a{store_no:04}"),
        format!("error: {err}")
    );
    // The key with a user type keeps its placeholder and builds the rest for real.
    assert_eq!(
        example(&text, "PartitionKey", "{country}_{city}"),
        "{country}_City1"
    );
    assert_eq!(
        example(&text, "RowKey", "shop_{opened:iso}_{store_no:04}"),
        shop.row_key().unwrap()
    );
    assert!(
        text.contains(
            "  partition_query({country}, \"City1\")\n    not called: no sample for `{country}`, a key field of a type of its own\n"
        ),
        "{text}"
    );
}

#[test]
fn the_text_is_stable_and_free_of_paths() {
    for text in [
        Employee::design(),
        Contact::design(),
        Reading::design(),
        Shop::design(),
        ContactsEntity::design(),
    ] {
        assert!(!text.contains("::") && !text.contains(".rs"), "{text}");
        assert!(text.ends_with('\n'));
    }
    assert_eq!(Employee::design(), Employee::design());
    let union = ContactsEntity::design();
    for line in Note::design().lines() {
        assert!(union.contains(&format!("  {line}\n")), "{union}");
    }
}
