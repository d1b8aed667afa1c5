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

use serde::Deserialize;

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

/// Options of one rule (thresholds).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleOptions(BTreeMap<String, toml::Value>);

impl RuleOptions {
    /// A whole-number option, or `default`.
    pub fn usize(&self, name: &str, default: usize) -> usize {
        self.0
            .get(name)
            .and_then(toml::Value::as_integer)
            .and_then(|i| usize::try_from(i).ok())
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

type RawRules = BTreeMap<toml::Spanned<String>, toml::Spanned<RawSetting>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    rules: RawRules,
    #[serde(default)]
    data: RawData,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawData {
    #[serde(default)]
    tables: BTreeMap<String, RawTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    #[serde(default)]
    rules: RawRules,
    #[serde(default)]
    allow: Vec<toml::Spanned<RawAllow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAllow {
    rule: String,
    reason: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawSetting {
    Level(Level),
    Table(BTreeMap<String, toml::Value>),
}

/// Reads a `rules` table (levels and options by rule code or name) into `levels` and `options`.
fn read_rules(
    raw: RawRules,
    error_at: &dyn Fn(usize, String) -> ConfigError,
    levels: &mut BTreeMap<&'static str, Level>,
    options: &mut BTreeMap<&'static str, RuleOptions>,
) -> Result<(), ConfigError> {
    for (key, setting) in raw {
        let Some(rule) = rules::find(key.get_ref()) else {
            return Err(error_at(
                key.span().start,
                format!(
                    "unknown rule `{}`; `table-lint rules` lists them",
                    key.get_ref()
                ),
            ));
        };
        let span = setting.span();
        match setting.into_inner() {
            RawSetting::Level(level) => {
                levels.insert(rule.code, level);
            }
            RawSetting::Table(mut table) => {
                if let Some(level) = table.remove("level") {
                    let level = level
                        .as_str()
                        .and_then(|l| {
                            [Level::Allow, Level::Note, Level::Warn, Level::Deny]
                                .into_iter()
                                .find(|x| x.as_str() == l)
                        })
                        .ok_or_else(|| {
                            error_at(
                                span.start,
                                format!("`level` of {} must be \"allow\", \"note\", \"warn\" or \"deny\"", rule.code),
                            )
                        })?;
                    levels.insert(rule.code, level);
                }
                for (name, value) in &table {
                    let known = rule.options.iter().any(|o| o.name == name);
                    if !known {
                        let names: Vec<&str> = rule.options.iter().map(|o| o.name).collect();
                        return Err(error_at(
                            span.start,
                            format!(
                                "unknown option `{name}` for {} ({}); {}",
                                rule.code,
                                rule.name,
                                if names.is_empty() {
                                    "it has no options".to_owned()
                                } else {
                                    format!("its options are {}", names.join(", "))
                                }
                            ),
                        ));
                    }
                    if value.as_integer().is_none_or(|i| i < 0) {
                        return Err(error_at(
                            span.start,
                            format!("option `{name}` of {} must be a whole number", rule.code),
                        ));
                    }
                }
                options.insert(rule.code, RuleOptions(table));
            }
        }
    }
    Ok(())
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
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
        let display = path.display().to_string();
        let error_at = |offset: usize, message: String| {
            let (line, column) = line_column(text, offset);
            ConfigError {
                path: display.clone(),
                line,
                column,
                message,
            }
        };
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            error_at(offset, e.message().trim().to_owned())
        })?;
        let mut config = Config {
            path: Some(path.to_owned()),
            exclude: raw.exclude,
            ..Config::default()
        };
        read_rules(
            raw.rules,
            &error_at,
            &mut config.levels,
            &mut config.options,
        )?;
        for (name, table) in raw.data.tables {
            let mut settings = TableSettings::default();
            read_rules(
                table.rules,
                &error_at,
                &mut settings.levels,
                &mut settings.options,
            )?;
            for allow in table.allow {
                let span = allow.span();
                let allow = allow.into_inner();
                let Some(rule) = rules::find(&allow.rule) else {
                    return Err(error_at(
                        span.start,
                        format!(
                            "unknown rule `{}` in `allow` of table `{name}`; `table-lint rules` lists them",
                            allow.rule
                        ),
                    ));
                };
                match allow.reason.filter(|r| !r.trim().is_empty()) {
                    Some(reason) => {
                        settings.allows.insert(rule.code, reason);
                    }
                    None => {
                        return Err(error_at(
                            span.start,
                            format!(
                                "the suppression of {} on table `{name}` needs a `reason`: say why the finding does not apply",
                                rule.code
                            ),
                        ));
                    }
                }
            }
            config.tables.insert(name.to_lowercase(), settings);
        }
        Ok(config)
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
            e.message.contains("unknown field `exclud`"),
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
        assert!(
            e.message.contains("unknown option `depth`"),
            "{}",
            e.message
        );
    }
}
