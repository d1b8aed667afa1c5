//! The property a field becomes in a stored entity: its EDM type and whether it may be
//! absent, as the derive's generated `to_entity` writes it (`put`, `put_json`, `put_string`).

use crate::ast::{Field, TypeKind};

/// The EDM types of property values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdmType {
    /// `Edm.String`.
    String,
    /// `Edm.Int32`.
    Int32,
    /// `Edm.Int64`.
    Int64,
    /// `Edm.Double`.
    Double,
    /// `Edm.Boolean`.
    Boolean,
    /// `Edm.DateTime`.
    DateTime,
    /// `Edm.Guid`.
    Guid,
    /// `Edm.Binary`.
    Binary,
}

impl EdmType {
    /// The name on the wire, `Edm.String`.
    pub fn name(self) -> &'static str {
        match self {
            EdmType::String => "Edm.String",
            EdmType::Int32 => "Edm.Int32",
            EdmType::Int64 => "Edm.Int64",
            EdmType::Double => "Edm.Double",
            EdmType::Boolean => "Edm.Boolean",
            EdmType::DateTime => "Edm.DateTime",
            EdmType::Guid => "Edm.Guid",
            EdmType::Binary => "Edm.Binary",
        }
    }

    /// The type the runtime stores a value of this kind as (its `IntoValue` impls): 8- and
    /// 16-bit integers and `i32` as Int32, `u32`, `i64` and `u64` (which the derive takes only
    /// with a `max` an Int64 holds) as Int64, floats as Double, times as DateTime. `None` for a
    /// type of the user's own (its impl decides) and for 128-bit integers, which no EDM type
    /// holds; an `Option` is its inner type.
    pub fn of_kind(kind: &TypeKind) -> Option<EdmType> {
        Some(match kind {
            TypeKind::String => EdmType::String,
            TypeKind::Integer { bits, signed } => match (bits, signed) {
                (8 | 16, _) | (32, true) => EdmType::Int32,
                // A `u64` the derive takes is bounded by a `max` an Int64 holds.
                (32, false) | (64, _) => EdmType::Int64,
                _ => return None,
            },
            TypeKind::Float => EdmType::Double,
            TypeKind::Bool => EdmType::Boolean,
            TypeKind::Bytes => EdmType::Binary,
            TypeKind::Uuid => EdmType::Guid,
            TypeKind::Time | TypeKind::Date => EdmType::DateTime,
            TypeKind::Option(inner) => return EdmType::of_kind(inner),
            TypeKind::Other => return None,
        })
    }
}

impl std::fmt::Display for EdmType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How a field is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Not stored (`skip`): read back as its default.
    Skipped,
    /// No property (`key_only`): read back from the primary keys.
    KeyOnly,
    /// One property under the field's property name.
    Property {
        /// Its EDM type, or `None` when the field's own type decides (a type of the user's).
        edm: Option<EdmType>,
        /// Whether an entity may lack it: an `Option` stored directly writes nothing for
        /// `None`. A `json` field is written even when it is `None` (as `null`), and an
        /// `as_string` one always.
        optional: bool,
    },
}

impl Storage {
    /// How the derive stores `field`.
    pub fn of(field: &Field) -> Storage {
        if field.skip {
            Storage::Skipped
        } else if field.key_only {
            Storage::KeyOnly
        } else if field.json || field.as_string {
            Storage::Property {
                edm: Some(EdmType::String),
                optional: false,
            }
        } else {
            Storage::Property {
                edm: EdmType::of_kind(&field.kind),
                optional: matches!(field.kind, TypeKind::Option(_)),
            }
        }
    }

    /// Whether every entity of the design holds the property.
    pub fn required(self) -> bool {
        matches!(
            self,
            Storage::Property {
                optional: false,
                ..
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_stored_as_the_runtime_writes_them() {
        let design = crate::design(&syn::parse_quote! {
            #[table(name = "Shapes", partition_key = "{name}", row_key = "r")]
            struct Shapes {
                name: String,
                small: u8,
                signed: i32,
                count: u32,
                big: i64,
                ratio: f32,
                flag: bool,
                data: Vec<u8>,
                id: Uuid,
                at: OffsetDateTime,
                note: Option<String>,
                #[table(json)]
                tags: Option<Vec<String>>,
                #[table(as_string)]
                huge: u64,
                #[table(skip)]
                cache: u32,
                code: CountryCode,
            }
        })
        .unwrap();
        let storage = |name: &str| Storage::of(design.field(name).unwrap());
        let typed = |edm| Storage::Property {
            edm: Some(edm),
            optional: false,
        };
        assert_eq!(storage("name"), typed(EdmType::String));
        assert_eq!(storage("small"), typed(EdmType::Int32));
        assert_eq!(storage("signed"), typed(EdmType::Int32));
        assert_eq!(storage("count"), typed(EdmType::Int64));
        assert_eq!(storage("big"), typed(EdmType::Int64));
        assert_eq!(storage("ratio"), typed(EdmType::Double));
        assert_eq!(storage("flag"), typed(EdmType::Boolean));
        assert_eq!(storage("data"), typed(EdmType::Binary));
        assert_eq!(storage("id"), typed(EdmType::Guid));
        assert_eq!(storage("at"), typed(EdmType::DateTime));
        assert_eq!(
            storage("note"),
            Storage::Property {
                edm: Some(EdmType::String),
                optional: true
            }
        );
        assert!(!storage("note").required());
        assert_eq!(storage("tags"), typed(EdmType::String));
        assert_eq!(storage("huge"), typed(EdmType::String));
        assert_eq!(storage("cache"), Storage::Skipped);
        assert!(!storage("cache").required());
        assert_eq!(
            storage("code"),
            Storage::Property {
                edm: None,
                optional: false
            }
        );
        assert_eq!(EdmType::Double.to_string(), "Edm.Double");
    }
}
