//! The derive end to end: keys, conversion, key parsing and typed queries against the store.

use table_runtime::{QueryClass, Store, TableEntity};
use time::OffsetDateTime;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_last_name",
    partition_key = "lastname_{department}",
    row_key = "{last_name}_{employee_id}"
))]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
    first_name: String,
    last_name: String,
    age: i32,
}

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

fn ann() -> Employee {
    Employee {
        department: "Sales".into(),
        employee_id: 42,
        email: "ann@contoso.com".into(),
        first_name: "Ann".into(),
        last_name: "O'Neil".into(),
        age: 31,
    }
}

#[test]
fn keys_follow_the_templates() {
    let e = ann();
    assert_eq!(e.partition_key().unwrap(), "Sales");
    assert_eq!(e.row_key().unwrap(), "empid_000042");
    let entity = e.to_entity().unwrap();
    assert_eq!(
        entity.get("EmployeeId"),
        Some(&table_runtime::Value::Int64(42))
    );
    assert_eq!(Employee::from_entity(&entity).unwrap(), e);
    let key = EmployeeKey::parse("Sales", "empid_000042").unwrap();
    assert_eq!(key, e.key());
    let copies = e.index_entities().unwrap();
    assert_eq!(copies.len(), 2);
    assert_eq!(copies[0].entity.row_key, "email_ann@contoso.com");
    assert!(copies[0].index.same_partition);
    assert_eq!(copies[1].entity.partition_key, "lastname_Sales");
    assert_eq!(copies[1].entity.row_key, "O'Neil_0000000042");
}

#[test]
fn typed_queries_have_the_guides_filters() {
    let q = Employee::range_by_employee_id("Sales", 100..200).unwrap();
    assert_eq!(
        q.filter(),
        "PartitionKey eq 'Sales' and RowKey ge 'empid_000100' and RowKey lt 'empid_000200'"
    );
    assert_eq!(q.class(), QueryClass::RangeQuery);
    let p = Employee::point_query("Sales", 42).unwrap();
    assert_eq!(
        p.filter(),
        "PartitionKey eq 'Sales' and RowKey eq 'empid_000042'"
    );
    let s = Employee::by_email_email_starting_with("Sales", "a").unwrap();
    assert_eq!(
        s.filter(),
        "PartitionKey eq 'Sales' and RowKey ge 'email_a' and RowKey lt 'email_b'"
    );
}

#[test]
fn a_value_too_wide_for_its_width_is_an_error() {
    let mut e = ann();
    e.employee_id = 1_000_000;
    let err = e.row_key().unwrap_err();
    assert!(
        err.to_string().contains("does not fit in 6 digits"),
        "{err}"
    );
}

