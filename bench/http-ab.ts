// Development helper: server CPU per request over HTTP for one or more checkouts on an existing
// seeded data directory, taking turns (the machine is shared; compare within one run).
//   DATA_DIR=/tmp/x READER_TOKEN=... AUTHOR_ID=... node bench/http-ab.ts DIR [DIR...]
//   BENCH_ONLY=home  BENCH_DURATION=5  BENCH_CONNECTIONS=10  BENCH_ROUNDS=2
//   HTTP_AB_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p"   more flags for the servers' node
//   BENCH_ONLY=home-page: the web client's `/home` for the reader, signed in through the sign-in form
//   BENCH_ONLY=page,rss: the author's profile page, one of its posts' (STATUS_ID) and a hashtag's
//   feed (TAG), anonymously
import { join } from "node:path";
import { freePort, NODE, sleep, startChild, stopChild } from "./lib/children.ts";
import { signInReader } from "./lib/client-home.ts";
import { waitUntilAnswering } from "./lib/http.ts";
import { runLoad } from "./lib/load.ts";
import { clockTicksPerSecond } from "./lib/proc.ts";

const dirs = process.argv.slice(2);
const only = process.env.BENCH_ONLY?.split(",");
const paths: Record<string, string> = {
  home: "/api/v1/timelines/home?limit=40",
  local: "/api/v1/timelines/public?local=true&limit=40",
  account: `/api/v1/accounts/${process.env.AUTHOR_ID}/statuses?limit=40`,
  notifications: "/api/v1/notifications?limit=40",
  "home-page": "/home",
  // The web pages as an anonymous browser asks them (bench/lib/web-pages.ts).
  "profile-page": "/@author",
  ...(process.env.STATUS_ID ? { "status-page": `/@author/${process.env.STATUS_ID}` } : {}),
  rss: `/tags/${encodeURIComponent(process.env.TAG ?? "x")}.rss`,
};
/** Asked without a token or cookie. */
const ANONYMOUS = new Set(["profile-page", "status-page", "rss"]);
const ticks = clockTicksPerSecond();
const results = new Map<string, number[]>();
for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 2); round++) {
  for (const dir of dirs) {
    const port = await freePort();
    const server = startChild(
      NODE,
      [
        "--max-semi-space-size=4",
        "--no-allocation-site-pretenuring",
        ...(process.env.HTTP_AB_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
        join(dir, "src/main.ts"),
      ],
      {
        env: { ...process.env, PORT: String(port), LOG_LEVEL: "warning" },
      },
    );
    const origin = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(`${origin}/api/v1/instance`, server, performance.now());
    for (const [name, path] of Object.entries(paths)) {
      if (only && !only.some((w) => name.includes(w))) continue;
      const headers: Record<string, string> = ANONYMOUS.has(name)
        ? {}
        : name === "home-page"
          ? { cookie: await signInReader(origin) }
          : { Authorization: `Bearer ${process.env.READER_TOKEN}` };
      const [run] = await runLoad(
        {
          url: `${origin}${path}`,
          headers,
          connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
          warmupSeconds: 2,
          durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
          runs: 1,
        },
        server.process.pid as number,
        ticks,
      );
      const key = `${name} ${dir}`;
      results.set(key, [...(results.get(key) ?? []), run.cpuUsPerRequest]);
      console.log(
        `${key}: ${Math.round(run.cpuUsPerRequest)} µs CPU/req (${Math.round(run.mainCpuUsPerRequest)} main thread), ${Math.round(run.okRps)} req/s, p99 ${run.p99Ms} ms`,
      );
    }
    await stopChild(server);
    await sleep(200);
  }
}
for (const [key, v] of results) console.log(`min ${key}: ${Math.round(Math.min(...v))} µs CPU/req`);
