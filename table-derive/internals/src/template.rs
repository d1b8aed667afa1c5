//! Key templates: literal text with `{field}` or `{field:format}` placeholders, in the spirit of
//! format strings (`{{` and `}}` stand for literal braces).

use std::fmt;

use crate::date_pattern::{self, DatePart, DatePattern, Unit};

/// How a placeholder's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SegmentFormat {
    /// The type's default: strings verbatim (as written, refused at write time when they
    /// hold a forbidden character or the separator that ends them), integers padded to their
    /// type's width, times as ISO 8601, GUIDs hyphenated. `{code:raw}` is a synonym.
    Default,
    /// An integer zero-padded to this many digits (`{id:06}` or `{id:6}`).
    Width(usize),
    /// An integer as its plain decimal text, `-` before a negative one (`{id:unpadded}`): the
    /// form of keys written with `id.ToString()`. Such keys sort as text (`1`, `10`, `2`), not
    /// as numbers; the format exists to read and write keys that a table already holds.
    Unpadded,
    /// An integer counted down from the largest value the field holds (`{seq:inverted}`):
    /// that value minus the field's, zero-padded to the value's digits, so the largest come
    /// first, as .NET's `(int.MaxValue - seq).ToString("D10")` writes them. The largest value is
    /// the field's `max`, or its type's (`i32`: 2147483647); the design fills it in (0 until it
    /// is read against the field).
    Inverted(u64),
    /// Ascending 100 ns ticks, 19 digits (`{at:ticks}`).
    Ticks,
    /// Ascending 100 ns ticks as plain decimal text (`{at:unpadded_ticks}`), as .NET's
    /// `DateTime.UtcNow.Ticks.ToString()` writes them: 18 digits from 1601 to 3169, 19 after.
    UnpaddedTicks,
    /// .NET inverted ticks, 19 digits, newest first (`{at:inverted_ticks}`).
    InvertedTicks,
    /// Fixed-width ISO 8601 UTC (`{at:iso}`).
    Iso,
    /// Unix time, the count of seconds or milliseconds since 1970-01-01 UTC, zero-padded to
    /// the digits 2286 needs: `{at:unix}` (10 digits, Python's `int(time.time())`) and
    /// `{at:unix_ms}` (13 digits, JavaScript's `Date.now()`, Java's
    /// `System.currentTimeMillis()`); `{at:inverted_unix}` and `{at:inverted_unix_ms}` subtract
    /// the count from the largest those digits hold (`9999999999999 - Date.now()`), newest first.
    Unix(Unix),
    /// The UTC month, day or hour holding a time: `{at:month}` (`2024-05`), `{at:date}`
    /// (`2024-05-01`), `{at:hour}` (`2024-05-01T10`), or the compact forms .NET code writes
    /// with `ToString`: `{at:yyyyMM}`, `{at:yyyyMMdd}`, `{at:yyyyMMddHH}`.
    Bucket(Bucket),
    /// A string escaped into an order-preserving, reversible form (`{name:escaped}`): any
    /// text fits, and compound keys sort exactly like the values, at the price of keys that
    /// other clients don't write (`ann@contoso..com`).
    Escaped,
    /// A GUID as 32 lowercase hex digits without hyphens (`{id:simple}`, or `{id:N}` as .NET
    /// writes `Guid.ToString("N")`): the keys Python's `uuid4().hex` and .NET's "N" format
    /// write.
    Simple,
    /// A custom date-time pattern, as .NET's `ToString("yyyyMMddHHmmss")` or Python's
    /// `strftime("%Y-%m-%d %H:%M:%S")` write it (`{at:yyyy-MM-dd HH:mm:ss}`): fixed-width units
    /// from a four-digit year down to a fraction of a second, with separators between them.
    Pattern(DatePattern),
}

