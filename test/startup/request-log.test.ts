import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createInstance, gannetOk, type Instance, startServer } from "../cli/harness.ts";

const SECRET = "SECRETquerytoken0123456789";

/** Starts the server with `env`, makes a few requests, stops it: its whole output. */
async function requestsLogged(inst: Instance, token: string, env: Record<string, string>) {
  const server = await startServer({ env: { ...inst.env, ...env }, cwd: inst.dir });
  let accountId: string;
  try {
    // The token in the header, and another (unknown) one in the query: neither may be logged.
    const me = await fetch(`${server.url}/api/v1/accounts/verify_credentials?access_token=${SECRET}&x=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(me.status, 200);
    accountId = ((await me.json()) as { id: string }).id;
    const anonymous = await fetch(`${server.url}/api/v1/timelines/public?access_token=${SECRET}`);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const missing = await fetch(`${server.url}/api/v1/statuses/%7Bnope%7D%0A`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    // Refused before routing (unsigned inbox POST): logged all the same.
    const unsigned = await fetch(`${server.url}/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: "{}",
    });
    assert.equal(unsigned.status, 401);
    await unsigned.body?.cancel();
    // The console sink writes synchronously, but the pipe may deliver a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    await server.stop();
  }
  return { output: server.output(), accountId };
}

describe("LOG_REQUESTS", () => {
  let inst: Instance;
  let token: string;
  before(async () => {
    inst = await createInstance();
    await gannetOk(inst, "accounts", "create", "alice", "--email", "alice@example.com", "--confirmed", "--approved");
    token = (await gannetOk(inst, "tokens", "create", "alice", "--scopes", "read")).trim();
  });
  after(() => inst.cleanup());

  it("logs one line per request: method, path without the query, status, time and account id", async () => {
    const { output, accountId } = await requestsLogged(inst, token, { LOG_REQUESTS: "1" });
    const lines = output.split("\n");
    const me = lines.filter((l) => l.includes("/api/v1/accounts/verify_credentials"));
    assert.equal(me.length, 1, output);
    assert.match(
      me[0],
      new RegExp(`gannet.http GET /api/v1/accounts/verify_credentials 200 \\d+\\.\\dms ${accountId}$`),
    );
    const pub = lines.filter((l) => l.includes("/api/v1/timelines/public"));
    assert.equal(pub.length, 1, output);
    assert.match(pub[0], /GET \/api\/v1\/timelines\/public 401 \d+\.\dms -$/);
    // The path as sent: still encoded, so a line break or a brace in it cannot bend the log.
    const missing = lines.filter((l) => l.includes("/api/v1/statuses/"));
    assert.equal(missing.length, 1, output);
    assert.match(missing[0], new RegExp(`GET /api/v1/statuses/%7Bnope%7D%0A 404 \\d+\\.\\dms ${accountId}$`));
    const inbox = lines.filter((l) => l.includes(" /inbox "));
    assert.equal(inbox.length, 1, output);
    assert.match(inbox[0], /POST \/inbox 401 \d+\.\dms -$/);
    assert.ok(!output.includes(SECRET), "the query's token was logged");
    assert.ok(!output.includes(token), "the bearer token was logged");
    assert.doesNotMatch(output, /access_token|authorization/i);
  });

  it("logs no request without it", async () => {
    const { output } = await requestsLogged(inst, token, {});
    assert.match(output, /Gannet is listening/);
    assert.doesNotMatch(output, /verify_credentials|timelines\/public|gannet.http/);
    assert.ok(!output.includes(SECRET) && !output.includes(token));
  });
});
