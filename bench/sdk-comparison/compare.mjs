// The workload of table-http's `throughput` example, done through Microsoft's Node SDK
// (@azure/data-tables), so that the two can be compared against the same service.
//
//   node compare.mjs CONNECTION_STRING [--server-pid PID]
//
// Same table layout, entity shape, counts and order as table-http/examples/throughput.rs:
// 2,000 sequential inserts into partition `ins`, 2,000 sequential point reads of them,
// 100 sequential transactions of 100 inserts into partition `scan`, then a scan of that
// partition page by page. Every call is awaited before the next one starts.
//
// Prints one JSON line per phase, in the example's format: `rate` is units per second,
// `client_cpu_ms` this process's CPU time (process.cpuUsage(), user + system) per unit, and
// `server_cpu_ms` the server process's CPU time per HTTP request, read from /proc when
// `--server-pid` is given (null otherwise).

import { readdirSync, readFileSync } from "node:fs";
import { TableClient, odata } from "@azure/data-tables";

const SINGLE_OPS = 2000;
const BATCHES = 100;
const BATCH_SIZE = 100;

function parseArgs(argv) {
  let connectionString = "UseDevelopmentStorage=true";
  let serverPid = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--server-pid") {
      serverPid = argv[++i];
      if (!/^\d+$/.test(serverPid ?? "")) {
        throw new Error(`--server-pid \`${serverPid}\` is not a process id`);
      }
    } else {
      connectionString = argv[i];
    }
  }
  return { connectionString, serverPid };
}

// Another process's CPU time in milliseconds, measured the way the Rust example measures it:
// the scheduler's per-thread nanosecond counters, else /proc/PID/stat in 10 ms ticks.
function processCpuMs(pid) {
  try {
    let nanos = 0n;
    let any = false;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const text = readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8");
        nanos += BigInt(text.split(/\s+/)[0]);
        any = true;
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    if (any) return Number(nanos) / 1e6;
  } catch {
    // No per-thread counters: fall through to the coarse ones.
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 1).trim().split(/\s+/);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// This process's CPU time in milliseconds.
function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
}

function mark(serverPid) {
  return {
    wall: process.hrtime.bigint(),
    client: ownCpuMs(),
    server: serverPid === null ? null : processCpuMs(serverPid),
  };
}

function report(phase, unit, count, requests, start, serverPid) {
  const end = mark(serverPid);
  const seconds = Number(end.wall - start.wall) / 1e9;
  const serverMs =
    start.server === null ? null : Number(((end.server - start.server) / requests).toFixed(4));
  const line = {
    client: "@azure/data-tables",
    phase,
    unit,
    count,
    requests,
    seconds: Number(seconds.toFixed(4)),
    rate: Number((count / seconds).toFixed(1)),
    client_cpu_ms: Number(((end.client - start.client) / count).toFixed(4)),
    server_cpu_ms: serverMs,
  };
  console.log(JSON.stringify(line));
}

// The example's entity: a string, an Int64, a double and a boolean besides the keys. Doubles
// with no fractional part are marked as doubles, as the Rust side's serializer does, so that
// the service stores the same types.
function entity(partitionKey, i) {
  const ratio = i / 7;
  return {
    partitionKey,
    rowKey: String(i).padStart(6, "0"),
    Name: `name ${i}`,
    Count: BigInt(i),
    Ratio: Number.isInteger(ratio) ? { value: ratio, type: "Double" } : ratio,
    Flag: i % 2 === 0,
  };
}

async function main() {
  const { connectionString, serverPid } = parseArgs(process.argv.slice(2));
  const table = `perfnode${process.pid}`;
  const client = TableClient.fromConnectionString(connectionString, table, {
    allowInsecureConnection: true,
  });
  await client.createTable();

  let start = mark(serverPid);
  for (let i = 0; i < SINGLE_OPS; i++) {
    await client.createEntity(entity("ins", i));
  }
  report("insert", "op", SINGLE_OPS, SINGLE_OPS, start, serverPid);

  start = mark(serverPid);
  for (let i = 0; i < SINGLE_OPS; i++) {
    await client.getEntity("ins", String(i).padStart(6, "0"));
  }
  report("point-read", "op", SINGLE_OPS, SINGLE_OPS, start, serverPid);

  start = mark(serverPid);
  for (let b = 0; b < BATCHES; b++) {
    const actions = [];
    for (let i = 0; i < BATCH_SIZE; i++) {
      actions.push(["create", entity("scan", b * BATCH_SIZE + i)]);
    }
    await client.submitTransaction(actions);
  }
  report("transaction", "entity", BATCHES * BATCH_SIZE, BATCHES, start, serverPid);

  start = mark(serverPid);
  let seen = 0;
  let pages = 0;
  const query = { queryOptions: { filter: odata`PartitionKey eq ${"scan"}` } };
  for await (const page of client.listEntities(query).byPage()) {
    seen += page.length;
    pages += 1;
  }
  report("scan", "entity", seen, pages, start, serverPid);
  if (seen !== BATCHES * BATCH_SIZE) {
    throw new Error(`the scan read ${seen} entities, not ${BATCHES * BATCH_SIZE}`);
  }

  await client.deleteTable();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
