//! `table-lint.toml`: levels, thresholds and exclusions, read as typed input. Unknown keys and
//! unknown rules are errors with their line and column.
//!
//! ```toml
//! exclude = ["tests/fixtures/**"]
//!
//! [rules]
//! TK001 = "deny"                       # by code
//! table-scan-filter = "allow"          # or by name
//! TK009 = { level = "warn", max_key_bytes = 512 }
//!
//! # `table-lint data`: settings for one table, over those above
//! [data.tables.Orders]
//! rules = { TD001 = "deny", TD002 = { near_percent = 75 } }
//! allow = [{ rule = "TD004", reason = "legacy ids, migrated by 2027" }]
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

use crate::rules::{self, Level, Rule};

/// The file name looked for.
pub const FILE_NAME: &str = "table-lint.toml";

/// A configuration that can't be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{column}: {message}")]
pub struct ConfigError {
    /// The file.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Options of one rule (thresholds, whole numbers).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleOptions(BTreeMap<String, u64>);

impl RuleOptions {
    /// A whole-number option, or `default`.
    pub fn usize(&self, name: &str, default: usize) -> usize {
        self.0
            .get(name)
            .and_then(|&i| usize::try_from(i).ok())
            .unwrap_or(default)
    }
}

/// The settings of one run.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Where it was read from, if from a file.
    pub path: Option<PathBuf>,
    /// Glob patterns of paths to leave out.
    pub exclude: Vec<String>,
    /// Threads to lint with; `None` uses every core (set by `--threads`, not by the file).
    pub threads: Option<usize>,
    /// Targets that run together against the same tables, compared as one program
    /// (`programs = [["bin:api", "bin:worker"]]`), by the names [`crate::scope::Scope::name`]
    /// gives (`lib`, `bin:NAME`, `example:NAME`, `test:NAME`, `bench:NAME`).
    pub programs: Vec<Vec<String>>,
    levels: BTreeMap<&'static str, Level>,
    options: BTreeMap<&'static str, RuleOptions>,
    /// Settings of `table-lint data` for single tables, by lowercased table name (the service
    /// compares table names without case).
    tables: BTreeMap<String, TableSettings>,
}

