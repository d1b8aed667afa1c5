//! Which designs can meet in one table at run time: those of one program.
//!
//! A Cargo package builds several programs from one folder: its library, each binary, example,
//! test and bench. Two structs in different binaries of a package never run together, but each
//! of them can run with the library's. So a design is placed in its package and target, found
//! from the file's path the way Cargo finds targets by convention:
//!
//! - `src/main.rs` and `src/bin/NAME.rs` (or `src/bin/NAME/…`): a binary;
//! - `examples/NAME.rs` (or `examples/NAME/…`), `tests/…`, `benches/…` likewise;
//! - everything else under `src/`: the library (the main binary's modules, when there is no
//!   `src/lib.rs`).
//!
//! Files outside any package are grouped by the folder they are in, and files below the first
//! level of a target folder (`tests/fixtures/a/b.rs`) by that first level (`test:fixtures`):
//! Cargo builds `tests/fixtures/main.rs` as one test, and without it such files are modules
//! the tests share. A file there with a `fn main` of its own is a program by itself, as the
//! inputs of `trybuild` and other compile tests are (`test:ui/fail_x`). Designs of different
//! packages are never compared.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The kind of program a file is part of.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The package's library: used by every other target of the package.
    Library,
    /// A binary, example, test, bench, or a group of files no target root names: by kind and
    /// name (`bin:server`, `test:orders`, `dir:tests/fixtures/TK011`).
    Program(String),
}

impl Target {
    /// Whether two targets of one package can be linked into one program: the same target, or
    /// the library and any target (which links it).
    pub fn meet(a: &Target, b: &Target) -> bool {
        a == b || *a == Target::Library || *b == Target::Library
    }
}

/// Where a design lives: its package (the folder of its `Cargo.toml`) and its target.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scope {
    /// The package's folder, or `None` for a file outside any package.
    pub package: Option<PathBuf>,
    /// The target.
    pub target: Target,
}

impl Scope {
    /// Whether designs of the two scopes can be stored by one program: the same target, or a
    /// package's library and any target of that package (which links it). Designs of
    /// different packages are not compared: which package uses which is not read from the
    /// manifests.
    pub fn meets(&self, other: &Scope) -> bool {
        // The packages are absolute paths made the same way: comparing their bytes is exact,
        // and far cheaper than `Path`'s component-wise equality.
        self.package.as_ref().map(|p| p.as_os_str())
            == other.package.as_ref().map(|p| p.as_os_str())
            && Target::meet(&self.target, &other.target)
    }

    /// The target's name as `table-lint.toml` writes it: `lib`, `bin:server`, `test:orders`.
    pub fn name(&self) -> &str {
        match &self.target {
            Target::Library => "lib",
            Target::Program(name) => name,
        }
    }

    /// The scope with its target replaced by the group of `programs` that names it, if any:
    /// targets grouped in `table-lint.toml` run together, so their designs meet.
    pub fn grouped(mut self, programs: &[Vec<String>]) -> Scope {
        if let Some(group) = programs.iter().find(|g| g.iter().any(|n| n == self.name())) {
            self.target = if group.iter().any(|n| n == "lib") {
                Target::Library
            } else {
                Target::Program(format!("group:{}", group.join("+")))
            };
        }
        self
    }

    /// The scope said for people: `library of examples`, `test:orders of table-lint`.
    pub fn describe(&self) -> String {
        let package = self
            .package
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(
                || "no package".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
        match &self.target {
            Target::Library => format!("library of {package}"),
            Target::Program(name) => format!("{name} of {package}"),
        }
    }
}

/// Finds scopes, remembering where the packages are.
#[derive(Debug, Default)]
pub struct Scopes {
    package_of_dir: HashMap<PathBuf, Option<PathBuf>>,
}

impl Scopes {
    /// The package folder holding `dir` (the nearest folder with a `Cargo.toml` with a
    /// `[package]`), if any.
    fn package(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(found) = self.package_of_dir.get(dir) {
            return found.clone();
        }
        let manifest = dir.join("Cargo.toml");
        let found = if std::fs::read_to_string(&manifest)
            .is_ok_and(|text| text.lines().any(|l| l.trim() == "[package]"))
        {
            Some(dir.to_owned())
        } else {
            dir.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .and_then(|p| self.package(p))
        };
        self.package_of_dir.insert(dir.to_owned(), found.clone());
        found
    }

