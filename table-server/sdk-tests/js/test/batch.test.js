"use strict";
// Entity group transactions ($batch): a mixed success and every failure kind. A failed
// transaction must leave the table exactly as it was.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers.js");

async function snapshot(client) {
  return (await h.listAll(client)).map((e) => {
    const { etag, timestamp, ...rest } = e;
    return rest;
  });
}

async function seeded(t, tag) {
  const table = await h.createTestTable(t, tag);
  const etags = {};
  for (const rowKey of ["keep", "merge-me", "upsert-me", "delete-me"]) {
    etags[rowKey] = (await table.client.createEntity({ partitionKey: "p", rowKey, v: 1, tag: "orig" })).etag;
  }
  return { ...table, etags };
}

test("a mixed transaction applies every operation and reports each result", async (t) => {
  const { client } = await seeded(t, "ok");
  const response = await client.submitTransaction([
    ["create", { partitionKey: "p", rowKey: "new1", v: 10 }],
    ["create", { partitionKey: "p", rowKey: "new2", v: 20 }],
    ["update", { partitionKey: "p", rowKey: "merge-me", v: 2 }, "Merge"],
    ["update", { partitionKey: "p", rowKey: "keep", only: "this" }, "Replace"],
    ["upsert", { partitionKey: "p", rowKey: "upsert-me", w: 3 }, "Merge"],
    ["upsert", { partitionKey: "p", rowKey: "new3", v: 30 }, "Replace"],
    ["delete", { partitionKey: "p", rowKey: "delete-me" }],
  ]);
  assert.equal(response.status, 202);
  assert.equal(response.subResponses.length, 7);
  for (const [i, sub] of response.subResponses.entries()) {
    assert.equal(sub.status, 204, `status of operation ${i}`);
    if (i < 6) {
      assert.ok(sub.etag, `operation ${i} returns an ETag`);
    }
  }

  const byKey = Object.fromEntries((await snapshot(client)).map((e) => [e.rowKey, e]));
  assert.deepEqual(Object.keys(byKey).sort(), ["keep", "merge-me", "new1", "new2", "new3", "upsert-me"]);
  assert.equal(byKey.new1.v, 10);
  assert.equal(byKey.new2.v, 20);
  assert.equal(byKey.new3.v, 30);
  assert.equal(byKey["merge-me"].v, 2);
  assert.equal(byKey["merge-me"].tag, "orig", "merge keeps untouched properties");
  assert.equal(byKey.keep.only, "this");
  assert.equal(byKey.keep.v, undefined, "replace drops the old properties");
  assert.equal(byKey["upsert-me"].w, 3);
  assert.equal(byKey["upsert-me"].v, 1);

  // The ETags reported per operation are the entities' current ETags.
  const new1 = await client.getEntity("p", "new1");
  assert.equal(new1.etag, response.subResponses[0].etag);
});

test("inserting an existing entity fails the whole transaction (409 EntityAlreadyExists)", async (t) => {
  const { client } = await seeded(t, "exists");
  const before = await snapshot(client);
  const err = await h.expectTransactionError(
    () =>
      client.submitTransaction([
        ["create", { partitionKey: "p", rowKey: "fresh", v: 1 }],
        ["update", { partitionKey: "p", rowKey: "merge-me", v: 99 }, "Merge"],
        ["create", { partitionKey: "p", rowKey: "keep", v: 2 }],
      ]),
    { status: 409, code: "EntityAlreadyExists" },
  );
  assert.equal(h.failedIndex(err), 2, err.message);
  assert.deepEqual(await snapshot(client), before, "rolled back: nothing was written");
});

test("updating a missing entity fails the transaction (404 ResourceNotFound)", async (t) => {
  const { client } = await seeded(t, "upd404");
  const before = await snapshot(client);
  const err = await h.expectTransactionError(
    () =>
      client.submitTransaction([
        ["upsert", { partitionKey: "p", rowKey: "fresh", v: 1 }],
        ["update", { partitionKey: "p", rowKey: "absent", v: 1 }, "Replace"],
      ]),
    { status: 404, code: "ResourceNotFound" },
  );
  assert.equal(h.failedIndex(err), 1, err.message);
  assert.deepEqual(await snapshot(client), before);
});

