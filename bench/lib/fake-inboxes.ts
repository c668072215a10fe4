// Run as its own process by bench/delivery.ts: N fake remote servers on loopback (one port each,
// so N domains `localhost:PORT`), each answering 202 to every POST and noting when an activity
// whose object is a given URI first arrived. A control port answers
// `GET /arrivals?object=URI` with `{"servers": how many got it, "lastMs": when the last did}`
// (Date.now() values). Prints `FAKE_INBOXES={"control":P,"ports":[...]}` once listening.
// `POST /mode` with `{"hang":[ports],"fail":[ports]}` makes those servers misbehave from then on:
// `hang` ones read the request and never answer (the sender's time-out ends it), `fail` ones
// answer 500; the others (and all, with empty lists) answer 202. `/arrivals?object=URI&ports=P,Q`
// counts only those servers.
import { createServer, type Server } from "node:http";

const count = Number(process.argv[2] ?? "100");
/** object URI → port → first arrival (ms). */
const arrivals = new Map<string, Map<number, number>>();
let posts = 0;
let hang = new Set<number>();
let fail = new Set<number>();
/** Requests left unanswered by hanging servers (ended when they time out on the sender's side). */
let hung = 0;
let failed = 0;

function objectOf(body: string): string | undefined {
  try {
    const json = JSON.parse(body) as { object?: unknown };
    const o = json.object;
    if (typeof o === "string") return o;
    if (o && typeof o === "object" && typeof (o as { id?: unknown }).id === "string") return (o as { id: string }).id;
  } catch {
    // not JSON: not counted
  }
  return undefined;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}

const ports: number[] = [];
for (let i = 0; i < count; i++) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const port = (req.socket.localPort ?? 0) as number;
      if (req.method === "POST" && hang.has(port)) {
        hung += 1;
        return;
      }
      if (req.method === "POST" && fail.has(port)) {
        failed += 1;
        res.writeHead(500).end();
        return;
      }
      if (req.method === "POST") {
        posts += 1;
        const object = objectOf(Buffer.concat(chunks).toString("utf8"));
        if (object) {
          let seen = arrivals.get(object);
          if (!seen) arrivals.set(object, (seen = new Map()));
          if (!seen.has(port)) seen.set(port, at);
        }
        res.writeHead(202).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  ports.push(await listen(server));
}

const control = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://control");
  if (req.method === "POST" && url.pathname === "/mode") {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const mode = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { hang?: number[]; fail?: number[] };
      hang = new Set(mode.hang ?? []);
      fail = new Set(mode.fail ?? []);
      res.writeHead(204).end();
    });
    return;
  }
  const only = url.searchParams.get("ports");
  const wanted = only ? new Set(only.split(",").map(Number)) : undefined;
  const seen = arrivals.get(url.searchParams.get("object") ?? "");
  const times = seen ? [...seen].filter(([p]) => !wanted || wanted.has(p)).map(([, t]) => t) : [];
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      servers: times.length,
      lastMs: times.length ? times.reduce((a, b) => Math.max(a, b)) : null,
      posts,
      hung,
      failed,
    }),
  );
});
const controlPort = await listen(control);
process.stdout.write(`FAKE_INBOXES=${JSON.stringify({ control: controlPort, ports })}\n`);