impl SegmentFormat {
    /// Whether the format is one of the time formats.
    pub fn is_time(self) -> bool {
        matches!(
            self,
            SegmentFormat::Ticks
                | SegmentFormat::UnpaddedTicks
                | SegmentFormat::InvertedTicks
                | SegmentFormat::Iso
                | SegmentFormat::Unix(_)
                | SegmentFormat::Bucket(_)
                | SegmentFormat::Pattern(_)
        )
    }

    /// Whether the format writes a whole instant at its grain (ticks, ISO 8601, Unix time), as
    /// opposed to a bucket that names the period holding it.
    pub fn is_instant(self) -> bool {
        match self {
            SegmentFormat::Ticks
            | SegmentFormat::UnpaddedTicks
            | SegmentFormat::InvertedTicks
            | SegmentFormat::Iso
            | SegmentFormat::Unix(_) => true,
            // A pattern down to the second writes an instant at that grain; a coarser one names
            // the minute, hour or day that holds it, as a bucket does.
            SegmentFormat::Pattern(pattern) => pattern.finest() >= Unit::Second,
            _ => false,
        }
    }

    /// The characters every value takes in this format, whatever the field's type, when the
    /// format fixes them: a width, ticks, ISO 8601, Unix time, a bucket, a GUID's 32 hex digits.
    pub fn fixed_width(self) -> Option<usize> {
        use crate::keyspace::{ISO_WIDTH, SIMPLE_GUID_WIDTH, TICKS_WIDTH};
        match self {
            SegmentFormat::Width(width) => Some(width),
            SegmentFormat::Ticks | SegmentFormat::InvertedTicks => Some(TICKS_WIDTH),
            SegmentFormat::Iso => Some(ISO_WIDTH),
            SegmentFormat::Unix(unix) => Some(unix.width()),
            SegmentFormat::Bucket(bucket) => Some(bucket.width()),
            SegmentFormat::Simple => Some(SIMPLE_GUID_WIDTH),
            SegmentFormat::Pattern(pattern) => Some(pattern.width()),
            SegmentFormat::Inverted(top) if top > 0 => Some(crate::ast::digits(top)),
            SegmentFormat::Default
            | SegmentFormat::Unpadded
            | SegmentFormat::Escaped
            | SegmentFormat::UnpaddedTicks
            | SegmentFormat::Inverted(_) => None,
        }
    }

    /// Whether later times sort first (inverted ticks, inverted Unix time).
    pub fn newest_first(self) -> bool {
        matches!(
            self,
            SegmentFormat::InvertedTicks
                | SegmentFormat::Unix(Unix { inverted: true, .. })
                | SegmentFormat::Inverted(_)
        )
    }

    /// The format as written after the colon, empty for the default.
    pub fn spec(self) -> String {
        match self {
            SegmentFormat::Default => String::new(),
            SegmentFormat::Width(w) => format!("0{w}"),
            SegmentFormat::Unpadded => "unpadded".into(),
            SegmentFormat::Inverted(_) => "inverted".into(),
            SegmentFormat::Ticks => "ticks".into(),
            SegmentFormat::UnpaddedTicks => "unpadded_ticks".into(),
            SegmentFormat::InvertedTicks => "inverted_ticks".into(),
            SegmentFormat::Iso => "iso".into(),
            SegmentFormat::Unix(unix) => unix.spec().into(),
            SegmentFormat::Bucket(bucket) => bucket.spec().into(),
            SegmentFormat::Escaped => "escaped".into(),
            SegmentFormat::Simple => "simple".into(),
            SegmentFormat::Pattern(pattern) => pattern.spec(),
        }
    }
}

/// How long a time bucket lasts (UTC calendar units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Grain {
    /// An hour.
    Hour,
    /// A day.
    Day,
    /// A month.
    Month,
}

impl Grain {
    /// The unit's name: `hour`, `day`, `month`.
    pub fn name(self) -> &'static str {
        match self {
            Grain::Hour => "hour",
            Grain::Day => "day",
            Grain::Month => "month",
        }
    }
}

/// How a format of a naming table (`Unix::ALL`, `Bucket::ALL`) is written after the colon;
/// every value of those types has a row.
fn spelling<T: PartialEq>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(spec, _)| spec)
}

