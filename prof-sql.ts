import { StatementSync } from "node:sqlite";
import { startTestServer } from "./test/helpers/server.ts";
import { signIn } from "./test/helpers/web.ts";
const s = await startTestServer();
const reader = await s.createUser("reader");
const author = await s.createUser("author");
await s.follow(reader, author);
for (let i = 0; i < 45; i++) await s.request("/api/v1/statuses", { method: "POST", token: author.token, json: { status: `Post ${i}` } });
await s.settle({ allowDead: true });
const web = await signIn(s, reader);
await web.get("/home"); await web.get("/home");
const stats = new Map<string, { n: number; us: number }>();
for (const m of ["all", "get", "run", "iterate"] as const) {
  const orig = (StatementSync.prototype as any)[m];
  (StatementSync.prototype as any)[m] = function (...args: unknown[]) {
    const t = process.hrtime.bigint();
    try { return orig.apply(this, args); } finally {
      const k = `${m}: ${(this as any).sourceSQL.slice(0, 160)}`;
      const e = stats.get(k) ?? { n: 0, us: 0 };
      e.n++; e.us += Number(process.hrtime.bigint() - t) / 1000;
      stats.set(k, e);
    }
  };
}
for (let i = 0; i < 20; i++) await web.get("/home");
for (const [k, v] of [...stats].sort((a, b) => b[1].us - a[1].us)) console.log((v.n / 20).toFixed(1), (v.us / 20).toFixed(0) + "us", k);
await s.close();
process.exit(0);
