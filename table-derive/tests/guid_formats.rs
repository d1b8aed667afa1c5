//! GUIDs in keys: hyphenated by default, or `{id:simple}` (`{id:N}`), the 32 lowercase hex
//! digits .NET's `Guid.ToString("N")` and Python's `uuid4().hex` write.

use table_runtime::TableEntity;
use table_runtime::uuid::Uuid;

#[derive(Debug, Clone, PartialEq, TableEntity)]
#[table(
    name = "Notes",
    partition_key = "{tenant:N}",
    row_key = "{note:simple}{rev:03}"
)]
struct Note {
    tenant: Uuid,
    note: Uuid,
    #[table(max = 999)]
    rev: u16,
    text: String,
}

fn note() -> Note {
    Note {
        tenant: Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
        note: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        rev: 7,
        text: "hi".into(),
    }
}

#[test]
fn simple_guids_write_and_read_back() {
    let n = note();
    assert_eq!(
        n.partition_key().unwrap(),
        "0123456789abcdef0123456789abcdef"
    );
    assert_eq!(n.row_key().unwrap(), "67e5504410b1426f9247bb680e5fe0c8007");
    let key = NoteKey::parse(&n.partition_key().unwrap(), &n.row_key().unwrap()).unwrap();
    assert_eq!(key, n.key());
    assert_eq!(Note::from_entity(&n.to_entity().unwrap()).unwrap(), n);
}

#[test]
fn keys_of_another_shape_are_refused() {
    let pk = note().partition_key().unwrap();
    for rk in [
        "67E5504410B1426F9247BB680E5FE0C8007",
        "67e55044-10b1-426f-9247-bb680e5fe0c8007",
        "67e5504410b1426f9247bb680e5fe0c8",
    ] {
        assert!(NoteKey::parse(&pk, rk).is_err(), "{rk}");
    }
}
