//! README's "Snapshot-testing your design" prints the design of its `Employee`: the printed text
//! must be what `design()` returns for that struct, so the README can't drift from the derive.

use table_runtime::TableEntity;

/// The struct of README's section, field for field.
#[derive(TableEntity)]
#[table(
    name = "Employees",
    partition_key = "{department}",
    row_key = "empid_{employee_id:06}"
)]
#[table(index(name = "by_email", row_key = "email_{email}"))]
#[allow(dead_code)]
struct Employee {
    department: String,
    #[table(max = 999_999)]
    employee_id: u32,
    email: String,
}

/// The text of the first ```text block after `heading` in README.
fn printed_after(heading: &str) -> String {
    let readme = include_str!("../../README.md");
    let section = &readme[readme
        .find(heading)
        .unwrap_or_else(|| panic!("README has no `{heading}`"))..];
    let start = section.find("```text\n").expect("a ```text block") + "```text\n".len();
    let end = section[start..].find("```").expect("the block's end");
    section[start..start + end].to_owned()
}

#[test]
fn readme_shows_the_real_design_text() {
    let printed = printed_after("## Snapshot-testing your design");
    assert_eq!(printed, Employee::design());
}

#[test]
fn readme_struct_is_this_one() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("## Snapshot-testing your design").unwrap()..];
    for line in [
        r#"#[table(name = "Employees", partition_key = "{department}", row_key = "empid_{employee_id:06}")]"#,
        r#"#[table(index(name = "by_email", row_key = "email_{email}"))]"#,
        "    #[table(max = 999_999)]\n    employee_id: u32,",
    ] {
        assert!(section.contains(line), "README's struct changed: `{line}`");
    }
}
