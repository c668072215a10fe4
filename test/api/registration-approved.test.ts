import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("registration in approval mode", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "approved" });
  });
  after(() => s.close());

  it("creates an unapproved user with its reason; after confirmation the token is pending", async () => {
    const app = await s.appToken("write");
    const r = await s.request("/api/v1/accounts", {
      token: app,
      json: {
        username: "waiter",
        email: "waiter@example.com",
        password: "long enough pw",
        agreement: "true",
        reason: "  I like birds ",
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const token = r.body.access_token as string;
    const user = await s.ctx.repos.users.getByEmail("waiter@example.com");
    assert.equal(user?.approved, false);
    assert.equal(user?.reason, "I like birds");

    const mail = s.ctx.mailer.recent.findLast((m) => m.to === "waiter@example.com");
    const raw = /confirmation_token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    assert.ok(raw);
    assert.equal((await s.request(`/auth/confirmation?confirmation_token=${raw}`)).status, 200);

    const pending = await s.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(pending.status, 403);
    assert.deepEqual(pending.body, { error: "Your login is currently pending approval" });

    // Invisible to the public until approved, but lookup still finds the name.
    const id = user?.accountId;
    assert.equal((await s.request(`/api/v1/accounts/${id}`)).status, 404);
    assert.equal((await s.request("/api/v1/accounts/lookup?acct=waiter")).status, 200);

    await s.ctx.repos.users.update(user?.id as string, { approved: true });
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token })).status, 200);
    assert.equal((await s.request(`/api/v1/accounts/${id}`)).status, 200);
  });
});
