// Throwaway profiling harness (not committed): a test server, a reader following an author with 60 posts,
// a signed-in session, then autocannon against /home from a child process while this process profiles.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { startTestServer } from "./test/helpers/server.ts";
import { signIn } from "./test/helpers/web.ts";

const s = await startTestServer();
const reader = await s.createUser("reader");
const author = await s.createUser("author");
await s.follow(reader, author);
for (let i = 0; i < 60; i++) {
  await s.request("/api/v1/statuses", { method: "POST", token: author.token, json: { status: `Post number ${i} with a #tag and a link https://example.com/${i}`, spoiler_text: i % 7 === 0 ? "cw" : "" } });
}
await s.settle({ allowDead: true });
const web = await signIn(s, reader);
const first = await web.get("/home");
console.log("status", first.status, "bytes", first.body.length);
const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
console.log("cookie", cookie.slice(0, 40));
const run = (sec: number) => promisify(execFile)("node_modules/.bin/autocannon", ["-j", "-c", "20", "-d", String(sec), "-H", `cookie=${cookie}`, `${s.url}/home`], { maxBuffer: 1e7 });
await run(3);
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.start");
const t0 = process.cpuUsage();
const out = await run(8);
const cpu = process.cpuUsage(t0);
const { profile } = await session.post("Profiler.stop");
writeFileSync("/tmp/home.cpuprofile", JSON.stringify(profile));
const j = JSON.parse(out.stdout);
const reqs = j.requests.total;
console.log("rps", j.requests.average, "p99", j.latency.p99, "non2xx", j.non2xx);
console.log("requests", reqs, "cpu us/req", ((cpu.user + cpu.system) / reqs).toFixed(0));
await s.close();
process.exit(0);
