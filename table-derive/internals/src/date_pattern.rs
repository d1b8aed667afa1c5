//! Custom date-time patterns in keys: the text code writes with .NET's
//! `ToString("yyyyMMddHHmmss")` or Python's `strftime("%Y-%m-%d %H:%M:%S")`, as a placeholder's
//! format (`{at:yyyy-MM-dd HH:mm:ss}`, `{at:%Y%m%d%H%M%S}`).
//!
//! A pattern is a row of calendar and clock units, each written with a fixed number of digits,
//! and literal characters between them. The grammar takes only patterns that write every time
//! the same width and read back to the time they wrote, down to their finest unit: a four-digit
//! year, two-digit month, day, 24-hour hour, minute and second, and one to seven digits of a
//! second's fraction. Two-digit years, 12-hour clocks, month and day names and `F` (which drops
//! trailing zeros) are refused with the reason.

use std::fmt;

/// A unit of a pattern, from the most significant to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Four digits.
    Year,
    /// Two digits, 01 to 12.
    Month,
    /// Two digits, 01 to 31.
    Day,
    /// Two digits, 00 to 23.
    Hour,
    /// Two digits, 00 to 59.
    Minute,
    /// Two digits, 00 to 59.
    Second,
    /// One to seven digits of the second.
    Fraction,
}

/// One part of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatePart {
    /// A unit with its digits (the fraction's count; the others' are fixed).
    Unit(Unit, u8),
    /// A character written as it is.
    Literal(char),
}

impl DatePart {
    /// The characters the part writes.
    pub fn width(self) -> usize {
        match self {
            DatePart::Unit(_, digits) => usize::from(digits),
            DatePart::Literal(c) => c.len_utf8(),
        }
    }
}

/// The most parts a pattern holds.
pub const MAX_PARTS: usize = 32;

/// The characters a pattern may write between its units: none of them is a digit, and none is
/// refused in a key.
pub const LITERALS: &[char] = &['-', ':', '.', '_', ' ', 'T', 'Z', ',', '|', '~'];

/// A checked pattern, kept small and `Copy` like the other formats: one byte a part (a unit's
/// code, or the ASCII separator itself), 0 after the last.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DatePattern {
    parts: [u8; MAX_PARTS],
    /// Spelled with `strftime`'s `%` directives rather than .NET's letters.
    strftime: bool,
}

/// The byte a unit is kept as: below the first printable ASCII character, so it never meets a
/// separator's. The fraction's digits are added to its code.
fn unit_code(unit: Unit, digits: u8) -> u8 {
    match unit {
        Unit::Year => 1,
        Unit::Month => 2,
        Unit::Day => 3,
        Unit::Hour => 4,
        Unit::Minute => 5,
        Unit::Second => 6,
        Unit::Fraction => 0x10 + digits,
    }
}

fn decode(byte: u8) -> DatePart {
    match byte {
        1 => DatePart::Unit(Unit::Year, 4),
        2 => DatePart::Unit(Unit::Month, 2),
        3 => DatePart::Unit(Unit::Day, 2),
        4 => DatePart::Unit(Unit::Hour, 2),
        5 => DatePart::Unit(Unit::Minute, 2),
        6 => DatePart::Unit(Unit::Second, 2),
        0x11..=0x17 => DatePart::Unit(Unit::Fraction, byte - 0x10),
        c => DatePart::Literal(char::from(c)),
    }
}

impl fmt::Debug for DatePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatePattern({})", self.spec())
    }
}

