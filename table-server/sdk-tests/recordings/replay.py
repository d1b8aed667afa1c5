#!/usr/bin/env python3
"""Replay recorded Azure Table service exchanges against a local `table-server`.

The Azure SDK for Python keeps VCR-style YAML recordings of real HTTP exchanges with the Table
service (`sdk/tables/azure-data-tables/tests/recordings/*.yaml`). This tool replays each
recording's requests, in order, against a FRESH `table-server --in-memory` process and reports
every interaction whose local answer differs from the recorded one.

Usage:
    replay.py [--server PATH] [--relax-sas] [--verbose] RECORDING_OR_DIR...

Requirements: Python 3.11 and PyYAML (the recordings are YAML).

What is rewritten before a request is sent:
  * `https://<account>.table.core.windows.net/<path>?<query>` becomes
    `http://127.0.0.1:<port>/devstoreaccount1/<path>?<query>` (path style; the path and query are
    kept byte for byte, percent-encoding included). `<account>-secondary` becomes
    `devstoreaccount1-secondary`. The same rewrite is applied to request bodies (a `$batch` body
    names every operation by its full URL) and headers.
  * Signing: the recordings have had their `Authorization` headers scrubbed by the recorder. A
    request that still carries `SharedKey`/`SharedKeyLite` is re-signed with the same scheme; a
    request with a SAS (`sig=` in the query) has its `sig` recomputed over the same fields with the
    local account and key; any other request (no Authorization, no SAS: the SDK tests used the
    account key) is signed with SharedKey (`--unsigned-auth` changes that). A fresh `x-ms-date`
    and `Date` are set on every request. A recording whose requests carry an AAD bearer token is
    skipped.
  * `--relax-sas` (off by default): additionally move every SAS's `st`/`se` (and the Start/Expiry
    of stored access policies set with Set Table ACL) by the time elapsed since the request was
    recorded, and let `spr=https` SAS tokens be used over HTTP, so that expired SAS tokens and the
    local server's plain HTTP do not hide the behaviour under test.

What is compared (headers other than those listed are ignored):
  * status code;
  * for errors: the error code (`x-ms-error-code`, or `odata.error.code` in a JSON body, or
    `<Code>` in an XML body);
  * for successful JSON bodies: every key, exactly (values compared as their JSON text, so
    `3.0` and `3` differ), after dropping `Timestamp`, `Timestamp@odata.type` and `odata.etag`
    and rewriting the recorded host in `odata.metadata`/`odata.id`/`odata.editLink` (and the
    account name in `odata.type`);
  * for successful XML bodies: the element tree (whitespace-insensitive; `LastSyncTime` ignored);
  * for `$batch` answers: the inner status lines, in order (and the inner error codes);
  * headers: `ETag` presence, `Location` and `DataServiceId` (after the host rewrite),
    `Preference-Applied`, `x-ms-continuation-*` (presence and value).
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import email.utils
import hashlib
import hmac
import http.client
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.parse
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("replay.py needs PyYAML: pip install pyyaml")

class RecordingLoader(yaml.SafeLoader):
    """SafeLoader that also reads the `!!python/unicode` and `!!python/str` tags of recordings made
    with Python 2 (their value is a plain string; an empty one stands for an empty body)."""


def _python_str(loader, node):
    value = loader.construct_scalar(node)
    return "" if value is None else str(value)


for _tag in ("tag:yaml.org,2002:python/unicode", "tag:yaml.org,2002:python/str"):
    RecordingLoader.add_constructor(_tag, _python_str)

LOCAL_ACCOUNT = "devstoreaccount1"
LOCAL_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
DEFAULT_SERVER = "/work/main/target/release/table-server"

# https://<account>[-secondary].table.core.windows.net
HOST_RE = re.compile(r"https?://([A-Za-z0-9_\-]+?)(-secondary)?\.table\.core\.windows\.net", re.I)
HOST_RE_B = re.compile(rb"https?://([A-Za-z0-9_\-]+?)(-secondary)?\.table\.core\.windows\.net", re.I)

# Request headers not forwarded as recorded.
DROP_REQUEST_HEADERS = {
    "authorization",
    "content-length",
    "host",
    "connection",
    "accept-encoding",
    "transfer-encoding",
    "x-ms-date",
    "date",
}

KIND_ORDER = ["status", "error code", "batch", "body", "header"]
MAX_DETAILS = 6


# --------------------------------------------------------------------------------------------
# Signing


def _hmac(key_b64: str, text: str) -> str:
    digest = hmac.new(base64.b64decode(key_b64), text.encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(digest).decode("ascii")


def canonicalized_resource(account: str, raw_path: str, raw_query: str) -> str:
    resource = "/" + account + (raw_path or "/")
    for pair in raw_query.split("&"):
        name, _, value = pair.partition("=")
        if urllib.parse.unquote(name) == "comp":
            resource += "?comp=" + urllib.parse.unquote(value)
            break
    return resource


def sign_shared_key(scheme: str, method: str, headers: dict, raw_path: str, raw_query: str) -> str:
    lower = {k.lower(): v for k, v in headers.items()}
    date = lower.get("x-ms-date") or lower.get("date", "")
    resource = canonicalized_resource(LOCAL_ACCOUNT, raw_path, raw_query)
    if scheme == "SharedKeyLite":
        text = f"{date}\n{resource}"
    else:
        text = "\n".join(
            [method, lower.get("content-md5", ""), lower.get("content-type", ""), date, resource]
        )
    return f"{scheme} {LOCAL_ACCOUNT}:{_hmac(LOCAL_KEY, text)}"


def _sas_time_shift(value: str, delta: dt.timedelta) -> str:
    """Moves an ISO 8601 SAS time (`2020-07-24T15:34:52Z`, maybe with fraction) by delta."""
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::(\d{2}))?(\.\d+)?)?Z?", value)
    if not m:
        return value
    date_part, hm, sec, frac = m.groups()
    base = dt.datetime.strptime(
        date_part + "T" + (hm or "00:00") + ":" + (sec or "00"), "%Y-%m-%dT%H:%M:%S"
    )
    moved = base + delta
    if hm is None:
        return moved.strftime("%Y-%m-%d")
    out = moved.strftime("%Y-%m-%dT%H:%M")
    if sec is not None:
        out += moved.strftime(":%S")
    if frac:
        out += frac
    return out + "Z"


def resign_sas(raw_query: str, shift: dt.timedelta | None, relax_protocol: bool) -> str:
    """Recomputes `sig` in a raw query string, keeping every other parameter's raw form."""
    pairs = []
    for pair in raw_query.split("&"):
        if pair == "":
            continue
        name, eq, value = pair.partition("=")
        pairs.append([name, eq, value])
    fields = {urllib.parse.unquote(n): urllib.parse.unquote(v) for n, _, v in pairs}
    if shift is not None or relax_protocol:
        for p in pairs:
            n = urllib.parse.unquote(p[0])
            if shift is not None and n in ("st", "se"):
                new = _sas_time_shift(urllib.parse.unquote(p[2]), shift)
                p[2] = urllib.parse.quote(new, safe="")
                fields[n] = new
            if relax_protocol and n == "spr" and fields.get("spr") == "https":
                p[2] = urllib.parse.quote("https,http", safe="")
                fields[n] = "https,http"
    g = lambda k: fields.get(k, "")  # noqa: E731
    sv = g("sv")
    if "ss" in fields or "srt" in fields:  # account SAS
        text = (
            LOCAL_ACCOUNT + "\n" + g("sp") + "\n" + g("ss") + "\n" + g("srt") + "\n" + g("st") + "\n"
            + g("se") + "\n" + g("sip") + "\n" + g("spr") + "\n" + sv + "\n"
        )
        if sv >= "2020-12-06":
            text += g("ses") + "\n"
    else:  # table SAS
        text = "\n".join(
            [
                g("sp"), g("st"), g("se"),
                "/table/" + LOCAL_ACCOUNT + "/" + g("tn").lower(),
                g("si"), g("sip"), g("spr"), sv,
                g("spk"), g("srk"), g("epk"), g("erk"),
            ]
        )
    sig = urllib.parse.quote(_hmac(LOCAL_KEY, text), safe="")
    out = []
    for n, eq, v in pairs:
        if urllib.parse.unquote(n) == "sig":
            v = sig
        out.append(n + eq + v)
    return "&".join(out)


