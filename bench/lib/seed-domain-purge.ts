// Run as its own process by bench/domain-purge.ts before the server starts: migrates DATA_DIR,
// creates the reader (a confirmed user with a token) and an Owner (a token with admin scopes),
// then, straight through the database, ACCOUNTS remote accounts on purge.example with
// STATUSES_PER_ACCOUNT posts each, 200 accounts on calm.example with 5 posts each, the reader
// following 200 of the doomed accounts and all the calm ones (counted), and the reader's home feed
// holding every post of the accounts it follows. Prints `READER_TOKEN=...` and `ADMIN_TOKEN=...`.
import { loadConfig } from "../../src/config/index.ts";
import { createContext } from "../../src/context.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";
import { bulkInsert, Ids, iso } from "./bulk-insert.ts";

const ACCOUNTS = Number(process.env.PURGE_ACCOUNTS ?? "1000");
const PER_ACCOUNT = Number(process.env.PURGE_STATUSES_PER_ACCOUNT ?? "20");
const CALM = 200;
const FOLLOWED = 200;

const ctx = await createContext(loadConfig({ ...process.env }));
try {
  const app = await cliApplication(ctx);
  const reader = await createLocalAccount(ctx, {
    username: "reader",
    email: "reader@example.com",
    confirmed: true,
    approved: true,
  });
  const owner = await createLocalAccount(ctx, {
    username: "owner",
    email: "owner@example.com",
    confirmed: true,
    approved: true,
    role: "Owner",
  });
  const readerToken = await issueToken(ctx, {
    applicationId: app.id,
    userId: reader.user.id,
    scopes: ["read", "write"],
  });
  const adminToken = await issueToken(ctx, {
    applicationId: app.id,
    userId: owner.user.id,
    scopes: ["read", "write", "admin:read", "admin:write"],
  });

  const ids = new Ids();
  const start = Date.now() - 30 * 86400_000;
  const accounts: { id: string; domain: string; followed: boolean }[] = [];
  for (let i = 0; i < ACCOUNTS; i++)
    accounts.push({ id: ids.at(start + i), domain: "purge.example", followed: i < FOLLOWED });
  for (let i = 0; i < CALM; i++)
    accounts.push({ id: ids.at(start + ACCOUNTS + i), domain: "calm.example", followed: true });
  const now = iso(Date.now());
  await bulkInsert(
    ctx,
    "accounts",
    ["id", "username", "domain", "uri", "url", "followers_count", "created_at", "updated_at"],
    accounts.map((a, i) => [
      a.id,
      `user${i}`,
      a.domain,
      `https://${a.domain}/users/user${i}`,
      `https://${a.domain}/@user${i}`,
      a.followed ? 1 : 0,
      now,
      now,
    ]),
    accounts.length,
  );
  const followed = accounts.filter((a) => a.followed);
  await bulkInsert(
    ctx,
    "follows",
    ["id", "account_id", "target_account_id", "created_at", "updated_at"],
    followed.map((a, i) => [ids.at(start + 100_000 + i), reader.account.id, a.id, now, now]),
    followed.length,
  );
  await ctx.db
    .updateTable("accounts")
    .set({ following_count: followed.length })
    .where("id", "=", reader.account.id)
    .execute();

  // Posts spread over the last 20 days, interleaved across accounts.
  const statuses: unknown[][] = [];
  const feeds: unknown[][] = [];
  const span = 20 * 86400_000;
  const perAccount = (a: { domain: string }) => (a.domain === "purge.example" ? PER_ACCOUNT : 5);
  const total = accounts.reduce((n, a) => n + perAccount(a), 0);
  let k = 0;
  let doomed = 0;
  for (let round = 0; round < Math.max(PER_ACCOUNT, 5); round++) {
    for (const a of accounts) {
      if (round >= perAccount(a)) continue;
      const at = start + 200_000 + Math.floor((k++ * span) / total);
      const id = ids.at(at);
      statuses.push([
        id,
        `https://${a.domain}/statuses/${id}`,
        a.id,
        "",
        `<p>post ${round} of ${a.id}</p>`,
        "public",
        iso(at),
        iso(at),
      ]);
      if (a.followed) feeds.push([reader.account.id, id]);
      if (a.domain === "purge.example") doomed++;
    }
  }
  await bulkInsert(
    ctx,
    "statuses",
    ["id", "uri", "account_id", "text", "content", "visibility", "created_at", "updated_at"],
    statuses,
    statuses.length,
  );
  // Remote posts (the column's default is a local post).
  await ctx.db
    .updateTable("statuses")
    .set({ local: false })
    .where("account_id", "in", (eb) => eb.selectFrom("accounts").select("id").where("domain", "is not", null))
    .execute();
  await bulkInsert(ctx, "feeds", ["account_id", "status_id"], feeds, feeds.length);
  await ctx.db
    .updateTable("accounts")
    .set({ statuses_count: PER_ACCOUNT })
    .where("domain", "=", "purge.example")
    .execute();
  process.stdout.write(
    `SEEDED=${ACCOUNTS} remote accounts with ${doomed} posts to purge, ${feeds.length} home feed entries\n`,
  );
  process.stdout.write(`READER_TOKEN=${readerToken.accessToken}\nADMIN_TOKEN=${adminToken.accessToken}\n`);
} finally {
  await ctx.close();
}
