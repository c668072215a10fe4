// Run as its own process by bench/soak.ts after bench/seed.ts, before the server starts: tokens
// for the soak's readers and authors (the seed's reader and author first, then the seeded local
// users in id order) and for the streaming clients' users. Prints `READERS=<json>` and
// `AUTHORS=<json>` (each `[{ id, username, token }]`) and writes the streaming users' tokens, one
// a line, to STREAM_TOKENS_FILE.
//   READERS=4  AUTHORS=4  STREAM_USERS=100
import { writeFileSync } from "node:fs";
import { loadConfig } from "../../src/config/index.ts";
import { createContext } from "../../src/context.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";

const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const readers = count("READERS", 4);
const authors = count("AUTHORS", 4);
const streamUsers = count("STREAM_USERS", 100);
const tokensFile = process.env.STREAM_TOKENS_FILE;
if (!tokensFile) throw new Error("STREAM_TOKENS_FILE is not set");

const ctx = await createContext(loadConfig({ ...process.env }));
try {
  const app = await cliApplication(ctx);
  const users = await ctx.db
    .selectFrom("users")
    .innerJoin("accounts", "accounts.id", "users.account_id")
    .select(["users.id as userId", "accounts.id as accountId", "accounts.username"])
    .orderBy("accounts.id")
    .limit(Math.max(readers + authors, streamUsers) + 2)
    .execute();
  const byName = (name: string) => users.find((u) => u.username === name);
  const first = [byName("reader"), byName("author")];
  if (!first[0] || !first[1]) throw new Error("the seed's reader and author are missing");
  const others = users.filter((u) => u.username !== "reader" && u.username !== "author");
  const token = async (u: (typeof users)[number]) =>
    (await issueToken(ctx, { applicationId: app.id, userId: String(u.userId), scopes: ["read", "write", "follow"] }))
      .accessToken;
  const entry = async (u: (typeof users)[number]) => ({
    id: String(u.accountId),
    username: u.username,
    token: await token(u),
  });
  const readerList = [await entry(first[0])];
  for (const u of others.slice(0, readers - 1)) readerList.push(await entry(u));
  const authorList = [await entry(first[1])];
  for (const u of others.slice(readers - 1, readers - 1 + authors - 1)) authorList.push(await entry(u));
  const streamTokens: string[] = readerList.map((r) => r.token);
  for (const u of others.slice(readers - 1 + authors - 1)) {
    if (streamTokens.length >= streamUsers) break;
    streamTokens.push(await token(u));
  }
  writeFileSync(tokensFile, `${streamTokens.join("\n")}\n`);
  process.stdout.write(`READERS=${JSON.stringify(readerList)}\nAUTHORS=${JSON.stringify(authorList)}\n`);
} finally {
  await ctx.close();
}
