//! The service's limits, as settings of the store.
//!
//! Where the service's exact boundary is known the default is that boundary. Where it is not
//! settled (the longest string property: the emulator accepts 32,768 UTF-16 units, the service is
//! reported to refuse exactly 32,768) the default is the stricter value, and the field can be
//! changed for a store that must mirror another deployment.

/// Limits the store enforces on every write and query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest PartitionKey or RowKey in UTF-16 code units. The service documents 1 KiB; the
    /// emulator accepts 512 units and refuses 513, which is 1 KiB of UTF-16.
    pub max_key_utf16: usize,
    /// Longest string property in UTF-16 code units. The service documents 64 KiB of UTF-16
    /// (32,768 units) but is reported to refuse exactly 32,768, so the default is 32,767.
    pub max_string_utf16: usize,
    /// Longest binary property in bytes (64 KiB: 65,536 accepted, 65,537 refused).
    pub max_binary_bytes: usize,
    /// Most user properties in one entity: 255 including PartitionKey, RowKey and Timestamp.
    pub max_user_properties: usize,
    /// Longest property name in characters.
    pub max_property_name_len: usize,
    /// Largest entity in bytes, by the service's size formula (see
    /// [`crate::entity::Entity::service_size`]): 1 MiB.
    pub max_entity_bytes: usize,
    /// Most operations in one entity group transaction.
    pub max_batch_operations: usize,
    /// Largest transaction payload in bytes: 4 MiB.
    pub max_batch_bytes: usize,
    /// Most entities in one page of query results.
    pub max_page_size: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_key_utf16: 512,
            max_string_utf16: 32_767,
            max_binary_bytes: 65_536,
            max_user_properties: 252,
            max_property_name_len: 255,
            max_entity_bytes: 1024 * 1024,
            max_batch_operations: 100,
            max_batch_bytes: 4 * 1024 * 1024,
            max_page_size: 1000,
        }
    }
}
