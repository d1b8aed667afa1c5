// Global setup for Microsoft's @azure/data-tables tests, standing in for their
// test/utils/setup.ts. Theirs asks Azure Resource Manager (a live credential, a subscription, a
// resource group) for the storage account's key and an account SAS, then hands the tests their
// connection settings through vitest's `provide`. Here the same settings are built from the
// environment of run.sh: the account URL of the server under test, its account name and key,
// an account connection string with that URL as TableEndpoint, and an account SAS signed with
// the key (one hour, every table permission, resource types sco, like theirs). Nothing else.
import { AzureNamedKeyCredential, generateAccountSas } from "@azure/data-tables";

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`run.sh should have set ${name}`);
  return value;
}

export default function setup({ provide }) {
  const endpoint = required("TABLES_URL");
  const accountName = required("ACCOUNT_NAME");
  const key = required("ACCOUNT_KEY");
  const sas = generateAccountSas(new AzureNamedKeyCredential(accountName, key), {
    expiresOn: new Date(Date.now() + 3600 * 1000),
    permissions: { query: true, write: true, delete: true, list: true, add: true, update: true },
    resourceTypes: "sco",
    services: { blob: true, file: true, queue: true, table: true },
  });
  provide("TABLES_URL", endpoint);
  provide("ALLOW_SHARED_KEY_ACCESS", true);
  provide("ACCOUNT_KEY", key);
  provide("ACCOUNT_NAME", accountName);
  provide("TEST_MODE", process.env.TEST_MODE?.toLowerCase());
  provide(
    "ACCOUNT_CONNECTION_STRING",
    `DefaultEndpointsProtocol=https;AccountName=${accountName};AccountKey=${key};TableEndpoint=${endpoint};`,
  );
  provide("SAS_CONNECTION_STRING", `TableEndpoint=${endpoint};SharedAccessSignature=${sas}`);
  provide("SAS_TOKEN", sas);
}
