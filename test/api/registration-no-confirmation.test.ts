import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("registration with e-mail confirmation turned off", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open", REQUIRE_EMAIL_CONFIRMATION: "false" });
  });
  after(() => s.close());

  it("gives a token that works at once and sends no mail", async () => {
    const app = await s.appToken("read write");
    const r = await s.request("/api/v1/accounts", {
      token: app,
      form: {
        username: "quick",
        email: "quick@example.com",
        password: "long enough pw",
        agreement: "true",
        locale: "en",
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: r.body.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.username, "quick");
    assert.equal(me.body.acct, "quick");
    assert.equal(s.ctx.mailer.recent.length, 0);
    assert.equal((await s.request(`/api/v1/accounts/${me.body.id}`)).status, 200);
    const again = await s.request("/api/v1/emails/confirmations", { method: "POST", token: r.body.access_token });
    assert.equal(again.status, 403);
  });
});
