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

/// Members of clubs, found across clubs by an optional badge number: a sparse index in a
/// partition of its own, kept by the index queue's worker rather than in the member's
/// transaction.
#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Members",
    partition_key = "{club}",
    row_key = "member_{member_id:06}"
)]
#[table(index(
    name = "by_badge",
    partition_key = "badge",
    row_key = "{badge:08}",
    eventual
))]
struct Member {
    club: String,
    #[table(max = 999_999)]
    member_id: u32,
    #[table(max = 99_999_999)]
    badge: Option<u32>,
}

fn badge_rows(store: &Store) -> Vec<String> {
    store
        .query_all(
            "Members",
            &table_runtime::Query::filter("PartitionKey eq 'badge'").unwrap(),
        )
        .unwrap()
        .into_iter()
        .map(|e| e.row_key)
        .collect()
}

/// Through the queue and its worker, a copy comes with a value, moves with it and goes when
/// the value does; `verify` counts a copy left behind for a member without a badge as
/// orphaned and a missing one as missing, and `reindex` repairs both.
#[test]
fn the_worker_and_the_audit_keep_a_sparse_index_in_another_partition() {
    use table_runtime::index::maintain::{IndexQueue, IndexWorker};
    use table_runtime::index::verify::{Divergence, reindex, verify};

    let store = Store::new();
    store.create_table("Members").unwrap();
    let queue = IndexQueue::default();
    let members = Table::<_, Member>::new(&store).with_index_queue(&queue);
    let work =
        || pollster::block_on(IndexWorker::<_, Member>::new(&store, &queue).run_until_idle());
    let audit = || pollster::block_on(verify::<_, Member>(&store, "Members")).unwrap();

    let ann = Member {
        club: "chess".into(),
        member_id: 1,
        badge: Some(1234),
    };
    let bob = Member {
        club: "go".into(),
        member_id: 2,
        badge: None,
    };
    pollster::block_on(members.insert(&ann)).unwrap();
    pollster::block_on(members.insert(&bob)).unwrap();
    // Nothing in the badge partition until the worker runs; then Ann's copy only.
    assert!(badge_rows(&store).is_empty());
    work();
    assert_eq!(badge_rows(&store), ["00001234"]);
    assert!(audit().is_consistent(), "{:?}", audit());

    // A new badge moves the copy; a badge given to Bob adds his.
    let ann_moved = Member {
        badge: Some(99),
        ..ann.clone()
    };
    pollster::block_on(members.upsert(&ann_moved)).unwrap();
    pollster::block_on(members.upsert(&Member {
        badge: Some(5),
        ..bob.clone()
    }))
    .unwrap();
    work();
    assert_eq!(badge_rows(&store), ["00000005", "00000099"]);

    // Ann's badge taken away: her copy goes.
    let ann_bare = Member {
        badge: None,
        ..ann.clone()
    };
    pollster::block_on(members.upsert(&ann_bare)).unwrap();
    work();
    assert_eq!(badge_rows(&store), ["00000005"]);
    assert!(audit().is_consistent(), "{:?}", audit());

    // A copy as the worker stores it (markers and all), written by hand for Ann, who has no
    // badge now, is an orphan; Bob's copy deleted by hand is missing.
    let leftover = table_runtime::index::copies_of(&ann_moved)
        .unwrap()
        .remove(0)
        .entity;
    store.insert("Members", &leftover).unwrap();
    store
        .delete("Members", "badge", "00000005", table_runtime::IfMatch::Any)
        .unwrap();
    let report = audit();
    assert_eq!(report.divergences.len(), 2, "{report:?}");
    assert!(report.divergences.iter().any(|d| matches!(d,
        Divergence::Orphaned { index, copy, .. } if index == "by_badge" && copy.row_key == "00000099")));
    assert!(report.divergences.iter().any(|d| matches!(d,
        Divergence::Missing { index, copy, .. } if index == "by_badge" && copy.row_key == "00000005")));
    let repair = pollster::block_on(reindex::<_, Member>(&store, "Members")).unwrap();
    assert_eq!((repair.written, repair.deleted), (1, 1), "{repair:?}");
    assert_eq!(badge_rows(&store), ["00000005"]);
    assert!(audit().is_consistent(), "{:?}", audit());
}
