//! The `table-lint` command.

/// The linter allocates many small, short-lived values per file (token trees, attributes);
/// mimalloc's thread-local free lists serve them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    no_transparent_huge_pages();
    table_lint::cli::run(std::env::args_os())
}

/// Asks Linux not to back this process's memory with transparent huge pages. A run is short
/// and its heap grows fast (a file's designs, a struct's growing field list): with huge pages,
/// each fresh 2 MiB is zeroed whole on first touch, which was 10 to 30% of a run over a large
/// annotated tree (`bench/README.md`). Without the call (or on a kernel without the option),
/// the run is the same, only slower.
#[cfg(target_os = "linux")]
fn no_transparent_huge_pages() {
    // SAFETY: prctl(2) with PR_SET_THP_DISABLE takes integer arguments only (1 to set the flag,
    // then zeros), reads and writes no memory of this process, and changes only how the kernel
    // backs this process's later page faults; its result (an error on kernels before 3.15) is
    // deliberately ignored, as that leaves the kernel's default.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn no_transparent_huge_pages() {}
