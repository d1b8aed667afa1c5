"use strict";
// The service's own settings: Get/Set Table Service Properties, CORS rules included. (The SDK
// reads Get Table Service Stats from a `-secondary` host, which a path-style endpoint such as
// 127.0.0.1:10002/devstoreaccount1 has no form for; the Python suite covers stats.)

const { test } = require("node:test");
const assert = require("node:assert/strict");
const h = require("./helpers.js");

test("service properties: CORS rules round trip; a set keeps the sections it leaves out", async (t) => {
  const service = h.serviceClient();
  const deviations = new h.Deviations(t);
  const before = await service.getProperties();
  try {
    await deviations.check("service-properties", async () => {
      const rule = {
        allowedOrigins: "https://js.example",
        allowedMethods: "GET,MERGE",
        allowedHeaders: "x-ms-*",
        exposedHeaders: "",
        maxAgeInSeconds: 30,
      };
      await service.setProperties({ cors: [rule] });
      let read = await service.getProperties();
      assert.deepEqual(read.cors, [rule]);

      await service.setProperties({
        hourMetrics: { version: "1.0", enabled: true, includeAPIs: true, retentionPolicy: { enabled: true, days: 3 } },
      });
      read = await service.getProperties();
      assert.equal(read.hourMetrics.enabled, true);
      assert.equal(read.hourMetrics.retentionPolicy.days, 3);
      assert.deepEqual(read.cors, [rule], "CORS kept");

      const bad = { ...rule, allowedMethods: "FETCH" };
      await assert.rejects(service.setProperties({ cors: [bad] }), (e) => {
        assert.equal(e.statusCode, 400);
        return true;
      });
    });
  } finally {
    await service.setProperties({ hourMetrics: before.hourMetrics, cors: before.cors ?? [] });
  }
  deviations.finish();
});
