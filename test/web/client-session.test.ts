import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { hmac } from "../../src/lib/crypto.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket } from "../helpers/streaming.ts";
import { signIn, WebClient } from "../helpers/web.ts";

/** The web client's token (one per browser session) and the renderer shared with the browser. */
describe("web client session token and shared renderer", () => {
  let s: TestServer;
  let ann: TestUser;
  let bob: TestUser;
  before(async () => {
    s = await startTestServer();
    ann = await s.createUser("ann");
    bob = await s.createUser("bob");
    await s.follow(ann, bob);
  });
  after(() => s.close());

  const tokenOf = async (web: WebClient) => {
    const page = await web.get("/home");
    assert.equal(page.status, 200);
    const token = page.doc.querySelector('meta[name="gannet-token"]')?.getAttribute("content");
    assert.ok(token, "the page carries the session's token");
    return { page, token };
  };
  const whoAmI = (token: string) => s.request("/api/v1/accounts/verify_credentials", { token });

  it("gives each browser session its own API token, the same on every page, not listed as an authorized app", async () => {
    const web = await signIn(s, ann);
    const { token } = await tokenOf(web);
    assert.equal((await tokenOf(web)).token, token, "derived from the session: the same on the next page");
    const me = await whoAmI(token);
    assert.equal(me.status, 200);
    assert.equal(me.body.id, ann.account.id);
    // Another browser of the same user gets another token.
    const other = await signIn(s, ann);
    assert.notEqual((await tokenOf(other)).token, token);
    // The first-party app is a superapp: not among the authorized apps.
    const apps = await web.get("/oauth/authorized_applications");
    assert.equal(apps.status, 200);
    assert.doesNotMatch(apps.doc.querySelector("main")?.text ?? "", /\bWeb\b/);
  });

  it("ends the token with the session: signing out, and revoking the session (its stream closes)", async () => {
    const web = await signIn(s, ann);
    const { page, token } = await tokenOf(web);
    assert.equal((await whoAmI(token)).status, 200);
    const csrf = page.doc.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
    const out = await web.request("/auth/sign_out", { method: "POST", form: { authenticity_token: csrf } });
    assert.ok(out.status >= 300 && out.status < 400, `sign-out: ${out.status}`);
    assert.equal((await whoAmI(token)).status, 401);

    const phone = await signIn(s, ann);
    const phoneToken = (await tokenOf(phone)).token;
    const socket = await openSocket(s.url, { token: phoneToken, query: { stream: "user" } });
    const closed = new Promise<void>((resolve) => socket.ws.once("close", () => resolve()));
    const desk = await signIn(s, ann);
    const sessions = await desk.get("/settings/sessions");
    const action = sessions.doc
      .querySelectorAll("form")
      .map((f) => f.getAttribute("action") ?? "")
      .find((a) => /^\/settings\/sessions\/\d+\/revoke$/.test(a));
    assert.ok(action, "another session to revoke");
    const revoked = await desk.submit(sessions, action);
    assert.equal(revoked.status, 303);
    await closed;
    assert.equal((await whoAmI(phoneToken)).status, 401);
  });

  it("serves the renderer as a script that renders a post as the server's first render does", async () => {
    const posted = await s.request("/api/v1/statuses", {
      method: "POST",
      token: bob.token,
      json: { status: "Hello <b>there</b> :)", spoiler_text: "a warning" },
    });
    assert.equal(posted.status, 200);
    await s.settle(); // the post reaches ann's home feed in a background job
    const web = await signIn(s, ann);
    const { page, token } = await tokenOf(web);
    const article = page.doc.querySelector(`article.status[data-id="${posted.body.id}"]`);
    assert.ok(article, "the first render shows the post");
    assert.ok(article.querySelector("details.cw"), "behind its content warning");

    const src = page.doc
      .querySelectorAll("script[src]")
      .map((e) => e.getAttribute("src") ?? "")
      .find((u) => u.startsWith("/assets/client-render.js"));
    assert.ok(src, "the page loads the renderer");
    const script = await s.request(src);
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type") ?? "", /javascript/);
    const renderStatus = new Function(`${script.body}; return renderStatus;`)() as (st: unknown, v: unknown) => string;
    const state = JSON.parse(page.doc.querySelector("#client-state")?.text ?? "{}");
    const home = await s.request("/api/v1/timelines/home", { token });
    const fromApi = home.body.find((st: { id: string }) => st.id === posted.body.id);
    const inBrowser = renderStatus(fromApi, state.view);
    assert.match(inBrowser, /^<article class="status/);
    assert.ok(page.body.includes(inBrowser), "the browser's render is the server's, byte for byte");
  });

  it("sends an unchanged home page again as it was, and a new one once anything on it changed", async () => {
    const web = await signIn(s, ann);
    const first = await web.get("/home");
    const again = await web.get("/home");
    assert.equal(again.body, first.body, "nothing changed: the same page");
    const selected = (page: typeof first) =>
      page.doc.querySelector("#compose-visibility option[selected]")?.getAttribute("value");
    assert.equal(selected(first), "public");

    // A preference (the users table): the compose box follows at once.
    const prefs = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: ann.token,
      json: { source: { privacy: "private" } },
    });
    assert.equal(prefs.status, 200);
    assert.equal(selected(await web.get("/home")), "private");

    // A new post of someone followed (the home feed): it is on the next page.
    const posted = await s.request("/api/v1/statuses", { method: "POST", token: bob.token, json: { status: "fresh" } });
    await s.settle();
    const after = await web.get("/home");
    assert.ok(after.doc.querySelector(`article.status[data-id="${posted.body.id}"]`), "the new post is shown");

    // Another session of the same user gets its own page (its own token and CSRF token).
    const other = await signIn(s, ann);
    const theirs = await other.get("/home");
    assert.notEqual(
      theirs.doc.querySelector('meta[name="gannet-token"]')?.getAttribute("content"),
      after.doc.querySelector('meta[name="gannet-token"]')?.getAttribute("content"),
    );
  });

  it("refuses a session cookie seen valid before once its signature is changed or it has expired", async () => {
    const web = await signIn(s, ann);
    assert.equal((await web.get("/home")).status, 200);
    const cookie = web.cookies.get("gannet_session") ?? "";
    const [data = "", signature = ""] = cookie.split(".");
    const browser = (value: string) => {
      const other = new WebClient(s);
      other.cookies.set("gannet_session", value);
      return other;
    };
    const forged = `${data}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    const refused = await browser(forged).get("/home");
    assert.equal(refused.status, 302);
    assert.match(refused.headers.get("location") ?? "", /^\/auth\/sign_in/);
    assert.equal((await browser(cookie).get("/home")).status, 200, "the real cookie still holds");
    // The same session, its cookie signed to expire in a few seconds: valid, then refused.
    const payload = JSON.parse(Buffer.from(data, "base64url").toString("utf8"));
    const expiry = Math.floor(Date.now() / 1000) + 4;
    const soon = Buffer.from(JSON.stringify({ ...payload, e: expiry })).toString("base64url");
    const short = browser(`${soon}.${hmac(s.ctx.config.secretKey, `session:${soon}`)}`);
    assert.equal((await short.get("/home")).status, 200);
    await sleep(Math.max(0, (expiry + 0.2) * 1000 - Date.now()));
    assert.equal((await short.get("/home")).status, 302);
  });
});