impl DatePattern {
    /// The parts, in order.
    pub fn parts(&self) -> impl Iterator<Item = DatePart> + '_ {
        self.parts
            .iter()
            .take_while(|b| **b != 0)
            .map(|b| decode(*b))
    }

    /// The characters every time takes in this pattern.
    pub fn width(&self) -> usize {
        self.parts().map(DatePart::width).sum()
    }

    /// The units, in the order written.
    pub fn units(&self) -> impl Iterator<Item = Unit> + '_ {
        self.parts().filter_map(|p| match p {
            DatePart::Unit(u, _) => Some(u),
            DatePart::Literal(_) => None,
        })
    }

    /// The finest unit written.
    pub fn finest(&self) -> Unit {
        self.units().max().unwrap_or(Unit::Year)
    }

    /// Whether the pattern writes a time of day (an hour or finer).
    pub fn has_time_of_day(&self) -> bool {
        self.finest() >= Unit::Hour
    }

    /// Whether keys in this pattern sort as the times they write: the units from the most
    /// significant to the least (a year first, then its month, ...), whatever lies between them.
    pub fn sorts_as_time(&self) -> bool {
        let units: Vec<Unit> = self.units().collect();
        units.windows(2).all(|w| w[0] < w[1])
    }

    /// The digits of the fraction of a second written, 0 when none is.
    pub fn fraction_digits(&self) -> u8 {
        self.parts()
            .find_map(|p| match p {
                DatePart::Unit(Unit::Fraction, digits) => Some(digits),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The pattern as written after the colon, in its own spelling.
    pub fn spec(&self) -> String {
        let mut out = String::new();
        for part in self.parts() {
            match (part, self.strftime) {
                (DatePart::Literal(c), _) => out.push(c),
                (DatePart::Unit(unit, digits), false) => {
                    let (letter, count) = match unit {
                        Unit::Year => ('y', 4),
                        Unit::Month => ('M', 2),
                        Unit::Day => ('d', 2),
                        Unit::Hour => ('H', 2),
                        Unit::Minute => ('m', 2),
                        Unit::Second => ('s', 2),
                        Unit::Fraction => ('f', digits),
                    };
                    out.extend(std::iter::repeat_n(letter, usize::from(count)));
                }
                (DatePart::Unit(unit, _), true) => out.push_str(match unit {
                    Unit::Year => "%Y",
                    Unit::Month => "%m",
                    Unit::Day => "%d",
                    Unit::Hour => "%H",
                    Unit::Minute => "%M",
                    Unit::Second => "%S",
                    Unit::Fraction => "%f",
                }),
            }
        }
        out
    }
}

/// Whether a format's text is meant as a date-time pattern: a `strftime` directive first, or
/// nothing but .NET's date and time letters and punctuation with a year, month, day or hour
/// among them (`yyyy-MM-dd`, `HHmmss`, but not a misspelt keyword such as `padded`).
pub fn looks_like_pattern(spec: &str) -> bool {
    const LETTERS: &str = "yMdHhmsfFtT";
    spec.starts_with('%')
        || (spec
            .chars()
            .all(|c| LETTERS.contains(c) || c == ' ' || c.is_ascii_punctuation())
            && spec.chars().any(|c| "yMdHh".contains(c)))
}

/// Reads a pattern, with the reason when the grammar can't take it.
pub fn parse(spec: &str) -> Result<DatePattern, String> {
    let strftime = spec.starts_with('%');
    let parts = if strftime {
        strftime_parts(spec)?
    } else {
        dotnet_parts(spec)?
    };
    if parts.len() > MAX_PARTS {
        return Err(format!(
            "the pattern `{spec}` has more than {MAX_PARTS} parts"
        ));
    }
    let units: Vec<Unit> = parts
        .iter()
        .filter_map(|p| match p {
            DatePart::Unit(u, _) => Some(*u),
            DatePart::Literal(_) => None,
        })
        .collect();
    for (i, unit) in units.iter().enumerate() {
        if units[..i].contains(unit) {
            return Err(format!(
                "the pattern `{spec}` writes the {} twice",
                unit.name()
            ));
        }
    }
    // Read back, a time needs every unit above its finest: a day without its month or year
    // names no time.
    let all = [
        Unit::Year,
        Unit::Month,
        Unit::Day,
        Unit::Hour,
        Unit::Minute,
        Unit::Second,
        Unit::Fraction,
    ];
    if let Some(finest) = units.iter().max() {
        for unit in all.iter().filter(|u| *u < finest) {
            if !units.contains(unit) {
                return Err(format!(
                    "the pattern `{spec}` writes the {} but not the {}, so a key can't be read back as one time; write the units from the year down",
                    finest.name(),
                    unit.name()
                ));
            }
        }
    } else {
        return Err(format!("the pattern `{spec}` writes no unit of time"));
    }
    let mut pattern = DatePattern {
        parts: [0; MAX_PARTS],
        strftime,
    };
    for (slot, part) in pattern.parts.iter_mut().zip(parts) {
        *slot = match part {
            DatePart::Unit(unit, digits) => unit_code(unit, digits),
            // Every separator the grammar takes is printable ASCII.
            DatePart::Literal(c) => c as u8,
        };
    }
    Ok(pattern)
}

impl Unit {
    /// The unit's name: `year`, `month`, ..., `fraction of a second`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Year => "year",
            Unit::Month => "month",
            Unit::Day => "day",
            Unit::Hour => "hour",
            Unit::Minute => "minute",
            Unit::Second => "second",
            Unit::Fraction => "fraction of a second",
        }
    }
}

