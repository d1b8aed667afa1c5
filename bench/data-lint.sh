#!/usr/bin/env bash
# `table-lint data` on a 1,000,000-entity table: entities analysed per second, this process's
# CPU per entity and the peak memory the analysis adds, against a plain paging loop that only
# counts entities, in the same run (target: the analysis at most 1.5x the plain loop's time).
#
#   bash bench/data-lint.sh                     (in process, through the Backend trait)
#   DATA_BENCH_CS="$CS" bash bench/data-lint.sh (also over HTTP; DATA_BENCH_LOAD=1 writes the
#                                                table first)
#   DATA_BENCH_SERVER=1 bash bench/data-lint.sh  (also over HTTP against a table-server this
#                                                script starts, data on disk, and loads)
#   DATA_BENCH_ENTITIES=200000 bash bench/data-lint.sh
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
N="${DATA_BENCH_ENTITIES:-1000000}"

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(cargo --version)"
cargo build --release -q -p table-lint --example data_bench
BIN="target/release/examples/data_bench"
if [ -n "${DATA_BENCH_SERVER:-}" ]; then
  cargo build --release -q -p table-server
  SERVER_DIR="$(mktemp -d)"
  target/release/table-server --data-dir "$SERVER_DIR/data" --port 0 >"$SERVER_DIR/log" 2>&1 &
  SERVER_PID=$!
  trap 'kill -TERM "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; rm -rf "$SERVER_DIR"' EXIT
  ENDPOINT=""
  for _ in $(seq 1 100); do
    ENDPOINT="$(sed -n 's/^table-server: listening on \(http[^ ]*\) .*/\1/p' "$SERVER_DIR/log" | head -n1)"
    [ -n "$ENDPOINT" ] && break
    sleep 0.1
  done
  [ -n "$ENDPOINT" ] || { cat "$SERVER_DIR/log" >&2; exit 1; }
  echo "table-server (release, data on disk) at $ENDPOINT"
  DATA_BENCH_CS="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=$ENDPOINT"
  DATA_BENCH_LOAD=1
fi
"$BIN" --entities "$N"
if [ -n "${DATA_BENCH_CS:-}" ]; then
  if [ -n "${DATA_BENCH_LOAD:-}" ]; then
    "$BIN" --entities "$N" --connection-string "$DATA_BENCH_CS" --load
  else
    "$BIN" --entities "$N" --connection-string "$DATA_BENCH_CS"
  fi
fi
