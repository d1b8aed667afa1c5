// Reads the JSON lines run.sh keeps (one per client run and phase, each with the `round` and
// the `server` it ran against added) and prints, per concurrency, client and phase, the
// medians over the rounds of each server's requests per second and CPU time per request, the
// ratios of table-server (in memory, on disk) to Azurite, and which of the issue's targets
// are met:
//   1. table-server's CPU per request at most 1/10 of Azurite's, for every phase, client,
//      concurrency and storage;
//   2. with the highest concurrency measured (16), table-server's requests per second at
//      least 10 times Azurite's, for every phase, client and storage.
//
//   node summarize.mjs RESULTS.jsonl
//
// Exits with status 0 whether or not the targets are met: the table says which are.

import { readFileSync } from "node:fs";
import { cpus } from "node:os";

const SERVERS = [
  ["azurite", "Azurite"],
  ["memory", "table-server --in-memory"],
  ["disk", "table-server --data-dir"],
];
const CLIENTS = [
  ["table-http", "rust"],
  ["@azure/data-tables", "node"],
];
const PHASES = ["insert", "point-read", "transaction", "scan"];
const CPU_TARGET = 0.1;
const RATE_TARGET = 10;

function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function fixed(value, digits) {
  return value === null ? "-" : value.toFixed(digits);
}

function ratio(a, b) {
  return a === null || b === null || b === 0 ? null : a / b;
}

const lines = readFileSync(process.argv[2], "utf8")
  .split("\n")
  .filter((l) => l.trim().startsWith("{"))
  .map((l) => JSON.parse(l));

const rounds = new Set(lines.map((l) => l.round)).size;
const levels = [...new Set(lines.map((l) => l.concurrency))].sort((a, b) => a - b);
const top = levels[levels.length - 1];

function cell(server, client, concurrency, phase) {
  const runs = lines.filter(
    (l) =>
      l.server === server &&
      l.client === client &&
      l.concurrency === concurrency &&
      l.phase === phase,
  );
  return {
    runs: runs.length,
    reqRate: median(runs.map((l) => l.requests / l.seconds)),
    cpu: median(runs.map((l) => l.server_cpu_ms)),
    clientCpu: median(runs.map((l) => (l.client_cpu_ms * l.count) / l.requests)),
  };
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (cells) =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(format(header));
  console.log(format(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(format(row));
}

const misses = { cpu: [], rate: [] };
const checks = { cpu: 0, rate: 0 };
const rows = [];
for (const concurrency of levels) {
  for (const [client, short] of CLIENTS) {
    for (const phase of PHASES) {
      const [az, mem, disk] = SERVERS.map(([server]) => cell(server, client, concurrency, phase));
      if (az.runs === 0 && mem.runs === 0 && disk.runs === 0) continue;
      const cpuRatios = [ratio(mem.cpu, az.cpu), ratio(disk.cpu, az.cpu)];
      const rateRatios = [ratio(mem.reqRate, az.reqRate), ratio(disk.reqRate, az.reqRate)];
      ["memory", "disk"].forEach((storage, i) => {
        const group = `${short} c=${concurrency}`;
        checks.cpu += 1;
        if (cpuRatios[i] === null || cpuRatios[i] > CPU_TARGET) {
          misses.cpu.push([group, `${phase} ${storage} ${fixed(cpuRatios[i], 3)}`]);
        }
        if (concurrency === top) {
          checks.rate += 1;
          if (rateRatios[i] === null || rateRatios[i] < RATE_TARGET) {
            misses.rate.push([group, `${phase} ${storage} ${fixed(rateRatios[i], 1)}x`]);
          }
        }
      });
      rows.push([
        String(concurrency),
        short,
        phase,
        fixed(az.reqRate, 0),
        fixed(mem.reqRate, 0),
        fixed(disk.reqRate, 0),
        fixed(rateRatios[0], 2),
        fixed(rateRatios[1], 2),
        fixed(az.cpu, 4),
        fixed(mem.cpu, 4),
        fixed(disk.cpu, 4),
        fixed(cpuRatios[0], 3),
        fixed(cpuRatios[1], 3),
      ]);
    }
  }
}

console.log(
  `medians of ${rounds} round(s); servers: ${SERVERS.map(([k, name]) => `${k} = ${name}`).join(", ")}`,
);
console.log(
  "req/s: requests per second (a transaction is one request of 100 entities, a scan page one of 1,000);" +
    " CPU ms/req: the server process's CPU time per request",
);
table(
  [
    "conc",
    "client",
    "phase",
    "azurite req/s",
    "memory req/s",
    "disk req/s",
    "memory/az",
    "disk/az",
    "azurite CPU ms/req",
    "memory CPU ms/req",
    "disk CPU ms/req",
    "memory/az CPU",
    "disk/az CPU",
  ],
  rows,
);
console.log("");
// What the machine allows at the highest concurrency: with client and server on the same
// cores, requests per second cannot exceed cores / (client CPU + server CPU per request).
const cores = cpus().length;
const ceilingRows = [];
for (const [client, short] of CLIENTS) {
  for (const phase of PHASES) {
    const az = cell("azurite", client, top, phase);
    for (const storage of ["memory", "disk"]) {
      const c = cell(storage, client, top, phase);
      if (c.runs === 0) continue;
      const ceiling =
        c.cpu === null || c.clientCpu === null ? null : (cores * 1000) / (c.cpu + c.clientCpu);
      ceilingRows.push([
        short,
        phase,
        storage,
        fixed(c.reqRate, 0),
        fixed(c.clientCpu, 4),
        fixed(c.cpu, 4),
        fixed(ceiling, 0),
        fixed(ratio(ceiling, az.reqRate), 1),
      ]);
    }
  }
}
console.log(
  `at concurrency ${top}, client and server share ${cores} CPUs: at most ${cores} x 1000 / (client + server CPU ms per request) requests per second`,
);
table(
  [
    "client",
    "phase",
    "server",
    "req/s",
    "client CPU ms/req",
    "server CPU ms/req",
    "CPU-bound ceiling req/s",
    "ceiling/azurite req/s",
  ],
  ceilingRows,
);
console.log("");
// Prints whether a target is met, and every miss with its ratio, one line per client and
// concurrency.
const verdict = (name, list, total) => {
  if (total === 0) {
    console.log(`${name}: NOT MEASURED`);
    return;
  }
  if (list.length === 0) {
    console.log(`${name}: MET in all ${total}`);
    return;
  }
  console.log(`${name}: MISSED in ${list.length} of ${total}, met in ${total - list.length}`);
  const groups = new Map();
  for (const [group, miss] of list) groups.set(group, [...(groups.get(group) ?? []), miss]);
  for (const [group, items] of groups) console.log(`  ${group}: ${items.join(", ")}`);
};
verdict(
  `target 1, table-server CPU per request <= ${CPU_TARGET} x Azurite's (every phase, client, concurrency, storage)`,
  misses.cpu,
  checks.cpu,
);
verdict(
  `target 2, table-server requests per second >= ${RATE_TARGET} x Azurite's at concurrency ${top} (every phase, client, storage)`,
  top > 1 ? misses.rate : [],
  top > 1 ? checks.rate : 0,
);
const allMet = misses.cpu.length === 0 && misses.rate.length === 0 && checks.cpu > 0 && top > 1;
console.log(allMet ? "all targets met" : "some target missed");
