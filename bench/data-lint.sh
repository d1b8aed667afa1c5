#!/usr/bin/env bash
# `table-lint data` on a 1,000,000-entity table: entities analysed per second, this process's
# CPU per entity and the peak memory the analysis adds, against a plain paging loop that only
# counts entities, in the same run (target: the analysis at most 1.5x the plain loop's time).
#
#   bash bench/data-lint.sh                     (in process, through the Backend trait)
#   DATA_BENCH_CS="$CS" bash bench/data-lint.sh (also over HTTP; DATA_BENCH_LOAD=1 writes the
#                                                table first)
#   DATA_BENCH_ENTITIES=200000 bash bench/data-lint.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
N="${DATA_BENCH_ENTITIES:-1000000}"

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(cargo --version)"
cargo build --release -q -p table-lint --example data_bench
BIN="target/release/examples/data_bench"
"$BIN" --entities "$N"
if [ -n "${DATA_BENCH_CS:-}" ]; then
  if [ -n "${DATA_BENCH_LOAD:-}" ]; then
    "$BIN" --entities "$N" --connection-string "$DATA_BENCH_CS" --load
  else
    "$BIN" --entities "$N" --connection-string "$DATA_BENCH_CS"
  fi
fi
