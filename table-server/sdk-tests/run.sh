#!/usr/bin/env bash
# Runs the Table service conformance suites that use Microsoft's own SDKs as clients:
# @azure/data-tables (Node, node:test) and azure-data-tables (Python, pytest).
#
#   TABLES_ENDPOINT=http://127.0.0.1:10002/devstoreaccount1 table-server/sdk-tests/run.sh
#
# Environment (see README.md):
#   TABLES_ENDPOINT   account URL of the server under test (required)
#   TABLES_ACCOUNT    account name (default devstoreaccount1)
#   TABLES_KEY        account key (default: the emulator's well-known key)
#   TABLES_EXPECT     service (default) | azurite: where Azurite is known to differ from the
#                     service, assert the service's behaviour or skip with the reason
#   TABLES_ACL_DELAY_SECONDS  retry window for stored access policy changes (default 0)
#   SDK_TESTS_CACHE   where node_modules and the Python venv live
#                     (default ${XDG_CACHE_HOME:-$HOME/.cache}/table-ci/sdk-tests)
#   SDK_TESTS_SUITES  which suites to run: "js python" (default), "js" or "python"
#   NODE, PYTHON      interpreters to use (default node, python3)
#
# Exits non-zero if installing fails or either suite fails.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${SDK_TESTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/table-ci/sdk-tests}"
SUITES="${SDK_TESTS_SUITES:-js python}"
NODE="${NODE:-node}"
PYTHON="${PYTHON:-python3}"

if [[ -z "${TABLES_ENDPOINT:-}" ]]; then
  echo "TABLES_ENDPOINT is not set (for example http://127.0.0.1:10002/devstoreaccount1)" >&2
  exit 2
fi
case "${TABLES_EXPECT:-service}" in
  service | azurite) ;;
  *)
    echo "TABLES_EXPECT must be service or azurite, not '${TABLES_EXPECT}'" >&2
    exit 2
    ;;
esac
export TABLES_ENDPOINT TABLES_EXPECT="${TABLES_EXPECT:-service}"

fingerprint() {
  cat "$@" | sha256sum | cut -d' ' -f1
}

# npm ci into $CACHE/js from the committed lockfile; redone only when the lockfile changes.
install_js() {
  local dir="$CACHE/js" stamp
  stamp="$(fingerprint "$HERE/js/package.json" "$HERE/js/package-lock.json")"
  if [[ -f "$dir/.stamp" && "$(cat "$dir/.stamp")" == "$stamp" && -d "$dir/node_modules" ]]; then
    return
  fi
  echo "== installing JS dependencies into $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$HERE/js/package.json" "$HERE/js/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$stamp" >"$dir/.stamp"
}

# A venv in $CACHE/venv with requirements.txt installed; redone only when that file changes.
install_python() {
  local dir="$CACHE/venv" stamp
  stamp="$(fingerprint "$HERE/python/requirements.txt")"
  if [[ -f "$dir/.stamp" && "$(cat "$dir/.stamp")" == "$stamp" && -x "$dir/bin/python" ]]; then
    return
  fi
  echo "== creating Python venv in $dir"
  rm -rf "$dir"
  mkdir -p "$CACHE"
  "$PYTHON" -m venv "$dir"
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check -r "$HERE/python/requirements.txt"
  echo "$stamp" >"$dir/.stamp"
}

# Concurrent runs share the cache: installs happen under a lock (when flock(1) is available).
mkdir -p "$CACHE"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.install.lock"
  flock 9
fi
for suite in $SUITES; do
  case "$suite" in
    js) install_js ;;
    python) install_python ;;
    *)
      echo "unknown suite '$suite' in SDK_TESTS_SUITES (use js and/or python)" >&2
      exit 2
      ;;
  esac
done
if command -v flock >/dev/null 2>&1; then
  flock -u 9
  exec 9>&-
fi

status=0
results=()

for suite in $SUITES; do
  case "$suite" in
    js)
      echo "== @azure/data-tables suite against $TABLES_ENDPOINT (TABLES_EXPECT=$TABLES_EXPECT)"
      # The tests are CommonJS, so NODE_PATH lets them find the SDK installed in the cache.
      if (cd "$HERE/js" && NODE_PATH="$CACHE/js/node_modules" "$NODE" --test --test-reporter=spec test/*.test.js); then
        results+=("js: passed")
      else
        results+=("js: FAILED")
        status=1
      fi
      ;;
    python)
      echo "== azure-data-tables suite against $TABLES_ENDPOINT (TABLES_EXPECT=$TABLES_EXPECT)"
      if (cd "$HERE/python" && PYTHONDONTWRITEBYTECODE=1 "$CACHE/venv/bin/python" -m pytest -v); then
        results+=("python: passed")
      else
        results+=("python: FAILED")
        status=1
      fi
      ;;
  esac
done

echo "== summary (TABLES_EXPECT=$TABLES_EXPECT): ${results[*]}"
exit "$status"
