// A minimal round-robin reverse proxy in front of Gannet's split processes, for the benchmark
// only (`npm run bench -- --split`; a deployment puts nginx or Caddy there, docs/operations.md).
// Each request goes to the next web process in turn over kept-alive connections; the streaming
// API (its WebSocket upgrades and server-sent events) goes to the streaming process.
// Run as a process of its own (its CPU time counts in the split's CPU per request):
//   node bench/lib/front.ts PORT WEB_PORT[,WEB_PORT...] STREAMING_PORT
// It prints "front listening on PORT" once ready.
import { Agent, createServer, type IncomingHttpHeaders, request } from "node:http";
import { connect } from "node:net";

/** Headers that concern one connection only, not to be passed on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

function forwarded(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

const STREAMING = /^\/api\/v1\/streaming(\/|\?|$)/;

export function startFront(port: number, webPorts: number[], streamingPort: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 128 });
  let next = 0;
  const server = createServer((req, res) => {
    const backend = STREAMING.test(req.url ?? "") ? streamingPort : webPorts[next++ % webPorts.length];
    const out = request(
      { host: "127.0.0.1", port: backend, method: req.method, path: req.url, headers: forwarded(req.headers), agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwarded(answer.headers));
        answer.pipe(res);
      },
    );
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // The client gone before the answer was sent: drop the backend's request too.
    res.on("close", () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  // WebSocket upgrades: the request as it came, then bytes both ways.
  server.on("upgrade", (req, socket, head) => {
    const upstream = connect(streamingPort, "127.0.0.1", () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
}

if (import.meta.main) {
  const [port, webs, streaming] = process.argv.slice(2);
  if (!port || !webs || !streaming) throw new Error("usage: front.ts PORT WEB_PORT[,WEB_PORT...] STREAMING_PORT");
  await startFront(Number(port), webs.split(",").map(Number), Number(streaming));
  process.stdout.write(`front listening on ${port}\n`);
  process.once("SIGTERM", () => process.exit(0));
}
