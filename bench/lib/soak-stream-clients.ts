// Run as its own process by bench/soak.ts: CLIENTS WebSocket clients of URL, tokens taken in turn
// from TOKENS_FILE, every other one on the `user` stream and the rest on `public`. Prints `READY`
// once every socket is open. A socket the server closes or breaks counts as a disconnect (and an
// error event as an error) and is opened again a second later, so the load stays the same. Each
// line `REPORT` on stdin prints `REPORT {...}`: the open sockets and the counts so far (events by
// stream, disconnects, errors, reconnections); `CLOSE` closes every socket and ends the process.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import WebSocket from "ws";

const url = process.env.URL as string;
const clients = Number(process.env.CLIENTS ?? "300");
const tokens = readFileSync(process.env.TOKENS_FILE as string, "utf8")
  .split("\n")
  .filter(Boolean);

const counts = { events: { user: 0, public: 0 }, disconnects: 0, errors: 0, refused: 0, reconnections: 0 };
const sockets: (WebSocket | undefined)[] = [];
let closing = false;

function open(i: number, first: boolean): Promise<void> {
  const stream = i % 2 === 0 ? "user" : "public";
  const token = tokens[i % tokens.length] as string;
  const ws = new WebSocket(`${url}/api/v1/streaming?stream=${stream}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  sockets[i] = ws;
  if (!first) counts.reconnections++;
  return new Promise((resolve) => {
    let opened = false;
    ws.on("message", (data: Buffer) => {
      // Mastodon's frames: {"stream":[...],"event":"update","payload":"..."}.
      if (data.includes('"event"')) counts.events[stream]++;
    });
    ws.once("open", () => {
      opened = true;
      resolve();
    });
    ws.on("error", () => {
      counts.errors++;
    });
    ws.once("unexpected-response", (_req, res) => {
      counts.refused++;
      res.resume();
      ws.terminate();
    });
    ws.once("close", () => {
      if (!opened) resolve();
      if (closing) return;
      counts.disconnects++;
      setTimeout(() => {
        if (!closing) void open(i, false);
      }, 1000);
    });
  });
}

// Opened 50 at a time: a connection storm measures the kernel's accept queue, not the server.
for (let from = 0; from < clients; from += 50) {
  const batch = [];
  for (let i = from; i < Math.min(clients, from + 50); i++) batch.push(open(i, true));
  await Promise.all(batch);
}
process.stdout.write("READY\n");

for await (const line of createInterface({ input: process.stdin })) {
  const cmd = line.trim();
  if (cmd === "CLOSE") break;
  if (cmd !== "REPORT") continue;
  const open = sockets.filter((s) => s?.readyState === WebSocket.OPEN).length;
  process.stdout.write(`REPORT ${JSON.stringify({ open, ...counts })}\n`);
}
closing = true;
for (const s of sockets) s?.terminate();
process.exit(0);
