"use strict";
// Authorization: SharedKeyLite signing (what @azure/data-tables uses), a wrong key, account
// SAS, table SAS (permissions, expiry, key ranges) and stored access policies.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const {
  AzureNamedKeyCredential,
  generateAccountSas,
  generateTableSas,
} = require("@azure/data-tables");
const h = require("./helpers.js");

const HOUR = 3600 * 1000;
const later = () => new Date(Date.now() + HOUR);

function wrongKey() {
  // A valid base64 key of the right length that is not the account's key.
  const bytes = Buffer.from(h.accountKey, "base64");
  bytes[0] ^= 0xff;
  return bytes.toString("base64");
}

test("requests are signed with SharedKeyLite and accepted", async (t) => {
  const { name } = await h.createTestTable(t, "lite");
  const client = h.tableClient(name);
  const recorder = h.recordingPolicy("see-authorization");
  client.pipeline.addPolicy(recorder.policy);
  await client.createEntity({ partitionKey: "p", rowKey: "r" });
  await client.getEntity("p", "r");
  assert.equal(recorder.seen.length, 2);
  for (const { request, response } of recorder.seen) {
    const authorization = request.headers.get("authorization") || "";
    assert.match(authorization, new RegExp(`^SharedKeyLite ${h.accountName}:[A-Za-z0-9+/=]+$`));
    assert.ok(response.status < 300, `status ${response.status}`);
  }
});

test("a wrong account key is refused with 403", async (t) => {
  const { name, client } = await h.createTestTable(t, "badkey");
  await client.createEntity({ partitionKey: "p", rowKey: "r" });
  const bad = h.tableClient(name, new AzureNamedKeyCredential(h.accountName, wrongKey()));
  const deviations = new h.Deviations(t);
  // Never created unless the server wrongly accepts the request; removed in that case.
  const refusedTable = h.uniqueTableName("no");
  t.after(() => h.serviceClient().deleteTable(refusedTable));

  for (const attempt of [
    () => bad.getEntity("p", "r"),
    () => bad.createEntity({ partitionKey: "p", rowKey: "intruder" }),
    () => h.serviceClient(new AzureNamedKeyCredential(h.accountName, wrongKey())).createTable(refusedTable),
  ]) {
    const err = await h.expectRestError(attempt, { status: 403 });
    await deviations.check("auth-error-code", () => h.assertErrorCode(err, "AuthenticationFailed"));
  }
  assert.deepEqual(
    (await h.listAll(client)).map((e) => e.rowKey),
    ["r"],
  );
  deviations.finish();
});

test("account SAS with read and list permissions allows reads and refuses writes", async (t) => {
  const { name, client } = await h.createTestTable(t, "acctsas");
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });

  const sas = generateAccountSas(h.credential, {
    permissions: { query: true, list: true },
    resourceTypes: "sco",
    expiresOn: later(),
  });
  assert.match(sas, /(^|&)sp=rl(&|$)/);
  const readOnly = h.sasTableClient(name, sas);
  assert.equal((await readOnly.getEntity("p", "r")).v, 1);
  assert.equal((await h.listAll(readOnly)).length, 1);
  const listed = [];
  for await (const table of h.sasServiceClient(sas).listTables()) {
    listed.push(table.name);
  }
  assert.ok(listed.includes(name), "the table is listed");

  await h.expectRestError(() => readOnly.createEntity({ partitionKey: "p", rowKey: "w" }), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });
  await h.expectRestError(() => readOnly.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });
  await h.expectRestError(() => readOnly.deleteEntity("p", "r"), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });
  const refusedTable = h.uniqueTableName("refused");
  t.after(() => h.serviceClient().deleteTable(refusedTable)); // only there if wrongly created
  await h.expectRestError(() => h.sasServiceClient(sas).createTable(refusedTable), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });
  assert.deepEqual(
    (await h.listAll(client)).map((e) => [e.rowKey, e.v]),
    [["r", 1]],
  );

  // The same kind of SAS with write permissions allows the writes.
  const writer = h.sasTableClient(
    name,
    generateAccountSas(h.credential, {
      permissions: { query: true, list: true, write: true, add: true, update: true, delete: true },
      resourceTypes: "sco",
      expiresOn: later(),
    }),
  );
  await writer.createEntity({ partitionKey: "p", rowKey: "w" });
  await writer.deleteEntity("p", "w");
});