/// The format a naming table spells `spec`.
fn spelled<T: Copy>(table: &[(&'static str, T)], spec: &str) -> Option<T> {
    table
        .iter()
        .find(|(name, _)| *name == spec)
        .map(|(_, v)| *v)
}

/// A Unix time format: the unit it counts and whether it counts down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unix {
    /// Milliseconds rather than seconds.
    pub millis: bool,
    /// The count subtracted from the largest the digits hold, so the newest sorts first.
    pub inverted: bool,
}

impl Unix {
    /// Every Unix time format, with the text that names it after the colon.
    pub const ALL: [(&'static str, Unix); 4] = [
        ("unix", Unix::new(false, false)),
        ("unix_ms", Unix::new(true, false)),
        ("inverted_unix", Unix::new(false, true)),
        ("inverted_unix_ms", Unix::new(true, true)),
    ];

    /// The format for this unit and direction.
    pub const fn new(millis: bool, inverted: bool) -> Unix {
        Unix { millis, inverted }
    }

    /// The format as written after the colon (`unix_ms`, ...).
    pub fn spec(self) -> &'static str {
        spelling(&Unix::ALL, self)
    }

    /// The digits every key of this format takes: 10 for seconds, 13 for milliseconds (enough
    /// until 2286-11-20).
    pub fn width(self) -> usize {
        if self.millis { 13 } else { 10 }
    }

    /// The largest count the digits hold.
    pub fn max(self) -> u64 {
        10u64.pow(self.width() as u32) - 1
    }
}

/// A time bucket's length and form, as the runtime's `key::encode::Bucket` writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bucket {
    /// The period's length.
    pub grain: Grain,
    /// Digits only (`20240501`) rather than ISO 8601's separators (`2024-05-01`).
    pub compact: bool,
}

impl Bucket {
    /// Every bucket format, with the text that names it after the colon.
    pub const ALL: [(&'static str, Bucket); 6] = [
        ("month", Bucket::new(Grain::Month, false)),
        ("date", Bucket::new(Grain::Day, false)),
        ("hour", Bucket::new(Grain::Hour, false)),
        ("yyyyMM", Bucket::new(Grain::Month, true)),
        ("yyyyMMdd", Bucket::new(Grain::Day, true)),
        ("yyyyMMddHH", Bucket::new(Grain::Hour, true)),
    ];

    /// A bucket of this length and form.
    pub const fn new(grain: Grain, compact: bool) -> Bucket {
        Bucket { grain, compact }
    }

    /// The format as written after the colon (`date`, `yyyyMMdd`, ...).
    pub fn spec(self) -> &'static str {
        spelling(&Bucket::ALL, self)
    }

    /// The text's shape, `9` for a digit (`9999-99-99`, `99999999`, ...).
    pub fn shape(self) -> &'static str {
        match (self.grain, self.compact) {
            (Grain::Month, false) => "9999-99",
            (Grain::Day, false) => "9999-99-99",
            (Grain::Hour, false) => "9999-99-99T99",
            (Grain::Month, true) => "999999",
            (Grain::Day, true) => "99999999",
            (Grain::Hour, true) => "9999999999",
        }
    }

    /// The characters every bucket of this form takes.
    pub fn width(self) -> usize {
        self.shape().len()
    }

    /// Where the month's two digits start (the year takes the first four).
    pub fn month_at(self) -> usize {
        if self.compact { 4 } else { 5 }
    }
}

/// One part of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Literal text.
    Literal(String),
    /// A field's value.
    Placeholder {
        /// The field's name as written in the struct.
        field: String,
        /// How it is written.
        format: SegmentFormat,
    },
}

/// A parsed key template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The text as written.
    pub text: String,
    /// Its parts, in order; literals are never adjacent to each other.
    pub parts: Vec<Part>,
}

