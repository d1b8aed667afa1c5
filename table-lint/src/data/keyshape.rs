//! What a stored key looks like: its tokens (digit runs, letter runs, GUIDs, separators), the
//! time it leads with, and the characters in it that clients often get wrong.

/// A token's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A run of ASCII digits.
    Digits,
    /// A run of ASCII letters.
    Letters,
    /// A hyphenated GUID (either case).
    Guid,
    /// A run of letters and digits mixed in another way (a hash, base64, a hex id).
    Opaque,
    /// Any other single character (a separator), kept as itself in the shape.
    Other(char),
}

/// One token of a key: its class and its byte range in the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub class: Class,
    /// Where it starts, in bytes.
    pub start: usize,
    /// Where it ends, in bytes.
    pub end: usize,
}

impl Token {
    /// The token's text in `key`.
    pub fn text<'k>(&self, key: &'k str) -> &'k str {
        &key[self.start..self.end]
    }
}

/// Whether a GUID starts at the start of `bytes` (and ends its alphanumeric run).
pub fn is_guid_at(bytes: &[u8]) -> bool {
    const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
    if bytes.len() < 36 {
        return false;
    }
    let mut i = 0;
    for (n, len) in GROUPS.iter().enumerate() {
        if !bytes[i..i + len].iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        i += len;
        if n < 4 {
            if bytes[i] != b'-' {
                return false;
            }
            i += 1;
        }
    }
    // A GUID ends the alphanumeric run.
    bytes.get(36).is_none_or(|b| !b.is_ascii_alphanumeric())
}

/// Splits a key into tokens. Letters followed by digits (`order12`) are two tokens; other
/// mixtures of letters and digits are one opaque token; a GUID is one token.
pub fn tokens(key: &str) -> Vec<Token> {
    let mut out = Vec::new();
    tokens_into(key, &mut out);
    out
}

/// [`tokens`] into a buffer that is cleared first (no allocation once it is large enough).
pub fn tokens_into(key: &str, out: &mut Vec<Token>) {
    out.clear();
    let bytes = key.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphanumeric() {
            if is_guid_at(&bytes[i..]) {
                out.push(Token {
                    class: Class::Guid,
                    start: i,
                    end: i + 36,
                });
                i += 36;
                continue;
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let run = &bytes[start..i];
            let letters = run.iter().take_while(|b| b.is_ascii_alphabetic()).count();
            let digits_after = run[letters..].iter().all(u8::is_ascii_digit);
            if letters == run.len() {
                out.push(Token {
                    class: Class::Letters,
                    start,
                    end: i,
                });
            } else if letters == 0 && run.iter().all(u8::is_ascii_digit) {
                out.push(Token {
                    class: Class::Digits,
                    start,
                    end: i,
                });
            } else if letters > 0 && digits_after {
                out.push(Token {
                    class: Class::Letters,
                    start,
                    end: start + letters,
                });
                out.push(Token {
                    class: Class::Digits,
                    start: start + letters,
                    end: i,
                });
            } else {
                out.push(Token {
                    class: Class::Opaque,
                    start,
                    end: i,
                });
            }
        } else {
            let c = key[i..].chars().next().unwrap_or('\u{FFFD}');
            out.push(Token {
                class: Class::Other(c),
                start: i,
                end: i + c.len_utf8(),
            });
            i += c.len_utf8();
        }
    }
}

/// The key's shape: its token classes with separators as themselves (`L_D`, `G`, `D-D-D`).
pub fn shape(tokens: &[Token]) -> String {
    let mut s = String::new();
    shape_into(tokens, &mut s);
    s
}

/// [`shape`] into a buffer that is cleared first.
pub fn shape_into(tokens: &[Token], s: &mut String) {
    s.clear();
    for t in tokens {
        match t.class {
            Class::Digits => s.push('D'),
            Class::Letters => s.push('L'),
            Class::Guid => s.push('G'),
            Class::Opaque => s.push('X'),
            Class::Other(c) => {
                // Shape letters stand for classes; a literal letter can't occur here.
                s.push(c);
            }
        }
    }
}

