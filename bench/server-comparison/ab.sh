#!/usr/bin/env bash
# Two builds of table-server, one workload, in turn: the server's own CPU time per request of
# one phase, measured as run.sh measures it (the client reads /proc/<pid>/task/*/schedstat
# before and after the phase), each build started fresh (in memory) for every measurement.
#
#   bash bench/server-comparison/ab.sh OLD_BINARY NEW_BINARY [CLIENT] [PHASE]
#
# CLIENT is `rust` (table-http's throughput example, built in release) or `node`
# (../sdk-comparison/compare.mjs with @azure/data-tables); PHASE is one of `insert`,
# `point-read`, `transaction` or `scan`. ROUNDS (default 6) rounds alternate the two builds;
# OPS (default 1) and BATCHES (default 300) are passed to the client. Prints each measurement,
# then each build's median. Stops any server it started on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${1:?the old table-server binary}
NEW=${2:?the new table-server binary}
CLIENT=${3:-rust}
PHASE=${4:-transaction}
ROUNDS=${ROUNDS:-6}
OPS=${OPS:-1}
BATCHES=${BATCHES:-300}
KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

case "$CLIENT" in
rust) cargo build -q --release -p table-http --example throughput ;;
node) (cd bench/sdk-comparison && npm ci --silent) ;;
*) echo "CLIENT is rust or node, not \`$CLIENT\`" >&2; exit 2 ;;
esac

LOG=$(mktemp)
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; fi
  rm -f "$LOG"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

measure() { # binary -> server CPU ms per request of PHASE
  local port
  port=$(free_port)
  "$1" --in-memory --port "$port" >"$LOG" 2>&1 &
  PID=$!
  for _ in $(seq 100); do
    grep -q listening "$LOG" && break
    sleep 0.1
  done
  grep -q listening "$LOG" || { echo "the server did not start: $(cat "$LOG")" >&2; exit 1; }
  local cs="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$KEY;TableEndpoint=http://127.0.0.1:$port/devstoreaccount1;"
  local out
  if [ "$CLIENT" = rust ]; then
    out=$(target/release/examples/throughput "$cs" --server-pid "$PID" --ops "$OPS" --batches "$BATCHES")
  else
    out=$(cd bench/sdk-comparison && node compare.mjs "$cs" --server-pid "$PID" --ops "$OPS" --batches "$BATCHES")
  fi
  kill "$PID"
  wait "$PID" 2>/dev/null || true
  PID=""
  echo "$out" | PHASE="$PHASE" python3 -c '
import json, os, sys
for line in sys.stdin:
    row = json.loads(line)
    if row["phase"] == os.environ["PHASE"]:
        print(row["server_cpu_ms"])'
}

declare -a old_ms new_ms
for round in $(seq "$ROUNDS"); do
  o=$(measure "$OLD")
  n=$(measure "$NEW")
  old_ms+=("$o")
  new_ms+=("$n")
  echo "round $round: old $o ms, new $n ms ($CLIENT, $PHASE)"
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "median server CPU ms per request ($CLIENT, $PHASE, $ROUNDS rounds): old $(median "${old_ms[@]}"), new $(median "${new_ms[@]}")"
