"""Shared configuration and small utilities for the azure-data-tables suites.

Everything is configured through the environment (see ../README.md):
  TABLES_ENDPOINT  account URL, e.g. http://127.0.0.1:10002/devstoreaccount1 (required)
  TABLES_ACCOUNT   account name (default devstoreaccount1)
  TABLES_KEY       account key (default: the storage emulator's published key)
  TABLES_EXPECT    "service" (default) or "azurite"
  TABLES_ACL_DELAY_SECONDS  how long to keep retrying while a stored access policy change
                   propagates (default 0: a local server must apply it at once)
"""

import base64
import contextlib
import json
import os
import re
import secrets
import time

import pytest
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableClient, TableServiceClient, TableTransactionError

# The key every storage emulator ships with; it is public and only ever valid locally.
EMULATOR_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

ENDPOINT = os.environ.get("TABLES_ENDPOINT", "").rstrip("/")
if not ENDPOINT:
    raise RuntimeError("TABLES_ENDPOINT is not set (for example http://127.0.0.1:10002/devstoreaccount1)")
ACCOUNT = os.environ.get("TABLES_ACCOUNT") or "devstoreaccount1"
KEY = os.environ.get("TABLES_KEY") or EMULATOR_KEY
EXPECT = os.environ.get("TABLES_EXPECT") or "service"
if EXPECT not in ("service", "azurite"):
    raise RuntimeError(f'TABLES_EXPECT must be "service" or "azurite", not "{EXPECT}"')
ACL_DELAY_SECONDS = float(os.environ.get("TABLES_ACL_DELAY_SECONDS") or "0")

CREDENTIAL = AzureNamedKeyCredential(ACCOUNT, KEY)


def service_client(credential=None):
    # Retries are switched off so that every test sees the server's first answer.
    return TableServiceClient(endpoint=ENDPOINT, credential=credential or CREDENTIAL, retry_total=0)


def table_client(name, credential=None):
    return TableClient(endpoint=ENDPOINT, table_name=name, credential=credential or CREDENTIAL, retry_total=0)


def sas_table_client(name, sas):
    return table_client(name, AzureSasCredential(sas))


def sas_service_client(sas):
    return service_client(AzureSasCredential(sas))


def unique_table_name(tag):
    """Letters and digits only, starting with a letter, at most 63 characters."""
    return f"py{tag}{secrets.token_hex(5)}"


def wrong_key():
    """A well-formed key of the right length that is not the account's key."""
    raw = bytearray(base64.b64decode(KEY))
    raw[0] ^= 0xFF
    return base64.b64encode(bytes(raw)).decode()


def body_error_code(exc):
    """The error code in a failed response's body: the Table service's JSON
    {"odata.error": {"code": ...}}, or the <Code> element of an XML storage error."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    try:
        text = response.text()
    except Exception:  # pylint: disable=broad-except
        return None
    try:
        return json.loads(text)["odata.error"]["code"]
    except (ValueError, KeyError, TypeError):
        match = re.search(r"<Code>([^<]+)</Code>", text or "")
        return match.group(1) if match else None


def assert_error_code(exc, code):
    actual = body_error_code(exc)
    assert actual == code, f"expected error code {code}, got {actual} (status {getattr(exc, 'status_code', None)})"
    sdk_code = getattr(exc, "error_code", None)
    if sdk_code is not None:
        assert sdk_code == code, f"the SDK read error code {sdk_code}, the body says {code}"


def expect_http_error(fn, status, code=None):
    """Calls fn, which must fail with `status` and (when given) the service error `code`."""
    with pytest.raises(HttpResponseError) as info:
        fn()
    exc = info.value
    assert exc.status_code == status, f"expected status {status}, got {exc.status_code}: {exc.message}"
    if code is not None:
        assert_error_code(exc, code)
    return exc


def expect_transaction_error(fn, status, code, index):
    """Calls fn, a submit_transaction that must fail; TableTransactionError carries the failing
    operation's index, parsed from the service's "<index>:<message>"."""
    with pytest.raises(TableTransactionError) as info:
        fn()
    exc = info.value
    assert exc.status_code == status, f"expected status {status}, got {exc.status_code}: {exc.message}"
    assert_error_code(exc, code)
    if index is not None:
        assert exc.index == index, f"expected failing index {index}, got {exc.index}: {exc.message}"
    return exc


def entity_props(entity):
    """The user properties of an entity (its keys and metadata dropped)."""
    return {k: v for k, v in entity.items() if k not in ("PartitionKey", "RowKey")}


def eventually(fn):
    """Retries fn until it stops raising or TABLES_ACL_DELAY_SECONDS have passed."""
    deadline = time.monotonic() + ACL_DELAY_SECONDS
    while True:
        try:
            return fn()
        except Exception:  # pylint: disable=broad-except
            if time.monotonic() >= deadline:
                raise
            time.sleep(2)


class RawResponses:
    """A raw_response_hook that keeps (status, headers, body) of every response."""

    def __init__(self):
        self.seen = []

    def __call__(self, pipeline_response):
        response = pipeline_response.http_response
        try:
            body = response.text()
        except Exception:  # pylint: disable=broad-except
            body = None
        self.seen.append((response.status_code, dict(response.headers), body))

    @property
    def last(self):
        assert self.seen, "no response was recorded"
        return self.seen[-1]


# Known places where Azurite differs from the Table service. Under TABLES_EXPECT=service a
# deviation check is an ordinary assertion. Under TABLES_EXPECT=azurite its failure is tolerated
# and the test is reported as skipped (with the reason) once it has finished its other checks.
DEVIATIONS = {
    "sas-key-ranges": "Azurite does not enforce the PartitionKey/RowKey range (spk/srk/epk/erk) of a table SAS",
    "auth-error-code": (
        "Azurite reports failed authentication as 403 AuthorizationFailure (XML body); "
        "the service answers 403 AuthenticationFailed"
    ),
    "batch-cross-partition": "Azurite accepts a change set whose operations target two partitions",
    "batch-over-100-response": (
        "Azurite's response to a change set of more than 100 operations is malformed "
        "(a stray boundary line before the status line)"
    ),
    "batch-table-sas": "Azurite refuses a transaction ($batch) authorized by a table SAS with 403 AuthorizationFailure",
    "query-metadata-url": "Azurite's odata.metadata for Query Entities names #Tables/@Element instead of #<table>",
    "service-properties": (
        "Azurite's table service properties and stats differ from the service's: more than five CORS "
        "rules are accepted, and Get Table Service Stats on the -secondary endpoint fails authentication"
    ),
}


class Deviations:
    def __init__(self):
        self.hit = {}

    @contextlib.contextmanager
    def check(self, deviation_id):
        assert deviation_id in DEVIATIONS, deviation_id
        if EXPECT == "service":
            yield
            return
        try:
            yield
        # pytest.raises reports "DID NOT RAISE" with pytest.fail.Exception, which is no Exception.
        except (Exception, pytest.fail.Exception) as exc:  # pylint: disable=broad-except
            first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.hit.setdefault(deviation_id, []).append(first_line)
        else:
            print(f"note: [{deviation_id}] behaved like the service here, although listed as an Azurite deviation")

    def finish(self):
        if self.hit:
            parts = [
                f"[{key}] {DEVIATIONS[key]}; observed: {' | '.join(dict.fromkeys(seen))}"
                for key, seen in self.hit.items()
            ]
            message = "TABLES_EXPECT=azurite: " + "; ".join(parts)
            print(f"skipped: {message}")
            pytest.skip(message)
