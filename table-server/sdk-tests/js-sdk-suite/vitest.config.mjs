// vitest configuration for Microsoft's @azure/data-tables tests (test/public), run live. run.sh
// copies this file, shim/ and the tests into one work directory next to node_modules. The tests
// import the SDK as "@azure/data-tables" and its internals as "$internal/..." (in their repository
// both point at src/); here both point at the npm package's ESM build, the same files the
// package itself loads, so a spy on an internal (Uuid.generateUuid) reaches the SDK.
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import path from "node:path";

const work = path.dirname(fileURLToPath(import.meta.url));
const sdk = path.join(work, "node_modules/@azure/data-tables/dist/esm");

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@azure\/data-tables$/, replacement: path.join(sdk, "index.js") },
      { find: /^\$internal\/(.*)$/, replacement: `${sdk}/$1` },
      {
        find: /^@azure-tools\/test-credential$/,
        replacement: path.join(work, "shim/test-credential.mjs"),
      },
      {
        find: /^@azure-tools\/test-utils-vitest$/,
        replacement: path.join(work, "shim/test-utils-vitest.mjs"),
      },
    ],
  },
  test: {
    root: path.join(work, "sdk/tables/data-tables"),
    include: ["test/public/**/*.spec.ts"],
    globalSetup: [path.join(work, "shim/setup.mjs")],
    setupFiles: [path.join(work, "shim/localhost-resolver.mjs")],
    // The files share one account; run them one after another, as a live run against one
    // storage account does.
    fileParallelism: false,
    testTimeout: 120000,
    hookTimeout: 120000,
  },
});