fn literal(spec: &str, c: char) -> Result<DatePart, String> {
    if LITERALS.contains(&c) {
        Ok(DatePart::Literal(c))
    } else {
        Err(format!(
            "`{c}` in the pattern `{spec}` is not a unit the grammar writes (`yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `f` to `fffffff`, or `%Y`, `%m`, `%d`, `%H`, `%M`, `%S`, `%f`) nor a separator it takes between them ({})",
            LITERALS
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// .NET's custom format letters.
fn dotnet_parts(spec: &str) -> Result<Vec<DatePart>, String> {
    let chars: Vec<char> = spec.chars().collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let run = chars[i..].iter().take_while(|x| **x == c).count();
        let refuse = |why: &str| {
            Err(format!(
                "`{}` in the pattern `{spec}`: {why}",
                String::from_iter(std::iter::repeat_n(c, run))
            ))
        };
        let part = match (c, run) {
            ('y', 4) => DatePart::Unit(Unit::Year, 4),
            ('y', _) => {
                return refuse(
                    "write the year as `yyyy`: a two-digit year makes 1999 and 2099 one key, and sorts 2000 before 1999",
                );
            }
            ('M', 2) => DatePart::Unit(Unit::Month, 2),
            ('d', 2) => DatePart::Unit(Unit::Day, 2),
            ('H', 2) => DatePart::Unit(Unit::Hour, 2),
            ('m', 2) => DatePart::Unit(Unit::Minute, 2),
            ('s', 2) => DatePart::Unit(Unit::Second, 2),
            ('f', 1..=7) => DatePart::Unit(Unit::Fraction, run as u8),
            ('M' | 'd' | 'H' | 'm' | 's', 1) => {
                return refuse(
                    "a unit without its leading zero changes width, so keys stop sorting as times; write two letters",
                );
            }
            ('M' | 'd', _) => {
                return refuse(
                    "names of months and days are not numbers and do not sort as times; write `MM` or `dd`",
                );
            }
            ('h', _) => {
                return refuse(
                    "a 12-hour clock writes the morning and the evening alike; write `HH`",
                );
            }
            ('t', _) => return refuse("AM and PM do not sort as times; write `HH` for the hour"),
            ('F', _) => {
                return refuse(
                    "`F` drops trailing zeros, so the key's width changes; write `f` digits",
                );
            }
            ('f', _) => return refuse("a second has at most seven digits of fraction (100 ns)"),
            _ => {
                // Literal characters stand for themselves, one at a time.
                parts.push(literal(spec, c)?);
                i += 1;
                continue;
            }
        };
        parts.push(part);
        i += run;
    }
    Ok(parts)
}

/// `strftime`'s `%` directives.
fn strftime_parts(spec: &str) -> Result<Vec<DatePart>, String> {
    let mut parts = Vec::new();
    let mut chars = spec.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            parts.push(literal(spec, c)?);
            continue;
        }
        let d = chars.next().unwrap_or(' ');
        let refuse = |why: &str| Err(format!("`%{d}` in the pattern `{spec}`: {why}"));
        parts.push(match d {
            'Y' => DatePart::Unit(Unit::Year, 4),
            'm' => DatePart::Unit(Unit::Month, 2),
            'd' => DatePart::Unit(Unit::Day, 2),
            'H' => DatePart::Unit(Unit::Hour, 2),
            'M' => DatePart::Unit(Unit::Minute, 2),
            'S' => DatePart::Unit(Unit::Second, 2),
            'f' => DatePart::Unit(Unit::Fraction, 6),
            'y' => return refuse("write the year as `%Y`: a two-digit year makes 1999 and 2099 one key"),
            'I' | 'p' => return refuse("a 12-hour clock writes the morning and the evening alike; write `%H`"),
            _ => {
                return refuse(
                    "the grammar writes `%Y`, `%m`, `%d`, `%H`, `%M`, `%S` and `%f` (zero-padded numbers that sort as times)",
                );
            }
        });
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotnet_and_strftime_spellings_read_alike() {
        let net = parse("yyyy-MM-dd HH:mm:ss.fff").unwrap();
        let py = parse("%Y-%m-%d %H:%M:%S").unwrap();
        assert_eq!(net.width(), 23);
        assert_eq!(py.width(), 19);
        assert_eq!(net.spec(), "yyyy-MM-dd HH:mm:ss.fff");
        assert_eq!(py.spec(), "%Y-%m-%d %H:%M:%S");
        assert_eq!(net.finest(), Unit::Fraction);
        assert_eq!(net.fraction_digits(), 3);
        assert_eq!(parse("%Y%m%d%H%M%S%f").unwrap().width(), 20);
        assert!(net.sorts_as_time() && py.sorts_as_time());
        assert!(!parse("dd-MM-yyyy").unwrap().sorts_as_time());
        assert!(!parse("yyyyMM").unwrap().has_time_of_day());
    }

    #[test]
    fn only_text_made_of_date_letters_is_taken_for_a_pattern() {
        for spec in [
            "yyyy-MM-dd",
            "HHmmss",
            "dd.MM.yyyy",
            "yyyy/MM/dd",
            "%Y%m%d",
            "hh:mm tt",
        ] {
            assert!(looks_like_pattern(spec), "{spec}");
        }
        for spec in [
            "padded", "unpadded", "iso", "ticks", "wide", "06", "N", "escaped",
        ] {
            assert!(!looks_like_pattern(spec), "{spec}");
        }
    }

    #[test]
    fn patterns_that_change_width_or_lose_the_time_are_refused_with_the_reason() {
        for (spec, reason) in [
            ("yy-MM-dd", "two-digit year"),
            ("yyyy-M-d", "leading zero"),
            ("yyyy-MMM-dd", "names of months"),
            ("yyyy-MM-dd hh:mm", "12-hour clock"),
            ("yyyy-MM-dd HH:mm tt", "AM and PM"),
            ("yyyy-MM-dd HH:mm:ss.FFF", "drops trailing zeros"),
            ("yyyy-MM-dd HH:mm:ss.ffffffff", "seven digits"),
            ("yyyy/MM/dd", "`/`"),
            ("yyyy-MM-dd HH:ss", "not the minute"),
            ("yyyy-MM-yyyy", "twice"),
            ("%y%m%d", "two-digit year"),
            ("%Y-%b", "`%b`"),
            ("%I:%M %p", "12-hour"),
        ] {
            let err = parse(spec).unwrap_err();
            assert!(err.contains(reason), "{spec}: {err}");
        }
    }
}
