//! Linting speed, in lines per second, on a generated corpus of annotated entities (500 files,
//! 2,000 structs, each with an impl block and a query function, as real modules have) and on a
//! real crate with none (syn's sources from the local registry); each compared in the same run
//! with listing and reading the same files, on one thread and on every core.

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use table_lint::config::Config;
use table_lint::lint::lint_paths;

/// Writes `files` files of `per_file` annotated structs and filters each; returns the folder.
fn corpus(files: usize, per_file: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("table-lint-bench-v3-{files}-{per_file}"));
    if dir.join("done").exists() {
        return dir;
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in 0..files {
        let mut text =
            String::from("use table_runtime::{Query, TableEntity};\nuse time::OffsetDateTime;\n\n");
        for s in 0..per_file {
            text.push_str(&format!(
                r#"/// Entity {f}-{s}.
#[derive(Debug, Clone, TableEntity)]
#[table(name = "Table{f}x{s}", partition_key = "{{tenant_id}}_{{device_id}}", row_key = "r_{{taken_at:inverted_ticks}}_{{seq:010}}")]
#[table(index(name = "by_site", row_key = "site_{{site}}_{{seq:010}}"))]
#[table(rename_all = "PascalCase")]
pub struct Reading{f}x{s} {{
    #[table(max_len = 64)]
    pub tenant_id: String,
    #[table(max_len = 64)]
    pub device_id: String,
    pub taken_at: OffsetDateTime,
    pub seq: u32,
    #[table(max_len = 64)]
    pub site: String,
    pub temperature: f64,
    pub humidity: f64,
    pub note: Option<String>,
}}

impl Reading{f}x{s} {{
    /// Whether the reading is out of range for its site.
    pub fn is_alarm(&self, low: f64, high: f64) -> bool {{
        if self.temperature < low || self.temperature > high {{
            return true;
        }}
        match self.note.as_deref() {{
            Some(note) if note.starts_with("alarm") => true,
            Some(_) | None => self.humidity > 0.95,
        }}
    }}

    /// A one-line summary for logs.
    pub fn summary(&self) -> String {{
        format!(
            "{{}}/{{}} at {{}}: {{:.1}} C, {{:.0}}% ({{}})",
            self.tenant_id,
            self.device_id,
            self.taken_at,
            self.temperature,
            self.humidity * 100.0,
            self.note.as_deref().unwrap_or("-"),
        )
    }}

    /// Moves the reading to another site, keeping its sequence number.
    pub fn with_site(mut self, site: &str) -> Self {{
        self.site = site.to_owned();
        self
    }}
}}

pub fn latest_{s}(tenant: &str) -> Query {{
    let _ = tenant;
    Query::filter("PartitionKey eq 'acme _dev' and RowKey ge 'r_' and Temperature gt 20.0").unwrap()
}}

"#
            ));
        }
        std::fs::write(dir.join(format!("file{f}.rs")), text).unwrap();
    }
    std::fs::write(dir.join("done"), "").unwrap();
    dir
}

/// A large real crate from the local registry (syn's sources), if present.
fn real_crate() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
    let registry = home.join("registry/src");
    std::fs::read_dir(registry)
        .ok()?
        .flatten()
        .find_map(|index| {
            std::fs::read_dir(index.path())
                .ok()?
                .flatten()
                .map(|e| e.path())
                .find(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("syn-3"))
                })
        })
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    table_lint::source::discover(&[dir.to_owned()], &[]).unwrap()
}

fn lines(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).map_or(0, |t| t.lines().count() as u64))
        .sum()
}

fn bench_dir(c: &mut Criterion, name: &str, dir: &Path) {
    let files = rust_files(dir);
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(lines(&files)));
    // The baseline: list the files and read them, what `find … | xargs cat` does.
    group.bench_function("list_and_read", |b| {
        b.iter(|| {
            rust_files(dir)
                .iter()
                .map(|f| std::fs::read(f).map_or(0, |t| t.len()))
                .sum::<usize>()
        })
    });
    for (label, threads) in [("lint_1_thread", Some(1)), ("lint_all_cores", None)] {
        let mut config = Config::default();
        config.threads = threads;
        group.bench_function(label, |b| {
            b.iter(|| {
                lint_paths(&[dir.to_owned()], &config)
                    .unwrap()
                    .diagnostics
                    .len()
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    let corpus = corpus(500, 4);
    bench_dir(c, "annotated_corpus", &corpus);
    if let Some(real) = real_crate() {
        bench_dir(c, "real_crate_syn", &real);
    }
}

criterion_group!(lint, benches);
criterion_main!(lint);
