import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("server smoke", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("answers verify_credentials for a user token", async () => {
    const alice = await s.createUser("alice");
    const r = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.username, "alice");
    assert.equal(r.body.acct, "alice");
    assert.equal(r.body.source.privacy, "public");
    assert.equal(r.body.role.name, "everyone");
  });

  it("rejects a missing token with 401", async () => {
    const r = await s.request("/api/v1/accounts/verify_credentials");
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { error: "The access token is invalid" });
  });

  it("serves WebFinger through Fedify", async () => {
    await s.createUser("bob");
    const host = new URL(s.ctx.config.baseUrl).host;
    const r = await s.request(`/.well-known/webfinger?resource=acct:bob@${host}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });
});
