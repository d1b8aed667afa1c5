//! Typed entities: Rust structs that convert to and from [`Entity`], usually through
//! `#[derive(TableEntity)]`. This page is the whole attribute grammar; every form has an example
//! that is compiled and run as a test.
//!
//! # The derive
//!
//! ```
//! use table_runtime::{QueryClass, Store, Table, TableEntity};
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]
//! #[table(index(name = "by_email", row_key = "email_{email}"))]
//! #[table(rename_all = "PascalCase")]
//! struct Employee {
//!     department: String,
//!     #[table(max = 999_999)]
//!     employee_id: u32,
//!     email: String,
//!     age: i32,
//! }
//!
//! let ann = Employee { department: "Sales".into(), employee_id: 42, email: "ann@contoso.com".into(), age: 31 };
//! assert_eq!(ann.row_key().unwrap(), "empid_000042");
//! assert_eq!(EmployeeKey::parse("Sales", "empid_000042").unwrap().employee_id, 42);
//!
//! // Writes through `Table` keep the index copies; reads take the key's fields.
//! let store = Store::new();
//! store.create_table(Employee::TABLE).unwrap();
//! let employees = Table::<_, Employee>::new(&store);
//! pollster::block_on(employees.insert(&ann)).unwrap();
//! assert!(store.get("Employees", "Sales", "email_ann@contoso.com", None).is_ok());
//! let key = EmployeeKey::new("Sales".into(), 42);
//! assert_eq!(pollster::block_on(employees.get(&key)).unwrap(), Some(ann));
//!
//! let q = Employee::range_by_employee_id("Sales", 100..200).unwrap();
//! assert_eq!(q.filter(), "PartitionKey eq 'Sales' and RowKey ge 'empid_000100' and RowKey lt 'empid_000200'");
//! assert_eq!(q.class(), QueryClass::RangeQuery);
//! ```
//!
//! ## Struct attributes: `#[table(...)]`
//!
//! | attribute | meaning |
//! | --- | --- |
//! | `name = "Employees"` | the table (default: the struct's name) |
//! | `partition_key = "…"`, `row_key = "…"` | key templates (required) |
//! | `rename_all = "PascalCase"` | property names from field names (`camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`, `none`) |
//! | `entity_type = "Employee"`, `version = 2` | writes `EntityType` (and `EntityVersion`), checks it on reads: several types in one table |
//! | `index(name = "by_email", row_key = "…")` | a copy in the entity's partition, written in the entity's transaction |
//! | `index(name = "…", partition_key = "…", row_key = "…", eventual)` | a copy in another partition, kept by the index queue and its worker |
//! | `index(…, project(a, b))` | copies holding only some fields, read through a generated type |
//! | an `Option` field in an index's keys | a sparse index: the copy is written only while the field has a value, and removed when it becomes `None`; the index's queries take the value (`&str` for an `Option<String>`) |
//! | `projection_of = "Employee"` | this struct reads some fields of another design's entities |
//! | `allow(RULE, reason = "…")` | silences a `table-lint` rule for this struct, with the reason |
//! | `load(writes_per_second = 5, rows = 400)` | the peak writes a second and the most rows the design is built for: `table-lint` weighs them against one partition (about 2,000 entities a second) and one page (1,000 rows); no code is generated |
//!
//! ## Field attributes
//!
//! | attribute | meaning |
//! | --- | --- |
//! | `rename = "Name"` | the property's name |
//! | `skip` | not stored; `Default` on reads |
//! | `key_only` | kept only in the PartitionKey or RowKey, as keys written by code that stores no copy of the value (`PartitionKey = userId`): no property is written, and reads take the value back from the key (for an index copy, from the keys of the entity copied). The key must hold the whole value: a time only as its bucket (`{at:date}`) is refused, and one in Unix time reads back at its unit (the millisecond or second). A projection (`projection_of`) may declare it `key_only` too |
//! | `json` | stored as JSON text with serde |
//! | `as_string` | stored as its `Display` text, read with `FromStr`: the way to keep a `u64` or `u128` |
//! | `max_len = 64` | the most UTF-16 code units a string holds (bytes, on a `Vec<u8>`): checked on every write and key, and what lets `table-lint` bound key and entity sizes |
//! | `max = 999_999` | the largest value an integer holds: checked on every write and key, and what makes a width narrower than the type (`{id:06}` on a `u32`) a sound design |
//! | `min = 1` | the smallest value an integer holds (never negative): checked where `max` is, and what tells the linter that a key never takes the values below it (a sequence from 1 beside a row keyed `0000000000`) |
//!
//! # Key templates
//!
//! Literal text with `{field}` or `{field:format}` placeholders (`{{` and `}}` for braces). A
//! placeholder of no fixed width (a string, an unpadded number, a type of your own) is followed
//! by literal text or ends the key; one of fixed width (a padded integer, ticks, an instant, a
//! time bucket, a GUID) may be followed directly by the next. Either way a key splits back into
//! its fields.
//! A template of literal text alone is one constant key; `row_key = ""` is the empty key, which
//! the service takes too (a store of one entity per partition, as the Bot Framework's, writes it).
//!
//! | placeholder | written as |
//! | --- | --- |
//! | `{name}` (a `String`) | verbatim, as people write keys by hand (`email_ann@contoso.com`); `{name:raw}` is the same |
//! | `{name:escaped}` | escaped, reversible and ordered: any text fits, and compound keys sort exactly like the values |
//! | `{id}` (an integer) | zero-padded to the type's width (`u32`: 10 digits); signed types offset so negatives sort first |
//! | `{id:06}` or `{id:6}` | zero-padded to 6 digits; a value that needs more is an error, not a wrong key |
//! | `{id:unpadded}` | plain decimal text, `-` before a negative (`id.ToString()`'s keys): for matching keys a table already holds; they sort as text, and `table-lint` warns (TK005) |
//! | `{at}` / `{at:iso}` | fixed-width ISO 8601 UTC, `2026-03-01T10:20:30.0000000Z` |
//! | `{at:ticks}`, `{at:inverted_ticks}` | 19-digit .NET ticks, ascending or newest first |
//! | `{at:unix_ms}`, `{at:unix}` | Unix time in milliseconds (13 digits: JavaScript's `Date.now()`, Java's `System.currentTimeMillis()`) or seconds (10 digits: Python's `int(time.time())`), zero-padded; truncated to the unit, and an error before 1970 or after 2286 |
//! | `{at:inverted_unix_ms}`, `{at:inverted_unix}` | the same count subtracted from all nines (`9999999999999 - Date.now()`): newest first |
//! | `{at:date}`, `{at:hour}`, `{at:month}` | a UTC date (`2026-03-01`), hour (`2026-03-01T10`) or month (`2026-03`) bucket |
//! | `{at:yyyyMMdd}`, `{at:yyyyMMddHH}`, `{at:yyyyMM}` | the same buckets in the compact form .NET code writes with `ToString("yyyyMMdd")` (`20260301`) |
//! | `{id}` (a `Uuid`) | hyphenated lowercase |
//! | `{id:simple}` or `{id:N}` (a `Uuid`) | 32 lowercase hex digits, no hyphens: .NET's `Guid.ToString("N")`, Python's `uuid4().hex` |
//! | `{code}` (your type) | what its [`KeySegment`](crate::key::segment::KeySegment) implementation writes |
//!
//! ## Verbatim text
//!
//! A `String` is written as it is, so keys match what other clients, Storage Explorer and
//! hand-written filters use, and a design can read keys other clients wrote. A value that can't
//! be written verbatim is an error when the key is built, naming the key and the reason, never
//! an escape you didn't ask for and never a wrong key: a character the service forbids (`/`,
//! `\`, `#`, `?`, control characters), or, when more key follows, the separator that ends the
//! segment (the key would read back as other values). So no two values ever share a key.
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, TableEntity)]
//! #[table(name = "Invoices", partition_key = "{app_id}_{at:date}", row_key = "{invoice}")]
//! struct Invoice {
//!     app_id: String,
//!     at: table_runtime::time::OffsetDateTime,
//!     invoice: String,
//! }
//!
//! let at = table_runtime::time::macros::datetime!(2026-03-01 10:20 UTC);
//! let inv = Invoice { app_id: "billing".into(), at, invoice: "INV-7/2026".into() };
//! // The last segment takes `-`; `/` is forbidden in any key.
//! assert!(inv.row_key().unwrap_err().to_string().contains("`/`"));
//! let inv = Invoice { invoice: "INV-7".into(), ..inv };
//! assert_eq!(inv.partition_key().unwrap(), "billing_2026-03-01");
//! // `_` ends `{app_id}`: an app id holding it is refused rather than stored ambiguously.
//! let bad = Invoice { app_id: "bill_ing".into(), ..inv };
//! assert!(bad.partition_key().unwrap_err().to_string().contains("separator"));
//! ```
//!
//! Verbatim text last in a key sorts like its values, so ranges over it are exact. With more
//! key after it (`{last_name}_{id}`), `"a!_…"` sorts before `"a_…"` though `a!` is after `a`:
//! a range over such a segment reads a covering RowKey range, and the typed read keeps only the
//! keys whose segment is in the range (the query's description says so).
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, TableEntity)]
//! #[table(name = "People", partition_key = "{team}", row_key = "{last_name}_{id}")]
//! struct Person { team: String, last_name: String, id: u32 }
//!
//! let q = Person::range_by_last_name("ops", "a".."c").unwrap();
//! assert!(q.row_key_check().is_some());
//! assert!(q.to_string().contains("read back from each key"));
//! ```
//!
//! ## Escaped text
//!
//! `{name:escaped}` takes any text (`/`, `#`, the separator) and keeps compound keys in the
//! values' order, at the price of keys other clients don't write: the service's forbidden
//! characters and the escape characters are written as two or three (see
//! [`crate::key::encode`]), and the segment is ended by a space when more key follows.
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, TableEntity)]
//! #[table(name = "Files", partition_key = "{share}", row_key = "{path:escaped}_{version}")]
//! struct File { share: String, path: String, version: u16 }
//!
//! let f = File { share: "docs".into(), path: "a/b_c.txt".into(), version: 2 };
//! assert_eq!(f.row_key().unwrap(), "a.~b_c..txt _00002");
//! assert_eq!(FileKey::parse("docs", "a.~b_c..txt _00002").unwrap().path, "a/b_c.txt");
//! ```
//!
//! ## Widths and bounds
//!
//! An integer pads to its type's width by default, so every value fits and numbers sort as
//! numbers. A narrower width is sound when the design declares the bound that fits it:
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, TableEntity)]
//! #[table(name = "Badges", partition_key = "{site}", row_key = "badge_{badge:06}_{seq}")]
//! struct Badge {
//!     site: String,
//!     #[table(max = 999_999)]
//!     badge: u32,
//!     seq: i8,
//! }
//!
//! let b = Badge { site: "hq".into(), badge: 42, seq: -1 };
//! // `i8` offsets by 128 so that -1 sorts before 0.
//! assert_eq!(b.row_key().unwrap(), "badge_000042_127");
//! let over = Badge { badge: 1_000_000, ..b };
//! assert!(over.row_key().unwrap_err().to_string().contains("max = 999999"));
//! ```
//!
//! A width that can't hold the declared `max` does not compile.
//!
//! ## Unpadded integers
//!
//! `{id:unpadded}` writes an integer as its plain decimal text, the way `id.ToString()` writes
//! it in other clients. Use it to match keys that an existing table already holds: such keys
//! sort as text (`1`, `10`, `100`, `2`), not as numbers, so `table-lint` warns about them
//! (TK005) and the derive generates no `range_by_` query over them (point and partition
//! queries work as usual). Reading takes the longest run of digits, so the literal after the
//! number must not start with a digit (that does not compile), and a key with a leading zero
//! or `-0`, which the writer never writes, does not read back.
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, PartialEq, TableEntity)]
//! #[table(name = "Highscores", partition_key = "{player}", row_key = "{rank:unpadded}_{season}")]
//! struct Score { player: String, rank: u8, season: u16 }
//!
//! let s = Score { player: "ann".into(), rank: 10, season: 3 };
//! assert_eq!(s.row_key().unwrap(), "10_00003");
//! assert_eq!(ScoreKey::parse("ann", "10_00003").unwrap(), s.key());
//! assert!(ScoreKey::parse("ann", "010_00003").is_err());
//! ```
//!
//! ## Times
//!
//! ```
//! use table_runtime::TableEntity;
//! use table_runtime::time::macros::datetime;
//!
//! #[derive(Debug, TableEntity)]
//! #[table(name = "Readings", partition_key = "{device}_{at:hour}", row_key = "{at:inverted_ticks}")]
//! struct Reading { device: String, at: table_runtime::time::OffsetDateTime, celsius: f64 }
//!
//! let r = Reading { device: "d1".into(), at: datetime!(2026-03-01 10:20:30 UTC), celsius: 21.5 };
//! assert_eq!(r.partition_key().unwrap(), "d1_2026-03-01T10");
//! assert_eq!(r.row_key().unwrap().len(), 19);
//! // Newest first: `latest(n)` reads the first n of the partition.
//! let q = Reading::latest("d1", datetime!(2026-03-01 10:00 UTC), 5).unwrap();
//! assert_eq!(q.top_count(), Some(5));
//! ```
//!
//! `{at:ticks}` writes ascending .NET ticks, 19 digits (`{at:unpadded_ticks}` writes them as
//! `DateTime.UtcNow.Ticks.ToString()` does, 18 digits until the year 3170, ended by the first
//! character that is not a digit); `{at}` and `{at:iso}` the fixed-width ISO form;
//! `{at:date}` a day bucket, `{at:yyyyMMdd}` the same day as `20260301`. Fields of type `time::OffsetDateTime` or [`DateTime`] take them.
//!
//! `{seq:inverted}` counts an integer down from the largest value its field holds (its `max`,
//! or its type's: `i32` counts down from 2147483647, ten digits), so the largest come first:
//! the newest-first sequence numbers .NET writes as `(int.MaxValue - seq).ToString("D10")`, or
//! `9999999999999 - Date.now()` on an `i64` with `max = 9_999_999_999_999`. Ranges over it flip
//! their bounds for you, and the design gets a `latest(n)` query as inverted ticks do.
//!
//! Keys other code wrote with a date-time pattern of its own take that pattern as the format:
//! .NET's letters (`{at:yyyyMMddHHmmss}`, `{at:yyyy-MM-dd HH:mm:ss.fff}`) or `strftime`'s
//! directives (`{at:%Y-%m-%d %H:%M:%S}`, `{at:%Y%m%d%H%M%S%f}`). The units are a four-digit
//! year and two-digit month, day, 24-hour hour, minute and second, and one to seven digits of a
//! second's fraction (`%f` is six), with `-`, `:`, `.`, `_`, a space, `T`, `Z`, `,`, `|` or `~`
//! between them; a key reads back as the first instant of its finest unit. Patterns that would
//! change width or lose the time (`yy`, `M`, `MMM`, `hh`, `tt`, `F`, a day without its month)
//! are refused with the reason. A pattern that writes the day before the year still works, but
//! its keys do not sort as times, which the linter reports (TK006).
//!
//! A calendar day with no time of day is a `time::Date` field: `{day}` (or `{day:date}`) writes
//! it as `2026-03-01` and `{day:yyyyMMdd}` as `20260301`, which read back as the same day, so a
//! day kept only in its key may be `key_only`; `{day:month}` and `{day:yyyyMM}` write its month.
//! The formats that write a time of day (`ticks`, `iso`, `hour`, Unix time) are refused for a
//! `Date` at compile time. Stored as a property, a day is the Edm.DateTime of its midnight UTC,
//! and reading one at another time of day is an error.
//!
//! ## Your own types as key segments
//!
//! A type becomes a key segment by implementing
//! [`KeySegment`](crate::key::segment::KeySegment) (its documentation has a complete example);
//! the derive calls it with what follows the placeholder, so a text-like type can apply the
//! verbatim rules through [`push_verbatim`](crate::key::segment::push_verbatim). Its values are
//! stored as properties through [`IntoValue`] and [`FromValue`], or with `as_string`.
//!
//! # Indexes
//!
//! ```
//! use table_runtime::index::maintain::{IndexQueue, IndexWorker};
//! use table_runtime::{Store, Table, TableEntity};
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "Staff", partition_key = "{department}", row_key = "empid_{id}")]
//! // A copy in the entity's partition, written in the same transaction.
//! #[table(index(name = "by_email", row_key = "email_{email}"))]
//! // A copy in a partition of its own, kept by a worker, holding two fields.
//! #[table(index(name = "by_last_name", partition_key = "lastname", row_key = "{last_name}_{id}", project(email), eventual))]
//! struct Employee { department: String, id: u32, email: String, last_name: String, salary: i64 }
//!
//! let store = Store::new();
//! store.create_table("Staff").unwrap();
//! let queue = IndexQueue::default();
//! let staff = Table::<_, Employee>::new(&store).with_index_queue(&queue);
//! let ann = Employee { department: "Sales".into(), id: 7, email: "ann@contoso.com".into(), last_name: "Jones".into(), salary: 1 };
//! pollster::block_on(staff.insert(&ann)).unwrap();
//! pollster::block_on(IndexWorker::<_, Employee>::new(&store, &queue).run_until_idle());
//!
//! // The projected copies read through the generated `EmployeeByLastName`.
//! let copies = Table::<_, EmployeeByLastName>::new(&store);
//! let found = pollster::block_on(copies.query_all(&Employee::by_last_name_partition_query().unwrap())).unwrap();
//! assert_eq!(found, [EmployeeByLastName { last_name: "Jones".into(), id: 7, email: "ann@contoso.com".into() }]);
//! ```
//!
//! An index keyed by an `Option` field is sparse: entities without the value get no copy, so
//! the index holds only the entities it can find (the users who gave an e-mail address). The
//! entity's own keys still need a value for every entity, and refuse an `Option`.
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "Users", partition_key = "{tenant}", row_key = "user_{id}")]
//! #[table(index(name = "by_email", row_key = "email_{email}"))]
//! struct User { tenant: String, id: u32, email: Option<String> }
//!
//! let ann = User { tenant: "contoso".into(), id: 7, email: Some("ann@contoso.com".into()) };
//! assert_eq!(ann.index_entities().unwrap()[0].entity.row_key, "email_ann@contoso.com");
//! let bob = User { email: None, ..ann };
//! assert!(bob.index_entities().unwrap().is_empty());
//! let _ = User::by_email_point_query("contoso", "ann@contoso.com").unwrap();
//! ```
//!
//! # Projections
//!
//! A struct declared `projection_of` a design reads that design's entities (its table, its keys
//! and key type) with `$select` of its own fields. The compiler checks that each field is a
//! field of the design with the same type and property; a projection never writes.
//!
//! ```
//! use table_runtime::{Store, Table, TableEntity};
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "Staff", partition_key = "{department}", row_key = "empid_{id}")]
//! struct Employee { department: String, id: u32, name: String, salary: i64 }
//!
//! #[derive(Debug, PartialEq, TableEntity)]
//! #[table(projection_of = "Employee")]
//! struct EmployeeName { name: String }
//!
//! let store = Store::new();
//! store.create_table("Staff").unwrap();
//! let ann = Employee { department: "Sales".into(), id: 7, name: "Ann".into(), salary: 1 };
//! pollster::block_on(Table::<_, Employee>::new(&store).insert(&ann)).unwrap();
//! let names = Table::<_, EmployeeName>::new(&store);
//! assert_eq!(pollster::block_on(names.get(&ann.key())).unwrap(), Some(EmployeeName { name: "Ann".into() }));
//! ```
//!
//! # Entity types and enums
//!
//! Several types in one table carry `entity_type`; an enum of them reads a mixed partition,
//! picking each entity's variant and reporting one it does not know.
//!
//! ```
//! use table_runtime::{Store, Table, TableEntity};
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "People", partition_key = "{department}", row_key = "empid_{id}", entity_type = "Employee")]
//! struct Employee { department: String, id: u32 }
//!
//! #[derive(Debug, Clone, PartialEq, TableEntity)]
//! #[table(name = "People", partition_key = "{name}", row_key = "department", entity_type = "Department")]
//! struct Department { name: String, manager: String }
//!
//! #[derive(Debug, PartialEq, TableEntity)]
//! enum HrEntity { Employee(Employee), Department(Department) }
//!
//! let store = Store::new();
//! store.create_table("People").unwrap();
//! pollster::block_on(Table::<_, Employee>::new(&store).insert(&Employee { department: "Sales".into(), id: 1 })).unwrap();
//! pollster::block_on(Table::<_, Department>::new(&store).insert(&Department { name: "Sales".into(), manager: "Ann".into() })).unwrap();
//! let all = Table::<_, HrEntity>::new(&store);
//! let q = Employee::partition_query("Sales").unwrap();
//! assert_eq!(pollster::block_on(all.query_all(&q)).unwrap().len(), 2);
//! ```
//!
//! # Storage modes
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, PartialEq, TableEntity)]
//! #[table(name = "Accounts", partition_key = "{region}", row_key = "{id}")]
//! struct Account {
//!     region: String,
//!     id: table_runtime::uuid::Uuid,
//!     #[table(as_string)]
//!     balance_cents: u64,
//!     #[table(json)]
//!     tags: Vec<String>,
//!     #[table(skip)]
//!     cached: Option<String>,
//! }
//!
//! let a = Account { region: "eu".into(), id: table_runtime::uuid::Uuid::nil(), balance_cents: u64::MAX, tags: vec!["vip".into()], cached: None };
//! let e = a.to_entity().unwrap();
//! assert_eq!(e.get("balance_cents"), Some(&table_runtime::Value::String(u64::MAX.to_string())));
//! assert_eq!(Account::from_entity(&e).unwrap(), a);
//! ```
//!
//! A field kept only in a key (`key_only`) writes no property and is read back from the key:
//!
//! ```
//! use table_runtime::TableEntity;
//!
//! #[derive(Debug, PartialEq, TableEntity)]
//! #[table(name = "Devices", partition_key = "{owner}", row_key = "{serial:08}")]
//! struct Device {
//!     #[table(key_only)]
//!     owner: String,
//!     #[table(key_only, max = 99_999_999)]
//!     serial: u32,
//!     model: String,
//! }
//!
//! let d = Device { owner: "ann".into(), serial: 42, model: "X1".into() };
//! let e = d.to_entity().unwrap();
//! assert_eq!((e.partition_key.as_str(), e.row_key.as_str()), ("ann", "00000042"));
//! assert!(e.get("owner").is_none() && e.get("serial").is_none());
//! assert_eq!(Device::from_entity(&e).unwrap(), d);
//! ```
//!
//! # Checks
//!
//! Invalid designs do not compile: unknown fields, types keys can't hold, a placeholder of no
//! fixed width (a string, an unpadded number, a type of your own) followed by another with no
//! literal between them (a padded integer, ticks, a time bucket or a GUID may be followed
//! directly: `{at:inverted_ticks}{seq:03}`), forbidden characters in literals, a width that can't hold a declared
//! `max`, `:escaped` on a non-string, `:unpadded` on a non-integer or before a literal that
//! starts with a digit, duplicate or colliding indexes, empty templates, a
//! projection whose fields the design does not have.
//!
//! # What is generated
//!
//! `impl TableEntity` (keys, conversion, index copies), a `{Struct}Key` type (`new`, `parse`,
//! `point_query`) that [`crate::Table::get`] and [`crate::Table::delete`] take, query
//! constructors returning [`crate::query::keyed::KeyQuery`]: `point_query`, `partition_query`,
//! `range_by_{field}` for each RowKey segment (bounds flipped for inverted ticks; none for an
//! unpadded integer, whose keys don't sort as its values),
//! `{field}_starting_with` for text segments, `latest(n)` for inverted-tick RowKeys, the same
//! prefixed with each index's name (`by_email_point_query`, ...); for each PartitionKey template
//! the least-privilege SAS scopes `sas_for_partition` and `sas_for_{field}` (the partitions of a
//! leading field); and a `{Struct}{Index}` type for each index with `project(...)`.
//! [`TableEntity::design`] describes all of it as text built by that code (see
//! [`crate::design`]), for a snapshot test.
//!
//! # Field types
//!
//! Field types map to EDM types without loss: `String`, `bool`, `i32`, `i64` (always Int64),
//! `u8`/`u16`/`i8`/`i16` (widened to Int32), `u32` (widened to Int64), a `u64` or `usize` with
//! a `max` an Int64 holds and an `isize` (Int64), `f64`/`f32` (Double),
//! `Vec<u8>` (Binary), `uuid::Uuid` (Guid), `time::OffsetDateTime` and [`DateTime`] (DateTime,
//! 100 ns), `time::Date` (DateTime, at midnight UTC), and `Option<T>` (a `None` is an absent property). Types the service can't hold
//! (`u128`, `i128`) implement neither trait, so using them is a compile error unless stored
//! `as_string`; `u64`, `usize` and `isize` implement both as Int64, refusing a value over
//! `i64::MAX` rather than wrapping it, and the derive asks a `u64` or `usize` for its `max`. `time` and `uuid` are re-exported (`table_runtime::time`,
//! `table_runtime::uuid`), so one dependency line is enough.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::entity::Entity;
use crate::error::{ErrorCode, StoreError};
use crate::key::encode::KeyEncodingError;
use crate::value::{DateTime, Value};