test("table SAS permissions: query, add, update, delete", async (t) => {
  const { name, client } = await h.createTestTable(t, "tblsas");
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
  const sasFor = (permissions) =>
    h.sasTableClient(name, generateTableSas(name, h.credential, { permissions, expiresOn: later() }));

  const reader = sasFor({ query: true });
  assert.equal((await reader.getEntity("p", "r")).v, 1);
  assert.equal((await h.listAll(reader)).length, 1);
  await h.expectRestError(() => reader.createEntity({ partitionKey: "p", rowKey: "x" }), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });

  const adder = sasFor({ query: true, add: true });
  await adder.createEntity({ partitionKey: "p", rowKey: "x", v: 1 });
  await h.expectRestError(() => adder.updateEntity({ partitionKey: "p", rowKey: "x", v: 2 }, "Replace"), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });
  await h.expectRestError(() => adder.deleteEntity("p", "x"), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });

  const full = sasFor({ query: true, add: true, update: true, delete: true });
  await full.updateEntity({ partitionKey: "p", rowKey: "x", v: 2 }, "Merge");
  await full.upsertEntity({ partitionKey: "p", rowKey: "y", v: 3 }, "Replace");
  await full.updateEntity({ partitionKey: "p", rowKey: "y", v: 4 }, "Merge");
  await full.deleteEntity("p", "x");
  assert.deepEqual(
    (await h.listAll(client)).map((e) => [e.rowKey, e.v]),
    [
      ["r", 1],
      ["y", 4],
    ],
  );
});

test("a transaction authorized by a table SAS", async (t) => {
  const { name, client } = await h.createTestTable(t, "sasbatch");
  await client.createEntity({ partitionKey: "p", rowKey: "old", v: 1 });
  const sas = generateTableSas(name, h.credential, {
    permissions: { query: true, add: true, update: true, delete: true },
    expiresOn: later(),
  });
  const deviations = new h.Deviations(t);
  await deviations.check("batch-table-sas", async () => {
    let response;
    try {
      response = await h.sasTableClient(name, sas).submitTransaction([
        ["create", { partitionKey: "p", rowKey: "new", v: 2 }],
        ["delete", { partitionKey: "p", rowKey: "old" }],
      ]);
    } catch (e) {
      throw new Error(`transaction refused: ${e.statusCode} ${h.bodyErrorCode(e) ?? e.code}`);
    }
    assert.equal(response.status, 202);
    assert.deepEqual(
      (await h.listAll(client)).map((e) => [e.rowKey, e.v]),
      [["new", 2]],
    );
  });
  deviations.finish();
});

test("a table SAS that has expired is refused with 403", async (t) => {
  const { name, client } = await h.createTestTable(t, "expired");
  await client.createEntity({ partitionKey: "p", rowKey: "r" });
  const sas = generateTableSas(name, h.credential, {
    permissions: { query: true, add: true },
    startsOn: new Date(Date.now() - 2 * HOUR),
    expiresOn: new Date(Date.now() - HOUR),
  });
  const expired = h.sasTableClient(name, sas);
  const deviations = new h.Deviations(t);
  for (const attempt of [
    () => expired.getEntity("p", "r"),
    () => expired.createEntity({ partitionKey: "p", rowKey: "late" }),
  ]) {
    const err = await h.expectRestError(attempt, { status: 403 });
    await deviations.check("auth-error-code", () => h.assertErrorCode(err, "AuthenticationFailed"));
  }
  assert.equal((await h.listAll(client)).length, 1);
  deviations.finish();
});

