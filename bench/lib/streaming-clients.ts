// Run as its own process by bench/streaming.ts: CLIENTS WebSocket clients of URL (tokens taken in
// turn from TOKENS_FILE), each subscribed to `public:local` by `?stream=`. Prints `READY` once
// every socket is open and its subscription confirmed (an answer to a later message). Then, for
// each line `WAIT <status id> <sent at, epoch ms>` on stdin, waits until every client has that
// status's `update` (or 60 s) and prints `RESULT {...}`: the open sockets and every client's
// delivery time in ms.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import WebSocket from "ws";

const url = process.env.URL as string;
const clients = Number(process.env.CLIENTS ?? "10000");
/** Where this process starts in the token list (several client processes share one). */
const offset = Number(process.env.OFFSET ?? "0");
const tokens = readFileSync(process.env.TOKENS_FILE as string, "utf8")
  .split("\n")
  .filter(Boolean);
const now = () => performance.timeOrigin + performance.now();

/** Arrival time (epoch ms) of each status id, per client. */
const arrivals: Map<string, number>[] = [];
const sockets: WebSocket[] = [];

function open(i: number): Promise<void> {
  const token = tokens[(offset + i) % tokens.length] as string;
  const ws = new WebSocket(`${url}/api/v1/streaming?stream=public:local`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const seen = new Map<string, number>();
  arrivals[i] = seen;
  sockets[i] = ws;
  return new Promise((resolve, reject) => {
    let confirmed = false;
    ws.on("message", (data: Buffer) => {
      const at = now();
      const text = data.toString("utf8");
      if (!confirmed) {
        if (text.includes('"error"')) {
          confirmed = true;
          resolve();
        }
        return;
      }
      // The status id is the payload's first "id" (a string inside the payload string).
      const m = /\\"id\\":\\"(\d+)\\"/.exec(text);
      if (m?.[1] && !seen.has(m[1])) seen.set(m[1], at);
    });
    ws.once("open", () => ws.send(JSON.stringify({ type: "subscribe", stream: "nonsense" })));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
  });
}

// Opened 100 at a time: a connection storm of 10,000 at once measures the kernel's accept queue.
for (let from = 0; from < clients; from += 100) {
  const batch = [];
  for (let i = from; i < Math.min(clients, from + 100); i++) batch.push(open(i));
  await Promise.all(batch);
}
process.stdout.write("READY\n");

for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, id, sentAt] = line.trim().split(" ");
  if (cmd === "CLOSE") break;
  if (cmd !== "WAIT" || !id || !sentAt) continue;
  const end = Date.now() + 60_000;
  while (arrivals.some((a) => !a.has(id)) && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  const times = arrivals.flatMap((a) => {
    const t = a.get(id);
    return t === undefined ? [] : [t - Number(sentAt)];
  });
  const open = sockets.filter((s) => s.readyState === WebSocket.OPEN).length;
  // Every delivery time (rounded to 0.1 ms): the driver merges several client processes.
  process.stdout.write(`RESULT ${JSON.stringify({ open, times: times.map((t) => Math.round(t * 10) / 10) })}\n`);
}
for (const s of sockets) s.terminate();
process.exit(0);
