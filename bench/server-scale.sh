#!/usr/bin/env bash
# table-server at a million entities, data on disk: load time, memory (VmHWM, VmRSS), the data
# directory's size, point-read and partition-scan latencies, restart time (until it listens and
# until a first read answers) and memory after the restart, then 100,000 sequential upserts;
# then the same upserts against Azurite 3.37 (in memory), stopped after a time limit if they
# take longer. The client is table-http; the measuring program is
# table-server/examples/scale.rs, which starts and stops the release table-server itself.
#
#   bash bench/server-scale.sh
#   SCALE_AZURITE=0 bash bench/server-scale.sh             (table-server only, no Node.js needed)
#   SCALE_PARTITIONS=100 SCALE_UPSERTS=10000 bash bench/server-scale.sh   (smaller)
#
# Knobs: SCALE_PARTITIONS (1000) of SCALE_PER_PARTITION (1000) entities, loaded by
# SCALE_LOAD_WORKERS (4) workers; SCALE_READS (2000) point reads; SCALE_SCANS (200) partition
# scans; SCALE_UPSERTS (100000); SCALE_AZURITE_UPSERTS (100000) and SCALE_AZURITE_MAX_SECONDS
# (300) for Azurite.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PARTITIONS="${SCALE_PARTITIONS:-1000}"
PER_PARTITION="${SCALE_PER_PARTITION:-1000}"
LOAD_WORKERS="${SCALE_LOAD_WORKERS:-4}"
READS="${SCALE_READS:-2000}"
SCANS="${SCALE_SCANS:-200}"
UPSERTS="${SCALE_UPSERTS:-100000}"
AZURITE="${SCALE_AZURITE:-1}"
AZURITE_UPSERTS="${SCALE_AZURITE_UPSERTS:-100000}"
AZURITE_MAX_SECONDS="${SCALE_AZURITE_MAX_SECONDS:-300}"

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)), load average $(cut -d' ' -f1-3 /proc/loadavg), $(cargo --version)"
COMMIT="$(git rev-parse --short HEAD)"
if [[ -n "$(git status --porcelain -- table-server/src table-http/src table-runtime/src)" ]]; then
  COMMIT="$COMMIT with uncommitted changes in its sources"
fi
echo "table-server built from $COMMIT; data in a temporary directory on $(df -P "${TMPDIR:-/tmp}" | awk 'NR == 2 { print $1 }')"
cargo build --release -q -p table-server --bin table-server --example scale

WORK="$(mktemp -d "${TMPDIR:-/tmp}/server-scale.XXXXXX")"
cleanup() {
  local pid
  # The example stops its server itself; this is for when the example died first.
  if [[ -f "$WORK/server.pid" ]]; then
    pid="$(cat "$WORK/server.pid")"
    if kill -TERM "$pid" 2>/dev/null; then
      for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  if [[ -n "${AZURITE_RUN_DIR:-}" ]]; then
    "$ROOT/.ci/azurite" stop || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== table-server (release, data on disk)"
target/release/examples/scale --server-bin target/release/table-server \
  --data-dir "$WORK/data" --pid-file "$WORK/server.pid" \
  --partitions "$PARTITIONS" --per-partition "$PER_PARTITION" --load-workers "$LOAD_WORKERS" \
  --reads "$READS" --scans "$SCANS" --upserts "$UPSERTS"

if [[ "$AZURITE" != 0 ]]; then
  echo "== Azurite ${AZURITE_VERSION:-3.37.0} (in memory): $AZURITE_UPSERTS sequential upserts, stopped after $AZURITE_MAX_SECONDS s"
  free_port() {
    node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"
  }
  export AZURITE_TABLE_PORT AZURITE_QUEUE_PORT AZURITE_BLOB_PORT AZURITE_RUN_DIR
  AZURITE_TABLE_PORT="$(free_port)"
  AZURITE_QUEUE_PORT="$(free_port)"
  AZURITE_BLOB_PORT="$(free_port)"
  AZURITE_RUN_DIR="$WORK/azurite"
  "$ROOT/.ci/azurite" start
  AZ_PID="$(cat "$AZURITE_RUN_DIR/pid")"
  if [[ "$(cat "/proc/$AZ_PID/comm")" != node ]]; then
    AZ_PID="$(pgrep -P "$AZ_PID" node | head -n1)"
  fi
  KEY="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
  target/release/examples/scale \
    --connection-string "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$KEY;TableEndpoint=http://127.0.0.1:$AZURITE_TABLE_PORT/devstoreaccount1" \
    --server-pid "$AZ_PID" --upserts "$AZURITE_UPSERTS" --max-seconds "$AZURITE_MAX_SECONDS"
  echo "Azurite (node pid $AZ_PID): $(grep -E '^Vm(HWM|RSS)' "/proc/$AZ_PID/status" | tr -s ' \t' ' ' | paste -sd ',' -)"
fi
