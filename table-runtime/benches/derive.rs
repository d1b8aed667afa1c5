//! Generated key formatting and entity conversion against hand-written `format!` code doing the
//! same work, in the same run. The target: the generated code is not slower.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use table_runtime::{Entity, TableEntity, Value};

#[derive(Debug, Clone, TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(rename_all = "PascalCase")]
struct Employee {
    department: String,
    employee_id: u32,
    email: String,
    first_name: String,
    last_name: String,
    age: i32,
}

/// What a careful hand-written conversion does: the same keys with `format!`, the same
/// properties with the same EDM types.
fn hand_written_keys(e: &Employee) -> (String, String) {
    (e.department.clone(), format!("empid_{:06}", e.employee_id))
}

fn hand_written_entity(e: &Employee) -> Entity {
    let (pk, rk) = hand_written_keys(e);
    let mut entity = Entity::new(pk, rk);
    entity
        .properties
        .insert("Department".into(), Value::String(e.department.clone()));
    entity
        .properties
        .insert("EmployeeId".into(), Value::Int64(i64::from(e.employee_id)));
    entity
        .properties
        .insert("Email".into(), Value::String(e.email.clone()));
    entity
        .properties
        .insert("FirstName".into(), Value::String(e.first_name.clone()));
    entity
        .properties
        .insert("LastName".into(), Value::String(e.last_name.clone()));
    entity.properties.insert("Age".into(), Value::Int32(e.age));
    entity
}

fn sample() -> Employee {
    Employee {
        department: "Sales".into(),
        employee_id: 4242,
        email: "ann.smith@contoso.com".into(),
        first_name: "Ann".into(),
        last_name: "Smith".into(),
        age: 31,
    }
}

fn keys(c: &mut Criterion) {
    let e = sample();
    let mut group = c.benchmark_group("keys");
    group.bench_function("generated", |b| {
        b.iter(|| {
            let e = black_box(&e);
            (e.partition_key().unwrap(), e.row_key().unwrap())
        })
    });
    group.bench_function("format", |b| b.iter(|| hand_written_keys(black_box(&e))));
    group.finish();
}

fn to_entity(c: &mut Criterion) {
    let e = sample();
    assert_eq!(e.to_entity().unwrap(), hand_written_entity(&e));
    let mut group = c.benchmark_group("to_entity");
    group.bench_function("generated", |b| {
        b.iter(|| black_box(&e).to_entity().unwrap())
    });
    group.bench_function("format", |b| b.iter(|| hand_written_entity(black_box(&e))));
    group.finish();
}

criterion_group!(benches, keys, to_entity);
criterion_main!(benches);