/// The key of a value, as its fields: what [`crate::Table::get`] and [`crate::Table::delete`]
/// take ([`TableEntity::Key`]). The derive implements it for the generated `{Struct}Key`, so no
/// user code writes a key by hand.
pub trait EntityKey {
    /// The PartitionKey these fields make.
    fn partition_key(&self) -> Result<String, ConversionError>;
    /// The RowKey these fields make.
    fn row_key(&self) -> Result<String, ConversionError>;
}

/// Keys as stored text: the key type of a derived enum (whose variants have keys of their
/// own) and of index projections, and what keys read from elsewhere (a message, another
/// client) are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RawKey {
    /// The PartitionKey.
    pub partition_key: String,
    /// The RowKey.
    pub row_key: String,
}

impl RawKey {
    /// The keys given as text.
    pub fn new(partition_key: impl Into<String>, row_key: impl Into<String>) -> Self {
        RawKey {
            partition_key: partition_key.into(),
            row_key: row_key.into(),
        }
    }
}

impl EntityKey for RawKey {
    fn partition_key(&self) -> Result<String, ConversionError> {
        Ok(self.partition_key.clone())
    }
    fn row_key(&self) -> Result<String, ConversionError> {
        Ok(self.row_key.clone())
    }
}

/// Why a typed entity could not be built from, or turned into, an [`Entity`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversionError {
    /// A required property is absent.
    #[error("property `{property}` is missing")]
    Missing {
        /// The property's name.
        property: String,
    },
    /// A property holds a value of another type, or one out of the field's range.
    #[error("property `{property}` holds {found}, expected {expected}")]
    WrongType {
        /// The property's name.
        property: String,
        /// What the field can hold.
        expected: String,
        /// What the property holds.
        found: String,
    },
    /// A key could not be built or parsed.
    #[error("{key}: {source}")]
    Key {
        /// Which key (`PartitionKey`, `RowKey`, or an index's key).
        key: String,
        /// What went wrong.
        source: KeyEncodingError,
    },
    /// The entity is not of the expected type (its `EntityType` or RowKey prefix belongs to
    /// another type, or to none the reader knows).
    #[error("entity ({partition_key}, {row_key}) is not {expected}{}", found.as_ref().map(|f| format!(": its EntityType is `{f}`")).unwrap_or_default())]
    UnknownEntityType {
        /// The entity's PartitionKey.
        partition_key: String,
        /// The entity's RowKey.
        row_key: String,
        /// The type or types the reader accepts.
        expected: String,
        /// The entity's `EntityType` property, if it has one.
        found: Option<String>,
    },
    /// A write through a type that only reads (a projection): the message names the type to
    /// write through.
    #[error("{0}")]
    ReadOnly(&'static str),
    /// A field stored as JSON could not be (de)serialized.
    #[error("property `{property}` is not valid JSON for its field: {message}")]
    Json {
        /// The property's name.
        property: String,
        /// serde_json's message.
        message: String,
    },
}