test("a table SAS with PartitionKey/RowKey ranges only reaches entities inside them", async (t) => {
  const { name, client } = await h.createTestTable(t, "range");
  for (const [pk, rk] of [
    ["a", "1"],
    ["c", "3"],
    ["c", "4"],
    ["m", "m"],
  ]) {
    await client.createEntity({ partitionKey: pk, rowKey: rk, v: 1 });
  }
  const sas = generateTableSas(name, h.credential, {
    permissions: { query: true, add: true, update: true, delete: true },
    expiresOn: later(),
    startPartitionKey: "b",
    startRowKey: "1",
    endPartitionKey: "d",
    endRowKey: "5",
  });
  assert.match(sas, /spk=b/);
  assert.match(sas, /erk=5/);
  const ranged = h.sasTableClient(name, sas);

  // Inside the range everything works.
  assert.equal((await ranged.getEntity("c", "3")).v, 1);
  await ranged.createEntity({ partitionKey: "c", rowKey: "2", v: 2 });
  await ranged.updateEntity({ partitionKey: "c", rowKey: "4", v: 4 }, "Merge");
  await ranged.deleteEntity("c", "2");

  const deviations = new h.Deviations(t);
  await deviations.check("sas-key-ranges", async () => {
    // Writes outside the range are refused (AuthorizationFailure, as the service answers).
    await h.expectRestError(() => ranged.createEntity({ partitionKey: "z", rowKey: "3" }), {
      status: 403,
      code: "AuthorizationFailure",
    });
    await h.expectRestError(() => ranged.updateEntity({ partitionKey: "m", rowKey: "m", v: 9 }, "Merge"), {
      status: 403,
      code: "AuthorizationFailure",
    });
    await h.expectRestError(() => ranged.deleteEntity("a", "1"), {
      status: 403,
      code: "AuthorizationFailure",
    });
    // Queries only return entities inside the range; a point read outside it finds nothing.
    assert.deepEqual(
      (await h.listAll(ranged)).map((e) => `${e.partitionKey}/${e.rowKey}`),
      ["c/3", "c/4"],
    );
    await assert.rejects(
      () => ranged.getEntity("m", "m"),
      (err) => [403, 404].includes(err.statusCode),
    );
  });
  deviations.finish();
});

test("stored access policies: set, get, use through si, revoke", async (t) => {
  const { name, client } = await h.createTestTable(t, "policy");
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
  const start = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * 60 * 1000);
  const expiry = new Date(start.getTime() + 2 * HOUR);

  await client.setAccessPolicy([
    { id: "readonly", accessPolicy: { permission: "r", start, expiry } },
    { id: "writer", accessPolicy: { permission: "raud", start, expiry } },
  ]);
  const policies = await client.getAccessPolicy();
  assert.deepEqual(
    policies.map((p) => [p.id, p.accessPolicy?.permission, p.accessPolicy?.start?.getTime(), p.accessPolicy?.expiry?.getTime()]),
    [
      ["readonly", "r", start.getTime(), expiry.getTime()],
      ["writer", "raud", start.getTime(), expiry.getTime()],
    ],
  );

  const readonly = h.sasTableClient(name, generateTableSas(name, h.credential, { identifier: "readonly" }));
  const writer = h.sasTableClient(name, generateTableSas(name, h.credential, { identifier: "writer" }));
  assert.equal((await h.eventually(() => readonly.getEntity("p", "r"))).v, 1);
  await h.expectRestError(() => readonly.createEntity({ partitionKey: "p", rowKey: "x" }), {
    status: 403,
    code: "AuthorizationPermissionMismatch",
  });
  await h.eventually(() => writer.createEntity({ partitionKey: "p", rowKey: "w" }));

  // Dropping "readonly" revokes every SAS that names it; "writer" keeps working.
  await client.setAccessPolicy([{ id: "writer", accessPolicy: { permission: "raud", start, expiry } }]);
  assert.deepEqual(
    (await client.getAccessPolicy()).map((p) => p.id),
    ["writer"],
  );
  const deviations = new h.Deviations(t);
  const err = await h.eventually(() =>
    h.expectRestError(() => readonly.getEntity("p", "r"), { status: 403 }),
  );
  await deviations.check("auth-error-code", () => h.assertErrorCode(err, "AuthenticationFailed"));
  await writer.deleteEntity("p", "w");

  await client.setAccessPolicy([]);
  assert.deepEqual(await client.getAccessPolicy(), []);
  await h.eventually(() => h.expectRestError(() => writer.getEntity("p", "r"), { status: 403 }));
  deviations.finish();
});
