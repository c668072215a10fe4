import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("masto.js against the accounts API", () => {
  let s: TestServer;
  let alice: TestUser;
  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
  });
  after(() => s.close());

  it("verifies credentials, updates the display name and looks accounts up", async () => {
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const me = await client.v1.accounts.verifyCredentials();
    assert.equal(me.username, "alice");
    assert.equal(me.source.privacy, "public");

    const updated = await client.v1.accounts.updateCredentials({
      displayName: "Alice via masto",
      note: "Hello https://example.com",
      fieldsAttributes: [{ name: "Web", value: "https://alice.example" }],
      source: { privacy: "private" },
    });
    assert.equal(updated.displayName, "Alice via masto");
    assert.match(updated.note, /<a href="https:\/\/example\.com"/);
    assert.equal(updated.fields[0].name, "Web");
    assert.equal(updated.source.privacy, "private");

    const found = await client.v1.accounts.lookup({ acct: "@alice" });
    assert.equal(found.id, alice.account.id);
    assert.equal(found.displayName, "Alice via masto");

    const byId = await client.v1.accounts.$select(alice.account.id).fetch();
    assert.equal(byId.acct, "alice");

    const prefs = await client.v1.preferences.fetch();
    assert.equal(prefs["posting:default:visibility"], "private");
  });

  it("surfaces a 404 from lookup as an error", async () => {
    const client = createRestAPIClient({ url: s.url });
    // In this process @hono/node-server replaces the global Response, so masto cannot recognise
    // fetch's Response and rethrows it as is instead of a MastoHttpError: accept both shapes.
    await assert.rejects(
      client.v1.accounts.lookup({ acct: "nobody" }),
      (e: { statusCode?: number; status?: number }) => {
        assert.equal(e.statusCode ?? e.status, 404);
        return true;
      },
    );
  });
});