impl From<ConversionError> for StoreError {
    fn from(e: ConversionError) -> StoreError {
        StoreError::new(ErrorCode::ConversionFailed, e.to_string())
    }
}

/// A Rust value that can be stored as a property. `None` means "no property".
#[diagnostic::on_unimplemented(
    message = "`{Self}` can't be stored as a table property without loss",
    label = "no EDM type holds every `{Self}`",
    note = "store it as text with `#[table(as_string)]`, or as JSON with `#[table(json)]`"
)]
pub trait IntoValue {
    /// The value to store as property `name`, or `None` for an absent property; an error for a
    /// value no EDM type can hold (a date outside 1601–9999).
    fn to_value(&self, name: &str) -> Result<Option<Value>, ConversionError>;
}

/// A Rust value that can be read back from a property.
#[diagnostic::on_unimplemented(
    message = "`{Self}` can't be read from a table property",
    note = "store it as text with `#[table(as_string)]`, or as JSON with `#[table(json)]`"
)]
pub trait FromValue: Sized {
    /// Reads the value of property `name`; `value` is `None` when the entity lacks it.
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError>;
}

fn describe(value: &Value) -> String {
    match value {
        Value::String(_) => "an Edm.String".into(),
        other => format!("{} {:?}", other.edm_type(), other),
    }
}

