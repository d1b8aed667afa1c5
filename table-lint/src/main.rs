//! The `table-lint` command.

fn main() -> std::process::ExitCode {
    table_lint::cli::run(std::env::args_os())
}
