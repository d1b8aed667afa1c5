"use strict";
// JSON metadata levels. The SDK always asks for minimalmetadata; a pipeline policy replaces
// the Accept header with each level in turn and keeps the raw response body, which is then
// checked against "Payload format for Table service operations" (learn.microsoft.com).

const { test } = require("node:test");
const assert = require("node:assert/strict");
const { odata } = require("@azure/data-tables");
const h = require("./helpers.js");

const LEVELS = ["nometadata", "minimalmetadata", "fullmetadata"];

// Properties whose EDM type JSON cannot express, so that the payload must annotate them.
const ANNOTATED = {
  l: "Edm.Int64",
  dt: "Edm.DateTime",
  g: "Edm.Guid",
  b: "Edm.Binary",
};

const ENTITY = {
  partitionKey: "p",
  rowKey: "r",
  s: "text",
  i: 42,
  d: 1.5,
  bo: true,
  l: { value: "1099511627776", type: "Int64" },
  dt: new Date("2020-01-02T03:04:05Z"),
  g: { value: "c9da6455-213d-42c9-9a79-3e9149a57833", type: "Guid" },
  b: new Uint8Array([1, 2, 3]),
};

async function raw(client, level, operation) {
  const recorder = h.recordingPolicy(`accept-${level}`, {
    Accept: `application/json;odata=${level}`,
  });
  client.pipeline.addPolicy(recorder.policy);
  await operation(client);
  assert.ok(recorder.seen.length > 0, "the request went through the pipeline");
  const { response } = recorder.seen[recorder.seen.length - 1];
  assert.equal(response.status, 200);
  const contentType = (response.headers.get("content-type") || "").replace(/\s+/g, "");
  assert.match(contentType, /^application\/json/);
  assert.ok(contentType.includes(`odata=${level}`), `content-type ${contentType} names ${level}`);
  return JSON.parse(response.bodyAsText);
}

function annotations(entity) {
  return Object.fromEntries(
    Object.entries(entity)
      .filter(([name]) => name.endsWith("@odata.type"))
      .map(([name, type]) => [name.slice(0, -"@odata.type".length), type]),
  );
}

function checkValues(entity) {
  assert.equal(entity.PartitionKey, "p");
  assert.equal(entity.RowKey, "r");
  assert.equal(entity.s, "text");
  assert.equal(entity.i, 42);
  assert.equal(entity.d, 1.5);
  assert.equal(entity.bo, true);
  assert.equal(entity.l, "1099511627776", "Int64 travels as a JSON string");
  assert.match(entity.dt, /^2020-01-02T03:04:05(\.0+)?Z$/);
  assert.equal(entity.g, "c9da6455-213d-42c9-9a79-3e9149a57833");
  assert.equal(entity.b, "AQID");
  assert.ok(entity.Timestamp);
}

function checkEntity(level, entity, table) {
  checkValues(entity);
  if (level === "nometadata") {
    const extra = Object.keys(entity).filter((name) => name.startsWith("odata.") || name.includes("@odata."));
    assert.deepEqual(extra, [], "nometadata carries no odata annotations");
    return;
  }
  // odata.etag: the SDKs read an entity's ETag from it; the service sends it at this level too.
  assert.ok(entity["odata.etag"], `${level} has odata.etag`);
  if (level === "minimalmetadata") {
    for (const name of ["odata.type", "odata.id", "odata.editLink"]) {
      assert.equal(entity[name], undefined, `minimalmetadata has no ${name}`);
    }
    assert.deepEqual(annotations(entity), ANNOTATED);
    return;
  }
  const self = `${table}(PartitionKey='p',RowKey='r')`;
  assert.equal(entity["odata.type"], `${h.accountName}.${table}`);
  assert.match(entity["odata.id"], /^https?:\/\//);
  assert.ok(entity["odata.id"].endsWith(`/${self}`), entity["odata.id"]);
  assert.equal(entity["odata.editLink"], self);
  assert.deepEqual(annotations(entity), { ...ANNOTATED, Timestamp: "Edm.DateTime" });
}

for (const level of LEVELS) {
  test(`${level}: Get Entity`, async (t) => {
    const { name, client } = await h.createTestTable(t, "meta");
    await client.createEntity(ENTITY);
    const body = await raw(h.tableClient(name), level, (c) => c.getEntity("p", "r"));
    if (level === "nometadata") {
      assert.equal(body["odata.metadata"], undefined);
    } else {
      assert.ok(String(body["odata.metadata"]).endsWith(`$metadata#${name}/@Element`), body["odata.metadata"]);
    }
    checkEntity(level, body, name);
  });

  test(`${level}: Query Entities`, async (t) => {
    const { name, client } = await h.createTestTable(t, "metaq");
    await client.createEntity(ENTITY);
    const deviations = new h.Deviations(t);
    const body = await raw(h.tableClient(name), level, (c) =>
      h.listAll(c, { queryOptions: { filter: odata`PartitionKey eq ${"p"}` } }),
    );
    assert.equal(body.value.length, 1);
    checkEntity(level, body.value[0], name);
    if (level === "nometadata") {
      assert.deepEqual(Object.keys(body), ["value"]);
    } else {
      await deviations.check("query-metadata-url", () =>
        assert.ok(String(body["odata.metadata"]).endsWith(`$metadata#${name}`), body["odata.metadata"]),
      );
    }
    deviations.finish();
  });

  test(`${level}: Query Tables`, async (t) => {
    const { name } = await h.createTestTable(t, "metat");
    const body = await raw(h.serviceClient(), level, async (c) => {
      for await (const table of c.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } })) {
        assert.equal(table.name, name);
      }
    });
    assert.equal(body.value.length, 1);
    const item = body.value[0];
    assert.equal(item.TableName, name);
    if (level === "nometadata") {
      assert.deepEqual(Object.keys(body), ["value"]);
      assert.deepEqual(Object.keys(item), ["TableName"]);
      return;
    }
    assert.ok(String(body["odata.metadata"]).endsWith("$metadata#Tables"), body["odata.metadata"]);
    if (level === "minimalmetadata") {
      assert.deepEqual(Object.keys(item), ["TableName"]);
      return;
    }
    assert.equal(item["odata.type"], `${h.accountName}.Tables`);
    assert.ok(String(item["odata.id"]).endsWith(`Tables('${name}')`), item["odata.id"]);
    assert.equal(item["odata.editLink"], `Tables('${name}')`);
  });
}
