import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createOAuthAPIClient, createRestAPIClient } from "masto";
import { authorizeAsUser, OOB, pkcePair, redirectParams } from "../api/oauth-browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/**
 * The HTTP status of a masto.js failure. masto wraps error responses in MastoHttpError only when
 * they are `instanceof Response`; @hono/node-server replaces the global Response in this process
 * (unless served with overrideGlobalObjects: false), so here masto may throw the raw Response.
 */
function statusOf(e: unknown): number | undefined {
  const x = e as { statusCode?: number; status?: number };
  return x.statusCode ?? x.status;
}

describe("masto.js through the OAuth flow", () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("registers an app, gets a user token through the browser flow, and verifies credentials", async () => {
    const anonymous = createRestAPIClient({ url: s.url });
    const app = await anonymous.v1.apps.create({
      clientName: "masto test",
      redirectUris: ["https://client.example/cb", OOB],
      scopes: "read write profile",
      website: "https://client.example",
    });
    assert.ok(app.clientId && app.clientSecret);
    assert.deepEqual(app.redirectUris, ["https://client.example/cb", OOB]);
    assert.deepEqual(app.scopes, ["read", "write", "profile"]);

    const alice = await s.createUser("alice");
    const { verifier, challenge } = pkcePair();
    const { response } = await authorizeAsUser(
      s,
      {
        id: String((app as { id?: string }).id),
        client_id: app.clientId,
        client_secret: app.clientSecret,
        redirect_uris: app.redirectUris ?? [],
        scopes: app.scopes ?? [],
      },
      alice,
      { scope: "read write profile", code_challenge: challenge, code_challenge_method: "S256" },
    );
    const code = redirectParams(response).get("code")!;

    const oauth = createOAuthAPIClient({ url: s.url });
    const token = await oauth.token.create({
      grantType: "authorization_code",
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      redirectUri: "https://client.example/cb",
      code,
      codeVerifier: verifier,
    } as Parameters<typeof oauth.token.create>[0]);
    assert.equal(token.scope, "read write profile");

    const client = createRestAPIClient({ url: s.url, accessToken: token.accessToken });
    const me = await client.v1.accounts.verifyCredentials();
    assert.equal(me.username, "alice");
    const verified = await client.v1.apps.verifyCredentials();
    assert.equal(verified.name, "masto test");

    await oauth.revoke({ clientId: app.clientId, clientSecret: app.clientSecret, token: token.accessToken });
    await assert.rejects(client.v1.accounts.verifyCredentials(), (e) => statusOf(e) === 401);
  });

  it("gets an app token with client_credentials", async () => {
    const app = await createRestAPIClient({ url: s.url }).v1.apps.create({
      clientName: "masto app token",
      redirectUris: OOB,
      scopes: "read",
    });
    const token = await createOAuthAPIClient({ url: s.url }).token.create({
      grantType: "client_credentials",
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri: OOB,
    });
    assert.equal(token.scope, "read");
    const client = createRestAPIClient({ url: s.url, accessToken: token.accessToken });
    await assert.rejects(client.v1.accounts.verifyCredentials(), (e) => statusOf(e) === 422);
  });
});
