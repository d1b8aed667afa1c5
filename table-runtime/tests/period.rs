//! Tables per period (the high-volume delete pattern): names, their validation, the periods
//! between two instants, and dropping whole periods through the backend.

use pollster::block_on;
use table_runtime::backend::faults::{CallKind, Faulty};
use table_runtime::period::{Granularity, PeriodTables};
use table_runtime::store::validate_table_name;
use table_runtime::{Entity, ErrorCode, Limits, Query, Store, StoreOptions, Table, TableEntity};
use time::macros::{datetime, offset};
use time::{OffsetDateTime, PrimitiveDateTime};

fn monthly() -> PeriodTables {
    PeriodTables::new("Events", Granularity::Month).unwrap()
}

#[test]
fn names_follow_the_granularity_and_are_valid_table_names() {
    let at = datetime!(2026-11-23 10:45:12.5 UTC);
    let cases = [
        (Granularity::Month, "Events202611"),
        (Granularity::Day, "Events20261123"),
        (Granularity::Hour, "Events2026112310"),
    ];
    let store = Store::new();
    for (granularity, expected) in cases {
        let family = PeriodTables::new("Events", granularity).unwrap();
        let name = family.table_for(at).unwrap();
        assert_eq!(name, expected);
        validate_table_name(&name).unwrap();
        store.create_table(&name).unwrap();
        let period = family.period_of(at).unwrap();
        assert!(period.contains(at));
        assert!(!period.contains(period.end));
        assert_eq!(period.table, expected);
    }
}

#[test]
fn periods_are_utc() {
    let daily = PeriodTables::new("Logins", Granularity::Day).unwrap();
    // 01:30 on the 24th at +05:00 is 20:30 on the 23rd in UTC.
    let at = datetime!(2026-11-24 01:30 +05:00);
    assert_eq!(daily.table_for(at).unwrap(), "Logins20261123");
    let period = daily.period_of(at).unwrap();
    assert_eq!(period.start, datetime!(2026-11-23 00:00 UTC));
    assert_eq!(period.end, datetime!(2026-11-24 00:00 UTC));
    let monthly = monthly();
    let december = monthly.period_of(datetime!(2026-12-31 23:59 UTC)).unwrap();
    assert_eq!(december.end, datetime!(2027-01-01 00:00 UTC));
}

#[test]
fn a_bad_base_is_refused_with_the_reason() {
    let cases = [
        ("", "empty"),
        ("2026Events", "start with a letter"),
        ("Events2", "end with a letter"),
        ("Sign_ins", "letters and digits"),
        ("Événements", "letters and digits"),
        ("Log s", "letters and digits"),
    ];
    for (base, reason) in cases {
        let err = PeriodTables::new(base, Granularity::Day).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidResourceName, "{base:?}");
        assert!(err.message.contains(reason), "{base:?}: {}", err.message);
    }
    // The longest base leaves exactly room for the digits: 53 + 10 = 63 characters.
    let longest = "A".repeat(53);
    let hourly = PeriodTables::new(longest.clone(), Granularity::Hour).unwrap();
    let name = hourly.table_for(datetime!(2026-01-01 00:00 UTC)).unwrap();
    assert_eq!(name.len(), 63);
    Store::new().create_table(&name).unwrap();
    let err = PeriodTables::new(format!("{longest}A"), Granularity::Hour).unwrap_err();
    assert!(err.message.contains("63"), "{}", err.message);
    // The same base is fine for a coarser period, whose suffix is shorter.
    assert!(PeriodTables::new(format!("{longest}AA"), Granularity::Month).is_ok());
    // Two letters are enough: the digits make the name long enough.
    assert_eq!(
        PeriodTables::new("Ev", Granularity::Month)
            .unwrap()
            .table_for(datetime!(2026-01-01 00:00 UTC))
            .unwrap(),
        "Ev202601"
    );
}

#[test]
fn instants_outside_the_supported_years_are_errors_not_panics() {
    let monthly = monthly();
    for at in [
        datetime!(0000-06-01 00:00 UTC),
        datetime!(9999-01-01 00:00 UTC),
        PrimitiveDateTime::MAX.assume_offset(offset!(-12)),
        PrimitiveDateTime::MIN.assume_offset(offset!(+12)),
    ] {
        let err = monthly.table_for(at).unwrap_err();
        assert_eq!(err.code, ErrorCode::OutOfRangeInput, "{at}");
        assert!(monthly.periods_between(at, at).is_err());
        assert!(block_on(monthly.drop_period(&Store::new(), at)).is_err());
    }
    // The last supported month still has an end.
    let last = monthly.period_of(datetime!(9998-12-31 23:59 UTC)).unwrap();
    assert_eq!(last.table, "Events999812");
    assert_eq!(last.end, datetime!(9999-01-01 00:00 UTC));
    // A range running past the supported years stops there.
    let tail: Vec<_> = monthly
        .periods_between(
            datetime!(9998-11-01 00:00 UTC),
            PrimitiveDateTime::MAX.assume_utc(),
        )
        .unwrap()
        .map(|p| p.table)
        .collect();
    assert_eq!(tail, ["Events999811", "Events999812"]);
}

