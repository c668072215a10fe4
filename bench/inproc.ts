// In-process CPU per request of verify_credentials and the timeline endpoints on a seeded data
// directory (no HTTP, no load generator), for development of the read paths; `npm run bench` is
// the reference. `instance` (no token, no query) is the floor of the HTTP layer in this harness.
//   DATA_DIR=/tmp/x READER_TOKEN=... AUTHOR_ID=... AUTHOR_TOKEN=... [TAG=...] [LIST_ID=...] node bench/inproc.ts [requests]
//   BENCH_ONLY=verify,home,local   COUNT_QUERIES=1 (queries per request, time per statement)
//   BENCH_ONLY=home-page: the web client's `/home` for the reader, signed in through the sign-in form
//   SHOW_SQL=1   DUMP_DIR=/tmp/d (writes each body, to compare two versions)
import { writeFileSync } from "node:fs";
import { getRequestListener } from "@hono/node-server";
import { loadConfig, readEnvironment } from "../src/config/index.ts";
import { createContext } from "../src/context.ts";
import { createApp, handlerFor } from "../src/http/app.ts";

const n = Number(process.argv[2] ?? 300);
const only = process.env.BENCH_ONLY?.split(",");
// As in `npm run bench` (and without node-server there is no peer address to exempt loopback by).
process.env.RATE_LIMITS ??= "off";
// As the server (src/server.ts): node-server's lighter Request and Response in place of the global
// ones, and the body taken as node-server takes it (from the Response's kept parts, not decoded).
getRequestListener(() => new Response(null));
const bodyOf = async (r: Response): Promise<string | Uint8Array> => {
  const cache = Object.getOwnPropertySymbols(r).find((k) => k.description === "cache");
  const kept = cache === undefined ? undefined : (r as unknown as Record<symbol, unknown[]>)[cache]?.[1];
  return typeof kept === "string" || kept instanceof Uint8Array ? kept : new Uint8Array(await r.arrayBuffer());
};
const ctx = await createContext(loadConfig(readEnvironment()));
const handler = handlerFor(createApp(), ctx);
// The peer's socket as node-server hands it (getConnInfo, the client IP a web session records).
const peer = { incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 40000, remoteFamily: "IPv4" } } };
const fetch = (request: Request) => handler(request, peer);
const auth = { Authorization: `Bearer ${process.env.READER_TOKEN}` };

/** The reader's browser session cookie, through the sign-in form (as bench/lib/client-home.ts, in process). */
async function readerCookie(): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const form = await fetch(new Request("http://localhost/auth/sign_in"));
  keep(form);
  const csrf = /name="authenticity_token" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const done = await fetch(
    new Request("http://localhost/auth/sign_in", {
      method: "POST",
      headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        authenticity_token: csrf,
        email: "reader@bench.example",
        password: "benchmark-password",
      }),
    }),
  );
  if (done.status !== 302 && done.status !== 303) throw new Error(`signing the reader in answered ${done.status}`);
  keep(done);
  return cookie();
}
const browser: Record<string, string> =
  !only || only.some((w) => "home-page".includes(w)) ? { cookie: await readerCookie() } : {};
const paths: Record<string, string> = {
  instance: "/api/v1/instance",
  verify: "/api/v1/accounts/verify_credentials",
  home: "/api/v1/timelines/home?limit=40",
  "home-page": "/home",
  // Two pages taking turns: each request differs from the reader's last page, so it is rendered
  // from the kept parts instead of sent again as it was (services/statuses/rendered.ts).
  "home-alternating": "/api/v1/timelines/home?limit=40|/api/v1/timelines/home?limit=39",
  local: "/api/v1/timelines/public?local=true&limit=40",
  account: `/api/v1/accounts/${process.env.AUTHOR_ID}/statuses?limit=40`,
  federated: "/api/v1/timelines/public?limit=40",
  tag: `/api/v1/timelines/tag/${process.env.TAG ?? "x"}?limit=40`,
  list: `/api/v1/timelines/list/${process.env.LIST_ID ?? "0"}?limit=40`,
  favourites: "/api/v1/favourites?limit=40",
  bookmarks: "/api/v1/bookmarks?limit=40",
  notifications: "/api/v1/notifications?limit=40",
  "notifications-v2": "/api/v2/notifications?limit=40",
  conversations: "/api/v1/conversations?limit=40",
  // Posting as the author (jobs are queued, not run: there are no workers in this harness).
  post: "POST /api/v1/statuses",
};
let queries = 0;
const timing = new Map<string, number>();
const count = process.env.COUNT_QUERIES === "1";
if (count) {
  const db = ctx.db as unknown as { getExecutor(): { executeQuery: (...a: unknown[]) => Promise<unknown> } };
  const ex = db.getExecutor();
  const orig = ex.executeQuery.bind(ex);
  ex.executeQuery = async (...a: unknown[]) => {
    queries++;
    const sql = (a[0] as { sql: string }).sql.replace(/\s+/g, " ").slice(0, 100);
    if (process.env.SHOW_SQL === "1") console.log(sql);
    const t = performance.now();
    const v = await orig(...a);
    timing.set(sql, (timing.get(sql) ?? 0) + performance.now() - t);
    return v;
  };
}
for (const [name, path] of Object.entries(paths)) {
  if (only && !only.some((w) => name.includes(w))) continue;
  const turns = path.split("|");
  let turn = 0;
  const post = path.startsWith("POST ");
  const get = async () =>
    post
      ? bodyOf(
          await fetch(
            new Request(`http://localhost${path.slice(5)}`, {
              method: "POST",
              headers: {
                Authorization: `Bearer ${process.env.AUTHOR_TOKEN}`,
                "Content-Type": "application/json",
              },
              body: JSON.stringify({ status: "Benchmark post #bench", visibility: "public" }),
            }),
          ),
        )
      : bodyOf(
          await fetch(
            new Request(`http://localhost${turns[turn++ % turns.length]}`, {
              headers: name === "home-page" ? browser : auth,
            }),
          ),
        );
  let body: string | Uint8Array = "";
  for (let i = 0; i < 30; i++) body = await get();
  if (process.env.DUMP_DIR) writeFileSync(`${process.env.DUMP_DIR}/${name}.json`, body);
  queries = 0;
  await get();
  const perRequest = queries;
  timing.clear();
  // The least CPU per request over 5 batches: the machine is shared, the minimum is the steadiest figure.
  let best = Number.POSITIVE_INFINITY;
  let bestMain = Number.POSITIVE_INFINITY;
  const w0 = performance.now();
  const batch = Math.max(1, Math.floor(n / 5));
  for (let b = 0; b < 5; b++) {
    const t0 = process.cpuUsage();
    const th0 = process.threadCpuUsage();
    for (let i = 0; i < batch; i++) await get();
    const cpu = process.cpuUsage(t0);
    const th = process.threadCpuUsage(th0);
    best = Math.min(best, (cpu.user + cpu.system) / batch);
    bestMain = Math.min(bestMain, (th.user + th.system) / batch);
  }
  const wall = (performance.now() - w0) / (5 * batch);
  if (count)
    for (const [q, t] of [...timing].sort((x, y) => y[1] - x[1]))
      console.log(`${((t * 1000) / (5 * batch)).toFixed(0).padStart(5)} µs ${q}`);
  console.log(
    `${name}: ${best.toFixed(0)} µs CPU/req (${bestMain.toFixed(0)} main thread), ${(wall * 1000).toFixed(0)} µs wall, ${body.length} B${count ? `, ${perRequest} queries` : ""}`,
  );
}
await ctx.close();
