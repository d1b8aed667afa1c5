//! Command-line interface. Exit status: 0 when nothing is at error level (or, with
//! `--deny warnings`, at warning level), 1 when something is (for `expand` and `keys`: when a
//! design is invalid), 2 when the run itself failed (bad configuration, unreadable path, bad
//! arguments).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Arg, ArgAction, Command};

use crate::config::Config;
use crate::diagnostic::Severity;
use crate::render::{self, Format};
use crate::rules;

/// `-D warnings` / `--deny warnings`: warnings fail the run too, as with clippy.
pub fn deny_arg() -> Arg {
    Arg::new("deny")
        .short('D')
        .long("deny")
        .value_name("LEVEL")
        .action(ArgAction::Append)
        .help(
            "`warnings`: warnings fail the run (status 1) as errors do, like clippy's -D warnings",
        )
}

/// The least severe finding that fails the run: errors, or warnings with `--deny warnings`.
pub fn failing_severity(matches: &clap::ArgMatches) -> Result<Severity, String> {
    let mut failing = Severity::Error;
    for value in matches.get_many::<String>("deny").into_iter().flatten() {
        match value.as_str() {
            "warnings" | "warning" => failing = Severity::Warning,
            other => {
                return Err(format!(
                    "unknown --deny `{other}`; the one level it takes is `warnings`"
                ));
            }
        }
    }
    Ok(failing)
}

fn command() -> Command {
    Command::new("table-lint")
        .about("Finds Azure Table Storage key-design anti-patterns in Rust sources")
        .version(env!("CARGO_PKG_VERSION"))
        .args_conflicts_with_subcommands(true)
        .arg(
            Arg::new("paths")
                .num_args(0..)
                .value_name("PATHS")
                .help("files or folders to lint [default: .]"),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_name("FORMAT")
                .default_value("human")
                .help("human, json, sarif or github"),
        )
        .arg(
            Arg::new("config")
                .long("config")
                .value_name("FILE")
                .help("use this table-lint.toml instead of looking for one"),
        )
        .arg(deny_arg())
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .value_parser(clap::value_parser!(usize))
                .help("lint with N threads [default: every core]"),
        )
        .arg(
            Arg::new("color")
                .long("color")
                .value_name("WHEN")
                .default_value("auto")
                .help("auto, always or never"),
        )
        .subcommand(
            Command::new("rules").about("lists every rule with its code, name and default level"),
        )
        .subcommand(
            Command::new("explain")
                .about("prints a rule's documentation")
                .arg(Arg::new("rule").required(true).value_name("CODE-or-NAME")),
        )
        .subcommand(
            Command::new("expand")
                .about("prints the code the derive generates for every entity in the files")
                .arg(
                    Arg::new("paths")
                        .num_args(1..)
                        .required(true)
                        .action(ArgAction::Append),
                ),
        )
        .subcommand(data_command())
        .subcommand(
            Command::new("keys")
                .about("prints each entity's key templates, index copies and generated queries")
                .arg(
                    Arg::new("paths")
                        .num_args(1..)
                        .required(true)
                        .action(ArgAction::Append),
                ),
        )
}

fn data_command() -> Command {
    Command::new("data")
        .about("lints the data of a live table: partition skew, write heat, key shapes, entity types, design drift")
        .arg(
            Arg::new("connection-string")
                .long("connection-string")
                .value_name("CS")
                .help("a connection string or SAS URL, as table-http takes them [default: $AZURE_STORAGE_CONNECTION_STRING]"),
        )
        .arg(
            Arg::new("table")
                .long("table")
                .value_name("NAME")
                .required(true)
                .help("the table to read"),
        )
        .arg(
            Arg::new("design")
                .long("design")
                .value_name("PATH")
                .action(ArgAction::Append)
                .help("Rust files or folders with the table's designs: keys, properties and index copies are checked against them"),
        )
        .arg(
            Arg::new("sample")
                .long("sample")
                .value_name("N")
                .value_parser(clap::value_parser!(u64).range(1..))
                .conflicts_with("full")
                .help("read a sample of at most N entities spread over the key space"),
        )
        .arg(
            Arg::new("full")
                .long("full")
                .action(ArgAction::SetTrue)
                .help("read every entity (the default)"),
        )
        .arg(
            Arg::new("format")
                .long("format")
                .value_name("FORMAT")
                .default_value("human")
                .help("human, json or sarif"),
        )
        .arg(deny_arg())
        .arg(
            Arg::new("picture")
                .long("picture")
                .value_name("FILE")
                .help("write a picture of the table: SVG, or PNG when FILE ends in .png"),
        )
        .arg(
            Arg::new("config")
                .long("config")
                .value_name("FILE")
                .help("use this table-lint.toml instead of looking for one"),
        )
        .arg(
            Arg::new("color")
                .long("color")
                .value_name("WHEN")
                .default_value("auto")
                .help("auto, always or never"),
        )
}

