"use strict";
// Table operations: Create Table, Query Tables (filter and paging), Delete Table.

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { odata } = require("@azure/data-tables");
const h = require("./helpers.js");

async function tableNames(service, filter) {
  const names = [];
  for await (const table of service.listTables({ queryOptions: { filter } })) {
    names.push(table.name);
  }
  return names;
}

test("create, list by name, delete", async (t) => {
  const service = h.serviceClient();
  const name = h.uniqueTableName("life");
  let created = false;
  t.after(async () => {
    if (created) {
      await service.deleteTable(name);
    }
  });

  const statuses = [];
  await service.createTable(name, { onResponse: (raw) => statuses.push(raw.status) });
  created = true;
  assert.deepEqual(statuses, [201]);

  assert.deepEqual(await tableNames(service, odata`TableName eq ${name}`), [name]);

  const deleteStatuses = [];
  await service.deleteTable(name, { onResponse: (raw) => deleteStatuses.push(raw.status) });
  created = false;
  assert.deepEqual(deleteStatuses, [204]);
  assert.deepEqual(await tableNames(service, odata`TableName eq ${name}`), []);
});

test("creating an existing table fails with 409 TableAlreadyExists", async (t) => {
  const { name } = await h.createTestTable(t, "dup");
  // createTable swallows TableAlreadyExists by design, so the answer is read from onResponse.
  const answers = [];
  await h.serviceClient().createTable(name, {
    onResponse: (raw) => answers.push({ status: raw.status, body: raw.parsedBody }),
  });
  assert.ok(answers.length >= 1);
  for (const answer of answers) {
    assert.equal(answer.status, 409);
    assert.equal(answer.body?.odataError?.code, "TableAlreadyExists");
  }
  // The generated layer underneath does surface it as an error.
  await h.expectRestError(() => h.tableClient(name).table.create({ name }), {
    status: 409,
    code: "TableAlreadyExists",
  });
});

test("deleting a missing table fails with 404 ResourceNotFound", async () => {
  const name = h.uniqueTableName("gone");
  // deleteTable ignores 404 by design, so the answer is read from onResponse.
  const answers = [];
  await h.serviceClient().deleteTable(name, {
    onResponse: (raw) => answers.push({ status: raw.status, body: raw.parsedBody }),
  });
  assert.equal(answers.length, 1);
  assert.equal(answers[0].status, 404);
  assert.equal(answers[0].body?.odataError?.code, "ResourceNotFound");
  await h.expectRestError(() => h.tableClient(name).table.delete(name), {
    status: 404,
    code: "ResourceNotFound",
  });
});

test("list tables in pages of 2 with continuation tokens", async (t) => {
  const service = h.serviceClient();
  // A shared random prefix isolates this test's tables from everything else on the server.
  const prefix = h.uniqueTableName("pg");
  const names = ["a", "b", "c", "d", "e"].map((suffix) => `${prefix}${suffix}`);
  t.after(async () => {
    for (const name of names) {
      await service.deleteTable(name);
    }
  });
  for (const name of [...names].reverse()) {
    await service.createTable(name);
  }

  const filter = odata`TableName ge ${prefix} and TableName lt ${prefix + "{"}`;
  const pages = [];
  for await (const page of service.listTables({ queryOptions: { filter } }).byPage({ maxPageSize: 2 })) {
    pages.push({ names: page.map((table) => table.name), token: page.continuationToken });
  }
  assert.deepEqual(
    pages.map((page) => page.names),
    [names.slice(0, 2), names.slice(2, 4), names.slice(4)],
  );
  assert.ok(pages[0].token, "first page carries a continuation token");
  assert.ok(pages[1].token, "second page carries a continuation token");
  assert.equal(pages[2].token, undefined, "last page has no continuation token");

  // Resuming from the first token yields the rest.
  const resumed = [];
  for await (const page of service
    .listTables({ queryOptions: { filter } })
    .byPage({ maxPageSize: 2, continuationToken: pages[0].token })) {
    resumed.push(...page.map((table) => table.name));
  }
  assert.deepEqual(resumed, names.slice(2));

  // Iterating item by item follows the tokens transparently.
  assert.deepEqual(await tableNames(service, filter), names);
});