test("a stale ETag fails the transaction (412 UpdateConditionNotSatisfied)", async (t) => {
  const { client, etags } = await seeded(t, "stale");
  await client.updateEntity({ partitionKey: "p", rowKey: "merge-me", v: 2 }, "Merge");
  const before = await snapshot(client);
  const err = await h.expectTransactionError(
    () =>
      client.submitTransaction([
        ["create", { partitionKey: "p", rowKey: "fresh", v: 1 }],
        ["delete", { partitionKey: "p", rowKey: "delete-me" }],
        ["update", { partitionKey: "p", rowKey: "merge-me", v: 3 }, "Merge", { etag: etags["merge-me"] }],
      ]),
    { status: 412, code: "UpdateConditionNotSatisfied" },
  );
  assert.equal(h.failedIndex(err), 2, err.message);
  assert.deepEqual(await snapshot(client), before);

  // The same transaction with the current ETag goes through.
  const current = (await client.getEntity("p", "merge-me")).etag;
  await client.submitTransaction([
    ["update", { partitionKey: "p", rowKey: "merge-me", v: 3 }, "Merge", { etag: current }],
  ]);
  assert.equal((await client.getEntity("p", "merge-me")).v, 3);
});

test("operations on two partitions are refused and nothing is written", async (t) => {
  const { client } = await seeded(t, "twopk");
  const before = await snapshot(client);
  // @azure/data-tables refuses this before sending anything; a server must refuse it too
  // (see the Python suite, which sends such a change set).
  await assert.rejects(
    () =>
      client.submitTransaction([
        ["create", { partitionKey: "p", rowKey: "fresh", v: 1 }],
        ["create", { partitionKey: "q", rowKey: "fresh", v: 1 }],
      ]),
    (err) => {
      if (err.name === "RestError") {
        assert.equal(err.statusCode, 400);
        assert.equal(err.code, "CommandsInBatchActOnDifferentPartitions");
      } else {
        assert.match(err.message, /same partitionKey/);
      }
      return true;
    },
  );
  assert.deepEqual(await snapshot(client), before);
});

test("the same entity twice in one transaction fails (400 InvalidDuplicateRow)", async (t) => {
  const { client } = await seeded(t, "twice");
  const before = await snapshot(client);
  const err = await h.expectTransactionError(
    () =>
      client.submitTransaction([
        ["upsert", { partitionKey: "p", rowKey: "fresh", v: 1 }],
        ["upsert", { partitionKey: "p", rowKey: "fresh", v: 2 }],
      ]),
    { status: 400, code: "InvalidDuplicateRow" },
  );
  assert.equal(h.failedIndex(err), 1, err.message);
  assert.deepEqual(await snapshot(client), before);
});

test("100 operations are accepted, 101 are refused (400 InvalidInput)", async (t) => {
  const { client } = await h.createTestTable(t, "limit");
  const creates = (prefix, n) =>
    Array.from({ length: n }, (_, i) => ["create", { partitionKey: "p", rowKey: `${prefix}${String(i).padStart(3, "0")}` }]);

  const ok = await client.submitTransaction(creates("a", 100));
  assert.equal(ok.subResponses.length, 100);
  assert.equal((await h.listAll(client)).length, 100);

  const err = await h.expectTransactionError(() => client.submitTransaction(creates("b", 101)), {
    status: 400,
    code: "InvalidInput",
  });
  assert.match(err.message, /exceeds the maximum 100 changes per change set/);
  // The service has been seen to name operation 99 here, Azurite names 0; both are accepted.
  assert.ok([0, 99].includes(h.failedIndex(err)), err.message);
  assert.equal((await h.listAll(client)).length, 100, "none of the 101 was written");
});
