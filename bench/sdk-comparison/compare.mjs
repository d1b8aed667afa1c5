// The workload of table-http's `throughput` example, done through Microsoft's Node SDK
// (@azure/data-tables), so that the two can be compared against the same service.
//
//   node compare.mjs CONNECTION_STRING [--server-pid PID] [--concurrency N] [--ops N] [--batches N]
//
// Same table layout, entity shape, counts, options and order as
// table-http/examples/throughput.rs: per worker, `--ops` (2,000) sequential inserts into the
// worker's partition, as many sequential point reads of them, `--batches` (100) sequential
// transactions of 100 inserts into the worker's scan partition, then a scan of that partition
// page by page. Every call is awaited before the worker's next one starts. With
// `--concurrency N` (default 1), N such workers run at once as async loops on one TableClient
// (one connection pool), each in its own partitions (`ins00`, `scan00`, `ins01`, ...; with one
// worker, `ins` and `scan`); a phase ends when the last worker is done.
//
// Prints one JSON line per phase, in the example's format: `rate` is units per second,
// `client_cpu_ms` this process's CPU time (process.cpuUsage(), user + system) per unit, and
// `server_cpu_ms` the server process's CPU time per HTTP request, read from /proc when
// `--server-pid` is given (null otherwise).

import { readdirSync, readFileSync } from "node:fs";
import { TableClient, odata } from "@azure/data-tables";

const BATCH_SIZE = 100;

function parseArgs(argv) {
  const options = {
    connectionString: "UseDevelopmentStorage=true",
    serverPid: null,
    concurrency: 1,
    ops: 2000,
    batches: 100,
  };
  const number = (name, value) => {
    if (!/^[1-9]\d*$/.test(value ?? "")) {
      throw new Error(`${name} \`${value}\` is not a positive number`);
    }
    return Number(value);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--server-pid") {
      options.serverPid = argv[++i];
      if (!/^\d+$/.test(options.serverPid ?? "")) {
        throw new Error(`--server-pid \`${options.serverPid}\` is not a process id`);
      }
    } else if (arg === "--concurrency") {
      options.concurrency = number(arg, argv[++i]);
    } else if (arg === "--ops") {
      options.ops = number(arg, argv[++i]);
    } else if (arg === "--batches") {
      options.batches = number(arg, argv[++i]);
    } else if (arg.startsWith("--")) {
      throw new Error(`unknown option \`${arg}\``);
    } else {
      options.connectionString = arg;
    }
  }
  return options;
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

function report(phase, unit, concurrency, { count, requests }, start, serverPid) {
  const end = mark(serverPid);
  const seconds = Number(end.wall - start.wall) / 1e9;
  const serverMs =
    start.server === null ? null : Number(((end.server - start.server) / requests).toFixed(4));
  const line = {
    client: "@azure/data-tables",
    concurrency,
    phase,
    unit,
    count,
    requests,
    seconds: Number(seconds.toFixed(4)),
    rate: Number((count / seconds).toFixed(1)),
    client_cpu_ms: Number(((end.client - start.client) / count).toFixed(6)),
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

// A worker's partition: the base name alone with one worker, else with the worker's number.
function partition(base, worker, concurrency) {
  return concurrency === 1 ? base : `${base}${String(worker).padStart(2, "0")}`;
}

// Runs `work(worker)` for every worker at once; resolves to the units and requests they did.
async function runPhase(concurrency, work) {
  const done = await Promise.all(Array.from({ length: concurrency }, (_, w) => work(w)));
  return {
    count: done.reduce((sum, d) => sum + d.count, 0),
    requests: done.reduce((sum, d) => sum + d.requests, 0),
  };
}

async function main() {
  const { connectionString, serverPid, concurrency, ops, batches } = parseArgs(
    process.argv.slice(2),
  );
  const table = `perfnode${process.pid}`;
  const client = TableClient.fromConnectionString(connectionString, table, {
    allowInsecureConnection: true,
  });
  await client.createTable();

  let start = mark(serverPid);
  let done = await runPhase(concurrency, async (w) => {
    const pk = partition("ins", w, concurrency);
    for (let i = 0; i < ops; i++) {
      await client.createEntity(entity(pk, i));
    }
    return { count: ops, requests: ops };
  });
  report("insert", "op", concurrency, done, start, serverPid);

  start = mark(serverPid);
  done = await runPhase(concurrency, async (w) => {
    const pk = partition("ins", w, concurrency);
    for (let i = 0; i < ops; i++) {
      await client.getEntity(pk, String(i).padStart(6, "0"));
    }
    return { count: ops, requests: ops };
  });
  report("point-read", "op", concurrency, done, start, serverPid);

  start = mark(serverPid);
  done = await runPhase(concurrency, async (w) => {
    const pk = partition("scan", w, concurrency);
    for (let b = 0; b < batches; b++) {
      const actions = [];
      for (let i = 0; i < BATCH_SIZE; i++) {
        actions.push(["create", entity(pk, b * BATCH_SIZE + i)]);
      }
      await client.submitTransaction(actions);
    }
    return { count: batches * BATCH_SIZE, requests: batches };
  });
  report("transaction", "entity", concurrency, done, start, serverPid);

  start = mark(serverPid);
  done = await runPhase(concurrency, async (w) => {
    const pk = partition("scan", w, concurrency);
    let count = 0;
    let requests = 0;
    const query = { queryOptions: { filter: odata`PartitionKey eq ${pk}` } };
    for await (const page of client.listEntities(query).byPage()) {
      count += page.length;
      requests += 1;
    }
    if (count !== batches * BATCH_SIZE) {
      throw new Error(`the scan of \`${pk}\` read ${count} entities, not ${batches * BATCH_SIZE}`);
    }
    return { count, requests };
  });
  report("scan", "entity", concurrency, done, start, serverPid);

  await client.deleteTable();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
