#!/usr/bin/env bash
# How fast `table-lint` reads source trees, against `cat` over the same files in the same run.
#
#   bash bench/lint-speed.sh [TREE]
#
# Two trees are measured:
#   1. TREE (default: the local cargo registry, ~/.cargo/registry/src): millions of lines of real
#      Rust, nearly all of which mention no table design, so this measures the linter's reading
#      and its quick skip of files with nothing to lint;
#   2. a generated tree of annotated code: copies of the bundled examples and of the corpus of
#      real designs (every file holds `#[derive(TableEntity)]` designs and `$filter`s), so every
#      line is lexed, every design read and checked, every filter parsed.
# Each tool runs ROUNDS times (default 3) after one warm-up that fills the page cache; the best
# wall time counts. Targets (issue 4's, which issue 11 keeps): at least 500k lines a second on
# the annotated tree, and at most 2x `cat` on the real code of the registry, whose files mostly
# can't hold a design or a filter and should cost about what reading them does.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
TREE="${1:-$HOME/.cargo/registry/src}"
COPIES="${COPIES:-300}"

cargo build -q --release -p table-lint
LINT="$PWD/target/release/table-lint"

best() { # best wall seconds of ROUNDS runs of "$@" (after one warm-up)
  "$@" >/dev/null 2>&1 || true
  local best=""
  for _ in $(seq "$ROUNDS"); do
    local s e t
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

cat_tree() { find "$1" -name '*.rs' -type f -print0 | xargs -0 cat >/dev/null; }

report() { # name tree
  local name=$1 tree=$2
  local files lines
  files=$(find "$tree" -name '*.rs' -type f | wc -l)
  lines=$(find "$tree" -name '*.rs' -type f -print0 | xargs -0 cat | wc -l)
  local t_cat t_lint
  t_cat=$(best cat_tree "$tree")
  t_lint=$(best "$LINT" --format json "$tree")
  printf '%s: %d files, %d lines\n' "$name" "$files" "$lines"
  printf '  cat:        %.3f s\n' "$t_cat"
  printf '  table-lint: %.3f s  (%.0f lines/s, %.2fx cat)\n' "$t_lint" \
    "$(echo "$lines / $t_lint" | bc -l)" "$(echo "$t_lint / $t_cat" | bc -l)"
  # Where one more run's time goes, phase by phase, with the memory held after each.
  TABLE_LINT_TIMINGS=1 "$LINT" --format json "$tree" 2>&1 >/dev/null | grep '^table-lint timings' \
    | sed 's/^table-lint timings: /    /' || true
}

GEN=$(mktemp -d)
trap 'rm -rf "$GEN"' EXIT
# One copy is made file by file, the others folder by folder (one `cp` each, not one a file).
mkdir -p "$GEN/c1"
cp examples/src/*.rs "$GEN/c1/"
for f in table-lint/tests/corpus/*.rs; do cp "$f" "$GEN/c1/corpus_$(basename "$f")"; done
for i in $(seq 2 "$COPIES"); do cp -r "$GEN/c1" "$GEN/c$i"; done

echo "table-lint $(git rev-parse --short HEAD), $(nproc) cores, best of $ROUNDS"
report "generated annotated tree ($COPIES copies of examples/src and the corpus)" "$GEN"
report "$TREE" "$TREE"
