// The bare `node:http` baseline: answers every request with one fixed body.
// Usage: baseline-server.ts PORT BODY_FILE CONTENT_TYPE; prints "ready" once listening.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, bodyFile, contentType] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { "Content-Type": contentType, "Content-Length": String(body.length) };

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
