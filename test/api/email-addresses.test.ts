import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// One rule for every way an address comes in: Mastodon's, which takes a dotless domain.
describe("e-mail addresses at sign-up and on change", () => {
  let s: TestServer;
  let app: string;
  const register = (username: string, email: string) =>
    s.request("/api/v1/accounts", {
      token: app,
      json: { username, email, password: "long enough pw", agreement: true },
    });

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open" });
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("registers with an address whose domain has no dot", async () => {
    const r = await register("local", "Local@LocalHost");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await s.ctx.repos.users.getByEmail("local@localhost"))?.email, "local@localhost");
  });

  it("refuses what Mastodon refuses, with its field error", async () => {
    for (const [i, email] of [
      "a%b@example.com",
      "a,b@example.com",
      '"q"@example.com',
      "x@y@z",
      "x@exa mple",
    ].entries()) {
      const r = await register(`bad${i}`, email);
      assert.equal(r.status, 422, `${email}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.details.email?.[0]?.error, "ERR_INVALID", email);
    }
  });

  it("changes a pending address to a dotless one through /api/v1/emails/confirmations", async () => {
    const r = await register("mover", "mover@example.com");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const token = r.body.access_token as string;
    const moved = await s.request("/api/v1/emails/confirmations", { token, json: { email: "mover@intranet" } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.ok(s.ctx.mailer.recent.some((m) => m.to === "mover@intranet"));
    const bad = await s.request("/api/v1/emails/confirmations", { token, json: { email: "mover%x@intranet" } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.details.email[0].error, "ERR_INVALID");
  });
});
