//! TK008 `text-segment-separator`: a verbatim text segment ended by a separator that ordinary
//! text holds.

use table_derive_internals::ast::TypeKind;
use table_derive_internals::template::{Part, SegmentFormat};

use super::keys;
use super::{Check, EntityContext, Finding, Level, Rule};

/// Characters that names, emails, titles and other free text hold often enough that a value
/// holding one is to be expected.
const TEXT_CHARACTERS: &[char] = &[
    ' ', '-', '.', ',', '\'', '@', ':', '+', '&', '(', ')', '"', '!',
];

/// The characters besides ASCII letters and digits that IoT Hub (and DPS) allow in a device or
/// module id, as its documentation lists them: `sensor_01` and `bay-3:pump` are ordinary ids.
const DEVICE_ID_CHARACTERS: &[char] = &[
    '-', ':', '.', '+', '%', '_', '#', '*', '?', '!', '(', ')', ',', '=', '@', ';', '$', '\'',
];

/// Whether a field's name says it holds an IoT Hub device or module id (`device_id`,
/// `deviceId`, `device`, `iot_module_id`), whose values take the characters IoT Hub allows
/// rather than those free text holds.
fn names_a_device_id(field: &str) -> bool {
    let name: String = field
        .chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    name == "device" || name.ends_with("deviceid") || name.ends_with("moduleid")
}

/// The characters a field's values are expected to hold, and what they are called in a
/// message: an IoT Hub id's for a field named as one, free text's otherwise.
fn characters_of(field: &str) -> (&'static [char], &'static str) {
    if names_a_device_id(field) {
        (DEVICE_ID_CHARACTERS, "an IoT Hub device id may hold")
    } else {
        (TEXT_CHARACTERS, "text often holds")
    }
}

/// The rule.
pub static RULE: Rule = Rule {
    code: "TK008",
    name: "text-segment-separator",
    default_level: Level::Note,
    pattern: "compound keys",
    summary: "a `String` segment ended by a separator that ordinary text holds (space, `-`, `.`, `@`, ...): the runtime refuses such values when it builds the key",
    docs: r#"## What it flags
A `String` placeholder written verbatim (the default) with more key after it, where the literal
that ends it is made of characters that free text commonly holds: a space, `-`, `.`, `,`, `'`,
`@`, `:`, `+`, `&`, parentheses, `"` or `!` (`"{name}-{id}"`, `"{email}.{day:date}"`).
Separators such as `_`, `|` or `~`, `:escaped` segments, and a segment that ends the key are not
flagged.

A field named as an IoT Hub device or module id (`device_id`, `deviceId`, `device`) is judged by
the characters IoT Hub allows in such an id instead: besides letters and digits,
`- : . + % _ # * ? ! ( ) , = @ ; $ '`. So `"{device_id}_{metric}"` is flagged (`sensor_01` is
an ordinary device id), and `"{device_id}|{metric}"` is not.

It is a note: the runtime refuses such a value when the key is built (an error, never a wrong
key), so the finding is a risk to weigh against the values the field really holds.

## Why it is bad
A verbatim segment is read back by splitting the key at the first separator after it, so a value
that holds the separator would read back as other values (`("a-b", 1)` and `("a", "b-1")` would
share a key). The runtime refuses such a value when the key is built, an error and never a wrong
key, but a separator that names and emails hold turns everyday input into failed writes.

## Example
```rust
#[table(name = "People", partition_key = "{team}", row_key = "{last_name}-{person_id}")]
```

## Fix
End the segment with a character its values never hold (`"{last_name}_{person_id}"`, after
checking that the field can't hold `_`), move the text to the end of the key, or write it
`{last_name:escaped}` (any text fits, and compound keys sort exactly like the values, at the
price of keys other clients don't write). If the field is validated on input so that it can never
hold the separator, allow TK008 with that reason.

## From the guides
The compound key pattern: keys built from several values need a separator that can't appear in
the values, so that each key is unique and can be taken apart."#,
    options: &[],
    check: Check::Entity(check),
};

fn check(ctx: &EntityContext<'_>, out: &mut Vec<Finding>) {
    for k in keys::all(ctx.design) {
        let parts = &k.key.template.parts;
        for (i, part) in parts.iter().enumerate() {
            let Part::Placeholder {
                field,
                format: SegmentFormat::Default,
            } = part
            else {
                continue;
            };
            if !ctx
                .design
                .field(field)
                .is_some_and(|f| *f.kind.value() == TypeKind::String)
            {
                continue;
            }
            let Some(Part::Literal(separator)) = parts.get(i + 1) else {
                continue;
            };
            let (held, holder) = characters_of(field);
            let Some(c) = separator.chars().find(|c| held.contains(c)) else {
                continue;
            };
            let (start, end) = keys::part_position(k.key, i);
            out.push(Finding::at(
                start,
                end,
                format!(
                    "`{{{field}}}` in {} `{}` ends at `{separator}`, and {holder} {}: the runtime refuses a `{field}` holding it when it builds the key (the service would take it, but the key could not be read back apart)",
                    k.label,
                    k.key.template.text,
                    if c == ' ' { "a space".to_owned() } else { format!("`{c}`") }
                ),
                format!(
                    "end `{{{field}}}` with a character its values never hold ({}), or write `{{{field}:escaped}}`",
                    if held == DEVICE_ID_CHARACTERS { "`|` or `~`" } else { "`_` or `|`" }
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    fn found(text: &str) -> Vec<String> {
        super::super::findings_of("TK008", text)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    /// A device id is judged by the characters IoT Hub allows in one, which include `_`; other
    /// text keeps `_` as a separator it rarely holds.
    #[test]
    fn a_device_id_is_judged_by_the_characters_iot_hub_allows() {
        let device = found(
            r#"
            #[derive(TableEntity)]
            #[table(name = "Telemetry", partition_key = "{device_id}_{kind}", row_key = "{at:ticks}")]
            struct Reading { device_id: String, kind: String, at: OffsetDateTime }
            "#,
        );
        assert_eq!(device.len(), 1, "{device:?}");
        assert!(
            device[0].contains("an IoT Hub device id may hold `_`"),
            "{}",
            device[0]
        );
        for quiet in [
            // `|` is not in a device id.
            r#"
            #[derive(TableEntity)]
            #[table(name = "Telemetry", partition_key = "{device_id}|{kind}", row_key = "{at:ticks}")]
            struct Reading { device_id: String, kind: String, at: OffsetDateTime }
            "#,
            // `_` after a name is still taken as a separator names rarely hold.
            r#"
            #[derive(TableEntity)]
            #[table(name = "Telemetry", partition_key = "{site}_{kind}", row_key = "{at:ticks}")]
            struct Reading { site: String, kind: String, at: OffsetDateTime }
            "#,
            // A device id that ends the key is read back whole.
            r#"
            #[derive(TableEntity)]
            #[table(name = "Devices", partition_key = "{site}", row_key = "{kind}_{device_id}")]
            struct Device { site: String, kind: String, device_id: String }
            "#,
        ] {
            let found = found(quiet);
            assert!(found.is_empty(), "{found:?}");
        }
    }
}
