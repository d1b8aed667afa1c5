"use strict";
// Shared configuration and small utilities for the @azure/data-tables suites.
//
// Everything is configured through the environment (see ../../README.md):
//   TABLES_ENDPOINT  account URL, e.g. http://127.0.0.1:10002/devstoreaccount1 (required)
//   TABLES_ACCOUNT   account name (default devstoreaccount1)
//   TABLES_KEY       account key (default: the storage emulator's published key)
//   TABLES_EXPECT    "service" (default) or "azurite"
//   TABLES_ACL_DELAY_SECONDS  how long to keep retrying while a stored access policy change
//                    propagates (default 0: a local server must apply it at once)

const assert = require("node:assert/strict");
const crypto = require("node:crypto");
const {
  AzureNamedKeyCredential,
  AzureSASCredential,
  TableClient,
  TableServiceClient,
} = require("@azure/data-tables");

// The key every storage emulator ships with; it is public and only ever valid locally.
const EMULATOR_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

const endpoint = (process.env.TABLES_ENDPOINT || "").replace(/\/+$/, "");
if (!endpoint) {
  throw new Error(
    "TABLES_ENDPOINT is not set (for example http://127.0.0.1:10002/devstoreaccount1)",
  );
}
const accountName = process.env.TABLES_ACCOUNT || "devstoreaccount1";
const accountKey = process.env.TABLES_KEY || EMULATOR_KEY;
const expectMode = process.env.TABLES_EXPECT || "service";
if (expectMode !== "service" && expectMode !== "azurite") {
  throw new Error(`TABLES_EXPECT must be "service" or "azurite", not "${expectMode}"`);
}
const aclDelaySeconds = Number(process.env.TABLES_ACL_DELAY_SECONDS || "0");

const credential = new AzureNamedKeyCredential(accountName, accountKey);

// Retries are switched off so that every test sees the server's first answer.
const clientOptions = {
  allowInsecureConnection: endpoint.startsWith("http:"),
  retryOptions: { maxRetries: 0 },
};

function serviceClient(cred = credential) {
  return new TableServiceClient(endpoint, cred, clientOptions);
}

function tableClient(tableName, cred = credential) {
  return new TableClient(endpoint, tableName, cred, clientOptions);
}

function sasTableClient(tableName, sas) {
  return tableClient(tableName, new AzureSASCredential(sas));
}

function sasServiceClient(sas) {
  return serviceClient(new AzureSASCredential(sas));
}

// Table names: letters and digits only, must start with a letter, 3..63 characters.
function uniqueTableName(tag) {
  return `js${tag}${crypto.randomBytes(5).toString("hex")}`;
}

// Creates a uniquely named table and deletes it when the test ends (pass, fail or skip).
async function createTestTable(t, tag) {
  const name = uniqueTableName(tag);
  await serviceClient().createTable(name);
  t.after(async () => {
    await serviceClient().deleteTable(name);
  });
  return { name, client: tableClient(name) };
}

// The error code from a failed response's body: JSON {"odata.error":{"code":...}} as the
// Table service sends it, or the <Code> element of an XML storage error body.
function bodyErrorCode(err) {
  const odata = err?.details?.odataError ?? err?.response?.parsedBody?.odataError;
  if (odata?.code) {
    return odata.code;
  }
  const text = err?.response?.bodyAsText;
  if (typeof text === "string" && text.length > 0) {
    try {
      const parsed = JSON.parse(text);
      if (parsed?.["odata.error"]?.code) {
        return parsed["odata.error"].code;
      }
    } catch {
      const match = /<Code>([^<]+)<\/Code>/.exec(text);
      if (match) {
        return match[1];
      }
    }
  }
  return undefined;
}

// Runs `fn`, which must fail with a RestError carrying `status` and (when given) the service
// error code `code`. Returns the error for further checks.
async function expectRestError(fn, { status, code }) {
  let error;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected a failure with status ${status}${code ? ` (${code})` : ""}`);
  assert.equal(error.name, "RestError", `expected a RestError, got ${error.name}: ${error.message}`);
  assert.equal(error.statusCode, status, `expected status ${status}, got ${error.statusCode}: ${error.message}`);
  if (code !== undefined) {
    assertErrorCode(error, code);
  }
  return error;
}

// A failed transaction: @azure/data-tables throws a RestError whose statusCode and code come
// from the failing sub-response and whose message is the service's "<index>:<text>".
async function expectTransactionError(fn, { status, code }) {
  let error;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected the transaction to fail with ${status} ${code}`);
  assert.equal(error.name, "RestError", `expected a RestError, got ${error.name}: ${error.message}`);
  assert.equal(error.statusCode, status, `expected status ${status}, got ${error.statusCode}: ${error.message}`);
  assert.equal(error.code, code, `expected error code ${code}, got ${error.code}: ${error.message}`);
  return error;
}