fn wrong(name: &str, expected: &str, value: &Value) -> ConversionError {
    ConversionError::WrongType {
        property: name.to_owned(),
        expected: expected.to_owned(),
        found: describe(value),
    }
}

fn required<'v>(name: &str, value: Option<&'v Value>) -> Result<&'v Value, ConversionError> {
    value.ok_or_else(|| ConversionError::Missing {
        property: name.to_owned(),
    })
}

macro_rules! int_value {
    ($($t:ty => $variant:ident),*) => {$(
        impl IntoValue for $t {
            #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
                Ok(Some(Value::$variant((*self).into())))
            }
        }
    )*};
}

int_value!(i8 => Int32, i16 => Int32, i32 => Int32, u8 => Int32, u16 => Int32, u32 => Int64, i64 => Int64);

/// `u64`, `usize` and `isize` are stored as an Int64 when the value fits one; a larger value is
/// refused, never wrapped. The derive takes a `u64` or `usize` field only with a `max` an Int64
/// holds (`#[table(max = N)]`), so its writes never reach the refusal.
macro_rules! wide_int_value {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn to_value(&self, name: &str) -> Result<Option<Value>, ConversionError> {
                i64::try_from(*self)
                    .map(|v| Some(Value::Int64(v)))
                    .map_err(|_| ConversionError::WrongType {
                        property: name.to_owned(),
                        expected: format!(concat!("a ", stringify!($t), " an Int64 holds (at most {})"), i64::MAX),
                        found: self.to_string(),
                    })
            }
        }
    )*};
}

