// A TLS front for a plain-HTTP server: node tls-proxy.js LISTEN_PORT TARGET_PORT CERT KEY.
// Bytes are passed through untouched in both directions, on 127.0.0.1 only.
const tls = require("tls");
const net = require("net");
const fs = require("fs");
const [, , listen, target, cert, key] = process.argv;
tls
  .createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, (client) => {
    const upstream = net.connect(Number(target), "127.0.0.1");
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  })
  .listen(Number(listen), "127.0.0.1", () => console.log(`tls ${listen} -> ${target}`));