fn paths_of(matches: &clap::ArgMatches) -> Vec<PathBuf> {
    matches
        .get_many::<String>("paths")
        .map(|v| v.map(PathBuf::from).collect())
        .unwrap_or_else(|| vec![PathBuf::from(".")])
}

/// Runs the command with these arguments (the first is the program name).
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = match command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match matches.subcommand() {
        Some(("rules", _)) => {
            print!("{}", rules_listing());
            ExitCode::SUCCESS
        }
        Some(("explain", m)) => {
            let name = m.get_one::<String>("rule").map_or("", String::as_str);
            match rules::find(name) {
                Some(rule) => {
                    println!(
                        "{} {} (default: {})\n\n{}\n\n{}",
                        rule.code,
                        rule.name,
                        rule.default_level.as_str(),
                        rule.summary,
                        rule.docs
                    );
                    if !rule.options.is_empty() {
                        println!("\n## Options");
                        for o in rule.options {
                            println!("- `{}`: {}", o.name, o.doc);
                        }
                    }
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!(
                        "error: no rule has the code or name `{name}`; `table-lint rules` lists them"
                    );
                    ExitCode::from(2)
                }
            }
        }
        Some(("expand", m)) => view(m, crate::views::expand),
        Some(("data", m)) => crate::data::cli::run(m),
        Some(("keys", m)) => view(m, crate::views::keys),
        _ => lint(&matches),
    }
}

fn view(
    matches: &clap::ArgMatches,
    show: fn(&[PathBuf]) -> Result<crate::views::View, String>,
) -> ExitCode {
    let paths = paths_of(matches);
    // Read on a thread with the stack the linter's own workers have (see `WORKER_STACK`).
    let shown = std::thread::Builder::new()
        .name("table-lint view".into())
        .stack_size(crate::lint::WORKER_STACK)
        .spawn(move || show(&paths))
        .map_err(|e| format!("can't start a thread: {e}"))
        .and_then(|h| {
            h.join()
                .unwrap_or_else(|_| Err("the view stopped unexpectedly".into()))
        });
    match shown {
        Ok(view) => {
            print!("{}", view.text);
            for invalid in &view.invalid {
                eprintln!("error: invalid design: {invalid}");
            }
            if view.invalid.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The rules listing: code, name, default level and summary, one per line.
pub fn rules_listing() -> String {
    let mut out = String::new();
    for r in rules::all() {
        out.push_str(&format!(
            "{}  {:<32} {:<5}  {}\n",
            r.code,
            r.name,
            r.default_level.as_str(),
            r.summary
        ));
    }
    out
}

fn lint(matches: &clap::ArgMatches) -> ExitCode {
    let format_name = matches
        .get_one::<String>("format")
        .map_or("human", String::as_str);
    let Some(format) = Format::parse(format_name) else {
        eprintln!("error: unknown format `{format_name}`; expected human, json, sarif or github");
        return ExitCode::from(2);
    };
    let color = match matches
        .get_one::<String>("color")
        .map_or("auto", String::as_str)
    {
        "always" => true,
        "never" => false,
        "auto" => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        other => {
            eprintln!("error: unknown --color `{other}`; expected auto, always or never");
            return ExitCode::from(2);
        }
    };
    let failing = match failing_severity(matches) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let paths = paths_of(matches);
    let config = match matches.get_one::<String>("config") {
        Some(path) => Config::load(std::path::Path::new(path)),
        None => Config::discover(&paths[0]),
    };
    let config = match config {
        Ok(mut c) => {
            c.threads = matches.get_one::<usize>("threads").copied();
            c
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match crate::lint::lint_paths(&paths, &config) {
        Ok(report) => {
            let mut phases = crate::lint::Phases::start();
            let rendered = render::render(&report, format, color, config.threads);
            phases.done("writing the findings");
            print!("{rendered}");
            if format != Format::Human {
                eprintln!("{}", render::human::summary(&report));
            }
            let status = if report.diagnostics.iter().any(|d| d.severity >= failing) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
            // Freeing a large report (hundreds of thousands of findings, the texts of the files
            // they are in) one allocation at a time takes a noticeable part of a large run; the
            // exit need not wait for it, and the process's end returns the memory anyway.
            if report.diagnostics.len() > 10_000 {
                std::thread::spawn(move || drop((report, rendered)));
            }
            status
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