wide_int_value!(u64, usize, isize);

/// Every integer type reads an Int32 or Int64 that fits it, and refuses one that does not.
macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
                let expected = concat!("an integer that fits ", stringify!($t));
                match required(name, value)? {
                    Value::Int32(i) => <$t>::try_from(*i).map_err(|_| wrong(name, expected, &Value::Int32(*i))),
                    Value::Int64(i) => <$t>::try_from(*i).map_err(|_| wrong(name, expected, &Value::Int64(*i))),
                    other => Err(wrong(name, expected, other)),
                }
            }
        }
    )*};
}

int_from_value!(i8, i16, i32, u8, u16, u32, i64, u64, usize, isize);

impl IntoValue for String {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::String(self.clone())))
    }
}
impl FromValue for String {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::String(s) => Ok(s.clone()),
            other => Err(wrong(name, "an Edm.String", other)),
        }
    }
}

impl IntoValue for bool {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::Boolean(*self)))
    }
}
impl FromValue for bool {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::Boolean(b) => Ok(*b),
            other => Err(wrong(name, "an Edm.Boolean", other)),
        }
    }
}

impl IntoValue for f64 {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::Double(*self)))
    }
}
impl FromValue for f64 {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::Double(d) => Ok(*d),
            Value::Int32(i) => Ok(f64::from(*i)),
            other => Err(wrong(name, "an Edm.Double", other)),
        }
    }
}

impl IntoValue for f32 {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::Double(f64::from(*self))))
    }
}
impl FromValue for f32 {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::Double(d) if d.is_nan() || (*d as f32) as f64 == *d => Ok(*d as f32),
            other => Err(wrong(name, "an Edm.Double that fits f32", other)),
        }
    }
}

impl IntoValue for Vec<u8> {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::Binary(self.clone())))
    }
}
impl FromValue for Vec<u8> {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::Binary(b) => Ok(b.clone()),
            other => Err(wrong(name, "an Edm.Binary", other)),
        }
    }
}

impl IntoValue for Uuid {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::Guid(*self)))
    }
}
impl FromValue for Uuid {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::Guid(g) => Ok(*g),
            other => Err(wrong(name, "an Edm.Guid", other)),
        }
    }
}

