// Run as its own process by bench/delivery.ts before the server starts: migrates DATA_DIR, creates
// the author (a confirmed user with a token) and FOLLOWERS remote accounts spread evenly over the
// fake servers' ports given as arguments (each server's accounts share its inbox at /inbox), all
// following the author. Prints `AUTHOR_TOKEN=...`.
import { loadConfig } from "../../src/config/index.ts";
import { createContext } from "../../src/context.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";

const followers = Number(process.env.FOLLOWERS ?? "1000");
const ports = process.argv.slice(2).map(Number);
const ctx = await createContext(loadConfig({ ...process.env }));
try {
  const { account, user } = await createLocalAccount(ctx, {
    username: "author",
    email: "author@example.com",
    confirmed: true,
    approved: true,
  });
  const app = await cliApplication(ctx);
  const { accessToken } = await issueToken(ctx, {
    applicationId: app.id,
    userId: user.id,
    scopes: ["read", "write", "follow"],
  });
  const now = new Date().toISOString();
  const accounts = [];
  const follows = [];
  for (let i = 0; i < followers; i++) {
    const port = ports[i % ports.length];
    const base = `http://localhost:${port}`;
    const username = `follower${i}`;
    const id = ctx.ids.next();
    accounts.push({
      id,
      username,
      domain: `localhost:${port}`,
      uri: `${base}/users/${username}`,
      inbox_url: `${base}/users/${username}/inbox`,
      shared_inbox_url: `${base}/inbox`,
      created_at: now,
      updated_at: now,
    });
    follows.push({ id: ctx.ids.next(), account_id: id, target_account_id: account.id, created_at: now });
  }
  for (let i = 0; i < accounts.length; i += 200) {
    await ctx.db
      .insertInto("accounts")
      .values(accounts.slice(i, i + 200))
      .execute();
  }
  for (const f of follows) await ctx.repos.follows.insert(f);
  process.stdout.write(`AUTHOR_TOKEN=${accessToken}\n`);
} finally {
  await ctx.close();
}
