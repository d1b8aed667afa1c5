// Stand-in for @azure-tools/test-credential (Microsoft's internal package in azure-sdk-for-js,
// not published to npm), live mode only. In live mode theirs hands out a real Microsoft Entra ID
// credential; there is no Entra ID identity on this machine, so this one is a TokenCredential
// that mints an UNSIGNED JWT (alg "none") with the claims `table-server --oauth basic` checks:
// audience https://storage.azure.com, an Entra ID issuer, and a lifetime of one hour from now.
// table-server in that mode checks a token's claims, not its signature (there is no key to check
// it with locally), as Azurite's `--oauth basic` does. This is test infrastructure: it only lets
// the requests reach the server; it asserts nothing.
const TENANT = "00000000-0000-0000-0000-000000000001";

function base64url(value) {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

class UnsignedTokenCredential {
  async getToken(_scopes, options = {}) {
    const now = Math.floor(Date.now() / 1000);
    const tenant = options.tenantId || TENANT;
    const claims = {
      aud: "https://storage.azure.com",
      iss: `https://sts.windows.net/${tenant}/`,
      tid: tenant,
      iat: now,
      nbf: now,
      exp: now + 3600,
      oid: "00000000-0000-0000-0000-000000000002",
      scp: "user_impersonation",
      ver: "1.0",
    };
    const token = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`;
    return { token, expiresOnTimestamp: (now + 3600) * 1000, tokenType: "Bearer" };
  }
}

export function createLiveCredential() {
  return new UnsignedTokenCredential();
}

export function createTestCredential() {
  return createLiveCredential();
}