#[test]
fn periods_between_two_instants() {
    let monthly = monthly();
    let tables = |from: OffsetDateTime, to: OffsetDateTime| -> Vec<String> {
        monthly
            .periods_between(from, to)
            .unwrap()
            .map(|p| p.table)
            .collect()
    };
    assert_eq!(
        tables(
            datetime!(2026-11-30 23:00 UTC),
            datetime!(2027-01-15 00:00 UTC)
        ),
        ["Events202611", "Events202612", "Events202701"]
    );
    // The end is excluded: a range ending on a boundary doesn't reach the next period.
    assert_eq!(
        tables(
            datetime!(2026-11-01 00:00 UTC),
            datetime!(2026-12-01 00:00 UTC)
        ),
        ["Events202611"]
    );
    // An empty or reversed range has no periods.
    assert!(
        tables(
            datetime!(2026-11-05 00:00 UTC),
            datetime!(2026-11-05 00:00 UTC)
        )
        .is_empty()
    );
    assert!(
        tables(
            datetime!(2026-12-05 00:00 UTC),
            datetime!(2026-11-05 00:00 UTC)
        )
        .is_empty()
    );

    // A leap February has 29 daily tables.
    let daily = PeriodTables::new("Logins", Granularity::Day).unwrap();
    let february: Vec<_> = daily
        .periods_between(
            datetime!(2028-02-01 00:00 UTC),
            datetime!(2028-03-01 00:00 UTC),
        )
        .unwrap()
        .collect();
    assert_eq!(february.len(), 29);
    assert_eq!(february[28].table, "Logins20280229");
    // Each period starts where the previous one ended.
    for pair in february.windows(2) {
        assert_eq!(pair[0].end, pair[1].start);
    }

    let hourly = PeriodTables::new("Clicks", Granularity::Hour).unwrap();
    let hours: Vec<_> = hourly
        .periods_between(
            datetime!(2026-11-23 22:10 UTC),
            datetime!(2026-11-24 01:00 UTC),
        )
        .unwrap()
        .map(|p| p.table)
        .collect();
    assert_eq!(
        hours,
        ["Clicks2026112322", "Clicks2026112323", "Clicks2026112400"]
    );
}

#[test]
fn table_names_read_back_into_periods() {
    let daily = PeriodTables::new("Logins", Granularity::Day).unwrap();
    let period = daily.parse_table("LOGINS20261123").unwrap();
    assert_eq!(period.start, datetime!(2026-11-23 00:00 UTC));
    assert_eq!(period.table, "Logins20261123");
    for other in [
        "Logins2026112",   // too short
        "Logins202611230", // too long
        "Logins20260230",  // no 30th of February
        "Logins20261300",  // no 13th month
        "Logins00001123",  // year 0
        "Logins2026112A",  // not digits
        "Audit20261123",   // another family
        "LoginsX0261123",  // not digits
        "Logins",          // the base alone
        "Lögins20261123",  // not even ASCII
    ] {
        assert!(daily.parse_table(other).is_none(), "{other}");
    }
    // Every name the family makes reads back to its own period.
    let hourly = PeriodTables::new("Clicks", Granularity::Hour).unwrap();
    for period in hourly
        .periods_between(
            datetime!(2026-12-31 20:00 UTC),
            datetime!(2027-01-01 04:00 UTC),
        )
        .unwrap()
    {
        assert_eq!(hourly.parse_table(&period.table), Some(period));
    }
}

fn event(pk: &str, rk: &str) -> Entity {
    Entity::new(pk, rk).with("Message", "hello")
}

#[test]
fn dropping_a_period_leaves_the_others() {
    let store = Store::new();
    let monthly = monthly();
    let months = [
        datetime!(2026-09-10 00:00 UTC),
        datetime!(2026-10-10 00:00 UTC),
        datetime!(2026-11-10 00:00 UTC),
    ];
    for at in months {
        let period = block_on(monthly.ensure_table(&store, at)).unwrap();
        for i in 0..250 {
            store
                .insert(&period.table, &event("auth", &format!("{i:04}")))
                .unwrap();
        }
        // Asking again is harmless.
        block_on(monthly.ensure_table(&store, at)).unwrap();
    }
    store.create_table("Audit").unwrap();

    let dropped = block_on(monthly.drop_period(&store, months[1])).unwrap();
    assert_eq!(dropped.period.table, "Events202610");
    assert!(dropped.existed);
    assert_eq!(
        store.list_tables(None, None).unwrap().tables,
        ["Audit", "Events202609", "Events202611"]
    );
    for table in ["Events202609", "Events202611"] {
        assert_eq!(store.query_all(table, &Query::all()).unwrap().len(), 250);
    }

    // The same period again: already gone, said so, not an error.
    let again = block_on(monthly.drop_period(&store, months[1])).unwrap();
    assert!(!again.existed);
    assert_eq!(again.period.table, "Events202610");
}

