// Run as its own process before the server starts: migrates DATA_DIR and creates one confirmed user
// and one access token, printed as `BENCH_TOKEN=<token>`.
import { loadConfig } from "../../src/config/index.ts";
import { createContext } from "../../src/context.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { cliApplication, issueToken } from "../../src/services/oauth/tokens.ts";

const ctx = await createContext(loadConfig({ ...process.env }));
try {
  const { user } = await createLocalAccount(ctx, {
    username: "bench",
    email: "bench@example.com",
    confirmed: true,
    approved: true,
  });
  const app = await cliApplication(ctx);
  const { accessToken } = await issueToken(ctx, {
    applicationId: app.id,
    userId: user.id,
    scopes: ["read", "write", "follow", "push", "profile"],
  });
  process.stdout.write(`BENCH_TOKEN=${accessToken}\n`);
} finally {
  await ctx.close();
}
