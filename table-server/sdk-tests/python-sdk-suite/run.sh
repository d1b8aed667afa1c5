#!/usr/bin/env bash
# Runs the Azure SDK for Python's own test suite for azure-data-tables (the tests in its sdist,
# written by Microsoft) live against table-server.
#
#   table-server/sdk-tests/python-sdk-suite/run.sh [SDIST_DIR_OR_TARBALL]
#
# Without an argument the sdist of azure-data-tables $VERSION (default 12.7.0) is downloaded with
# `pip download --no-binary`. The sdist is copied, never changed. What the runner supplies:
#   - shim/devtools_testutils: a live-only stand-in for Microsoft's internal test helpers (not on
#     PyPI); it does not touch any assertion (see its docstring);
#   - shim/localhost_resolver.py: a pytest plugin resolving *.localhost to 127.0.0.1 (RFC 6761),
#     so no /etc/hosts entry is needed;
#   - a throwaway certificate for *.table.core.localhost, and a table-server serving HTTPS with it
#     on 127.0.0.1:$PORT (default 10443; no root needed);
#   - token_endpoint.py on 127.0.0.1:$TOKEN_PORT (default 10444), a managed identity's token
#     endpoint (IDENTITY_ENDPOINT/IDENTITY_HEADER) that mints unsigned JWTs, and table-server
#     started with --oauth basic, so the tests' DefaultAzureCredential gets a token the server
#     takes (it checks a token's claims, not its signature);
#   - TABLES_STORAGE_ENDPOINT_SUFFIX=core.localhost:$PORT, so the tests' account URL is
#     https://devstoreaccount1.table.core.localhost:PORT: host style, with `.core.` in it, which is
#     what azure-data-tables reads an account name from (its secondary is
#     devstoreaccount1-secondary.table.core.localhost:PORT).
# Cosmos DB (*_cosmos*), AAD (*_aad*) and challenge-auth tests are not run. Prints the counts;
# the log is $OUT/pytest.log (default /tmp/python-sdk-suite).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
VERSION=${VERSION:-12.7.0}
PORT=${PORT:-10443}
TOKEN_PORT=${TOKEN_PORT:-10444}
OUT=${OUT:-/tmp/python-sdk-suite}
PYTHON=${PYTHON:-python3}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
WORK=$(mktemp -d)
server=
tokens=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  [ -n "$tokens" ] && kill "$tokens" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT"

# The sdist: a directory, a tarball, or downloaded.
src=${1:-}
if [ -z "$src" ]; then
  "$PYTHON" -m pip download -q --no-deps --no-binary :all: -d "$WORK/dl" "azure-data-tables==$VERSION"
  src=$(ls "$WORK"/dl/*.tar.gz)
fi
if [ -f "$src" ]; then
  mkdir -p "$WORK/sdist" && tar -xzf "$src" -C "$WORK/sdist" --strip-components=1
else
  cp -r "$src/." "$WORK/sdist/"
fi
[ -d "$WORK/sdist/tests" ] || { echo "no tests/ in $src" >&2; exit 2; }

# A venv with the SDK under test and the test dependencies.
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q "azure-data-tables==$VERSION" aiohttp azure-identity python-dotenv \
  python-dateutil pytest pytest-asyncio > "$OUT/pip.log" 2>&1

# Certificate, server.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" -days 2 \
  -subj "/CN=table.core.localhost" \
  -addext "subjectAltName=DNS:*.table.core.localhost,DNS:localhost,IP:127.0.0.1" \
  -addext "basicConstraints=critical,CA:TRUE" > "$OUT/openssl.log" 2>&1
(cd "$ROOT" && cargo build -q --release -p table-server)
"$TARGET/release/table-server" --in-memory --port "$PORT" --cert "$WORK/cert.pem" \
  --key "$WORK/key.pem" --oauth basic > "$OUT/server.log" 2>&1 &
server=$!
# Microsoft Entra ID for the token-credential tests: DefaultAzureCredential reaches its managed
# identity step, which asks this local endpoint (the App Service protocol) for a token; the
# endpoint mints unsigned JWTs, which `--oauth basic` checks by their claims.
"$PYTHON" "$HERE/token_endpoint.py" "$TOKEN_PORT" token-secret > "$OUT/token.log" 2>&1 &
tokens=$!
sleep 1

export PYTHONPATH="$HERE/shim" REQUESTS_CA_BUNDLE="$WORK/cert.pem" SSL_CERT_FILE="$WORK/cert.pem"
export TABLES_STORAGE_ACCOUNT_NAME=devstoreaccount1
export TABLES_PRIMARY_STORAGE_ACCOUNT_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
export TABLES_STORAGE_ENDPOINT_SUFFIX="core.localhost:$PORT"
export IDENTITY_ENDPOINT="http://127.0.0.1:$TOKEN_PORT/token" IDENTITY_HEADER=token-secret
# The 10 s pause after each test's teardown waits for the service's asynchronous table deletion;
# a local server deletes at once (the shim's AzureRecordedTestCase.sleep honours this).
export DEVTOOLS_SKIP_SLEEP=${DEVTOOLS_SKIP_SLEEP:-1}
cd "$WORK/sdist/tests"
files=$(ls test_*.py | grep -v -e cosmos -e aad -e challenge)
# shellcheck disable=SC2086
"$WORK/venv/bin/python" -m pytest -p localhost_resolver -p no:cacheprovider \
  -o asyncio_mode=auto -o asyncio_default_fixture_loop_scope=function \
  -q -rfEs --tb=short ${PYTEST_ARGS:-} $files > "$OUT/pytest.log" 2>&1 || true
grep -E "^(FAILED|ERROR) [a-z_]+\.py::" "$OUT/pytest.log" || true
grep -E "^=* ?[0-9]+ (passed|failed).* in [0-9.]+s" "$OUT/pytest.log" | tail -n 1
