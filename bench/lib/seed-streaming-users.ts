// Run as its own process by bench/streaming.ts before the server starts: migrates DATA_DIR and
// creates the poster and USERS readers (confirmed users), each with a token. Prints
// `POSTER_TOKEN=...` and writes the readers' tokens, one a line, to the file named by TOKENS_FILE.
import { writeFileSync } from "node:fs";
import { loadConfig } from "../../src/config/index.ts";
import { createContext } from "../../src/context.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";

const users = Number(process.env.USERS ?? "1000");
const tokensFile = process.env.TOKENS_FILE;
if (!tokensFile) throw new Error("TOKENS_FILE is not set");
const ctx = await createContext(loadConfig({ ...process.env }));
try {
  const app = await cliApplication(ctx);
  const make = async (username: string, scopes: string[]) => {
    const { user } = await createLocalAccount(ctx, {
      username,
      email: `${username}@example.com`,
      // A fixed password: hashing one per account is the seed's slowest part otherwise.
      password: "benchmark password",
      confirmed: true,
      approved: true,
    });
    return (await issueToken(ctx, { applicationId: app.id, userId: user.id, scopes })).accessToken;
  };
  const poster = await make("poster", ["read", "write"]);
  // One reader made the API's way (its key pair and password hash take a quarter second); the
  // others are copies of its rows with their own names, so 10,000 take seconds, not an hour.
  const tokens = [await make("reader0", ["read"])];
  const account = await ctx.db
    .selectFrom("accounts")
    .selectAll()
    .where("username", "=", "reader0")
    .executeTakeFirstOrThrow();
  const user = await ctx.db
    .selectFrom("users")
    .selectAll()
    .where("account_id", "=", account.id)
    .executeTakeFirstOrThrow();
  const rename = (v: unknown, name: string) =>
    typeof v === "string" ? v.replaceAll("/reader0", `/${name}`).replace("@reader0", `@${name}`) : v;
  const userIds: string[] = [];
  for (let from = 1; from < users; from += 200) {
    const accounts = [];
    const rows = [];
    for (let i = from; i < Math.min(users, from + 200); i++) {
      const name = `reader${i}`;
      const accountId = ctx.ids.next();
      const userId = ctx.ids.next();
      const a: Record<string, unknown> = { ...account, id: accountId, username: name };
      for (const k of Object.keys(a)) if (k.endsWith("url") || k === "uri") a[k] = rename(a[k], name);
      accounts.push(a);
      rows.push({ ...user, id: userId, account_id: accountId, email: `${name}@example.com` });
      userIds.push(userId);
    }
    await ctx.db
      .insertInto("accounts")
      .values(accounts as any)
      .execute();
    await ctx.db
      .insertInto("users")
      .values(rows as any)
      .execute();
  }
  for (const userId of userIds) {
    tokens.push((await issueToken(ctx, { applicationId: app.id, userId, scopes: ["read"] })).accessToken);
  }
  writeFileSync(tokensFile, `${tokens.join("\n")}\n`);
  process.stdout.write(`POSTER_TOKEN=${poster}\n`);
} finally {
  await ctx.close();
}