function failedIndex(err) {
  const match = /^(\d+):/.exec(err.message ?? "");
  return match ? Number(match[1]) : undefined;
}

// A pipeline policy that overrides request headers and records every response body.
function recordingPolicy(name, headers = {}) {
  const seen = [];
  return {
    seen,
    policy: {
      name,
      async sendRequest(request, next) {
        for (const [header, value] of Object.entries(headers)) {
          request.headers.set(header, value);
        }
        const response = await next(request);
        seen.push({ request, response });
        return response;
      },
    },
  };
}

// Known places where Azurite differs from the Table service. Under TABLES_EXPECT=service a
// deviation check is an ordinary assertion. Under TABLES_EXPECT=azurite its failure is tolerated
// and the test is reported as skipped (with the reason) once it has finished its other checks.
const DEVIATIONS = {
  "sas-key-ranges":
    "Azurite does not enforce the PartitionKey/RowKey range (spk/srk/epk/erk) of a table SAS",
  "auth-error-code":
    "Azurite reports failed authentication as 403 AuthorizationFailure (XML body); " +
    "the service answers 403 AuthenticationFailed",
  "batch-cross-partition":
    "Azurite accepts a change set whose operations target two partitions",
  "batch-over-100-response":
    "Azurite's response to a change set of more than 100 operations is malformed",
  "batch-table-sas":
    "Azurite refuses a transaction ($batch) authorized by a table SAS with 403 AuthorizationFailure",
  "query-metadata-url":
    "Azurite's odata.metadata for Query Entities names #Tables/@Element instead of #<table>",
  "service-properties":
    "Azurite refuses the SDK's Set Table Service Properties with 400 (no error body)",
};

class Deviations {
  constructor(t) {
    this.t = t;
    this.hit = new Map();
  }

  async check(id, fn) {
    const reason = DEVIATIONS[id];
    assert.ok(reason, `unknown deviation ${id}`);
    if (expectMode === "service") {
      await fn();
      return;
    }
    try {
      await fn();
      console.log(`# note: [${id}] behaved like the service here, although listed as an Azurite deviation`);
    } catch (e) {
      const seen = this.hit.get(id) ?? new Set();
      seen.add(String(e.message).split("\n")[0]);
      this.hit.set(id, seen);
    }
  }

  finish() {
    if (this.hit.size > 0) {
      const parts = [...this.hit].map(([id, seen]) => `[${id}] ${DEVIATIONS[id]}; observed: ${[...seen].join(" | ")}`);
      const message = `TABLES_EXPECT=azurite: ${parts.join("; ")}`;
      console.log(`# skipped: ${message}`);
      this.t.skip(message);
    }
  }
}

// Asserts the service error code in a failed response's body.
function assertErrorCode(err, code) {
  const actual = bodyErrorCode(err);
  assert.equal(actual, code, `expected error code ${code}, got ${actual} (status ${err?.statusCode})`);
}

// Retries `fn` until it stops throwing or TABLES_ACL_DELAY_SECONDS have passed.
async function eventually(fn) {
  const deadline = Date.now() + aclDelaySeconds * 1000;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() >= deadline) {
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

async function listAll(client, options) {
  const out = [];
  for await (const entity of client.listEntities(options)) {
    out.push(entity);
  }
  return out;
}

module.exports = {
  DEVIATIONS,
  assertErrorCode,
  Deviations,
  accountKey,
  accountName,
  bodyErrorCode,
  clientOptions,
  createTestTable,
  credential,
  endpoint,
  eventually,
  expectMode,
  expectRestError,
  expectTransactionError,
  failedIndex,
  listAll,
  recordingPolicy,
  sasServiceClient,
  sasTableClient,
  serviceClient,
  tableClient,
  uniqueTableName,
};
