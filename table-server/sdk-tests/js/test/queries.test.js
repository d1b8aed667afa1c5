"use strict";
// Query Entities: $filter, $select, $top with continuation across pages, empty results.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { odata } = require("@azure/data-tables");
const h = require("./helpers.js");

const rowKey = (i) => `r${String(i).padStart(2, "0")}`;

// 25 entities in partition "pa" (r00..r24) and 3 in "pb", written with two transactions.
async function seed(t, tag) {
  const table = await h.createTestTable(t, tag);
  await table.client.submitTransaction(
    Array.from({ length: 25 }, (_, i) => [
      "create",
      { partitionKey: "pa", rowKey: rowKey(i), num: i, even: i % 2 === 0, label: `item ${i}` },
    ]),
  );
  await table.client.submitTransaction(
    Array.from({ length: 3 }, (_, i) => [
      "create",
      { partitionKey: "pb", rowKey: rowKey(i), num: 100 + i, even: false, label: `other ${i}` },
    ]),
  );
  return table;
}

test("$filter on PartitionKey eq and a RowKey range", async (t) => {
  const { client } = await seed(t, "filter");
  const found = await h.listAll(client, {
    queryOptions: { filter: odata`PartitionKey eq ${"pa"} and RowKey ge ${"r05"} and RowKey lt ${"r10"}` },
  });
  assert.deepEqual(
    found.map((e) => e.rowKey),
    ["r05", "r06", "r07", "r08", "r09"],
  );
  assert.ok(found.every((e) => e.partitionKey === "pa"));

  const typed = await h.listAll(client, {
    queryOptions: { filter: odata`num ge ${20} and even eq ${true}` },
  });
  assert.deepEqual(
    typed.map((e) => `${e.partitionKey}/${e.rowKey}`),
    ["pa/r20", "pa/r22", "pa/r24"],
  );

  const other = await h.listAll(client, { queryOptions: { filter: odata`PartitionKey eq ${"pb"}` } });
  assert.deepEqual(
    other.map((e) => e.num),
    [100, 101, 102],
  );
});

test("$select returns only the selected properties", async (t) => {
  const { client } = await seed(t, "select");
  const found = await h.listAll(client, {
    queryOptions: { filter: odata`PartitionKey eq ${"pb"}`, select: ["RowKey", "num"] },
  });
  assert.equal(found.length, 3);
  for (const entity of found) {
    const names = Object.keys(entity).filter((name) => name !== "etag" && !name.startsWith("odata."));
    assert.deepEqual(names.sort(), ["num", "rowKey"], `properties of ${JSON.stringify(entity)}`);
  }
  assert.deepEqual(
    found.map((e) => [e.rowKey, e.num]),
    [
      ["r00", 100],
      ["r01", 101],
      ["r02", 102],
    ],
  );

  const single = await client.getEntity("pa", "r03", { queryOptions: { select: ["label"] } });
  const names = Object.keys(single).filter((name) => name !== "etag" && !name.startsWith("odata."));
  assert.deepEqual(names, ["label"]);
  assert.equal(single.label, "item 3");
});

test("$top 10 pages through 25 entities with continuation tokens", async (t) => {
  const { client } = await seed(t, "paging");
  const query = { queryOptions: { filter: odata`PartitionKey eq ${"pa"}` } };

  const pages = [];
  for await (const page of client.listEntities(query).byPage({ maxPageSize: 10 })) {
    pages.push({ rows: page.map((e) => e.rowKey), token: page.continuationToken });
  }
  assert.deepEqual(
    pages.map((p) => p.rows.length),
    [10, 10, 5],
  );
  assert.deepEqual(
    pages.flatMap((p) => p.rows),
    Array.from({ length: 25 }, (_, i) => rowKey(i)),
  );
  assert.ok(pages[0].token && pages[1].token, "every page but the last carries a token");
  assert.notEqual(pages[0].token, pages[1].token);
  assert.equal(pages[2].token, undefined, "the last page has no token");

  // Resuming from the first page's token continues where it stopped.
  const resumed = [];
  for await (const page of client
    .listEntities(query)
    .byPage({ maxPageSize: 10, continuationToken: pages[0].token })) {
    resumed.push(page.map((e) => e.rowKey));
  }
  assert.deepEqual(resumed, [pages[1].rows, pages[2].rows]);

  // Without a filter the pages run across both partitions, in key order.
  const everything = [];
  for await (const page of client.listEntities().byPage({ maxPageSize: 10 })) {
    assert.ok(page.length <= 10);
    everything.push(...page.map((e) => `${e.partitionKey}/${e.rowKey}`));
  }
  assert.equal(everything.length, 28);
  assert.deepEqual(everything, [...everything].sort());
});

test("a query that matches nothing returns one empty page", async (t) => {
  const { client } = await seed(t, "empty");
  const pages = [];
  for await (const page of client
    .listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"nothing-here"}` } })
    .byPage({ maxPageSize: 10 })) {
    pages.push(page);
  }
  assert.equal(pages.length, 1);
  assert.equal(pages[0].length, 0);
  assert.equal(pages[0].continuationToken, undefined);
  assert.deepEqual(
    await h.listAll(client, { queryOptions: { filter: odata`num gt ${1000}` } }),
    [],
  );
});
