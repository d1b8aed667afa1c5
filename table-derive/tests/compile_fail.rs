//! Compile-fail and pass cases of `#[derive(TableEntity)]`, checked with trybuild: every design
//! error is reported at the attribute literal or field at fault, with the intended message.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail_*.rs");
    t.pass("tests/ui/pass_*.rs");
}