/// A time that a key leads with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadingTime {
    /// The leading text that is the time (`2024-05-01`, `20240501`, ticks, ...).
    pub text: String,
    /// What kind of time it is.
    pub kind: &'static str,
    /// Whether later times sort first (inverted ticks).
    pub descending: bool,
}

/// .NET ticks at 2000-01-01 and 2100-01-01: the range a plausible ticks key falls in.
const TICKS_2000: u64 = 630_822_816_000_000_000;
const TICKS_2100: u64 = 662_380_416_000_000_000;
/// `DateTime.MaxValue.Ticks`, which inverted ticks are taken from.
const MAX_TICKS: u64 = 3_155_378_975_999_999_999;

fn digits(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_digit)
}

fn number(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0u64, |n, b| n.saturating_mul(10) + u64::from(b - b'0'))
}

fn plausible_date(y: u64, m: u64, d: u64) -> bool {
    (1990..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
}

/// The time a key leads with, if it leads with one: an ISO date, hour or month, a compact
/// `yyyyMMdd[HH[mm]]`, .NET ticks or inverted ticks, or Unix seconds or milliseconds. The time
/// must end the key or be followed by a non-digit.
pub fn leading_time(key: &str) -> Option<LeadingTime> {
    let b = key.as_bytes();
    let run = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let ends_at = |n: usize| b.get(n).is_none_or(|c| !c.is_ascii_digit());
    let found = |n: usize, kind: &'static str, descending: bool| {
        Some(LeadingTime {
            text: key[..n].to_owned(),
            kind,
            descending,
        })
    };
    // ISO forms: yyyy-MM-dd[Thh], yyyy-MM.
    if b.len() >= 7 && run == 4 && b[4] == b'-' && digits(&b[5..7]) {
        let (y, m) = (number(&b[0..4]), number(&b[5..7]));
        if b.len() >= 10 && b[7] == b'-' && digits(&b[8..10]) && ends_at(10) {
            if !plausible_date(y, m, number(&b[8..10])) {
                return None;
            }
            if b.len() >= 13 && b[10] == b'T' && digits(&b[11..13]) && ends_at(13) {
                return found(13, "hour", false);
            }
            return found(10, "date", false);
        }
        if ends_at(7) && plausible_date(y, m, 1) {
            return found(7, "month", false);
        }
        return None;
    }
    let lead = &b[..run];
    match run {
        8 | 10 | 12 => {
            let (y, m, d) = (
                number(&lead[0..4]),
                number(&lead[4..6]),
                number(&lead[6..8]),
            );
            if plausible_date(y, m, d) {
                let kind = match run {
                    8 => "date",
                    10 => "hour",
                    _ => "minute",
                };
                return found(run, kind, false);
            }
            if run == 10 && (946_684_800..=4_102_444_800).contains(&number(lead)) {
                return found(run, "unix seconds", false);
            }
            None
        }
        13 if (946_684_800_000..=4_102_444_800_000).contains(&number(lead)) => {
            found(run, "unix milliseconds", false)
        }
        18 | 19 => {
            let n = number(lead);
            if (TICKS_2000..=TICKS_2100).contains(&n) {
                found(run, "ticks", false)
            } else if (MAX_TICKS - TICKS_2100..=MAX_TICKS - TICKS_2000).contains(&n) {
                found(run, "inverted ticks", true)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// A kind of character that clients commonly mishandle in keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Awkward {
    /// `%`: decoded twice by code that puts keys in URLs by hand.
    Percent,
    /// `+`: read as a space by form decoders.
    Plus,
    /// `'`: must be doubled inside `$filter` literals.
    Quote,
    /// `&` or `=`: split query strings built by hand.
    QueryDelimiter,
    /// Leading or trailing white space, or a tab or line break anywhere.
    Whitespace,
    /// Characters outside ASCII: normalization and UTF-16 length differ between clients.
    NonAscii,
}

impl Awkward {
    /// All kinds, in report order.
    pub const ALL: [Awkward; 6] = [
        Awkward::Percent,
        Awkward::Plus,
        Awkward::Quote,
        Awkward::QueryDelimiter,
        Awkward::Whitespace,
        Awkward::NonAscii,
    ];

    /// What it is, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Awkward::Percent => "`%` (decoded twice where keys go into URLs by hand)",
            Awkward::Plus => "`+` (read as a space by form decoders)",
            Awkward::Quote => "`'` (must be doubled in $filter literals)",
            Awkward::QueryDelimiter => "`&` or `=` (split hand-built query strings)",
            Awkward::Whitespace => "leading, trailing or control white space (trimmed or lost)",
            Awkward::NonAscii => {
                "non-ASCII characters (normalization and UTF-16 lengths differ between clients)"
            }
        }
    }

    /// A short name, for JSON.
    pub fn name(self) -> &'static str {
        match self {
            Awkward::Percent => "percent",
            Awkward::Plus => "plus",
            Awkward::Quote => "quote",
            Awkward::QueryDelimiter => "query-delimiter",
            Awkward::Whitespace => "whitespace",
            Awkward::NonAscii => "non-ascii",
        }
    }
}

