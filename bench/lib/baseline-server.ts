// The bare `node:http` baseline: answers every request with a fixed body chosen by the path.
// Usage: baseline-server.ts PORT CONTENT_TYPE BODY_FILE...; `/N` serves the N-th body (`/` the
// first). Prints "ready" once listening.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, contentType, ...bodyFiles] = process.argv.slice(2);
const answers = bodyFiles.map((file) => {
  const body = readFileSync(file);
  return { body, headers: { "Content-Type": contentType, "Content-Length": String(body.length) } };
});

const server = createServer((req, res) => {
  const answer = answers[Number(req.url?.slice(1)) || 0] ?? answers[0];
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