impl Template {
    /// The placeholders, in order, with their formats.
    pub fn placeholders(&self) -> impl Iterator<Item = (&str, SegmentFormat)> {
        self.parts.iter().filter_map(|p| match p {
            Part::Placeholder { field, format } => Some((field.as_str(), *format)),
            Part::Literal(_) => None,
        })
    }

    /// The literal text before the first placeholder (the whole text if there is none).
    pub fn literal_prefix(&self) -> &str {
        match self.parts.first() {
            Some(Part::Literal(l)) => l,
            _ => "",
        }
    }

    /// The template written back from its parts, the same for `{ id }` and `{id}`: what two
    /// templates are compared by.
    pub fn canonical(&self) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Literal(l) => l.replace('{', "{{").replace('}', "}}"),
                Part::Placeholder { field, format } if *format == SegmentFormat::Default => {
                    format!("{{{field}}}")
                }
                Part::Placeholder { field, format } => format!("{{{field}:{}}}", format.spec()),
            })
            .collect()
    }

    /// The template with its placeholders' names erased (`{}` or `{:format}`): two templates of
    /// one shape can produce the same key from different fields (`{department}` and
    /// `{last_name}` both give `Smith`), so checks compare shapes, not names.
    pub fn shape(&self) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Literal(l) => l.replace('{', "{{").replace('}', "}}"),
                Part::Placeholder { format, .. } if *format == SegmentFormat::Default => {
                    "{}".into()
                }
                Part::Placeholder { format, .. } => format!("{{:{}}}", format.spec()),
            })
            .collect()
    }

    /// Whether the template has no placeholder: one value for every entity.
    pub fn is_constant(&self) -> bool {
        self.placeholders().next().is_none()
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The widest zero-padded integer segment, in digits.
pub const MAX_WIDTH: usize = 38;

/// A template that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError(pub String);

fn parse_format(field: &str, spec: &str) -> Result<SegmentFormat, TemplateError> {
    if let Some(bucket) = spelled(&Bucket::ALL, spec) {
        return Ok(SegmentFormat::Bucket(bucket));
    }
    // `yyyymmdd` would be minutes in .NET's patterns; say which spelling is meant.
    if let Some((name, _)) = Bucket::ALL
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(spec))
    {
        return Err(TemplateError(format!(
            "unknown format `{spec}` in `{{{field}:{spec}}}`; did you mean `{name}`? Bucket formats are written as .NET writes them, case and all"
        )));
    }
    if let Some(unix) = spelled(&Unix::ALL, spec) {
        return Ok(SegmentFormat::Unix(unix));
    }
    Ok(match spec {
        "" => SegmentFormat::Default,
        "ticks" => SegmentFormat::Ticks,
        "unpadded_ticks" => SegmentFormat::UnpaddedTicks,
        "inverted_ticks" => SegmentFormat::InvertedTicks,
        "iso" => SegmentFormat::Iso,
        // `raw` was the explicit verbatim form before verbatim became the default.
        "raw" => SegmentFormat::Default,
        "escaped" => SegmentFormat::Escaped,
        "unpadded" => SegmentFormat::Unpadded,
        "inverted" => SegmentFormat::Inverted(0),
        // .NET's `Guid.ToString("N")` names the same form.
        "simple" | "N" => SegmentFormat::Simple,
        digits if digits.bytes().all(|b| b.is_ascii_digit()) => {
            let width: usize = digits.parse().map_err(|_| {
                TemplateError(format!("the width in `{{{field}:{spec}}}` is too large"))
            })?;
            // Past the 20 digits of a u64, a width only adds leading zeros, as keys padded to
            // a configured width (`D30`) have; 38 digits is as far as the key-space model counts.
            if !(1..=MAX_WIDTH).contains(&width) {
                return Err(TemplateError(format!(
                    "the width in `{{{field}:{spec}}}` must be between 1 and {MAX_WIDTH} digits"
                )));
            }
            SegmentFormat::Width(width)
        }
        _ if date_pattern::looks_like_pattern(spec) => {
            let pattern = date_pattern::parse(spec)
                .map_err(|why| TemplateError(format!("in `{{{field}:{spec}}}`, {why}")))?;
            // A pattern that spells a format of its own is that format.
            if let Some(bucket) = Bucket::ALL
                .iter()
                .map(|(_, b)| *b)
                .find(|b| same_text(pattern, SegmentFormat::Bucket(*b)))
            {
                SegmentFormat::Bucket(bucket)
            } else if same_text(pattern, SegmentFormat::Iso) {
                SegmentFormat::Iso
            } else {
                SegmentFormat::Pattern(pattern)
            }
        }
        _ => {
            return Err(TemplateError(format!(
                "unknown format `{spec}` in `{{{field}:{spec}}}`; expected a width like `06`, `unpadded`, `inverted`, `ticks`, `unpadded_ticks`, `inverted_ticks`, `iso`, Unix time (`unix`, `unix_ms`, `inverted_unix`, `inverted_unix_ms`), a time bucket (`month`, `date`, `hour`, `yyyyMM`, `yyyyMMdd`, `yyyyMMddHH`), `escaped`, `simple` (a GUID without hyphens), or a date-time pattern such as `yyyyMMddHHmmss` or `%Y-%m-%d %H:%M:%S`"
            )));
        }
    })
}

