// The volume and slow-server phases of bench/delivery.ts: many posts at once to many servers,
// counted as deliveries per second (POSTs the healthy fake servers received ÷ time until the last
// arrived), then the same with some servers hanging until the sender's time-out and some answering
// 500, to see how much the healthy ones are delayed.
import { sleep } from "./children.ts";
import { get, send } from "./http.ts";
import { cpuTicks, mainThreadCpuTicks } from "./proc.ts";

export interface Burst {
  posts: number;
  /** Servers counted (the healthy ones). */
  servers: number;
  /** From the first POST /api/v1/statuses to the last counted server having the last post. */
  ms: number | null;
  deliveriesPerSecond: number | null;
  /** Server CPU (all threads) per counted delivery, in ms. */
  cpuMsPerDelivery: number;
  /** The server's main thread's CPU (the JavaScript) per counted delivery, in ms. */
  mainCpuMsPerDelivery: number;
}

/** Waits until `ports` all got the Create of `uri`; the time the last one did (ms), or null. */
export async function arrivalAt(
  control: string,
  uri: string,
  ports: number[],
  limitMs: number,
): Promise<number | null> {
  const end = Date.now() + limitMs;
  const q = `${control}/arrivals?object=${encodeURIComponent(uri)}&ports=${ports.join(",")}`;
  for (;;) {
    const r = JSON.parse((await get(q)).body.toString("utf8"));
    if (r.servers >= ports.length) return r.lastMs as number;
    if (Date.now() > end) return null;
    await sleep(20);
  }
}

/**
 * Sends `posts` statuses one after the other without waiting for their delivery, then waits
 * until every server of `ports` has all of them.
 */
export async function burst(
  origin: string,
  control: string,
  headers: Record<string, string>,
  posts: number,
  ports: number[],
  serverPid: number,
  ticksPerSecond: number,
  label: string,
): Promise<Burst> {
  const ticks = cpuTicks(serverPid);
  const mainTicks = mainThreadCpuTicks(serverPid);
  const sentAt = Date.now();
  const uris: string[] = [];
  for (let i = 0; i < posts; i++) {
    const body = JSON.stringify({ status: `${label} ${i}` });
    const res = await send(`${origin}/api/v1/statuses`, "POST", headers, body);
    if (res.status !== 200) throw new Error(`POST /api/v1/statuses answered ${res.status}: ${res.body}`);
    uris.push(JSON.parse(res.body.toString("utf8")).uri as string);
  }
  let last = 0;
  let complete = true;
  for (const uri of uris) {
    const at = await arrivalAt(control, uri, ports, 180_000);
    if (at === null) {
      complete = false;
      break;
    }
    last = Math.max(last, at);
  }
  const deliveries = posts * ports.length;
  const cpuMs = ((cpuTicks(serverPid) - ticks) * 1000) / ticksPerSecond;
  const mainCpuMs = ((mainThreadCpuTicks(serverPid) - mainTicks) * 1000) / ticksPerSecond;
  const ms = complete ? last - sentAt : null;
  return {
    posts,
    servers: ports.length,
    ms,
    deliveriesPerSecond: ms === null ? null : (deliveries * 1000) / Math.max(1, ms),
    cpuMsPerDelivery: cpuMs / deliveries,
    mainCpuMsPerDelivery: mainCpuMs / deliveries,
  };
}

/** Makes the fake servers of `hang` never answer and those of `fail` answer 500 (empty: all healthy). */
export async function setMode(control: string, hang: number[], fail: number[]): Promise<void> {
  await send(`${control}/mode`, "POST", {}, JSON.stringify({ hang, fail }));
}
