//! A sparse index: an index copy keyed by an `Option` field is written only while the field
//! has a value. Users without an e-mail address get no `email_…` copy, a user whose address
//! is removed loses the copy, and one whose address changes has it moved.

use table_runtime::{Store, Table, TableEntity, Value};

/// Users of a tenant, each with an optional e-mail address and an optional manager. Both
/// indexes live in the user's own partition, so the runtime writes them in the user's
/// transaction.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Users",
    partition_key = "{tenant}",
    row_key = "user_{user_id:06}"
)]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[table(index(
    name = "by_manager",
    row_key = "manager_{manager_id:06}_{user_id:06}",
    project(name)
))]
struct User {
    tenant: String,
    #[table(max = 999_999)]
    user_id: u32,
    name: String,
    email: Option<String>,
    #[table(max = 999_999)]
    manager_id: Option<u32>,
}

fn ann() -> User {
    User {
        tenant: "contoso".into(),
        user_id: 42,
        name: "Ann".into(),
        email: Some("ann@contoso.com".into()),
        manager_id: None,
    }
}

fn copy_keys(user: &User) -> Vec<String> {
    user.index_entities()
        .unwrap()
        .into_iter()
        .map(|c| format!("{}:{}", c.index.name, c.entity.row_key))
        .collect()
}

#[test]
fn a_copy_is_made_only_for_the_values_there_are() {
    assert_eq!(copy_keys(&ann()), ["by_email:email_ann@contoso.com"]);
    let both = User {
        manager_id: Some(7),
        ..ann()
    };
    assert_eq!(
        copy_keys(&both),
        [
            "by_email:email_ann@contoso.com",
            "by_manager:manager_000007_000042"
        ]
    );
    let neither = User {
        email: None,
        ..ann()
    };
    assert!(copy_keys(&neither).is_empty());
    // The bounds still hold for the value there is.
    let too_big = User {
        manager_id: Some(1_000_000),
        ..ann()
    };
    assert!(too_big.index_entities().is_err());
}

#[test]
fn index_queries_take_the_value_not_the_option() {
    let query = User::by_email_point_query("contoso", "ann@contoso.com").unwrap();
    let text = format!("{query:?}");
    assert!(text.contains("email_ann@contoso.com"), "{text}");
    let range = User::by_manager_range_by_manager_id("contoso", 1..10).unwrap();
    assert!(format!("{range:?}").contains("manager_000001"), "{range:?}");
}

#[test]
fn the_store_adds_moves_and_removes_the_copy_as_the_value_comes_and_goes() {
    let store = Store::new();
    store.create_table("Users").unwrap();
    let users = Table::<_, User>::new(&store);
    let rows = |store: &Store| -> Vec<String> {
        store
            .query("Users", &table_runtime::Query::all())
            .unwrap()
            .entities
            .into_iter()
            .map(|e| e.row_key)
            .collect()
    };

    pollster::block_on(users.insert(&ann())).unwrap();
    assert_eq!(rows(&store), ["email_ann@contoso.com", "user_000042"]);
    // The copy reads back as the user, the address as `Some`.
    let by_email = User::by_email_point_query("contoso", "ann@contoso.com").unwrap();
    assert_eq!(
        pollster::block_on(users.query_all(&by_email)).unwrap(),
        [ann()]
    );

    // A new address moves the copy; a manager adds one.
    let moved = User {
        email: Some("ann@fabrikam.com".into()),
        manager_id: Some(7),
        ..ann()
    };
    pollster::block_on(users.upsert(&moved)).unwrap();
    assert_eq!(
        rows(&store),
        [
            "email_ann@fabrikam.com",
            "manager_000007_000042",
            "user_000042"
        ]
    );
    let copy = store
        .get("Users", "contoso", "manager_000007_000042", None)
        .unwrap();
    assert_eq!(copy.get("name"), Some(&Value::String("Ann".into())));

    // The projected copy reads its key's value back as `Some`.
    let managed = Table::<_, UserByManager>::new(&store);
    let found = pollster::block_on(
        managed.query_all(&User::by_manager_partition_query("contoso").unwrap()),
    )
    .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].manager_id, Some(7));
    assert_eq!(found[0].name, "Ann");
    assert_eq!(found[0].row_key().unwrap(), "manager_000007_000042");
    // A projection built without the value has no copy keys.
    let none = UserByManager {
        manager_id: None,
        ..found[0].clone()
    };
    let err = none.row_key().unwrap_err().to_string();
    assert!(err.contains("manager_id") && err.contains("None"), "{err}");

    // Both values gone: both copies go with them.
    let bare = User {
        email: None,
        manager_id: None,
        ..ann()
    };
    pollster::block_on(users.upsert(&bare)).unwrap();
    assert_eq!(rows(&store), ["user_000042"]);
}
