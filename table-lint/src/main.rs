//! The `table-lint` command.

/// The linter allocates many small, short-lived values per file (token trees, attributes);
/// mimalloc's thread-local free lists serve them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    table_lint::cli::run(std::env::args_os())
}
