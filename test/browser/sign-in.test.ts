import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { chromiumSkipReason, type LaunchedBrowser, launchChromium } from "../helpers/chromium.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const skip = chromiumSkipReason();
if (skip) console.log(`# ${skip}`);

const codeAt = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

/** Sign-in with TOTP, an OAuth authorization through it, and security keys, in Chromium. */
describe("sign-in and two-factor authentication in Chromium", { skip }, () => {
  let s: TestServer;
  let chrome: LaunchedBrowser;
  /** The server by the name WebAuthn accepts as a relying party (the local domain, `localhost`). */
  let origin: string;
  let client: Server;
  let callback: string;
  before(async () => {
    s = await startTestServer();
    origin = s.ctx.config.baseUrl;
    chrome = await launchChromium();
    // The OAuth client's redirect URI: a tiny server on loopback.
    client = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("client got it");
    });
    await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
    callback = `http://127.0.0.1:${(client.address() as AddressInfo).port}/callback`;
  });
  after(async () => {
    await chrome?.close();
    await new Promise((resolve) => client?.close(resolve));
    await s?.close();
  });

  function watchCsp(page: Page): string[] {
    const problems: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    return problems;
  }

  async function passwordStep(page: Page, user: TestUser, login: string) {
    await page.fill("#email", login);
    await page.fill("#password", user.password);
    await page.click('form[action="/auth/sign_in"] button[type=submit]');
  }

  it("turns TOTP on, signs in with a code, and authorizes an app through the second step", async () => {
    const ann = await s.createUser("ann");
    const context = await chrome.browser.newContext();
    const page = await context.newPage();
    const problems = watchCsp(page);
    await page.goto(`${origin}/auth/sign_in?return_to=${encodeURIComponent("/settings/otp_authentication")}`);
    await passwordStep(page, ann, "ann");
    await page.waitForURL(`${origin}/settings/otp_authentication`);
    // The QR code is an image the CSP allows (data:), with the key beside it.
    assert.ok(await page.$eval("figure.qr img", (img) => (img as HTMLImageElement).naturalWidth > 0));
    const secret = (await page.textContent("#otp-secret"))!.replace(/\s/g, "");
    await page.fill("#otp_attempt", codeAt(secret));
    await page.fill("#password", ann.password);
    await page.click('form[action="/settings/otp_authentication"] button[type=submit]');
    await page.waitForSelector("#recovery-codes");
    assert.equal(await page.locator("#recovery-codes li").count(), 10);
    // Sign out through the menu.
    await page.click("header.site form[action='/auth/sign_out'] button");
    await page.waitForURL(`${origin}/auth/sign_in`);

    // An app asks for authorization: sign-in, code, consent, back to the client.
    const app = await s.request("/api/v1/apps", {
      json: { client_name: "Browser client", redirect_uris: callback, scopes: "read" },
    });
    const authorize = `${origin}/oauth/authorize?response_type=code&client_id=${app.body.client_id}&redirect_uri=${encodeURIComponent(callback)}&scope=read`;
    await page.goto(authorize);
    await passwordStep(page, ann, "ann@example.com");
    await page.waitForSelector("#otp_attempt");
    await page.fill("#otp_attempt", codeAt(secret, 1));
    await page.click("#otp_attempt ~ button[type=submit]");
    await page.waitForSelector('form[action="/oauth/authorize"]');
    assert.match((await page.textContent("main"))!, /Browser client/);
    await page.click('form[action="/oauth/authorize"] button[type=submit]:not([name])');
    await page.waitForURL((url) => url.href.startsWith(callback));
    assert.equal(await page.textContent("body"), "client got it");
    const code = new URL(page.url()).searchParams.get("code");
    assert.ok(code);
    const token = await fetch(`${s.url}/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        client_id: app.body.client_id,
        client_secret: app.body.client_secret,
        redirect_uri: callback,
      }),
    });
    assert.equal(token.status, 200);
    const { access_token } = (await token.json()) as { access_token: string };
    const me = await s.request("/api/v1/accounts/verify_credentials", { token: access_token });
    assert.equal(me.body.username, "ann");
    assert.deepEqual(problems, []);
    await context.close();
  });

  it("registers a security key and signs in with it (virtual authenticator)", async () => {
    const bo = await s.createUser("bo");
    const context = await chrome.browser.newContext();
    const page = await context.newPage();
    const problems = watchCsp(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto(`${origin}/auth/sign_in?return_to=${encodeURIComponent("/settings/otp_authentication")}`);
    await passwordStep(page, bo, "bo");
    await page.waitForURL(`${origin}/settings/otp_authentication`);
    const secret = (await page.textContent("#otp-secret"))!.replace(/\s/g, "");
    await page.fill("#otp_attempt", codeAt(secret));
    await page.fill("#password", bo.password);
    await page.click('form[action="/settings/otp_authentication"] button[type=submit]');
    await page.waitForSelector("#recovery-codes");

    await page.goto(`${origin}/settings/security_keys`);
    await page.fill("#nickname", "Laptop key");
    await page.fill("#password", bo.password);
    await page.click("#webauthn-register button.webauthn-start:not([disabled])");
    await page.waitForURL(`${origin}/settings/security_keys?done=added`);
    assert.match((await page.textContent("#security-key-list"))!, /Laptop key/);
    assert.equal((await s.ctx.repos.security.credentialsOf(bo.user.id)).length, 1);

    await page.click("header.site form[action='/auth/sign_out'] button");
    await page.waitForURL(`${origin}/auth/sign_in`);
    await page.goto(`${origin}/auth/sign_in?return_to=${encodeURIComponent("/settings/sessions")}`);
    await passwordStep(page, bo, "bo");
    // The script shows the key section; the key signs in.
    await page.click("#security-key-sign-in button.webauthn-start");
    await page.waitForURL(`${origin}/settings/sessions`);
    assert.match((await page.textContent("#sessions"))!, /Current session/);
    const [cred] = await s.ctx.repos.security.credentialsOf(bo.user.id);
    assert.ok(cred.lastUsedAt);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
