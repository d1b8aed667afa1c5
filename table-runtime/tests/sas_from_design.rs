//! Least-privilege SAS scopes from the design: one partition, or the partitions of one leading
//! field, enforced by the in-process store (everything outside the scope refused).

use pollster::block_on;
use table_runtime::index::maintain::IndexQueue;
use table_runtime::sas::TablePermissions;
use table_runtime::{Backend, ErrorCode, Store, StoreError, Table, TableEntity};
use time::macros::datetime;

/// Usage per tenant and region, a day per row; a copy per day in the day's own partition.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Usage",
    partition_key = "{tenant}_{region}",
    row_key = "{day:date}"
)]
#[table(index(
    name = "by_day",
    partition_key = "day_{day:date}",
    row_key = "{tenant}_{region}",
    eventual
))]
struct Usage {
    tenant: String,
    region: String,
    day: time::OffsetDateTime,
    units: i64,
}

fn usage(tenant: &str, region: &str) -> Usage {
    Usage {
        tenant: tenant.into(),
        region: region.into(),
        day: datetime!(2026-03-01 0:00 UTC),
        units: 5,
    }
}

const EXPIRY: time::OffsetDateTime = datetime!(2099-01-01 0:00 UTC);

fn store() -> Store {
    let store = Store::new();
    store.create_table("Usage").unwrap();
    for (t, r) in [
        ("acme", "eu"),
        ("acme", "us"),
        ("acmeco", "eu"),
        ("beta", "eu"),
    ] {
        let e = usage(t, r).to_entity().unwrap();
        store.insert("Usage", &e).unwrap();
    }
    store
}

#[track_caller]
fn refused<T: std::fmt::Debug>(r: Result<T, StoreError>) {
    let e = r.unwrap_err();
    assert_eq!(
        (e.status, e.code),
        (403, ErrorCode::AuthorizationFailure),
        "{e}"
    );
}

#[test]
fn a_partition_scope_reaches_that_partition_only() {
    let store = store();
    let scope = Usage::sas_for_partition("acme", "eu", TablePermissions::ALL, EXPIRY).unwrap();
    assert_eq!(scope.start_partition_key.as_deref(), Some("acme_eu"));
    assert_eq!(scope.end_partition_key.as_deref(), Some("acme_eu"));
    let client = store.scoped(&scope);
    let jobs = IndexQueue::default();
    let table = Table::<_, Usage>::new(&client).with_index_queue(&jobs);
    assert!(
        block_on(table.get(&usage("acme", "eu").key()))
            .unwrap()
            .is_some()
    );
    block_on(table.upsert(&Usage {
        units: 9,
        ..usage("acme", "eu")
    }))
    .unwrap();
    for (t, r) in [("acme", "us"), ("beta", "eu")] {
        refused(block_on(table.get(&usage(t, r).key())));
        refused(block_on(table.upsert(&usage(t, r))));
    }
    // A query returns what the scope reaches, whatever it asks for.
    let all = block_on(client.query_page("Usage", &table_runtime::Query::all())).unwrap();
    let keys: Vec<_> = all
        .entities
        .iter()
        .map(|e| e.partition_key.as_str())
        .collect();
    assert_eq!(keys, ["acme_eu"]);
}

#[test]
fn a_leading_field_scope_reaches_every_partition_of_that_value() {
    let store = store();
    let scope = Usage::sas_for_tenant("acme", TablePermissions::READ, EXPIRY).unwrap();
    let client = store.scoped(&scope);
    let jobs = IndexQueue::default();
    let table = Table::<_, Usage>::new(&client).with_index_queue(&jobs);
    for region in ["eu", "us"] {
        assert!(
            block_on(table.get(&usage("acme", region).key()))
                .unwrap()
                .is_some()
        );
    }
    // `acmeco_eu` starts with `acme` but not with `acme_`: another tenant, refused.
    refused(block_on(table.get(&usage("acmeco", "eu").key())));
    refused(block_on(table.get(&usage("beta", "eu").key())));
    // Read only: a write is refused for the permission.
    let err = block_on(table.upsert(&usage("acme", "eu"))).unwrap_err();
    assert_eq!(
        err.code,
        ErrorCode::AuthorizationPermissionMismatch,
        "{err}"
    );
    let all = block_on(client.query_page("Usage", &table_runtime::Query::all())).unwrap();
    let keys: Vec<_> = all
        .entities
        .iter()
        .map(|e| e.partition_key.as_str())
        .collect();
    assert_eq!(keys, ["acme_eu", "acme_us"]);
}

#[test]
fn an_index_in_its_own_partition_has_its_own_scope_and_bad_values_are_errors() {
    let scope = Usage::by_day_sas_for_partition(
        datetime!(2026-03-01 13:00 UTC),
        TablePermissions::READ,
        EXPIRY,
    )
    .unwrap();
    assert_eq!(scope.start_partition_key.as_deref(), Some("day_2026-03-01"));
    assert_eq!(scope.end_partition_key.as_deref(), Some("day_2026-03-01"));
    // A tenant holding the separator would widen the scope to other tenants: an error.
    let err = Usage::sas_for_tenant("ac_me", TablePermissions::READ, EXPIRY).unwrap_err();
    assert!(err.to_string().contains("separator"), "{err}");
}