/// A store whose table listing comes two names a page, behind a backend counting the pages.
fn small_pages() -> Faulty<Store> {
    Faulty::new(Store::with_options(StoreOptions {
        limits: Limits {
            max_page_size: 2,
            ..Limits::default()
        },
        ..StoreOptions::default()
    }))
}

/// Every table name, following the continuations.
fn all_tables(store: &Store) -> Vec<String> {
    let mut names = Vec::new();
    let mut continuation = None;
    loop {
        let page = store.list_tables(None, continuation.as_deref()).unwrap();
        names.extend(page.tables);
        match page.continuation {
            Some(next) => continuation = Some(next),
            None => return names,
        }
    }
}

#[test]
fn drop_before_finds_old_periods_across_pages_and_keeps_the_rest() {
    let backend = small_pages();
    let monthly = monthly();
    let daily = PeriodTables::new("Events", Granularity::Day).unwrap();
    for month in 5..=11u8 {
        let at = datetime!(2026-01-15 12:00 UTC)
            .replace_month(month.try_into().unwrap())
            .unwrap();
        block_on(monthly.ensure_table(&backend, at)).unwrap();
    }
    // Tables of other families, some sorting between ours.
    for other in [
        "Audit202601",
        "Events",
        "EventsArchive",
        "Events20260501", // the daily family of the same base
        "Eventsx202605",
    ] {
        backend.inner().create_table(other).unwrap();
    }

    // The cutoff falls inside September: September stays.
    let dropped = block_on(monthly.drop_before(&backend, datetime!(2026-09-20 00:00 UTC))).unwrap();
    let names: Vec<_> = dropped.iter().map(|d| d.period.table.as_str()).collect();
    assert_eq!(
        names,
        [
            "Events202605",
            "Events202606",
            "Events202607",
            "Events202608"
        ]
    );
    assert!(dropped.iter().all(|d| d.existed));
    // 12 tables two a page: the listing followed its continuations.
    assert!(backend.calls(CallKind::ListTables) >= 6);
    assert_eq!(
        all_tables(backend.inner()),
        [
            "Audit202601",
            "Events",
            "Events20260501",
            "Events202609",
            "Events202610",
            "Events202611",
            "EventsArchive",
            "Eventsx202605",
        ]
    );
    let left: Vec<_> = block_on(monthly.existing(&backend))
        .unwrap()
        .into_iter()
        .map(|p| p.table)
        .collect();
    assert_eq!(left, ["Events202609", "Events202610", "Events202611"]);
    assert_eq!(
        block_on(daily.existing(&backend)).unwrap()[0].table,
        "Events20260501"
    );

    // A cutoff on a boundary drops the period that ended there, and nothing more.
    let dropped = block_on(monthly.drop_before(&backend, datetime!(2026-10-01 00:00 UTC))).unwrap();
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0].period.table, "Events202609");
    // Nothing older left: nothing to do.
    assert!(
        block_on(monthly.drop_before(&backend, datetime!(2026-10-01 00:00 UTC)))
            .unwrap()
            .is_empty()
    );
}

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(name = "Logins", partition_key = "{user}", row_key = "{at:ticks}")]
struct Login {
    user: String,
    at: OffsetDateTime,
    ok: bool,
}

#[test]
fn typed_handles_write_to_the_period_of_the_instant() {
    let store = Store::new();
    let daily = PeriodTables::new(Login::TABLE, Granularity::Day).unwrap();
    let logins = [
        datetime!(2026-11-22 23:59 UTC),
        datetime!(2026-11-23 00:01 UTC),
        datetime!(2026-11-23 12:00 UTC),
    ];
    for at in logins {
        block_on(daily.ensure_table(&store, at)).unwrap();
        let table: Table<'_, _, Login> = daily.typed(&store, at).unwrap();
        block_on(table.insert(&Login {
            user: "ann".into(),
            at,
            ok: true,
        }))
        .unwrap();
    }
    let on_23rd: Table<'_, _, Login> = daily.typed(&store, logins[1]).unwrap();
    assert_eq!(on_23rd.name(), "Logins20261123");
    let found = block_on(on_23rd.query_all(&Login::partition_query("ann").unwrap())).unwrap();
    assert_eq!(found.len(), 2);
    // Dropping the 22nd removes its login, and only that one.
    block_on(daily.drop_period(&store, logins[0])).unwrap();
    assert_eq!(
        store.list_tables(None, None).unwrap().tables,
        ["Logins20261123"]
    );
}
