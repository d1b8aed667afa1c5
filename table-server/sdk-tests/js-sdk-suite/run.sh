#!/usr/bin/env bash
# Runs the Azure SDK for JavaScript's own live tests for @azure/data-tables (test/public in
# sdk/tables/data-tables of Azure/azure-sdk-for-js, written by Microsoft) against table-server.
#
#   table-server/sdk-tests/js-sdk-suite/run.sh DIR
#
# DIR holds sdk/tables/data-tables/test (test/public, test/public/utils/recordedClient.ts and
# test/utils/{constants,injectables}.ts); those files are copied, never changed, and are not part
# of this repository. What the runner supplies (none of it an assertion):
#   - npm packages at fixed versions: @azure/data-tables $SDK_VERSION, vitest, the recorder
#     (@azure-tools/test-recorder; a no-op in live mode), @azure/identity and the core packages;
#   - vitest.config.mjs: "@azure/data-tables" and "$internal/*" (the SDK's src/ in Microsoft's
#     repository) resolve to the npm package's ESM build;
#   - shim/setup.mjs in place of their test/utils/setup.ts (which reads the account's keys from
#     Azure Resource Manager): the same settings, built from the account name, key and URL here;
#   - shim/test-credential.mjs and shim/test-utils-vitest.mjs, for two internal packages of that
#     repository that are not on npm (a TokenCredential minting unsigned Entra ID-shaped JWTs,
#     which table-server --oauth basic accepts; the toSupportTracing matcher);
#   - shim/localhost-resolver.mjs: *.localhost resolves to 127.0.0.1 in the test workers;
#   - a throwaway certificate for *.table.core.localhost, and table-server serving HTTPS with it
#     on 127.0.0.1:$PORT (10311), with --oauth basic (bearer tokens' claims checked, not their
#     signature). The tests' account URL is host style, as the service's is:
#     https://devstoreaccount1.table.core.localhost:$PORT/. (With a path-style URL on an IP
#     address the SDK cannot form the -secondary host that getStatistics is sent to.)
# Prints the failing tests and the counts; the full log is $OUT/vitest.log, the per-test results
# $OUT/results.json (default OUT=/tmp/js-sdk-suite).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
SDK_VERSION=${SDK_VERSION:-13.3.2}
PORT=${PORT:-10311}
OUT=${OUT:-/tmp/js-sdk-suite}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
src=${1:?usage: run.sh DIR (the directory holding sdk/tables/data-tables/test)}
src=$(cd "$src" && pwd)
[ -d "$src/sdk/tables/data-tables/test/public" ] || {
  echo "no sdk/tables/data-tables/test/public in $src" >&2
  exit 2
}
WORK=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT"

# Dependencies, the tests, the shim and the configuration, side by side.
cd "$WORK"
echo '{"name":"js-sdk-suite","private":true,"type":"module"}' > package.json
npm install --no-audit --no-fund --loglevel=error "@azure/data-tables@$SDK_VERSION" \
  vitest@4.1.12 @azure-tools/test-recorder@4.1.0 @azure/identity@4.13.1 \
  @azure/core-auth@1.10.1 @azure/core-client@1.10.2 @azure/core-tracing@1.3.1 \
  @azure/core-util@1.13.1 > "$OUT/npm.log" 2>&1
mkdir -p sdk/tables/data-tables
cp -r "$src/sdk/tables/data-tables/test" sdk/tables/data-tables/
cp -r "$HERE/shim" "$HERE/vitest.config.mjs" .

# Certificate, server.
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
  -subj "/CN=table.core.localhost" \
  -addext "subjectAltName=DNS:*.table.core.localhost,DNS:localhost,IP:127.0.0.1" \
  -addext "basicConstraints=critical,CA:TRUE" > "$OUT/openssl.log" 2>&1
(cd "$ROOT" && cargo build -q --release -p table-server)
"$TARGET/release/table-server" --in-memory --port "$PORT" --cert cert.pem --key key.pem \
  --oauth basic \
  > "$OUT/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q listening "$OUT/server.log" && break; sleep 0.1; done

export TEST_MODE=live NODE_EXTRA_CA_CERTS="$WORK/cert.pem"
export TABLES_URL="https://devstoreaccount1.table.core.localhost:$PORT/"
export ACCOUNT_NAME=devstoreaccount1
export ACCOUNT_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
# shellcheck disable=SC2086
node_modules/.bin/vitest run --config vitest.config.mjs --reporter=verbose --reporter=json \
  --outputFile.json="$OUT/results.json" ${VITEST_ARGS:-} > "$OUT/vitest.log" 2>&1 || true
node -e '
  const r = require(process.argv[1]);
  const n = { passed: 0, failed: 0, skipped: 0 };
  for (const f of r.testResults)
    for (const t of f.assertionResults) {
      const s = t.status === "passed" ? "passed" : t.status === "failed" ? "failed" : "skipped";
      n[s]++;
      if (s === "failed") console.log(`FAILED ${f.name.split("/test/public/")[1]} > ${t.fullName}`);
    }
  console.log(`${n.passed} passed, ${n.failed} failed, ${n.skipped} skipped`);
' "$OUT/results.json"
