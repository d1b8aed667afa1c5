#!/usr/bin/env bash
# Compares table-http with Microsoft's Node SDK (@azure/data-tables) against one Azurite:
# installs the SDK, builds the Rust example, starts Azurite on a free port, runs the two
# clients in turn for ROUNDS rounds (the first to go alternates between rounds), prints the
# medians and the ratios, and stops Azurite.
#
#   bash bench/sdk-comparison/run.sh          (5 rounds; ROUNDS=9 bash … for more)
#
# Every measurement is kept in bench/sdk-comparison/last-run.jsonl.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${ROUNDS:-5}"
RESULTS="$HERE/last-run.jsonl"

echo "== the SDK from npm"
(cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
SDK_VERSION="$(node -p "require('$HERE/node_modules/@azure/data-tables/package.json').version")"

echo "== the Rust example (release)"
(cd "$ROOT" && cargo build --release -p table-http --example throughput)
RUST_BIN="$ROOT/target/release/examples/throughput"

echo "== Azurite"
PORT="$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"
export AZURITE_TABLE_PORT="$PORT"
export AZURITE_RUN_DIR
AZURITE_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/sdk-comparison-azurite.XXXXXX")"
trap '"$ROOT/.ci/azurite" stop; rm -rf "$AZURITE_RUN_DIR"' EXIT
"$ROOT/.ci/azurite" start
SERVER_PID="$(cat "$AZURITE_RUN_DIR/pid")"
# The emulator's documented development account.
KEY="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
CS="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$KEY;TableEndpoint=http://127.0.0.1:$PORT/devstoreaccount1"

run_rust() {
  "$RUST_BIN" "$CS" --server-pid "$SERVER_PID"
}
run_node() {
  node "$HERE/compare.mjs" "$CS" --server-pid "$SERVER_PID"
}
# Runs one client and files its lines under the round's number.
record() {
  local round="$1" which="$2" output
  output="$("run_$which")"
  printf '%s\n' "$output"
  printf '%s\n' "$output" | sed "s/^{/{\"round\":$round,/" >>"$RESULTS"
}

: >"$RESULTS"
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round of $ROUNDS"
  if ((round % 2)); then
    record "$round" rust
    record "$round" node
  else
    record "$round" node
    record "$round" rust
  fi
done

echo "== summary: table-http (rust) against @azure/data-tables $SDK_VERSION (sdk) on node $(node --version), Azurite ${AZURITE_VERSION:-3.37.0}"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
node "$HERE/summarize.mjs" "$RESULTS"