/// The awkward kinds of character in a key, each once, as a bit set over [`Awkward::ALL`].
pub fn awkward(key: &str) -> u8 {
    let mut set = 0u8;
    let bit = |a: Awkward| 1u8 << (a as u8);
    if key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return 0;
    }
    for c in key.chars() {
        set |= match c {
            '%' => bit(Awkward::Percent),
            '+' => bit(Awkward::Plus),
            '\'' => bit(Awkward::Quote),
            '&' | '=' => bit(Awkward::QueryDelimiter),
            '\t' | '\n' | '\r' => bit(Awkward::Whitespace),
            c if !c.is_ascii() => bit(Awkward::NonAscii),
            _ => 0,
        };
    }
    if key.starts_with(char::is_whitespace) || key.ends_with(char::is_whitespace) {
        set |= bit(Awkward::Whitespace);
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(key: &str) -> String {
        shape(&tokens(key))
    }

    #[test]
    fn keys_split_into_classes() {
        assert_eq!(classes("order_12"), "L_D");
        assert_eq!(classes("order12"), "LD");
        assert_eq!(classes("3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "G");
        assert_eq!(classes("c_3F2504E0-4F89-11D3-9A0C-0305E82C3301_7"), "L_G_D");
        assert_eq!(classes("a1b2"), "X");
        assert_eq!(classes("2024-05-01"), "D-D-D");
        assert_eq!(classes("Zoë"), "Lë");
        let t = tokens("emp_000123");
        assert_eq!(t[2].text("emp_000123"), "000123");
    }

    #[test]
    fn leading_times_are_recognised() {
        let kind = |k: &str| leading_time(k).map(|t| (t.kind, t.text));
        assert_eq!(kind("2024-05-01"), Some(("date", "2024-05-01".into())));
        assert_eq!(kind("2024-05-01_eu"), Some(("date", "2024-05-01".into())));
        assert_eq!(
            kind("2024-05-01T10"),
            Some(("hour", "2024-05-01T10".into()))
        );
        assert_eq!(kind("2024-05"), Some(("month", "2024-05".into())));
        assert_eq!(kind("20240501-eu"), Some(("date", "20240501".into())));
        assert_eq!(kind("2024050110"), Some(("hour", "2024050110".into())));
        assert_eq!(
            kind("1714557600"),
            Some(("unix seconds", "1714557600".into()))
        );
        assert_eq!(kind("0638501544000000000").map(|k| k.0), Some("ticks"));
        let inverted = (MAX_TICKS - 638_501_544_000_000_000).to_string();
        let t = leading_time(&inverted).unwrap();
        assert_eq!((t.kind, t.descending), ("inverted ticks", true));
        // Not times: ids, months out of range, digits running on.
        assert_eq!(kind("12345"), None);
        assert_eq!(kind("2024-13-01"), None);
        assert_eq!(kind("202405011"), None);
        assert_eq!(kind("customer-2024"), None);
    }

    #[test]
    fn awkward_characters_are_named() {
        assert_eq!(awkward("order_12-a"), 0);
        let bits = awkward(" 50%+'x'&y=1é");
        for a in Awkward::ALL {
            assert_ne!(bits & (1 << a as u8), 0, "{a:?}");
        }
        assert_eq!(awkward("a b"), 0, "an inner space is fine");
    }
}