impl IntoValue for DateTime {
    #[inline]
    fn to_value(&self, _name: &str) -> Result<Option<Value>, ConversionError> {
        Ok(Some(Value::DateTime(*self)))
    }
}
impl FromValue for DateTime {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        match required(name, value)? {
            Value::DateTime(d) => Ok(*d),
            other => Err(wrong(name, "an Edm.DateTime", other)),
        }
    }
}

impl IntoValue for OffsetDateTime {
    /// Truncated to 100 ns; an instant outside 1601-01-01 to 9999-12-31 is an error.
    fn to_value(&self, name: &str) -> Result<Option<Value>, ConversionError> {
        DateTime::from_offset_date_time(*self)
            .map(|d| Some(Value::DateTime(d)))
            .map_err(|e| ConversionError::WrongType {
                property: name.to_owned(),
                expected: "an instant between 1601-01-01 and 9999-12-31".into(),
                found: e.message,
            })
    }
}
impl FromValue for OffsetDateTime {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        DateTime::from_value(name, value).map(DateTime::to_offset_date_time)
    }
}

impl IntoValue for time::Date {
    /// Stored as the Edm.DateTime of its midnight UTC, as .NET writes a `DateTime` that holds
    /// only a date; a day before 1601 is an error.
    fn to_value(&self, name: &str) -> Result<Option<Value>, ConversionError> {
        self.midnight().assume_utc().to_value(name)
    }
}
impl FromValue for time::Date {
    /// The day of an Edm.DateTime at midnight UTC; any other time of day is an error rather than
    /// a time silently dropped.
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        let at = OffsetDateTime::from_value(name, value)?;
        match value {
            Some(v) if at.time() != time::Time::MIDNIGHT => {
                Err(wrong(name, "an Edm.DateTime at midnight UTC (a day)", v))
            }
            _ => Ok(at.date()),
        }
    }
}

impl<T: IntoValue> IntoValue for Option<T> {
    fn to_value(&self, name: &str) -> Result<Option<Value>, ConversionError> {
        match self {
            Some(v) => v.to_value(name),
            None => Ok(None),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
        value.map(|v| T::from_value(name, Some(v))).transpose()
    }
}

/// A struct stored as entities of one table, with keys derived from its fields.
///
/// Usually derived: `#[derive(TableEntity)]` with `#[table(name = "…", partition_key = "…",
/// row_key = "…")]`.
pub trait TableEntity: Sized {
    /// The table's name.
    const TABLE: &'static str;
    /// The key's fields (`EmployeeKey` for `Employee`): what [`crate::Table::get`] takes.
    type Key: EntityKey;
    /// The PartitionKey of this value.
    fn partition_key(&self) -> Result<String, ConversionError>;
    /// The RowKey of this value.
    fn row_key(&self) -> Result<String, ConversionError>;
    /// The entity to store: keys and one property per stored field.
    fn to_entity(&self) -> Result<Entity, ConversionError>;
    /// Reads a value back from a stored entity; an error names the property that is missing
    /// or of the wrong type.
    fn from_entity(entity: &Entity) -> Result<Self, ConversionError>;

    /// The design's secondary indexes.
    const INDEXES: &'static [IndexInfo] = &[];

    /// Why values of this type are never written or deleted, for a type that only reads (a
    /// projection): writes go through its design.
    const READ_ONLY: Option<&'static str> = None;

    /// Each stored field's name and the property it is stored under: what a projection of
    /// this design (`#[table(projection_of = "…")]`) is checked against at compile time.
    const FIELDS: &'static [(&'static str, &'static str)] = &[];

    /// The property names this type reads: a query for it selects only these (`$select`), so a
    /// struct that declares some of an entity's fields is a projection of it.
    const PROPERTIES: &'static [&'static str] = &[];

    /// The fields kept only in the keys (`#[table(key_only)]`): no property holds them, and a
    /// read takes them back from the PartitionKey or RowKey. A projection that declares one
    /// `key_only` too is checked against this list at compile time.
    const KEY_ONLY: &'static [&'static str] = &[];

    /// The discriminator written in the `EntityType` property, for tables that hold several
    /// entity types (`#[table(entity_type = "…")]`).
    const ENTITY_TYPE: Option<&'static str> = None;

    /// Whether this type stands for every entity of its table (a derived enum over the types
    /// stored there): typed queries hand it every entity, and one it can't read is an error.
    /// A plain type (`false`) is handed only its own entities ([`Self::is_own_entity`]), so a
    /// partition shared with other types reads cleanly.
    const IS_UNION: bool = false;

    /// The literal text every RowKey of this type starts with (a type prefix such as
    /// `empid_`), empty if none.
    const ROW_KEY_PREFIX: &'static str = "";

    /// Whether a stored entity is of this type: its `EntityType` property names this type, or,
    /// for a type without one, its RowKey starts with this type's prefix. A type with neither
    /// accepts every entity.
    fn is_own_entity(entity: &Entity) -> bool {
        match Self::ENTITY_TYPE {
            Some(t) => matches!(entity.get(ENTITY_TYPE_PROPERTY), Some(Value::String(s)) if s == t),
            None => entity.row_key.starts_with(Self::ROW_KEY_PREFIX),
        }
    }

    /// The copies of this value for each secondary index, in the order of [`Self::INDEXES`].
    fn index_entities(&self) -> Result<Vec<IndexCopy>, ConversionError> {
        Ok(Vec::new())
    }

    /// The design as stable text, for review and snapshot tests
    /// (`insta::assert_snapshot!(Employee::design())`): the table, each key template with an
    /// example key, each index with where its copies live and how they are kept, and every
    /// generated query with the class and `$filter` of a call. The derive builds the examples
    /// from [`SampleValue`](crate::design::SampleValue)s with the code that writes entities
    /// and calls the generated query constructors; see [`crate::design`]. A hand-written impl
    /// describes what its constants tell (table, entity type, index templates).
    fn design() -> String {
        crate::design::outline::<Self>()
    }
}

/// The property that names an entity's type in tables that hold several types.
pub const ENTITY_TYPE_PROPERTY: &str = "EntityType";

/// The property that holds the version of an entity's type, when it is versioned.
pub const ENTITY_VERSION_PROPERTY: &str = "EntityVersion";

/// A secondary index of a design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexInfo {
    /// The index's name.
    pub name: &'static str,
    /// Whether its copies share the entity's partition (and can be written in the same
    /// transaction).
    pub same_partition: bool,
    /// Whether its copies are kept by eventually consistent maintenance (`eventual`).
    pub eventual: bool,
    /// The copy's PartitionKey template.
    pub partition_key: &'static str,
    /// The copy's RowKey template.
    pub row_key: &'static str,
    /// The type generated to read the copies when they hold only some fields
    /// (`project(...)`), such as `EmployeeByLastName`.
    pub projection: Option<&'static str>,
}

