#!/usr/bin/env bash
# table-server against Azurite: the same workload (inserts, point reads, 100-entity
# transactions, 1,000-entity pages of a partition scan), run sequentially and by CONCURRENCY
# concurrent workers, by two clients (table-http's throughput example and Microsoft's Node
# SDK through ../sdk-comparison/compare.mjs), against three servers started side by side on
# 127.0.0.1: Azurite 3.37 in memory, table-server --in-memory and table-server with its data
# on disk (a temporary --data-dir). Measures each phase's requests per second and the server
# process's CPU time per request, and prints the medians with the issue's two targets.
#
#   bash bench/server-comparison/run.sh                (5 rounds)
#   ROUNDS=9 bash bench/server-comparison/run.sh       (more rounds, steadier medians)
#
# Other knobs: CONCURRENCY (16), SEQ_OPS (2000) and SEQ_BATCHES (100) for the sequential run,
# CONC_OPS (500) and CONC_BATCHES (20) per worker for the concurrent one.
# Every measurement is kept in bench/server-comparison/last-run.jsonl.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SDK_DIR="$ROOT/bench/sdk-comparison"
ROUNDS="${ROUNDS:-5}"
CONCURRENCY="${CONCURRENCY:-16}"
SEQ_OPS="${SEQ_OPS:-2000}"
SEQ_BATCHES="${SEQ_BATCHES:-100}"
CONC_OPS="${CONC_OPS:-500}"
CONC_BATCHES="${CONC_BATCHES:-20}"
RESULTS="$HERE/last-run.jsonl"
# The emulator's documented development account, which both servers serve.
KEY="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

echo "== the SDK from npm (in bench/sdk-comparison)"
(cd "$SDK_DIR" && npm ci --no-audit --no-fund --loglevel=error)
SDK_VERSION="$(node -p "require('$SDK_DIR/node_modules/@azure/data-tables/package.json').version")"

echo "== table-server and the Rust example (release)"
(cd "$ROOT" && cargo build --release -p table-server --bin table-server)
(cd "$ROOT" && cargo build --release -p table-http --example throughput)
TS_BIN="$ROOT/target/release/table-server"
# What was built: the commit, and whether the sources differed from it.
TS_COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)"
if [[ -n "$(git -C "$ROOT" status --porcelain -- table-server/src table-http/src table-runtime/src)" ]]; then
  TS_COMMIT="$TS_COMMIT with uncommitted changes in its sources"
fi
RUST_BIN="$ROOT/target/release/examples/throughput"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/server-comparison.XXXXXX")"
TS_PIDS=()
cleanup() {
  local pid
  for pid in "${TS_PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
  if [[ -n "${AZURITE_RUN_DIR:-}" ]]; then
    "$ROOT/.ci/azurite" stop || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"
}

# The pid of the process named `$2` that is `$1` or one of its descendants: the server itself,
# not a shell or launcher around it, so that its own CPU time is measured.
server_process() {
  local pid="$1" name="$2" child
  for _ in 1 2 3 4; do
    if [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$name" ]]; then
      echo "$pid"
      return
    fi
    child="$(pgrep -P "$pid" | head -n1 || true)"
    [[ -n "$child" ]] || break
    pid="$child"
  done
  echo "no process named $name at or under pid $1" >&2
  return 1
}

echo "== Azurite (in memory)"
export AZURITE_TABLE_PORT AZURITE_QUEUE_PORT AZURITE_BLOB_PORT AZURITE_RUN_DIR
AZURITE_TABLE_PORT="$(free_port)"
AZURITE_QUEUE_PORT="$(free_port)"
AZURITE_BLOB_PORT="$(free_port)"
AZURITE_RUN_DIR="$WORK/azurite"
"$ROOT/.ci/azurite" start
declare -A PID CS
PID[azurite]="$(server_process "$(cat "$AZURITE_RUN_DIR/pid")" node)"
CS[azurite]="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$KEY;TableEndpoint=http://127.0.0.1:$AZURITE_TABLE_PORT/devstoreaccount1"

# Starts table-server under the name `$1` with the further arguments, on a free port.
start_table_server() {
  local name="$1" pid endpoint=""
  shift
  "$TS_BIN" --host 127.0.0.1 --port 0 "$@" >"$WORK/$name.log" 2>&1 &
  pid=$!
  TS_PIDS+=("$pid")
  for _ in $(seq 1 100); do
    endpoint="$(sed -n 's/^table-server: listening on \(http[^ ]*\) .*/\1/p' "$WORK/$name.log" | head -n1)"
    [[ -n "$endpoint" ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -z "$endpoint" ]]; then
    cat "$WORK/$name.log" >&2
    echo "table-server ($name) did not start" >&2
    exit 1
  fi
  PID[$name]="$(server_process "$pid" table-server)"
  CS[$name]="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$KEY;TableEndpoint=$endpoint"
  echo "table-server ($name, pid ${PID[$name]}) listening on $endpoint"
}

echo "== table-server (in memory, and on disk in $WORK/data)"
start_table_server memory --in-memory
start_table_server disk --data-dir "$WORK/data"
echo "Azurite pid ${PID[azurite]} ($(cat "/proc/${PID[azurite]}/comm")), table-server pids ${PID[memory]} and ${PID[disk]}"

# Runs one client against one server at one concurrency, prints its lines and files them.
record() {
  local round="$1" server="$2" client="$3" concurrency="$4" output ops batches
  if ((concurrency == 1)); then
    ops="$SEQ_OPS" batches="$SEQ_BATCHES"
  else
    ops="$CONC_OPS" batches="$CONC_BATCHES"
  fi
  local args=("${CS[$server]}" --server-pid "${PID[$server]}" --concurrency "$concurrency" --ops "$ops" --batches "$batches")
  if [[ "$client" == rust ]]; then
    output="$("$RUST_BIN" "${args[@]}")"
  else
    output="$(node "$SDK_DIR/compare.mjs" "${args[@]}")"
  fi
  printf '%s\n' "$output" | sed "s/^{/{\"server\":\"$server\",/"
  printf '%s\n' "$output" | sed "s/^{/{\"round\":$round,\"server\":\"$server\",/" >>"$RESULTS"
}

SERVERS=(azurite memory disk)
: >"$RESULTS"
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round of $ROUNDS"
  # The servers take turns going first, and the clients alternate, so that a drift in the
  # machine's load does not favour one of them.
  for s in 0 1 2; do
    server="${SERVERS[$(((s + round - 1) % 3))]}"
    for concurrency in 1 "$CONCURRENCY"; do
      if ((round % 2)); then
        record "$round" "$server" rust "$concurrency"
        record "$round" "$server" node "$concurrency"
      else
        record "$round" "$server" node "$concurrency"
        record "$round" "$server" rust "$concurrency"
      fi
    done
  done
done

echo "== summary"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Azurite ${AZURITE_VERSION:-3.37.0} (in memory) on node $(node --version); table-server built from $TS_COMMIT; clients: table-http (rust, release) and @azure/data-tables $SDK_VERSION (node)"
echo "sequential: $SEQ_OPS inserts and reads, $SEQ_BATCHES transactions; concurrency $CONCURRENCY: $CONC_OPS inserts and reads, $CONC_BATCHES transactions per worker"
node "$HERE/summarize.mjs" "$RESULTS"
