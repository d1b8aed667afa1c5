//! `table-lint data` on the command line. Exit status: 0 when nothing is at error level (or
//! warning level, with `--deny warnings`), 1 when something is, 2 when the run itself failed (bad arguments, configuration or connection
//! string, an unreachable service, a missing table, unreadable designs, an unwritable picture).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use table_http::HttpBackend;

use super::drift::DesignSet;
use super::{DataOptions, ReadMode};
use crate::config::Config;
use crate::render::Format;

/// The environment variable read when `--connection-string` is not given.
pub const CONNECTION_STRING_VARIABLE: &str = "AZURE_STORAGE_CONNECTION_STRING";

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// Runs `table-lint data` with its parsed arguments.
pub fn run(m: &clap::ArgMatches) -> ExitCode {
    let table = m.get_one::<String>("table").map_or("", String::as_str);
    let failing = match crate::cli::failing_severity(m) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let format = match m
        .get_one::<String>("format")
        .map_or("human", String::as_str)
    {
        "human" => Format::Human,
        "json" => Format::Json,
        "sarif" => Format::Sarif,
        other => {
            return fail(format!(
                "unknown format `{other}`; expected human, json or sarif"
            ));
        }
    };
    let color = match m.get_one::<String>("color").map_or("auto", String::as_str) {
        "always" => true,
        "never" => false,
        "auto" => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        other => {
            return fail(format!(
                "unknown --color `{other}`; expected auto, always or never"
            ));
        }
    };
    let mode = match m.get_one::<u64>("sample") {
        Some(n) => ReadMode::Sample(usize::try_from(*n).unwrap_or(usize::MAX)),
        None => ReadMode::Full,
    };
    let config = match m.get_one::<String>("config") {
        Some(path) => Config::load(Path::new(path)),
        None => Config::discover(Path::new(".")),
    };
    let config = match config {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let connection = match m.get_one::<String>("connection-string") {
        Some(cs) => cs.clone(),
        None => match std::env::var(CONNECTION_STRING_VARIABLE) {
            Ok(cs) if !cs.trim().is_empty() => cs,
            _ => {
                return fail(format!(
                    "no connection string: pass --connection-string or set {CONNECTION_STRING_VARIABLE}"
                ));
            }
        },
    };
    let backend = match HttpBackend::from_connection_string(&connection) {
        Ok(b) => b,
        Err(e) => return fail(format!("the connection string can't be used: {e}")),
    };
    let designs = match m.get_many::<String>("design") {
        Some(paths) => {
            let paths: Vec<PathBuf> = paths.map(PathBuf::from).collect();
            match DesignSet::load(&paths, table) {
                Ok(d) => Some(d),
                Err(e) => return fail(e),
            }
        }
        None => None,
    };
    let bar = progress_bar();
    let mut on_page = |n: u64| {
        if let Some(bar) = &bar {
            bar.set_position(n);
        }
    };
    let options = DataOptions {
        table,
        mode,
        designs: designs.as_ref(),
        config: &config,
        progress: Some(&mut on_page),
    };
    let report = pollster::block_on(super::lint_table(&backend, options));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = match report {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Some(path) = m.get_one::<String>("picture")
        && let Err(e) = super::picture::write(&report.picture, Path::new(path))
    {
        return fail(format!("can't write the picture {path}: {e}"));
    }
    print!("{}", super::render::render(&report, format, color));
    if format != Format::Human {
        eprintln!("{}", super::render::summary(&report));
    }
    if report.findings.iter().any(|f| f.severity >= failing) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A progress bar on a terminal (entities read, rate, elapsed); none otherwise, so redirected
/// and machine-read output never carries it.
fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{spinner} {human_pos} entities read, {per_sec}, {elapsed}")
            .ok()?;
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