/// One index copy of an entity.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexCopy {
    /// The index it belongs to.
    pub index: &'static IndexInfo,
    /// The copy to store.
    pub entity: Entity,
}

/// Helpers for derived code: property reads and writes with the property's name in errors.
#[doc(hidden)]
pub mod support {
    use super::*;

    /// Writes a field as a property if it has a value.
    #[inline]
    pub fn put<T: IntoValue + ?Sized>(
        entity: &mut Entity,
        name: &str,
        field: &T,
    ) -> Result<(), ConversionError> {
        if let Some(v) = field.to_value(name)? {
            entity.properties.insert(name.to_owned(), v);
        }
        Ok(())
    }

    /// Reads a field from property `name`.
    pub fn get<T: FromValue>(entity: &Entity, name: &str) -> Result<T, ConversionError> {
        T::from_value(name, entity.properties.get(name))
    }

    /// Writes a field as its `Display` text (`#[table(as_string)]`).
    pub fn put_string<T: std::fmt::Display>(entity: &mut Entity, name: &str, field: &T) {
        entity
            .properties
            .insert(name.to_owned(), Value::String(field.to_string()));
    }

    /// Reads a field stored as text (`#[table(as_string)]`).
    pub fn get_string<T: std::str::FromStr>(
        entity: &Entity,
        name: &str,
    ) -> Result<T, ConversionError> {
        let text: String = get(entity, name)?;
        text.parse().map_err(|_| ConversionError::WrongType {
            property: name.to_owned(),
            expected: format!("text that parses as {}", std::any::type_name::<T>()),
            found: format!("{text:?}"),
        })
    }

    /// Checks an entity's `EntityType` (and, if given, that its `EntityVersion` is not newer
    /// than `version`).
    pub fn check_entity_type(
        entity: &Entity,
        expected: &str,
        version: Option<i32>,
    ) -> Result<(), ConversionError> {
        let found = match entity.get(ENTITY_TYPE_PROPERTY) {
            Some(Value::String(s)) => Some(s.as_str()),
            _ => None,
        };
        if found != Some(expected) {
            return Err(ConversionError::UnknownEntityType {
                partition_key: entity.partition_key.clone(),
                row_key: entity.row_key.clone(),
                expected: format!("a `{expected}`"),
                found: found.map(str::to_owned),
            });
        }
        if let Some(ours) = version {
            let theirs: Option<i32> = get(entity, ENTITY_VERSION_PROPERTY)?;
            if let Some(theirs) = theirs.filter(|t| *t > ours) {
                return Err(ConversionError::WrongType {
                    property: ENTITY_VERSION_PROPERTY.to_owned(),
                    expected: format!("version {ours} or older of `{expected}`"),
                    found: format!("version {theirs}"),
                });
            }
        }
        Ok(())
    }

    /// The error for an entity that no variant of a heterogeneous reader accepts.
    pub fn unknown_entity_type(entity: &Entity, expected: &str) -> ConversionError {
        ConversionError::UnknownEntityType {
            partition_key: entity.partition_key.clone(),
            row_key: entity.row_key.clone(),
            expected: expected.to_owned(),
            found: match entity.get(ENTITY_TYPE_PROPERTY) {
                Some(Value::String(s)) => Some(s.clone()),
                _ => None,
            },
        }
    }

