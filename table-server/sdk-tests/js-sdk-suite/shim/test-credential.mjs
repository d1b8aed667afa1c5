// Stand-in for @azure-tools/test-credential (Microsoft's internal package in azure-sdk-for-js,
// not published to npm), live mode only. In live mode theirs hands out a real Microsoft Entra ID
// credential (DefaultAzureCredential outside their pipelines); so does this one. With no Entra
// ID identity on the machine it fails to get a token, as theirs would.
import { DefaultAzureCredential } from "@azure/identity";

export function createLiveCredential() {
  return new DefaultAzureCredential();
}

export function createTestCredential() {
  return createLiveCredential();
}