#[test]
fn readings_newest_first_through_the_store() {
    let store = Store::new();
    store.create_table(Reading::TABLE).unwrap();
    let start = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
    for m in 0..10 {
        let r = Reading {
            device_id: "dev-1".into(),
            taken_at: start + time::Duration::minutes(m),
            temperature: 20.0 + m as f64,
            humidity: 0.5,
        };
        store
            .insert(Reading::TABLE, &r.to_entity().unwrap())
            .unwrap();
    }
    let latest = Reading::latest("dev-1", 3).unwrap();
    let page = store
        .query(Reading::TABLE, &latest.to_query().unwrap())
        .unwrap();
    let temps: Vec<f64> = page
        .entities
        .iter()
        .map(|e| Reading::from_entity(e).unwrap().temperature)
        .collect();
    assert_eq!(temps, [29.0, 28.0, 27.0]);
    // Since minute 7 (inclusive): the bounds are flipped for inverted ticks.
    let since =
        Reading::range_by_taken_at("dev-1", (start + time::Duration::minutes(7))..).unwrap();
    let page = store
        .query(Reading::TABLE, &since.to_query().unwrap())
        .unwrap();
    assert_eq!(page.entities.len(), 3);
    assert_eq!(page.stats.class, QueryClass::RangeQuery);
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Staff",
    partition_key = "{department}",
    row_key = "emp_{employee_id}"
)]
#[table(entity_type = "Employee", version = 2)]
struct StaffMember {
    department: String,
    employee_id: u32,
    name: String,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Staff", partition_key = "{department}", row_key = "dept")]
#[table(entity_type = "Department")]
struct Department {
    department: String,
    manager: String,
    employee_count: i32,
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
enum StaffEntity {
    Member(StaffMember),
    Department(Department),
}

#[test]
fn a_heterogeneous_partition_reads_into_one_enum() {
    let store = Store::new();
    store.create_table("Staff").unwrap();
    let dept = Department {
        department: "Sales".into(),
        manager: "Ann".into(),
        employee_count: 1,
    };
    let member = StaffMember {
        department: "Sales".into(),
        employee_id: 7,
        name: "Bob".into(),
    };
    store.insert("Staff", &dept.to_entity().unwrap()).unwrap();
    store
        .insert(
            "Staff",
            &StaffEntity::Member(member.clone()).to_entity().unwrap(),
        )
        .unwrap();
    let all = store
        .query_all(
            "Staff",
            &table_runtime::Query::filter("PartitionKey eq 'Sales'").unwrap(),
        )
        .unwrap();
    let read: Vec<StaffEntity> = all
        .iter()
        .map(|e| StaffEntity::from_entity(e).unwrap())
        .collect();
    assert_eq!(
        read,
        [
            StaffEntity::Department(dept.clone()),
            StaffEntity::Member(member)
        ]
    );
    assert_eq!(
        all[1].get("EntityVersion"),
        Some(&table_runtime::Value::Int32(2))
    );

    // An entity of a type the enum does not know is reported, not skipped.
    let stranger = table_runtime::Entity::new("Sales", "zzz").with("EntityType", "Contractor");
    let err = StaffEntity::from_entity(&stranger).unwrap_err();
    assert!(err.to_string().contains("Contractor"), "{err}");
    // A struct refuses an entity of another type.
    let err = StaffMember::from_entity(&dept.to_entity().unwrap()).unwrap_err();
    assert!(err.to_string().contains("`Department`"), "{err}");
    // A newer version than the reader knows is an error naming the property.
    let mut newer = all[1].clone();
    newer
        .properties
        .insert("EntityVersion".into(), table_runtime::Value::Int32(3));
    assert!(
        StaffMember::from_entity(&newer)
            .unwrap_err()
            .to_string()
            .contains("EntityVersion")
    );
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Products",
    partition_key = "{category:raw}",
    row_key = "{sku:raw}_{version}"
)]
#[table(index(
    name = "by_name",
    partition_key = "names",
    row_key = "{name}",
    eventual
))]
struct Product {
    category: String,
    sku: String,
    version: u16,
    #[table(max_len = 8)]
    name: String,
}

#[test]
fn verbatim_segments_max_len_and_eventual_indexes() {
    let p = Product {
        category: "tools".into(),
        sku: "HAM-1".into(),
        version: 3,
        name: "Hammer".into(),
    };
    assert_eq!(p.partition_key().unwrap(), "tools");
    assert_eq!(p.row_key().unwrap(), "HAM-1_00003");
    let key = ProductKey::parse("tools", "HAM-1_00003").unwrap();
    assert_eq!((key.sku.as_str(), key.version), ("HAM-1", 3));
    assert!(Product::INDEXES[0].eventual && !Product::INDEXES[0].same_partition);

    let bad = Product {
        sku: "a/b".into(),
        ..p.clone()
    };
    let err = bad.row_key().unwrap_err().to_string();
    assert!(err.contains("`/`") && err.contains("RowKey"), "{err}");
    // `_` ends `{sku}`: a SKU holding it would read back split elsewhere, so it is refused.
    let ambiguous = Product {
        sku: "HAM_1".into(),
        ..p.clone()
    };
    let err = ambiguous.to_entity().unwrap_err().to_string();
    assert!(err.contains("`_`") && err.contains("separator"), "{err}");
    // The last segment may hold the separator: nothing after it is split off.
    let named = Product {
        name: "a_b".into(),
        ..p.clone()
    };
    assert_eq!(named.index_entities().unwrap()[0].entity.row_key, "a_b");
    let long = Product {
        name: "Sledgehammer".into(),
        ..p
    };
    let err = long.to_entity().unwrap_err().to_string();
    assert!(err.contains("`name`") && err.contains("max_len"), "{err}");
}