    /// Whether two strings are equal, in a constant context (derived code checks at compile
    /// time that the variants of a heterogeneous enum share one table).
    pub const fn const_str_eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether a design stores `field` under `property` (a projection's compile-time check).
    pub const fn stores_field_as(fields: &[(&str, &str)], field: &str, property: &str) -> bool {
        let mut i = 0;
        while i < fields.len() {
            if const_str_eq(fields[i].0, field) && const_str_eq(fields[i].1, property) {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Whether `name` is in a list of names (a projection's compile-time check of a `key_only`
    /// field against the design's [`TableEntity::KEY_ONLY`]).
    pub const fn lists(names: &[&str], name: &str) -> bool {
        let mut i = 0;
        while i < names.len() {
            if const_str_eq(names[i], name) {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The keys a `key_only` field is read back from: an entity's own PartitionKey and RowKey,
    /// or, for an index copy, those of the entity it copies (kept in the copy's markers).
    pub fn primary_keys(entity: &Entity) -> (&str, &str) {
        match crate::index::copy_markers(entity) {
            Some((_, pk, rk)) => (pk, rk),
            None => (&entity.partition_key, &entity.row_key),
        }
    }

    /// Checks a `max_len` bound on a string field (in UTF-16 code units, as the service counts)
    /// or a binary one (in bytes).
    pub fn check_max_len<S: Measured + ?Sized>(
        name: &str,
        value: &S,
        max: usize,
    ) -> Result<(), ConversionError> {
        match value.measure() {
            Some((len, unit)) if len > max => Err(ConversionError::WrongType {
                property: name.to_owned(),
                expected: format!("at most {max} {unit} (`max_len`)"),
                found: format!("{len} {unit}"),
            }),
            _ => Ok(()),
        }
    }

    /// An integer field's value for a bound check: every integer type the derive takes fits an
    /// `i128` (`usize` included, which has no `From` into it); one that did not would be over
    /// any bound.
    pub fn as_i128<T: TryInto<i128>>(value: T) -> i128 {
        value.try_into().unwrap_or(i128::MAX)
    }

    /// Checks an integer field against the design's `max` when the entity is written.
    pub fn check_max_value(name: &str, value: i128, max: u64) -> Result<(), ConversionError> {
        if value > i128::from(max) {
            return Err(ConversionError::WrongType {
                property: name.to_owned(),
                expected: format!("at most {max} (`max`)"),
                found: value.to_string(),
            });
        }
        Ok(())
    }

    /// Checks a stored integer against its declared `min`.
    pub fn check_min_value(name: &str, value: i128, min: u64) -> Result<(), ConversionError> {
        if value < i128::from(min) {
            return Err(ConversionError::WrongType {
                property: name.to_owned(),
                expected: format!("at least {min} (`min`)"),
                found: value.to_string(),
            });
        }
        Ok(())
    }

    /// A field `max_len` bounds: a string or a byte array, or an optional one.
    pub trait Measured {
        /// Its length as `max_len` counts it (UTF-16 code units of text, bytes of a byte
        /// array) and that unit, if there is a value.
        fn measure(&self) -> Option<(usize, &'static str)>;
    }

    impl Measured for str {
        fn measure(&self) -> Option<(usize, &'static str)> {
            Some((crate::key::utf16_len(self), "UTF-16 code units"))
        }
    }

    impl Measured for String {
        fn measure(&self) -> Option<(usize, &'static str)> {
            self.as_str().measure()
        }
    }

    impl Measured for [u8] {
        fn measure(&self) -> Option<(usize, &'static str)> {
            Some((self.len(), "bytes"))
        }
    }

    impl Measured for Vec<u8> {
        fn measure(&self) -> Option<(usize, &'static str)> {
            self.as_slice().measure()
        }
    }

    impl<T: Measured> Measured for Option<T> {
        fn measure(&self) -> Option<(usize, &'static str)> {
            self.as_ref()?.measure()
        }
    }

    /// A key-building error, labelled with the key it was for.
    pub fn key_error(key: &str, source: KeyEncodingError) -> ConversionError {
        ConversionError::Key {
            key: key.to_owned(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_widen_and_check_range() {
        assert_eq!(7u32.to_value("A").unwrap(), Some(Value::Int64(7)));
        assert_eq!(7i16.to_value("A").unwrap(), Some(Value::Int32(7)));
        assert_eq!(u8::from_value("A", Some(&Value::Int32(255))).unwrap(), 255);
        let err = u8::from_value("A", Some(&Value::Int32(256))).unwrap_err();
        assert!(err.to_string().contains("`A`"), "{err}");
        assert_eq!(i64::from_value("A", Some(&Value::Int32(5))).unwrap(), 5);
    }

    #[test]
    fn missing_and_wrong_types_name_the_property() {
        let err = String::from_value("Name", None).unwrap_err();
        assert_eq!(err.to_string(), "property `Name` is missing");
        let err = bool::from_value("Active", Some(&Value::Int32(1))).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("property `Active` holds Edm.Int32"),
            "{err}"
        );
        assert_eq!(Option::<i32>::from_value("X", None).unwrap(), None);
        assert!(Option::<i32>::from_value("X", Some(&Value::Boolean(true))).is_err());
    }
}

/// `chrono::DateTime<Utc>` fields (feature `chrono`): stored as Edm.DateTime, truncated to
/// 100 ns, and usable as time key segments.
#[cfg(feature = "chrono")]
mod chrono_support {
    use chrono::{TimeZone, Utc};

    use super::{ConversionError, FromValue, IntoValue};
    use crate::design::SampleValue;
    use crate::key::encode::KeyEncodingError;
    use crate::key::segment::{Follows, KeySegment, TimeFormat, TimeSegment};
    use crate::value::{DateTime, UNIX_EPOCH_TICKS, Value};

    fn to_datetime(t: &chrono::DateTime<Utc>) -> Result<DateTime, String> {
        let ticks = t.timestamp().checked_mul(10_000_000).and_then(|s| {
            s.checked_add(i64::from(t.timestamp_subsec_nanos() / 100))
                .and_then(|t| t.checked_add(UNIX_EPOCH_TICKS))
        });
        ticks
            .ok_or_else(|| format!("{t} is out of range"))
            .and_then(|ticks| DateTime::from_ticks(ticks).map_err(|e| e.message))
    }

    fn from_datetime(at: DateTime) -> chrono::DateTime<Utc> {
        let since_epoch = at.ticks() - UNIX_EPOCH_TICKS;
        let secs = since_epoch.div_euclid(10_000_000);
        let nanos = (since_epoch.rem_euclid(10_000_000) * 100) as u32;
        Utc.timestamp_opt(secs, nanos).single().unwrap_or_default()
    }

    impl IntoValue for chrono::DateTime<Utc> {
        fn to_value(&self, name: &str) -> Result<Option<Value>, ConversionError> {
            to_datetime(self)
                .map(|d| Some(Value::DateTime(d)))
                .map_err(|found| ConversionError::WrongType {
                    property: name.to_owned(),
                    expected: "an instant between 1601-01-01 and 9999-12-31".into(),
                    found,
                })
        }
    }

    impl FromValue for chrono::DateTime<Utc> {
        fn from_value(name: &str, value: Option<&Value>) -> Result<Self, ConversionError> {
            DateTime::from_value(name, value).map(from_datetime)
        }
    }

    impl SampleValue for chrono::DateTime<Utc> {
        /// The instants of [`DateTime`]'s samples: 2026-03-01 10:30 UTC, an hour later for
        /// each next one.
        fn sample(field: &str, n: u8) -> Self {
            from_datetime(DateTime::sample(field, n))
        }

        fn describe(&self) -> String {
            to_datetime(self).map_or_else(|e| e, |d| d.to_string())
        }
    }

    impl TimeSegment for chrono::DateTime<Utc> {
        fn to_key_time(&self) -> Result<DateTime, KeyEncodingError> {
            to_datetime(self).map_err(KeyEncodingError)
        }
        fn from_key_time(at: DateTime) -> Self {
            from_datetime(at)
        }
    }

    impl KeySegment for chrono::DateTime<Utc> {
        fn push_key(&self, out: &mut String, _: Follows<'_>) -> Result<(), KeyEncodingError> {
            self.push_time(out, TimeFormat::Iso8601)
        }
        fn parse_key<'t>(
            text: &'t str,
            _: Follows<'_>,
        ) -> Result<(Self, &'t str), KeyEncodingError> {
            Self::parse_time(text, TimeFormat::Iso8601)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn chrono_round_trips_at_100_ns() {
            let t = Utc.timestamp_opt(1_714_558_830, 123_456_789).unwrap();
            let v = t.to_value("T").unwrap().unwrap();
            assert_eq!(
                v,
                Value::DateTime(DateTime::parse("2024-05-01T10:20:30.1234567Z").unwrap())
            );
            let back = chrono::DateTime::<Utc>::from_value("T", Some(&v)).unwrap();
            assert_eq!(back, Utc.timestamp_opt(1_714_558_830, 123_456_700).unwrap());
            let mut key = String::new();
            back.push_time(&mut key, TimeFormat::InvertedTicks).unwrap();
            assert_eq!(
                chrono::DateTime::<Utc>::parse_time(&key, TimeFormat::InvertedTicks)
                    .unwrap()
                    .0,
                back
            );
        }

        #[test]
        fn chrono_samples_are_the_runtime_instants() {
            let at = chrono::DateTime::<Utc>::sample("at", 1);
            assert_eq!(at.describe(), DateTime::sample("at", 1).describe());
            assert_eq!(at.describe(), "2026-03-01T10:30:00.0000000Z");
        }

        #[cfg(feature = "derive")]
        #[test]
        fn chrono_key_fields_have_design_examples() {
            use crate::TableEntity;

            #[derive(crate::TableEntity)]
            #[table(name = "Visits", partition_key = "{site}", row_key = "{at:ticks}")]
            struct Visit {
                site: String,
                at: chrono::DateTime<Utc>,
            }

            let visit = Visit {
                site: "Site1".into(),
                at: chrono::DateTime::<Utc>::sample("at", 1),
            };
            let text = Visit::design();
            let row_key = format!("RowKey: {{at:ticks}} -> {}\n", visit.row_key().unwrap());
            assert!(text.contains(&row_key), "{text}");
        }
    }
}