    /// The scope of a source file; `has_main` says the file declares a `fn main` of its own.
    pub fn of(&mut self, file: &Path, has_main: bool) -> Scope {
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_owned());
        let dir = absolute.parent().unwrap_or(Path::new("/")).to_owned();
        let Some(package) = self.package(&dir) else {
            return Scope {
                package: None,
                target: Target::Program(format!("dir:{}", dir.display())),
            };
        };
        let relative: Vec<String> = absolute
            .strip_prefix(&package)
            .unwrap_or(&absolute)
            .components()
            .filter_map(|c| match c {
                Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        let mut target = target_of(&relative, &package);
        if let [folder, sub, rest @ ..] = relative.as_slice()
            && has_main
            && !rest.is_empty()
            && is_target_folder(folder)
            && !package.join(folder).join(sub).join("main.rs").is_file()
        {
            let path = relative[1..].join("/");
            target = Target::Program(format!(
                "{}:{}",
                kind_of(folder),
                path.strip_suffix(".rs").unwrap_or(&path)
            ));
        }
        Scope {
            package: Some(package),
            target,
        }
    }
}

/// The target of a file at `parts` (its path inside the package, folder by folder).
fn target_of(parts: &[String], package: &Path) -> Target {
    let stem = |name: &str| name.strip_suffix(".rs").unwrap_or(name).to_owned();
    let program = |kind: &str, name: &str| Target::Program(format!("{kind}:{name}"));
    match parts {
        [src, main] if src == "src" && main == "main.rs" => program("bin", "main"),
        [src, bin, name] if src == "src" && bin == "bin" => program("bin", &stem(name)),
        [src, bin, name, ..] if src == "src" && bin == "bin" => program("bin", name),
        [src, ..] if src == "src" => {
            if package.join("src/lib.rs").is_file() {
                Target::Library
            } else {
                program("bin", "main")
            }
        }
        [folder, name] if is_target_folder(folder) => program(kind_of(folder), &stem(name)),
        [folder, name, ..] if is_target_folder(folder) => program(kind_of(folder), name),
        _ => program("dir", &parts[..parts.len().saturating_sub(1)].join("/")),
    }
}

fn is_target_folder(folder: &str) -> bool {
    matches!(folder, "examples" | "tests" | "benches")
}

fn kind_of(folder: &str) -> &'static str {
    match folder {
        "examples" => "example",
        "tests" => "test",
        _ => "bench",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(path: &str) -> Vec<String> {
        path.split('/').map(str::to_owned).collect()
    }

    #[test]
    fn targets_follow_cargos_conventions() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let t = |path: &str| target_of(&parts(path), here);
        assert_eq!(t("src/lint.rs"), Target::Library);
        assert_eq!(t("src/rules/mod.rs"), Target::Library);
        assert_eq!(t("src/main.rs"), Target::Program("bin:main".into()));
        assert_eq!(t("src/bin/tool.rs"), Target::Program("bin:tool".into()));
        assert_eq!(
            t("src/bin/tool/parts.rs"),
            Target::Program("bin:tool".into())
        );
        assert_eq!(t("tests/cli.rs"), Target::Program("test:cli".into()));
        assert_eq!(
            t("tests/fixtures/TK011/bad.rs"),
            Target::Program("test:fixtures".into())
        );
        assert_eq!(
            t("examples/demo.rs"),
            Target::Program("example:demo".into())
        );
        assert_eq!(t("benches/lint.rs"), Target::Program("bench:lint".into()));
        assert_eq!(t("build.rs"), Target::Program("dir:".into()));
    }

    #[test]
    fn a_library_meets_everything_and_programs_only_themselves() {
        let package = Some(PathBuf::from("/p"));
        let scope = |target: Target| Scope {
            package: package.clone(),
            target,
        };
        let lib = scope(Target::Library);
        let a = scope(Target::Program("bin:a".into()));
        let b = scope(Target::Program("bin:b".into()));
        assert!(lib.meets(&a) && a.meets(&lib) && a.meets(&a));
        assert!(!a.meets(&b));
        let elsewhere = Scope {
            package: Some(PathBuf::from("/q")),
            target: Target::Library,
        };
        assert!(!elsewhere.meets(&a) && !elsewhere.meets(&lib));
        // Files of a folder below `tests/` are one group of modules, unless a file has a
        // `fn main` of its own (a compile test's input): then it is a program by itself.
        let mut scopes = Scopes::default();
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let fixture = here.join("tests/fixtures/TK011/bad.rs");
        assert_eq!(
            scopes.of(&fixture, false).target,
            Target::Program("test:fixtures".into())
        );
        assert_eq!(
            scopes.of(&fixture, true).target,
            Target::Program("test:fixtures/TK011/bad".into())
        );
        // A test's own file stays the test, `fn main` or not.
        assert_eq!(
            scopes.of(&here.join("tests/cli.rs"), true).target,
            Target::Program("test:cli".into())
        );
        let this = scopes.of(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scope.rs"),
            false,
        );
        assert_eq!(this.target, Target::Library);
        assert_eq!(this.describe(), "library of table-lint");
    }
}
