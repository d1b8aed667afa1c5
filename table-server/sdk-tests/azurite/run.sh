#!/usr/bin/env bash
# Runs Azurite's own table test suite (tests/table in github.com/Azure/Azurite) against
# table-server, to try the server on tests nobody on this team wrote.
#
#   table-server/sdk-tests/azurite/run.sh AZURITE_CHECKOUT
#
# AZURITE_CHECKOUT is a clone of Azure/Azurite (the repository, not the npm package, which has
# no tests). The checkout is copied, never changed. Three things in the copy are adapted, none
# of them in a test's assertions:
#   - tests/table/utils/TableTestServerFactory.ts starts nothing: the server is table-server,
#     already listening on 127.0.0.1:11002, the port the tests use;
#   - the REST tests' SharedKeyLite helper signs an `x-ms-date` it adds, and the path as sent
#     (with its trailing `/`): as written it signs no date and another path, which only an
#     emulator that does not check signatures accepts;
#   - the suites that speak HTTPS get a server started with Azurite's test certificate
#     (`--cert tests/server.cert --key tests/server.key`).
# Prints each suite's passing and failing counts; logs are left in $OUT (default /tmp/azurite-
# suite). The failures that remain are listed, with the reason, in ../README.md.
set -euo pipefail
SRC=$(cd "${1:?usage: run.sh AZURITE_CHECKOUT}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=${OUT:-/tmp/azurite-suite}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

cp -r "$SRC/." "$WORK/"
cd "$WORK"
cat > tests/table/utils/TableTestServerFactory.ts <<'TS'
// Adapted by table-server's runner: the server under test is already listening.
export interface ITableTestServerFactoryParams {
  metadataDBPath: string; enableDebugLog: boolean; debugLogFilePath: string;
  loose: boolean; skipApiVersionCheck: boolean; https: boolean; oauth?: string;
}
class ExternalServer { async start() {} async close() {} async clean() {} }
export default class TableTestServerFactory {
  public static inMemoryPersistence() { return true; }
  public createServer(_params: ITableTestServerFactoryParams): any { return new ExternalServer(); }
}
TS
python3 - <<'PY'
p = 'tests/table/utils/table.entity.tests.utils.for.rest.ts'
s = open(p).read()
s = s.replace("  const stringToSign = createStringToSignForSharedKeyLite(",
  '  if (!headersIn["x-ms-date"] && !headersIn["Date"] && !headersIn["date"]) {\n'
  '    headersIn["x-ms-date"] = new Date().toUTCString();\n  }\n'
  "  const stringToSign = createStringToSignForSharedKeyLite(", 1)
old = 'productionStyle ? `/${path.replace(/\'/g, "%27")}`: `/${TableEntityTestConfig.accountName}/${path.replace(/\'/g, "%27")}`'
assert old in s, "the REST helper changed upstream; adapt run.sh"
s = s.replace(old, "(" + old + ') + (url.includes("/?") ? "/" : "")', 1)
open(p, 'w').write(s)
PY
npm ci --ignore-scripts --no-audit --no-fund > "$OUT/npm.log" 2>&1

(cd "$ROOT" && cargo build -q --release -p table-server)
BIN="$ROOT/target/release/table-server"
export NODE_TLS_REJECT_UNAUTHORIZED=0 TS_NODE_TRANSPILE_ONLY=1
export TS_NODE_COMPILER_OPTIONS='{"rootDir":".","declaration":false,"declarationMap":false}'
suites="tests/table/apis/*.test.ts tests/table/auth/sas.test.ts tests/table/auth/tableCorsRequest.test.ts"
tls=$(grep -l "createTableServerForTestHttps\|createTableServerForQueryTestHttps" $suites || true)

run_suites() { # label, then the suite files
  local label=$1; shift
  for f in "$@"; do
    local n; n=$(basename "$f" .test.ts)
    timeout 900 npx mocha --require ts-node/register --timeout 20000 --exit "$f" \
      > "$OUT/$n.log" 2>&1 || true
    printf '%-40s %s\n' "$n$label" "$(grep -E '^  [0-9]+ (passing|failing|pending)' "$OUT/$n.log" | tr -s ' ' | tr '\n' ' ')"
  done
}

"$BIN" --in-memory --port 11002 > "$OUT/server-http.log" 2>&1 &
server=$!; sleep 1
plain=()
for f in $suites; do grep -qx "$f" <<< "$tls" || plain+=("$f"); done
run_suites "" "${plain[@]}"
kill "$server"; wait "$server" 2>/dev/null || true

"$BIN" --in-memory --port 11002 --cert "$WORK/tests/server.cert" --key "$WORK/tests/server.key" \
  > "$OUT/server-https.log" 2>&1 &
server=$!; sleep 1
# shellcheck disable=SC2086
run_suites " (https)" $tls
kill "$server"; wait 2>/dev/null || true
