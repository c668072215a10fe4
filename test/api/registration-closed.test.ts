import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("registration when sign-ups are closed", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "none" });
  });
  after(() => s.close());

  it("answers 403 and stores nothing", async () => {
    const app = await s.appToken("write");
    const r = await s.request("/api/v1/accounts", {
      token: app,
      json: { username: "nobody", email: "nobody@example.com", password: "long enough pw", agreement: true },
    });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "This action is not allowed" });
    assert.equal(await s.ctx.repos.users.count(), 0);
    // The token check still comes first.
    assert.equal((await s.request("/api/v1/accounts", { json: {} })).status, 401);
  });
});
