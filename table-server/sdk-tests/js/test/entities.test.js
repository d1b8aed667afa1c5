"use strict";
// Single-entity operations: Insert, Get, Update/Merge, Insert-or-Replace/Merge, Delete,
// conditional requests, the common failures, property types and awkward keys.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { odata } = require("@azure/data-tables");
const h = require("./helpers.js");

// The user properties of an entity: drops the keys, etag, timestamp and any odata.* annotation
// the SDK passes through (getEntity keeps "odata.metadata").
function props(entity) {
  const { etag, timestamp, partitionKey, rowKey, ...rest } = entity;
  return Object.fromEntries(Object.entries(rest).filter(([name]) => !name.startsWith("odata.")));
}

test("insert, get, update (merge, replace), upsert (merge, replace), delete", async (t) => {
  const { client } = await h.createTestTable(t, "crud");

  const created = await client.createEntity({ partitionKey: "p", rowKey: "r", a: "one", n: 1 });
  assert.ok(created.etag, "insert returns an ETag");

  let got = await client.getEntity("p", "r");
  assert.equal(got.partitionKey, "p");
  assert.equal(got.rowKey, "r");
  assert.equal(got.etag, created.etag);
  assert.ok(got.timestamp, "Timestamp is returned");
  assert.deepEqual(props(got), { a: "one", n: 1 });

  const merged = await client.updateEntity({ partitionKey: "p", rowKey: "r", b: "two" }, "Merge");
  assert.ok(merged.etag && merged.etag !== created.etag, "merge returns a new ETag");
  got = await client.getEntity("p", "r");
  assert.deepEqual(props(got), { a: "one", n: 1, b: "two" });
  assert.equal(got.etag, merged.etag);

  const replaced = await client.updateEntity({ partitionKey: "p", rowKey: "r", c: "three" }, "Replace");
  assert.ok(replaced.etag && replaced.etag !== merged.etag);
  assert.deepEqual(props(await client.getEntity("p", "r")), { c: "three" });

  await client.upsertEntity({ partitionKey: "p", rowKey: "r", d: 4 }, "Merge");
  assert.deepEqual(props(await client.getEntity("p", "r")), { c: "three", d: 4 });

  await client.upsertEntity({ partitionKey: "p", rowKey: "r", e: true }, "Replace");
  assert.deepEqual(props(await client.getEntity("p", "r")), { e: true });

  // Upsert of a missing entity inserts it, in either mode.
  await client.upsertEntity({ partitionKey: "p", rowKey: "new-merge", x: 1 }, "Merge");
  await client.upsertEntity({ partitionKey: "p", rowKey: "new-replace", y: 2 }, "Replace");
  assert.deepEqual(props(await client.getEntity("p", "new-merge")), { x: 1 });
  assert.deepEqual(props(await client.getEntity("p", "new-replace")), { y: 2 });

  await client.deleteEntity("p", "r");
  await h.expectRestError(() => client.getEntity("p", "r"), { status: 404, code: "ResourceNotFound" });
  assert.deepEqual(
    (await h.listAll(client)).map((entity) => entity.rowKey),
    ["new-merge", "new-replace"],
  );
});

test("conditional update and delete: right ETag succeeds, stale ETag fails with 412", async (t) => {
  const { client } = await h.createTestTable(t, "etag");
  const first = await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });

  const second = await client.updateEntity({ partitionKey: "p", rowKey: "r", v: 2 }, "Merge", {
    etag: first.etag,
  });
  assert.notEqual(second.etag, first.etag);

  await h.expectRestError(
    () => client.updateEntity({ partitionKey: "p", rowKey: "r", v: 3 }, "Merge", { etag: first.etag }),
    { status: 412, code: "UpdateConditionNotSatisfied" },
  );
  await h.expectRestError(
    () => client.updateEntity({ partitionKey: "p", rowKey: "r", v: 3 }, "Replace", { etag: first.etag }),
    { status: 412, code: "UpdateConditionNotSatisfied" },
  );
  await h.expectRestError(() => client.deleteEntity("p", "r", { etag: first.etag }), {
    status: 412,
    code: "UpdateConditionNotSatisfied",
  });
  assert.equal((await client.getEntity("p", "r")).v, 2, "failed conditional writes change nothing");

  const third = await client.updateEntity({ partitionKey: "p", rowKey: "r", v: 3 }, "Replace", {
    etag: second.etag,
  });
  await client.deleteEntity("p", "r", { etag: third.etag });
  await h.expectRestError(() => client.getEntity("p", "r"), { status: 404, code: "ResourceNotFound" });
});

test("insert of an existing entity fails with 409 EntityAlreadyExists", async (t) => {
  const { client } = await h.createTestTable(t, "exists");
  await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
  await h.expectRestError(() => client.createEntity({ partitionKey: "p", rowKey: "r", v: 2 }), {
    status: 409,
    code: "EntityAlreadyExists",
  });
  assert.equal((await client.getEntity("p", "r")).v, 1);
});

