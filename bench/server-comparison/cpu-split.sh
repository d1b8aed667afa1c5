#!/usr/bin/env bash
# Where a single-entity request's server CPU goes: user space (the server's own code) or the
# kernel (the socket's system calls, TCP on loopback, waking the client), for table-server (in
# memory) and Azurite 3.37 (in memory), in one run.
#
#   bash bench/server-comparison/cpu-split.sh
#
# Each server is started fresh on free ports and driven by table-http's throughput example, one
# request at a time: OPS (default 20000) inserts, then OPS point reads (plus one table, one
# transaction and one page, which are a few milliseconds in all). The server's utime and stime
# (`/proc/PID/stat`, fields 14 and 15, in clock ticks) are read before and after the client's
# run and divided by the number of single-entity requests. Ticks are 10 ms, so OPS should be
# large enough for each server to spend a few hundred of them. Stops both servers on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
OPS=${OPS:-20000}
KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
HZ=$(getconf CLK_TCK)

cargo build -q --release -p table-server --bin table-server
cargo build -q --release -p table-http --example throughput

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

SERVER_PID=""
AZ_PORTS=""
LOG=$(mktemp)
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  if [ -n "$AZ_PORTS" ]; then
    # shellcheck disable=SC2086
    env $AZ_PORTS .ci/azurite stop >/dev/null 2>&1 || true
  fi
  rm -f "$LOG"
}
trap cleanup EXIT

ticks() { # pid -> "utime stime"
  awk '{print $14, $15}' "/proc/$1/stat"
}

measure() { # name pid port
  local name=$1 pid=$2 port=$3
  local cs="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$KEY;TableEndpoint=http://127.0.0.1:$port/devstoreaccount1;"
  local before after
  before=$(ticks "$pid")
  target/release/examples/throughput "$cs" --ops "$OPS" --batches 1 >/dev/null
  after=$(ticks "$pid")
  python3 - "$name" "$before" "$after" "$OPS" "$HZ" <<'EOF'
import sys
name, before, after, ops, hz = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), int(sys.argv[4]), int(sys.argv[5])
user = (int(after[0]) - int(before[0])) / hz * 1000 / (2 * ops)
kernel = (int(after[1]) - int(before[1])) / hz * 1000 / (2 * ops)
total = user + kernel
print(f"{name:<22} {user:>10.4f} {kernel:>12.4f} {total:>10.4f} {kernel / total:>13.0%}")
EOF
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $OPS inserts and $OPS point reads, one at a time (table-http)"
printf '%-22s %10s %12s %10s %13s\n' server "user ms/req" "kernel ms/req" "total ms/req" "kernel share"

port=$(free_port)
target/release/table-server --in-memory --port "$port" >"$LOG" 2>&1 &
SERVER_PID=$!
for _ in $(seq 100); do
  grep -q listening "$LOG" && break
  sleep 0.1
done
measure "table-server (memory)" "$SERVER_PID" "$port"
kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""

t=$(free_port) q=$(free_port) b=$(free_port)
AZ_PORTS="AZURITE_TABLE_PORT=$t AZURITE_QUEUE_PORT=$q AZURITE_BLOB_PORT=$b"
# shellcheck disable=SC2086
env $AZ_PORTS .ci/azurite start >/dev/null
az_pid=$(cat "${TMPDIR:-/tmp}/table-ci-azurite-$t/pid")
measure "Azurite 3.37 (memory)" "$az_pid" "$t"
