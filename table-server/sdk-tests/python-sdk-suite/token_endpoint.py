"""A local stand-in for a managed identity's token endpoint (the App Service protocol that
azure-identity's ManagedIdentityCredential, and so DefaultAzureCredential, speaks when
IDENTITY_ENDPOINT and IDENTITY_HEADER are set), for `table-server --oauth basic`.

There is no Microsoft Entra ID identity on a test machine. This endpoint answers every token
request with an UNSIGNED JWT (alg "none") carrying the claims `--oauth basic` checks: the
resource asked for as audience, an Entra ID issuer, and a lifetime of one hour. table-server in
that mode checks a token's claims, not its signature. It is test infrastructure for the run's
environment: it changes no test and asserts nothing.

    python3 token_endpoint.py PORT SECRET
"""

import base64
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

TENANT = "00000000-0000-0000-0000-000000000001"


def encode(value):
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        query = parse_qs(urlparse(self.path).query)
        if self.headers.get("X-IDENTITY-HEADER") != self.server.secret:
            self.send_error(401, "wrong X-IDENTITY-HEADER")
            return
        resource = (query.get("resource") or ["https://storage.azure.com"])[0]
        audience = resource[: -len("/.default")] if resource.endswith("/.default") else resource
        now = int(time.time())
        claims = {
            "aud": audience,
            "iss": f"https://sts.windows.net/{TENANT}/",
            "tid": TENANT,
            "iat": now,
            "nbf": now,
            "exp": now + 3600,
            "oid": "00000000-0000-0000-0000-000000000002",
            "ver": "1.0",
        }
        token = f"{encode({'alg': 'none', 'typ': 'JWT'})}.{encode(claims)}."
        body = json.dumps(
            {
                "access_token": token,
                "expires_on": str(now + 3600),
                "resource": resource,
                "token_type": "Bearer",
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    port, secret = int(sys.argv[1]), sys.argv[2]
    server = HTTPServer(("127.0.0.1", port), Handler)
    server.secret = secret
    server.serve_forever()


if __name__ == "__main__":
    main()