/// What `[data.tables.NAME]` sets for one table.
#[derive(Debug, Clone, Default)]
struct TableSettings {
    levels: BTreeMap<&'static str, Level>,
    options: BTreeMap<&'static str, RuleOptions>,
    /// Rules whose findings are suppressed on this table, with the reason.
    allows: BTreeMap<&'static str, String>,
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The levels a rule can be set to, as written.
const LEVELS: [Level; 4] = [Level::Allow, Level::Note, Level::Warn, Level::Deny];

fn level_names() -> String {
    LEVELS
        .iter()
        .map(|l| format!("\"{}\"", l.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a TOML value is, for messages: "a string", "a table", ….
fn kind(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "a whole number",
        DeValue::Float(_) => "a decimal number",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// Reads a configuration document, each value checked by hand so that every message names
/// the key, what it must be, and the values it may take.
struct Reader<'t> {
    path: String,
    text: &'t str,
}

type Entry<'i> = (&'i Spanned<DeString<'i>>, &'i Spanned<DeValue<'i>>);

impl Reader<'_> {
    fn error(&self, offset: usize, message: String) -> ConfigError {
        let (line, column) = line_column(self.text, offset);
        ConfigError {
            path: self.path.clone(),
            line,
            column,
            message,
        }
    }

    /// An error for a key that is not one of `allowed` in `place`.
    fn unknown_key(
        &self,
        key: &Spanned<DeString<'_>>,
        place: &str,
        allowed: &[&str],
    ) -> ConfigError {
        self.error(
            key.span().start,
            format!(
                "unknown key `{}` {place}; the keys allowed there are {}",
                key.get_ref(),
                allowed
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    }

    fn table<'a, 'i>(
        &self,
        value: &'a Spanned<DeValue<'i>>,
        what: &str,
        example: &str,
    ) -> Result<&'a DeTable<'i>, ConfigError> {
        match value.get_ref() {
            DeValue::Table(t) => Ok(t),
            other => Err(self.error(
                value.span().start,
                format!(
                    "{what} must be a table, like `{example}`; found {}",
                    kind(other)
                ),
            )),
        }
    }

    fn string<'a>(
        &self,
        value: &'a Spanned<DeValue<'_>>,
        what: &str,
        example: &str,
    ) -> Result<&'a str, ConfigError> {
        match value.get_ref() {
            DeValue::String(text) => Ok(text),
            other => Err(self.error(
                value.span().start,
                format!(
                    "{what} must be a string, like `{example}`; found {}",
                    kind(other)
                ),
            )),
        }
    }

    fn rule(&self, key: &Spanned<DeString<'_>>) -> Result<&'static Rule, ConfigError> {
        rules::find(key.get_ref()).ok_or_else(|| {
            self.error(
                key.span().start,
                format!(
                    "unknown rule `{}`; a rule is named by its code or its name, and `table-lint rules` lists them",
                    key.get_ref()
                ),
            )
        })
    }

    fn level(&self, value: &Spanned<DeValue<'_>>, rule: &Rule) -> Result<Level, ConfigError> {
        let text = self.string(value, &format!("the level of {}", rule.code), "\"warn\"")?;
        LEVELS
            .into_iter()
            .find(|l| l.as_str() == text)
            .ok_or_else(|| {
                self.error(
                    value.span().start,
                    format!(
                        "`{text}` is not a level of {} ({}); the levels are {}",
                        rule.code,
                        rule.name,
                        level_names()
                    ),
                )
            })
    }

    /// A `rules` table: levels and options by rule code or name.
    fn rules(
        &self,
        table: &DeTable<'_>,
        levels: &mut BTreeMap<&'static str, Level>,
        options: &mut BTreeMap<&'static str, RuleOptions>,
    ) -> Result<(), ConfigError> {
        for (key, value) in table.iter() {
            let rule = self.rule(key)?;
            match value.get_ref() {
                DeValue::String(_) => {
                    levels.insert(rule.code, self.level(value, rule)?);
                }
                DeValue::Table(settings) => {
                    let mut read = BTreeMap::new();
                    for (name, setting) in settings.iter() {
                        if name.get_ref() == "level" {
                            levels.insert(rule.code, self.level(setting, rule)?);
                            continue;
                        }
                        let names: Vec<&str> = rule.options.iter().map(|o| o.name).collect();
                        if !names.contains(&name.get_ref().as_ref()) {
                            let mut allowed = vec!["level"];
                            allowed.extend(&names);
                            return Err(self.unknown_key(
                                name,
                                &format!("in the settings of {} ({})", rule.code, rule.name),
                                &allowed,
                            ));
                        }
                        let number = match setting.get_ref() {
                            DeValue::Integer(i) => u64::from_str_radix(i.as_str(), i.radix()).ok(),
                            _ => None,
                        };
                        let number = number.ok_or_else(|| {
                            self.error(
                                setting.span().start,
                                format!(
                                    "option `{}` of {} must be a whole number of zero or more, like `{} = 100`; found {}",
                                    name.get_ref(),
                                    rule.code,
                                    name.get_ref(),
                                    match setting.get_ref() {
                                        DeValue::Integer(_) => "a negative number",
                                        other => kind(other),
                                    }
                                ),
                            )
                        })?;
                        read.insert(name.get_ref().to_string(), number);
                    }
                    options.insert(rule.code, RuleOptions(read));
                }
                other => {
                    return Err(self.error(
                        value.span().start,
                        format!(
                            "{} must be set to a level ({}) or a table like `{{ level = \"warn\", … }}`; found {}",
                            rule.code,
                            level_names(),
                            kind(other)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `allow = [{ rule = "TD004", reason = "…" }]` of one table.
    fn allows(
        &self,
        value: &Spanned<DeValue<'_>>,
        table_name: &str,
        into: &mut BTreeMap<&'static str, String>,
    ) -> Result<(), ConfigError> {
        const EXAMPLE: &str = "allow = [{ rule = \"TD004\", reason = \"…\" }]";
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.error(
                value.span().start,
                format!(
                    "`allow` of table `{table_name}` must be an array, like `{EXAMPLE}`; found {}",
                    kind(value.get_ref())
                ),
            ));
        };
        for item in items.iter() {
            let entry = self.table(item, "each suppression", EXAMPLE)?;
            let mut rule = None;
            let mut reason = None;
            for (key, v) in entry.iter() {
                match key.get_ref().as_ref() {
                    "rule" => {
                        let text = self.string(v, "`rule`", "rule = \"TD004\"")?;
                        rule = Some(rules::find(text).ok_or_else(|| {
                            self.error(
                                v.span().start,
                                format!(
                                    "unknown rule `{text}` in `allow` of table `{table_name}`; `table-lint rules` lists them"
                                ),
                            )
                        })?);
                    }
                    "reason" => {
                        reason = Some(self.string(v, "`reason`", "reason = \"…\"")?.to_owned());
                    }
                    _ => {
                        return Err(self.unknown_key(key, "in a suppression", &["rule", "reason"]));
                    }
                }
            }
            let rule = rule.ok_or_else(|| {
                self.error(
                    item.span().start,
                    format!("a suppression of table `{table_name}` names no `rule`: `{EXAMPLE}`"),
                )
            })?;
            match reason.filter(|r| !r.trim().is_empty()) {
                Some(reason) => {
                    into.insert(rule.code, reason);
                }
                None => {
                    return Err(self.error(
                        item.span().start,
                        format!(
                            "the suppression of {} on table `{table_name}` needs a `reason`: say why the finding does not apply",
                            rule.code
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn document(&self, root: &DeTable<'_>) -> Result<Config, ConfigError> {
        let mut config = Config {
            path: Some(PathBuf::from(&self.path)),
            ..Config::default()
        };
        let entries: Vec<Entry<'_>> = root.iter().collect();
        for (key, value) in entries {
            match key.get_ref().as_ref() {
                "exclude" => {
                    const EXAMPLE: &str = "exclude = [\"tests/fixtures/**\"]";
                    let DeValue::Array(items) = value.get_ref() else {
                        return Err(self.error(
                            value.span().start,
                            format!(
                                "`exclude` must be an array of glob patterns, like `{EXAMPLE}`; found {}",
                                kind(value.get_ref())
                            ),
                        ));
                    };
                    for item in items.iter() {
                        config.exclude.push(
                            self.string(item, "each `exclude` pattern", EXAMPLE)?
                                .to_owned(),
                        );
                    }
                }
                "programs" => {
                    const EXAMPLE: &str = "programs = [[\"bin:api\", \"bin:worker\"]]";
                    let DeValue::Array(groups) = value.get_ref() else {
                        return Err(self.error(
                            value.span().start,
                            format!(
                                "`programs` must be an array of arrays of target names, like `{EXAMPLE}`; found {}",
                                kind(value.get_ref())
                            ),
                        ));
                    };
                    for group in groups.iter() {
                        let DeValue::Array(names) = group.get_ref() else {
                            return Err(self.error(
                                group.span().start,
                                format!(
                                    "each entry of `programs` is an array of target names, like `{EXAMPLE}`; found {}",
                                    kind(group.get_ref())
                                ),
                            ));
                        };
                        let mut read = Vec::new();
                        for name in names.iter() {
                            let target = self.string(name, "each target name", EXAMPLE)?;
                            let valid = target == "lib"
                                || ["bin:", "example:", "test:", "bench:"]
                                    .iter()
                                    .any(|k| target.strip_prefix(k).is_some_and(|n| !n.is_empty()));
                            if !valid {
                                return Err(self.error(
                                    name.span().start,
                                    format!(
                                        "`{target}` is not a target name: write \"lib\", \"bin:NAME\", \"example:NAME\", \"test:NAME\" or \"bench:NAME\""
                                    ),
                                ));
                            }
                            read.push(target.to_owned());
                        }
                        config.programs.push(read);
                    }
                }
                "rules" => {
                    let table = self.table(value, "`rules`", "[rules]\nTK001 = \"deny\"")?;
                    self.rules(table, &mut config.levels, &mut config.options)?;
                }
                "data" => {
                    let data = self.table(value, "`data`", "[data.tables.Orders]")?;
                    for (key, value) in data.iter() {
                        if key.get_ref() != "tables" {
                            return Err(self.unknown_key(key, "in `[data]`", &["tables"]));
                        }
                        let tables = self.table(value, "`data.tables`", "[data.tables.Orders]")?;
                        for (name, settings) in tables.iter() {
                            let settings_table = self.table(
                                settings,
                                &format!("`data.tables.{}`", name.get_ref()),
                                "rules = { TD001 = \"deny\" }",
                            )?;
                            let mut read = TableSettings::default();
                            for (key, value) in settings_table.iter() {
                                match key.get_ref().as_ref() {
                                    "rules" => {
                                        let t = self.table(
                                            value,
                                            "`rules`",
                                            "rules = { TD001 = \"deny\" }",
                                        )?;
                                        self.rules(t, &mut read.levels, &mut read.options)?;
                                    }
                                    "allow" => {
                                        self.allows(value, name.get_ref(), &mut read.allows)?
                                    }
                                    _ => {
                                        return Err(self.unknown_key(
                                            key,
                                            &format!("in `[data.tables.{}]`", name.get_ref()),
                                            &["rules", "allow"],
                                        ));
                                    }
                                }
                            }
                            config.tables.insert(name.get_ref().to_lowercase(), read);
                        }
                    }
                }
                _ => {
                    return Err(self.unknown_key(
                        key,
                        "at the top of table-lint.toml",
                        &["exclude", "programs", "rules", "data"],
                    ));
                }
            }
        }
        Ok(config)
    }
}

impl Config {
    /// The level of a rule in this run.
    pub fn level(&self, rule: &Rule) -> Level {
        self.levels
            .get(rule.code)
            .copied()
            .unwrap_or(rule.default_level)
    }

    /// The options of a rule.
    pub fn options(&self, rule: &Rule) -> RuleOptions {
        self.options.get(rule.code).cloned().unwrap_or_default()
    }

    fn table(&self, table: &str) -> Option<&TableSettings> {
        self.tables.get(&table.to_lowercase())
    }

    /// The level of a rule on one table (`[data.tables.NAME]` over `[rules]`).
    pub fn table_level(&self, rule: &Rule, table: &str) -> Level {
        self.table(table)
            .and_then(|t| t.levels.get(rule.code).copied())
            .unwrap_or_else(|| self.level(rule))
    }

    /// The options of a rule on one table.
    pub fn table_options(&self, rule: &Rule, table: &str) -> RuleOptions {
        self.table(table)
            .and_then(|t| t.options.get(rule.code).cloned())
            .unwrap_or_else(|| self.options(rule))
    }

    /// The reason a rule's findings are suppressed on one table, if they are.
    pub fn table_allow(&self, rule: &Rule, table: &str) -> Option<&str> {
        self.table(table)
            .and_then(|t| t.allows.get(rule.code))
            .map(String::as_str)
    }

    /// Reads a configuration from its text.
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let reader = Reader {
            path: path.display().to_string(),
            text,
        };
        let root = DeTable::parse(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            reader.error(offset, format!("not valid TOML: {}", e.message().trim()))
        })?;
        reader.document(root.get_ref())
    }

    /// Reads the file at `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.display().to_string(),
            line: 1,
            column: 1,
            message: format!("can't read the configuration: {e}"),
        })?;
        Config::parse(path, &text)
    }

    /// Looks for `table-lint.toml` in `start` (or its folder, for a file) and every folder
    /// above it; the defaults when there is none.
    pub fn discover(start: &Path) -> Result<Config, ConfigError> {
        let absolute = std::path::absolute(start).unwrap_or_else(|_| start.to_owned());
        let mut dir = if absolute.is_dir() {
            Some(absolute.as_path())
        } else {
            absolute.parent()
        };
        while let Some(d) = dir {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Config::load(&candidate);
            }
            dir = d.parent();
        }
        Ok(Config::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_by_code_or_name_and_options() {
        let c = Config::parse(
            Path::new("t.toml"),
            "exclude = [\"x/**\"]\n[rules]\nTK001 = \"deny\"\ntable-scan-filter = \"allow\"\n",
        )
        .unwrap();
        assert_eq!(c.level(rules::find("TK001").unwrap()), Level::Deny);
        assert_eq!(c.level(rules::find("TK101").unwrap()), Level::Allow);
        assert_eq!(c.exclude, ["x/**"]);
    }

    #[test]
    fn unknown_keys_and_rules_have_positions() {
        let e = Config::parse(
            Path::new("t.toml"),
            "[rules]\nTK001 = \"deny\"\nTK999 = \"warn\"\n",
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.message.contains("unknown rule `TK999`"), "{}", e.message);
        let e = Config::parse(Path::new("t.toml"), "exclud = []\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.message.contains("unknown key `exclud`")
                && e.message.contains("`exclude`, `programs`, `rules`, `data`"),
            "{}",
            e.message
        );
        let e = Config::parse(Path::new("t.toml"), "[rules]\nTK001 = \"loud\"\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Config::parse(Path::new("t.toml"), "[rules\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = Config::parse(
            Path::new("t.toml"),
            "[rules]\nTK001 = { level = \"warn\", depth = 3 }\n",
        )
        .unwrap_err();
        assert!(e.message.contains("unknown key `depth`"), "{}", e.message);
    }

    /// Every wrong value names the key, what it must be, and the values it may take; no
    /// message is serde's.
    #[test]
    fn value_errors_list_what_is_allowed() {
        let message = |text: &str| {
            Config::parse(Path::new("t.toml"), text)
                .unwrap_err()
                .message
        };
        let m = message("[rules]\nTK001 = \"loud\"\n");
        assert!(
            m.contains("`loud` is not a level of TK001")
                && m.contains("\"allow\", \"note\", \"warn\", \"deny\""),
            "{m}"
        );
        let m = message("[rules]\nTK001 = 3\n");
        assert!(
            m.contains("a level (") && m.contains("found a whole number"),
            "{m}"
        );
        let m = message("[rules]\nTK009 = { level = \"warn\", max_key_bytes = -1 }\n");
        assert!(
            m.contains("whole number of zero or more") && m.contains("negative"),
            "{m}"
        );
        let m = message("[rules]\nTK009 = { depth = 3 }\n");
        assert!(m.contains("`level`, `max_key_bytes`"), "{m}");
        let m = message("exclude = \"tests/**\"\n");
        assert!(
            m.contains("must be an array of glob patterns") && m.contains("found a string"),
            "{m}"
        );
        let m = message("rules = 1\n");
        assert!(m.contains("`rules` must be a table"), "{m}");
        let m = message("[data.tables.Orders]\nallow = [{ rule = \"TD004\" }]\n");
        assert!(m.contains("needs a `reason`"), "{m}");
        let m = message("[data.tables.Orders]\nallow = [{ rule = \"TD004\", why = \"x\" }]\n");
        assert!(m.contains("`rule`, `reason`"), "{m}");
        let m = message("[data.tables.Orders]\nlevels = {}\n");
        assert!(m.contains("`rules`, `allow`"), "{m}");
        let m = message("[data]\ntable = {}\n");
        assert!(m.contains("`tables`"), "{m}");
        for text in [
            "[rules]\nTK001 = \"loud\"\n",
            "exclude = 1",
            "[data.tables.X]\nallow = 2",
        ] {
            let m = message(text);
            assert!(
                !m.contains("invalid type") && !m.contains("did not match any variant"),
                "a serde message: {m}"
            );
        }
    }
}
