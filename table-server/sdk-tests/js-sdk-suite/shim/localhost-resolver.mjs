// vitest setup file: names under .localhost resolve to 127.0.0.1 (RFC 6761), so the tests can
// use a host-style account URL (https://devstoreaccount1.table.core.localhost:PORT/, and the
// SDK's -secondary host for service stats) without an /etc/hosts entry. Node's net and tls
// look names up through dns.lookup, which is wrapped here; other names are looked up as before.
import dns from "node:dns";

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  if (typeof hostname === "string" && /(^|\.)localhost\.?$/i.test(hostname)) {
    const cb = typeof options === "function" ? options : callback;
    const all = typeof options === "object" && options !== null && options.all;
    if (all) process.nextTick(cb, null, [{ address: "127.0.0.1", family: 4 }]);
    else process.nextTick(cb, null, "127.0.0.1", 4);
    return {};
  }
  return lookup.call(this, hostname, options, callback);
};
