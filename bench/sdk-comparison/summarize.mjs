// Reads the JSON lines written by the two clients (one per phase and run, each with a
// `round` field added by run.sh) and prints, per phase, the median of each client's rounds
// and the ratios the issue sets targets for:
//   rate ratio = table-http rate / SDK rate           (target: at least 1)
//   CPU ratio  = table-http CPU per unit / SDK's      (target: at most 1/3)
//
//   node summarize.mjs RESULTS.jsonl

import { readFileSync } from "node:fs";

const RUST = "table-http";
const NODE = "@azure/data-tables";
const PHASES = ["insert", "point-read", "transaction", "scan"];

function median(values) {
  const sorted = values.filter((v) => v !== null && v !== undefined).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function fixed(value, digits) {
  return value === null ? "-" : value.toFixed(digits);
}

const lines = readFileSync(process.argv[2], "utf8")
  .split("\n")
  .filter((l) => l.trim().startsWith("{"))
  .map((l) => JSON.parse(l));

const rounds = new Set(lines.map((l) => l.round)).size;
const stat = (client, phase, field) =>
  median(lines.filter((l) => l.client === client && l.phase === phase).map((l) => l[field]));

const header = [
  "phase",
  "unit",
  "rust/s",
  "sdk/s",
  "rate ratio",
  "rust s",
  "sdk s",
  "rust CPU ms",
  "sdk CPU ms",
  "CPU ratio",
  "azurite ms/req rust",
  "azurite ms/req sdk",
];
const rows = [];
let met = true;
for (const phase of PHASES) {
  const unit = lines.find((l) => l.phase === phase)?.unit ?? "?";
  const [rRate, nRate] = [stat(RUST, phase, "rate"), stat(NODE, phase, "rate")];
  const [rCpu, nCpu] = [stat(RUST, phase, "client_cpu_ms"), stat(NODE, phase, "client_cpu_ms")];
  const rateRatio = rRate !== null && nRate ? rRate / nRate : null;
  const cpuRatio = rCpu !== null && nCpu ? rCpu / nCpu : null;
  if (rateRatio === null || rateRatio < 1 || cpuRatio === null || cpuRatio > 1 / 3) met = false;
  rows.push([
    phase,
    unit,
    fixed(rRate, 0),
    fixed(nRate, 0),
    fixed(rateRatio, 2),
    fixed(stat(RUST, phase, "seconds"), 3),
    fixed(stat(NODE, phase, "seconds"), 3),
    fixed(rCpu, 4),
    fixed(nCpu, 4),
    fixed(cpuRatio, 3),
    fixed(stat(RUST, phase, "server_cpu_ms"), 3),
    fixed(stat(NODE, phase, "server_cpu_ms"), 3),
  ]);
}

const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const format = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
console.log(`medians of ${rounds} round(s); rate ratio target >= 1, CPU ratio target <= 0.333`);
console.log(format(header));
console.log(format(widths.map((w) => "-".repeat(w))));
for (const row of rows) console.log(format(row));
console.log(met ? "all targets met" : "some target missed");