/// Whether a pattern writes exactly the text another time format writes: the same digits and
/// separators in the same places (`yyyy-MM-dd` is `date`, `yyyy-MM-ddTHH:mm:ss.fffffffZ` is
/// `iso`).
fn same_text(pattern: DatePattern, format: SegmentFormat) -> bool {
    if !pattern.sorts_as_time() {
        return false;
    }
    let shape: String = pattern
        .parts()
        .flat_map(|p| match p {
            DatePart::Unit(_, digits) => vec!['9'; usize::from(digits)],
            DatePart::Literal(c) => vec![c],
        })
        .collect();
    match format {
        SegmentFormat::Bucket(bucket) => {
            shape == bucket.shape() && pattern.finest() == bucket_unit(bucket.grain)
        }
        SegmentFormat::Iso => shape == "9999-99-99T99:99:99.9999999Z",
        _ => false,
    }
}

/// The finest unit a bucket of this grain writes.
fn bucket_unit(grain: Grain) -> Unit {
    match grain {
        Grain::Hour => Unit::Hour,
        Grain::Day => Unit::Day,
        Grain::Month => Unit::Month,
    }
}

/// Parses a template.
///
/// ```
/// use table_derive_internals::template::{parse, Part, SegmentFormat};
/// let t = parse("empid_{employee_id:06}").unwrap();
/// assert_eq!(t.parts[0], Part::Literal("empid_".into()));
/// assert_eq!(
///     t.parts[1],
///     Part::Placeholder { field: "employee_id".into(), format: SegmentFormat::Width(6) }
/// );
/// ```
pub fn parse(text: &str) -> Result<Template, TemplateError> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '}' => {
                return Err(TemplateError(
                    "unmatched `}` in the key template; write `}}` for a literal brace".into(),
                ));
            }
            '{' => {
                let mut inner = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    inner.push(c);
                }
                if !closed {
                    return Err(TemplateError(format!(
                        "unclosed `{{{inner}` in the key template"
                    )));
                }
                let (field, spec) = inner.split_once(':').unwrap_or((&inner, ""));
                let field = field.trim();
                if field.is_empty() {
                    return Err(TemplateError(
                        "empty placeholder `{}` in the key template; name a field".into(),
                    ));
                }
                if !field.chars().all(|c| c.is_alphanumeric() || c == '_')
                    || field.starts_with(|c: char| c.is_ascii_digit())
                {
                    return Err(TemplateError(format!(
                        "`{{{inner}}}` does not name a field"
                    )));
                }
                let format = parse_format(field, spec.trim())?;
                if !literal.is_empty() {
                    parts.push(Part::Literal(std::mem::take(&mut literal)));
                }
                parts.push(Part::Placeholder {
                    field: field.to_owned(),
                    format,
                });
            }
            c => literal.push(c),
        }
    }
    if !literal.is_empty() {
        parts.push(Part::Literal(literal));
    }
    Ok(Template {
        text: text.to_owned(),
        parts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_literals_placeholders_and_formats() {
        let t = parse("{device_id}_{taken_at:inverted_ticks}").unwrap();
        assert_eq!(t.parts.len(), 3);
        assert_eq!(t.literal_prefix(), "");
        assert_eq!(
            t.placeholders().collect::<Vec<_>>(),
            [
                ("device_id", SegmentFormat::Default),
                ("taken_at", SegmentFormat::InvertedTicks)
            ]
        );
        assert!(parse("all").unwrap().is_constant());
        assert_eq!(
            parse("a{{b}}").unwrap().parts,
            [Part::Literal("a{b}".into())]
        );
    }

    /// The service takes `""` as a key: an empty template is that one constant key.
    #[test]
    fn an_empty_template_is_the_empty_key() {
        let t = parse("").unwrap();
        assert!(t.parts.is_empty());
        assert!(t.is_constant());
        assert_eq!(t.shape(), "");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |t: &str| parse(t).unwrap_err().0;
        assert!(err("{}").contains("empty placeholder"));
        assert!(err("{id").contains("unclosed"));
        assert!(err("a}").contains("unmatched"));
        assert!(err("{id:wide}").contains("unknown format `wide`"));
        assert!(err("{at:YYYYMMDD}").contains("did you mean `yyyyMMdd`?"));
        assert!(err("{at:yyyymmddhh}").contains("did you mean `yyyyMMddHH`?"));
        for (spec, bucket) in Bucket::ALL {
            let t = parse(&format!("p_{{at:{spec}}}")).unwrap();
            assert_eq!(
                t.parts[1],
                Part::Placeholder {
                    field: "at".into(),
                    format: SegmentFormat::Bucket(bucket)
                }
            );
            assert_eq!(t.canonical(), format!("p_{{at:{spec}}}"));
            assert!(SegmentFormat::Bucket(bucket).is_time());
            assert!(!SegmentFormat::Bucket(bucket).is_instant());
        }
        for (spec, unix) in Unix::ALL {
            let format = parse(&format!("{{at:{spec}}}")).unwrap().parts[0].clone();
            assert_eq!(
                format,
                Part::Placeholder {
                    field: "at".into(),
                    format: SegmentFormat::Unix(unix)
                }
            );
            assert_eq!(SegmentFormat::Unix(unix).spec(), spec);
            assert!(SegmentFormat::Unix(unix).is_instant());
            assert_eq!(SegmentFormat::Unix(unix).newest_first(), unix.inverted);
            assert_eq!(unix.max().to_string().len(), unix.width());
        }
        assert!(err("{at:unix_us}").contains("`unix_ms`"));
        assert!(err("{id:0}").contains("between 1 and 38"));
        assert!(err("{id:039}").contains("between 1 and 38"));
        assert_eq!(
            parse("{id:030}").unwrap().parts[0],
            Part::Placeholder {
                field: "id".into(),
                format: SegmentFormat::Width(30)
            }
        );
        assert!(err("{a-b}").contains("does not name a field"));
        assert!(err("{id:wide}").contains("`unpadded`"));
    }

    #[test]
    fn every_format_is_written_back_as_it_was_read() {
        for text in [
            "{id}",
            "{id:06}",
            "{id:unpadded}",
            "{at:ticks}",
            "{at:inverted_ticks}",
            "{at:iso}",
            "{at:date}",
            "{at:hour}",
            "{name:escaped}",
        ] {
            let t = parse(text).unwrap();
            assert_eq!(t.canonical(), text);
        }
        assert_eq!(
            parse("n_{ id : unpadded }").unwrap().parts[1],
            Part::Placeholder {
                field: "id".into(),
                format: SegmentFormat::Unpadded
            }
        );
        assert_eq!(SegmentFormat::Unpadded.spec(), "unpadded");
        assert!(!SegmentFormat::Unpadded.is_time());
    }
}
