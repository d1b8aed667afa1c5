#!/usr/bin/env bash
# Worker throughput: each queue pattern's worker drains the same seeded backlog on the
# in-process queue, table and blob stores and on Azurite's queue, table and blob services;
# prints jobs per second (overall, median and slowest round), this process's CPU per job,
# Azurite's CPU per job, and how Azurite compares with in process, in one table.
#
#   bash bench/workers.sh                              (300 writes per pattern)
#   WORKERS_BENCH_JOBS=200 bash bench/workers.sh       (fewer)
#   WORKERS_BENCH_SKIP_AZURITE=1 bash bench/workers.sh (no Node.js: the in-process half only)
#
# Other knobs (WORKERS_BENCH_SEED, WORKERS_BENCH_MIN_SECS, WORKERS_BENCH_MIN_TICKS,
# WORKERS_BENCH_PATTERNS) and how Azurite is found or started are described at the top of
# examples/benches/workers.rs. The environment is passed through to the bench unchanged.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(cargo --version)"
cargo bench -p examples --bench workers "$@"