# --------------------------------------------------------------------------------------------
# Server


class Server:
    def __init__(self, binary: str):
        self.binary = binary
        self.proc = None
        self.port = None

    def start(self, timeout: float = 20.0):
        self.proc = subprocess.Popen(
            [self.binary, "--in-memory", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        buf = b""
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if r:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                buf += chunk
                m = re.search(rb"listening on http://[^:/\s]+:(\d+)", buf)
                if m:
                    self.port = int(m.group(1))
                    return
            if self.proc.poll() is not None:
                break
        self.stop()
        raise RuntimeError("table-server did not report that it listens: " + buf.decode("utf-8", "replace"))

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.proc = None


# --------------------------------------------------------------------------------------------
# Helpers


def header_map(headers) -> dict:
    """Lower-cased header name -> first value (as str)."""
    out = {}
    for k, v in (headers or {}).items():
        if isinstance(v, list):
            v = v[0] if v else ""
        out[str(k).lower()] = "" if v is None else str(v)
    return out


def to_bytes(body) -> bytes | None:
    if body is None:
        return None
    if isinstance(body, dict):
        body = body.get("string", body.get("bytes"))
        if body is None:
            return None
    if isinstance(body, bytes):
        return body
    return str(body).encode("utf-8")


def record_time(req_headers: dict, resp_headers: dict) -> dt.datetime | None:
    for d in (req_headers.get("x-ms-date"), req_headers.get("date"), resp_headers.get("date")):
        if d:
            try:
                return email.utils.parsedate_to_datetime(d).replace(tzinfo=None)
            except (TypeError, ValueError):
                pass
    return None


def error_code(headers: dict, body: bytes | None) -> str | None:
    code = headers.get("x-ms-error-code")
    if code:
        return code
    if not body:
        return None
    text = body.decode("utf-8", "replace").strip()
    try:
        j = json.loads(text)
        err = j.get("odata.error") or j.get("error") or {}
        code = err.get("code")
        if code:
            return code
    except (ValueError, AttributeError):
        pass
    m = re.search(r"<code>([^<]*)</code>", text, re.I)
    if m:
        return m.group(1)
    return None


def exact_json(text: str):
    """Parses JSON keeping every number as its text, so formats are compared exactly."""
    return json.loads(
        text,
        parse_float=lambda s: ("<num>", s),
        parse_int=lambda s: ("<num>", s),
        parse_constant=lambda s: ("<num>", s),
    )


def normalize_entity(obj, rewrite_host):
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k in ("Timestamp", "Timestamp@odata.type", "odata.etag"):
                continue
            if k in ("odata.metadata", "odata.id", "odata.editLink", "odata.nextLink") and isinstance(v, str):
                v = rewrite_host(v)
            if k == "odata.type" and isinstance(v, str) and "." in v:
                v = LOCAL_ACCOUNT + "." + v.split(".", 1)[1]
            out[k] = normalize_entity(v, rewrite_host)
        return out
    if isinstance(obj, list):
        return [normalize_entity(v, rewrite_host) for v in obj]
    return obj


def show(v) -> str:
    def unwrap(x):
        if isinstance(x, tuple) and len(x) == 2 and x[0] == "<num>":
            return x[1]
        if isinstance(x, dict):
            return {k: unwrap(y) for k, y in x.items()}
        if isinstance(x, list):
            return [unwrap(y) for y in x]
        return x

    u = unwrap(v)
    s = u if isinstance(u, str) and not isinstance(v, tuple) else json.dumps(u, ensure_ascii=False)
    if isinstance(v, str):
        s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 160 else s[:157] + "..."


def diff_json(a, b, path="") -> list[str]:
    """Differences between two normalized JSON values, as `path: recorded vs local` strings."""
    diffs = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a.keys()) + [k for k in b.keys() if k not in a]:
            p = f"{path}.{k}" if path else k
            if k not in b:
                diffs.append(f"{p}: recorded {show(a[k])} vs local <missing>")
            elif k not in a:
                diffs.append(f"{p}: recorded <missing> vs local {show(b[k])}")
            else:
                diffs.extend(diff_json(a[k], b[k], p))
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            diffs.append(f"{path}: recorded {len(a)} items vs local {len(b)} items")
        for i, (x, y) in enumerate(zip(a, b)):
            diffs.extend(diff_json(x, y, f"{path}[{i}]"))
    elif a != b:
        diffs.append(f"{path or '<body>'}: recorded {show(a)} vs local {show(b)}")
    return diffs


def xml_tree(text: str):
    root = ET.fromstring(text)

    def walk(e):
        tag = re.sub(r"^\{[^}]*\}", "", e.tag)
        txt = (e.text or "").strip()
        if tag == "LastSyncTime":
            txt = "<ignored>"
        return (tag, txt, [walk(c) for c in e])

    return walk(root)


def diff_xml(a, b, path="") -> list[str]:
    """Differences between two element trees. Children are matched by tag (the n-th child of a
    tag with the n-th child of that tag); a different order of the same children is reported
    once, as an order difference, and does not hide differences in their content."""
    tag_a, txt_a, kids_a = a
    tag_b, txt_b, kids_b = b
    p = f"{path}/{tag_a}"
    if tag_a != tag_b:
        return [f"{path}: recorded <{tag_a}> vs local <{tag_b}>"]
    diffs = []
    if txt_a != txt_b:
        diffs.append(f"{p}: recorded {txt_a!r} vs local {txt_b!r}")
    ta = [k[0] for k in kids_a]
    tb = [k[0] for k in kids_b]
    if ta != tb:
        if sorted(ta) == sorted(tb):
            diffs.append(f"{p}: same children in another order: recorded {ta} vs local {tb}")
        else:
            missing = [t for t in dict.fromkeys(ta) if ta.count(t) > tb.count(t)]
            extra = [t for t in dict.fromkeys(tb) if tb.count(t) > ta.count(t)]
            diffs.append(f"{p}: children recorded-only {missing} / local-only {extra}")
    seen = {}
    for x in kids_a:
        n = seen.get(x[0], 0)
        seen[x[0]] = n + 1
        ys = [y for y in kids_b if y[0] == x[0]]
        if n < len(ys):
            diffs.extend(diff_xml(x, ys[n], p))
    return diffs


def batch_parts(body: bytes | None, with_message: bool = False) -> list[tuple[int, str | None]]:
    """(status, error code) of each inner answer of a multipart $batch response, in order."""
    if not body:
        return []
    text = body.decode("utf-8", "replace")
    parts = []
    for m in re.finditer(r"^HTTP/1\.[01] (\d{3})[^\r\n]*", text, re.M):
        start = m.end()
        nxt = re.search(r"^HTTP/1\.[01] \d{3}|^--", text[start:], re.M)
        chunk = text[start : start + nxt.start()] if nxt else text[start:]
        code = None
        mc = re.search(r'"code"\s*:\s*"([^"]*)"', chunk)
        if mc:
            code = mc.group(1)
            mm = re.search(r'"value"\s*:\s*"((?:[^"\\]|\\.)*)"', chunk)
            if mm and with_message:
                code += " (" + mm.group(1).split("\\n")[0][:120] + ")"
        parts.append((int(m.group(1)), code))
    return parts


# --------------------------------------------------------------------------------------------
# Replay


class Replayer:
    def __init__(self, args):
        self.args = args
        self.etag_map: dict[str, str] = {}
        self.lines: list[str] = []
        self.counts = Counter()
        self.kind_interactions = Counter()  # interactions by their first kind
        self.kind_all = Counter()  # interactions with each kind
        self.skipped: list[tuple[str, str]] = []
        self.skipped_interactions: list[tuple[str, int, str]] = []

    def out(self, line: str):
        print(line, flush=True)
        self.lines.append(line)

    # -- rewriting

    def local_base(self, port: int, secondary: bool = False) -> str:
        return f"http://127.0.0.1:{port}/{LOCAL_ACCOUNT}{'-secondary' if secondary else ''}"

    def rewrite_host_str(self, s: str, port: int) -> str:
        return HOST_RE.sub(lambda m: self.local_base(port, bool(m.group(2))), s)

    def rewrite_host_bytes(self, b: bytes, port: int) -> bytes:
        return HOST_RE_B.sub(lambda m: self.local_base(port, bool(m.group(2))).encode(), b)

    def split_uri(self, uri: str):
        """(secondary, raw path after the account, raw query) of a recorded URI, or None."""
        m = HOST_RE.match(uri)
        if not m:
            return None
        rest = uri[m.end():]
        if rest.startswith(":"):  # explicit port
            rest = rest[rest.find("/"):] if "/" in rest else "/"
        path, _, query = rest.partition("?")
        return bool(m.group(2)), (path or "/"), query

    # -- ETags: the recorded requests carry the ETags the service gave; the local server gives
    # others. Each recorded ETag is mapped to the one the local server gave for the same
    # interaction (header, entity in a JSON body by PartitionKey/RowKey, or $batch part), and
    # later requests (If-Match headers, $batch bodies) are sent with the local ETag instead.

    def translate_etags(self, value: str) -> str:
        for old, new in self.etag_map.items():
            if old in value:
                value = value.replace(old, new)
        return value

    def learn_etags(self, rec, rec_headers, local_headers, local_body):
        a, b = rec_headers.get("etag"), local_headers.get("etag")
        if a and b:
            self.etag_map[a] = b
        rec_body = to_bytes(rec.get("body"))
        if not rec_body or not local_body:
            return
        rec_text = rec_body.decode("utf-8", "replace")
        loc_text = local_body.decode("utf-8", "replace")
        if rec_text.lstrip().startswith("{"):
            try:
                ra, lb = json.loads(rec_text), json.loads(loc_text)
            except ValueError:
                return

            def by_key(doc):
                items = doc.get("value") if isinstance(doc, dict) and isinstance(doc.get("value"), list) else [doc]
                out = {}
                for e in items:
                    if isinstance(e, dict) and "odata.etag" in e:
                        out[(e.get("PartitionKey"), e.get("RowKey"))] = e["odata.etag"]
                return out

            ka, kb = by_key(ra), by_key(lb)
            for k, v in ka.items():
                if k in kb:
                    self.etag_map[v] = kb[k]
        elif "HTTP/1.1" in rec_text:
            ea = re.findall(r"^ETag: (.*?)\r?$", rec_text, re.M | re.I)
            eb = re.findall(r"^ETag: (.*?)\r?$", loc_text, re.M | re.I)
            for x, y in zip(ea, eb):
                self.etag_map[x] = y

    # -- one recording

    def replay_file(self, path: Path):
        name = path.name
        if "_cosmos" in name:
            self.skipped.append((name, "Cosmos DB recording"))
            return
        if name.startswith("test_table_aad"):
            self.skipped.append((name, "AAD (bearer token) recording"))
            return
        try:
            data = yaml.load(path.read_bytes(), Loader=RecordingLoader)
        except yaml.YAMLError as e:
            self.skipped.append((name, f"not valid YAML: {str(e).splitlines()[0]}"))
            return
        interactions = (data or {}).get("interactions") or []
        if not interactions:
            self.skipped.append((name, "no interactions"))
            return
        for it in interactions:
            auth = header_map(it["request"].get("headers")).get("authorization", "")
            if auth.lower().startswith("bearer"):
                self.skipped.append((name, "requests use an AAD bearer token"))
                return
            if self.split_uri(it["request"]["uri"]) is None:
                self.skipped.append((name, f"request to a non-Table-storage host: {it['request']['uri'][:80]}"))
                return

        server = Server(self.args.server)
        try:
            server.start()
        except RuntimeError as e:
            self.skipped.append((name, str(e)))
            return
        self.counts["recordings"] += 1
        self.etag_map = {}
        try:
            for i, it in enumerate(interactions):
                self.replay_one(name, i, it, server.port)
        finally:
            server.stop()

    def replay_one(self, name: str, index: int, it: dict, port: int):
        req, rec = it["request"], it["response"]
        method = req["method"].upper()
        secondary, raw_path, raw_query = self.split_uri(req["uri"])
        rec_headers = header_map(req.get("headers"))
        rec_resp_headers = header_map(rec.get("headers"))

        # Path style: /devstoreaccount1[-secondary]/<path>
        account_seg = "/" + LOCAL_ACCOUNT + ("-secondary" if secondary else "")
        local_path = account_seg + raw_path
        local_query = raw_query
        if "sig=" in raw_query:
            shift = None
            if self.args.relax_sas:
                when = record_time(rec_headers, rec_resp_headers)
                if when is not None:
                    shift = dt.datetime.utcnow() - when
            local_query = resign_sas(raw_query, shift, self.args.relax_sas)

        headers = {}
        for k, v in (req.get("headers") or {}).items():
            if str(k).lower() in DROP_REQUEST_HEADERS:
                continue
            if isinstance(v, list):
                v = v[0] if v else ""
            headers[str(k)] = self.translate_etags(self.rewrite_host_str(str(v), port))
        now = email.utils.formatdate(usegmt=True)
        headers["x-ms-date"] = now
        headers["Date"] = now
        body = to_bytes(req.get("body"))
        if body is not None and self.args.relax_sas and "comp=acl" in raw_query and method == "PUT":
            # Stored access policies carry their own start/expiry; move them like SAS times.
            when = record_time(rec_headers, rec_resp_headers)
            if when is not None:
                delta = dt.datetime.utcnow() - when
                body = re.sub(
                    rb"<(Start|Expiry)>([^<]+)</(Start|Expiry)>",
                    lambda m: b"<%s>%s</%s>" % (m.group(1), _sas_time_shift(m.group(2).decode(), delta).encode(), m.group(3)),
                    body,
                )
        if body is not None:
            body = self.rewrite_host_bytes(body, port)
            for old, new in self.etag_map.items():
                body = body.replace(old.encode(), new.encode())
        if body is not None or method in ("POST", "PUT", "MERGE", "PATCH", "DELETE"):
            headers["Content-Length"] = str(len(body or b""))
        recorded_auth = rec_headers.get("authorization", "")
        scheme = None
        if recorded_auth.startswith("SharedKeyLite "):
            scheme = "SharedKeyLite"
        elif recorded_auth.startswith("SharedKey "):
            scheme = "SharedKey"
        elif "sig=" not in raw_query and self.args.unsigned_auth != "none":
            scheme = "SharedKeyLite" if self.args.unsigned_auth == "sharedkeylite" else "SharedKey"
        if scheme:
            headers["Authorization"] = sign_shared_key(scheme, method, headers, local_path, local_query)

        target = local_path + ("?" + local_query if local_query else "")
        # http.client sends the target as is; only non-ASCII characters need encoding.
        target = "".join(c if ord(c) < 128 else urllib.parse.quote(c, safe="") for c in target)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.putrequest(method, target, skip_host=False, skip_accept_encoding=True)
            for k, v in headers.items():
                conn.putheader(k, v.encode("utf-8") if any(ord(c) > 255 for c in v) else v)
            conn.endheaders(body)
            resp = conn.getresponse()
            local_status = resp.status
            local_headers = {k.lower(): v for k, v in resp.getheaders()}
            local_body = resp.read()
            conn.close()
        except (OSError, http.client.HTTPException) as e:
            local_status, local_headers, local_body = None, {}, str(e).encode()

        self.counts["interactions"] += 1
        self.learn_etags(rec, rec_resp_headers, local_headers, local_body)
        kinds = self.compare(
            name, index, method, raw_path, raw_query, rec, rec_resp_headers, local_status,
            local_headers, local_body, port
        )
        if not kinds:
            self.counts["match"] += 1
        else:
            self.counts["differ"] += 1
            first = min(kinds, key=KIND_ORDER.index)
            self.kind_interactions[first] += 1
            for k in set(kinds):
                self.kind_all[k] += 1

    def compare(self, name, index, method, raw_path, raw_query, rec, rec_headers, status, headers, body, port):
        shown_path = raw_path + ("?" + raw_query if raw_query else "")
        if len(shown_path) > 140:
            shown_path = shown_path[:137] + "..."
        prefix = f"{name} #{index} {method} {shown_path}"
        kinds = []
        details = []

        def report(kind, detail):
            kinds.append(kind)
            details.append((kind, detail))

        try:
            self._compare(rec, rec_headers, status, headers, body, port, raw_path, report)
        finally:
            if details:
                ks = sorted(set(kinds), key=KIND_ORDER.index)
                shown = []
                for k in ks:
                    ds = [d for kk, d in details if kk == k]
                    more = f" (+{len(ds) - MAX_DETAILS} more)" if len(ds) > MAX_DETAILS else ""
                    shown.append(f"{k}: " + "; ".join(ds[:MAX_DETAILS]) + more)
                self.out(f"DIFF [{','.join(ks)}] {prefix} :: " + " | ".join(shown))
        return kinds

    def _compare(self, rec, rec_headers, status, headers, body, port, raw_path, report):
        rec_status = int(rec["status"]["code"])
        rec_body = to_bytes(rec.get("body"))

        if status is None:
            report("status", f"recorded {rec_status} vs local <no answer: {body.decode('utf-8', 'replace')}>")
            return
        rec_code = error_code(rec_headers, rec_body) if rec_status >= 400 else None
        loc_code = error_code(headers, body) if status >= 400 else None
        if status != rec_status:
            detail = f"recorded {rec_status}{' ' + rec_code if rec_code else ''} vs local {status}{' ' + loc_code if loc_code else ''}"
            if status >= 400:
                msg = self.error_message(body)
                if msg:
                    detail += f" ({msg})"
            report("status", detail)
            return
        if rec_status >= 400:
            if rec_code != loc_code:
                msg = self.error_message(body)
                report("error code", f"{rec_status}: recorded {rec_code} vs local {loc_code}" + (f" ({msg})" if msg else ""))
            return

        rewrite = lambda s: self.rewrite_host_str(s, port)  # noqa: E731
        rec_ct = rec_headers.get("content-type", "")
        loc_ct = headers.get("content-type", "")

        # $batch
        if rec_ct.startswith("multipart/mixed") or raw_path.endswith("$batch"):
            a, b = batch_parts(rec_body), batch_parts(body)
            if [s for s, _ in a] != [s for s, _ in b]:
                bm = batch_parts(body, with_message=True)
                report("batch", f"inner statuses recorded {[s for s, _ in a]} vs local {[s for s, _ in b]}"
                       + (f" (local codes {[c for _, c in bm if c]})" if any(c for _, c in bm) else ""))
            elif [c for _, c in a] != [c for _, c in b]:
                report("batch", f"inner error codes recorded {[c for _, c in a]} vs local {[c for _, c in b]}")
        elif rec_body and rec_body.strip():
            rec_text = rec_body.decode("utf-8", "replace").lstrip("\ufeff")
            loc_text = (body or b"").decode("utf-8", "replace").lstrip("\ufeff")
            if "json" in rec_ct or rec_text.lstrip().startswith("{"):
                try:
                    a = normalize_entity(exact_json(rewrite(rec_text)), rewrite)
                except ValueError:
                    a = None
                try:
                    b = normalize_entity(exact_json(loc_text), rewrite)
                except ValueError:
                    b = None
                if a is not None:
                    if b is None:
                        report("body", f"recorded JSON vs local non-JSON {loc_ct!r}: {loc_text[:120]!r}")
                    else:
                        for d in diff_json(a, b):
                            report("body", d)
            elif rec_text.lstrip().startswith("<"):
                try:
                    a = xml_tree(rec_text.strip().lstrip("\ufeff"))
                except ET.ParseError:
                    a = None
                try:
                    b = xml_tree(loc_text.strip().lstrip("\ufeff"))
                except ET.ParseError:
                    b = None
                if a is not None:
                    if b is None:
                        report("body", f"recorded XML vs local non-XML: {loc_text[:120]!r}")
                    else:
                        for d in diff_xml(a, b):
                            report("body", d)
        elif body and body.strip() and not (rec_body and rec_body.strip()):
            # Recorded an empty body (e.g. Prefer: return-no-content); a local body is a difference.
            report("body", f"recorded empty body vs local {len(body)} bytes: {body[:100]!r}")

        # Headers
        if ("etag" in rec_headers) != ("etag" in headers):
            report("header", f"ETag recorded {'present' if 'etag' in rec_headers else 'absent'} vs local {'present' if 'etag' in headers else 'absent'}")
        for h in ("location", "dataserviceid", "preference-applied"):
            a = rec_headers.get(h)
            b = headers.get(h)
            if a is not None:
                a = rewrite(a)
            if a != b:
                report("header", f"{h}: recorded {a!r} vs local {b!r}")
        cont = sorted({h for h in list(rec_headers) + list(headers) if h.startswith("x-ms-continuation-")})
        for h in cont:
            a, b = rec_headers.get(h), headers.get(h)
            if a != b:
                report("header", f"{h}: recorded {a!r} vs local {b!r}")
        return

    @staticmethod
    def error_message(body: bytes | None) -> str:
        if not body:
            return ""
        text = body.decode("utf-8", "replace")
        try:
            j = json.loads(text)
            msg = (j.get("odata.error") or {}).get("message") or {}
            msg = msg.get("value", "") if isinstance(msg, dict) else str(msg)
        except (ValueError, AttributeError):
            m = re.search(r"<Message>([^<]*)</Message>", text)
            msg = m.group(1) if m else ""
        msg = msg.split("\n")[0]
        return msg if len(msg) <= 150 else msg[:147] + "..."

    # -- summary

    def summary(self):
        c = self.counts
        self.out("")
        self.out("=" * 78)
        self.out("SUMMARY")
        self.out(f"recordings replayed:      {c['recordings']}")
        self.out(f"interactions replayed:    {c['interactions']}")
        self.out(f"interactions that match:  {c['match']}")
        self.out(f"interactions that differ: {c['differ']}")
        self.out("  by kind (each interaction counted once, under its first kind: "
                 + " > ".join(KIND_ORDER) + "):")
        for k in KIND_ORDER:
            self.out(f"    {k:<11} {self.kind_interactions[k]}")
        self.out("  interactions showing each kind (an interaction may show several):")
        for k in KIND_ORDER:
            self.out(f"    {k:<11} {self.kind_all[k]}")
        self.out(f"recordings skipped:       {len(self.skipped)}")
        reasons = Counter(r for _, r in self.skipped)
        for r, n in reasons.most_common():
            self.out(f"    {n:>4}  {r}")
        for f, r in self.skipped:
            self.out(f"    skipped {f}: {r}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="recording files or directories of *.yaml")
    ap.add_argument("--server", default=DEFAULT_SERVER, help=f"table-server binary (default {DEFAULT_SERVER})")
    ap.add_argument("--relax-sas", action="store_true",
                    help="shift SAS st/se to now and allow HTTP for spr=https before re-signing")
    ap.add_argument("--unsigned-auth", choices=["sharedkey", "sharedkeylite", "none"], default="sharedkey",
                    help="how to sign requests recorded without Authorization and without SAS (default sharedkey)")
    args = ap.parse_args(argv)

    files = []
    for p in args.paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(p.glob("*.yaml")))
        else:
            files.append(p)
    r = Replayer(args)
    for f in files:
        r.replay_file(f)
    r.summary()
    return 0


if __name__ == "__main__":
    sys.exit(main())