test("get, update and conditional delete of a missing entity fail with 404 ResourceNotFound", async (t) => {
  const { client } = await h.createTestTable(t, "missing");
  await h.expectRestError(() => client.getEntity("p", "nope"), { status: 404, code: "ResourceNotFound" });
  await h.expectRestError(() => client.updateEntity({ partitionKey: "p", rowKey: "nope", v: 1 }, "Merge"), {
    status: 404,
    code: "ResourceNotFound",
  });
  await h.expectRestError(
    () => client.updateEntity({ partitionKey: "p", rowKey: "nope", v: 1 }, "Replace"),
    { status: 404, code: "ResourceNotFound" },
  );
  await h.expectRestError(() => client.deleteEntity("p", "nope"), { status: 404, code: "ResourceNotFound" });
  assert.deepEqual(await h.listAll(client), [], "nothing was created");
});

test("property types round-trip", async (t) => {
  const { client } = await h.createTestTable(t, "types");
  const when = new Date("2021-03-04T05:06:07.123Z");
  const guid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);
  await client.createEntity({
    partitionKey: "p",
    rowKey: "r",
    str: "hello \"world\" 'x' é 日本 😀",
    emptyStr: "",
    int32: -2147483648,
    int32max: 2147483647,
    int64: { value: "9007199254740993", type: "Int64" },
    int64neg: BigInt("-9223372036854775808"),
    dbl: 3.25,
    dblTyped: { value: "1.5", type: "Double" },
    boolTrue: true,
    boolFalse: false,
    date: when,
    guid: { value: guid, type: "Guid" },
    bin: bytes,
  });

  const got = await client.getEntity("p", "r");
  assert.equal(got.str, "hello \"world\" 'x' é 日本 😀");
  assert.equal(got.emptyStr, "");
  assert.equal(got.int32, -2147483648);
  assert.equal(got.int32max, 2147483647);
  assert.equal(got.int64, BigInt("9007199254740993"));
  assert.equal(got.int64neg, BigInt("-9223372036854775808"));
  assert.equal(got.dbl, 3.25);
  assert.equal(got.dblTyped, 1.5);
  assert.equal(got.boolTrue, true);
  assert.equal(got.boolFalse, false);
  assert.ok(got.date instanceof Date, "DateTime comes back as a Date");
  assert.equal(got.date.toISOString(), when.toISOString());
  assert.deepEqual(got.guid, { value: guid, type: "Guid" });
  assert.ok(got.bin instanceof Uint8Array, "Binary comes back as bytes");
  assert.deepEqual([...got.bin], [...bytes]);

  // With type conversion off the SDK reports the EDM type it read from the payload.
  const raw = await client.getEntity("p", "r", { disableTypeConversion: true });
  assert.deepEqual(raw.int64, { value: "9007199254740993", type: "Int64" });
  assert.equal(raw.date.type, "DateTime");
  assert.equal(raw.guid.type, "Guid");
  assert.deepEqual(raw.bin, { value: Buffer.from(bytes).toString("base64"), type: "Binary" });
  assert.deepEqual(raw.int32, { value: "-2147483648", type: "Int32" });
  assert.deepEqual(raw.dbl, { value: "3.25", type: "Double" });
  assert.deepEqual(raw.boolTrue, { value: "true", type: "Boolean" });
  assert.deepEqual(raw.str, { value: "hello \"world\" 'x' é 日本 😀", type: "String" });
});

test("keys with quotes, unicode and spaces", async (t) => {
  const { client } = await h.createTestTable(t, "keys");
  const keys = [
    ["O'Brien", "it's"],
    ["é", "日本語"],
    ["with space", "trailing space "],
    ["''", "'"],
    ["emoji 😀", "ü-ß"],
  ];
  for (const [pk, rk] of keys) {
    await client.createEntity({ partitionKey: pk, rowKey: rk, pk, rk });
  }
  for (const [pk, rk] of keys) {
    const got = await client.getEntity(pk, rk);
    assert.equal(got.partitionKey, pk);
    assert.equal(got.rowKey, rk);
    assert.equal(got.pk, pk);
    await client.updateEntity({ partitionKey: pk, rowKey: rk, touched: true }, "Merge", { etag: got.etag });
    const filtered = await h.listAll(client, {
      queryOptions: { filter: odata`PartitionKey eq ${pk} and RowKey eq ${rk}` },
    });
    assert.equal(filtered.length, 1, `filter finds ${pk}/${rk}`);
    assert.equal(filtered[0].touched, true);
  }
  for (const [pk, rk] of keys) {
    await client.deleteEntity(pk, rk);
  }
  assert.deepEqual(await h.listAll(client), []);
});
