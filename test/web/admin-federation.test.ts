import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Create, Note, PUBLIC_COLLECTION } from "@fedify/vocab";
import { flushDeliveryHealth, noteDelivery } from "../../src/services/federation/delivery-health.ts";
import { startFakeActor } from "../helpers/fake-actor.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, type Page, signIn, textOf, WebClient } from "../helpers/web.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("moderation panel: federation pages", () => {
  let s: TestServer;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let web: WebClient;

  const remote = async (username: string, domain: string) => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain,
      uri: `https://${domain}/users/${username}`,
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  /** The action log entries about `targetType` (newest first): action and human identifier. */
  const logged = async (targetType: string) =>
    (await s.ctx.repos.adminActionLogs.page({}, { limit: 200 }))
      .filter((e) => e.targetType === targetType && e.accountId === admin.account.id)
      .map((e) => `${e.action} ${e.humanIdentifier}`);
  const notice = (p: Page) => textOf(p.doc, "p.notice");
  const rowFor = (p: Page, attr: string, value: string) => p.doc.querySelector(`tr[${attr}="${value}"]`);
  /** Posts a form and follows the redirect, asserting it is one (303). */
  const submitOk = async (page: Page, action: string, values: Record<string, string> = {}, index = 0) => {
    const r = await web.submit(page, action, values, { index });
    assert.equal(r.status, 303, `${action}: ${r.status} ${alertText(r.doc) ?? ""}`);
    return web.follow(r);
  };

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    admin = await s.createUser("fedadmin", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("fedmod", { role: "Moderator" });
    plain = await s.createUser("fedplain");
    web = await signIn(s, admin);
  });
  after(() => s.close());

  const PAGES = [
    "/admin/instances",
    "/admin/instances/example.org",
    "/admin/domain_blocks",
    "/admin/domain_blocks/new",
    "/admin/domain_allows",
    "/admin/email_domain_blocks",
    "/admin/canonical_email_blocks",
    "/admin/ip_blocks",
    "/admin/ip_blocks/new",
  ];

  it("need sign-in, and the admin API's permissions: a Moderator and a plain user are refused (403)", async () => {
    const anon = new WebClient(s);
    for (const path of PAGES) {
      const r = await anon.get(path);
      assert.equal(r.status, 302, path);
      assert.match(r.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);
    }
    const mod = await signIn(s, moderator);
    const user = await signIn(s, plain);
    for (const path of PAGES) {
      assert.equal((await mod.get(path)).status, 403, `Moderator: ${path}`);
      assert.equal((await user.get(path)).status, 403, `user: ${path}`);
      const ok = await web.get(path);
      assert.equal(ok.status, 200, `Admin: ${path}`);
      assert.equal(
        ok.doc.querySelector('nav a[aria-current="page"]')?.getAttribute("href"),
        path.split("/").slice(0, 3).join("/"),
      );
    }
    // A Moderator's forms are refused too, even with a valid CSRF token of their own session.
    const own = await mod.get("/settings/profile");
    const token = own.doc.querySelector("input[name=authenticity_token]")?.getAttribute("value") ?? "";
    for (const [path, form] of [
      ["/admin/domain_blocks", { domain: "mod.example", severity: "suspend", confirm: "1" }],
      ["/admin/domain_allows", { domain: "mod.example" }],
      ["/admin/email_domain_blocks", { domain: "mod.example" }],
      ["/admin/canonical_email_blocks", { email: "x@mod.example" }],
      ["/admin/ip_blocks", { ip: "192.0.2.1", severity: "no_access" }],
    ] as const) {
      const r = await mod.request(path, { method: "POST", form: { ...form, authenticity_token: token } });
      assert.equal(r.status, 403, `Moderator POST ${path}`);
    }
    const blocks = await s.request("/api/v1/admin/domain_blocks", { token: admin.token });
    assert.deepEqual(blocks.body, []);
    // The menu shows the federation entries to the Admin only.
    const menu = (await web.get("/admin/instances")).doc.querySelectorAll("nav a").map((a) => a.getAttribute("href"));
    assert.ok(menu.includes("/admin/ip_blocks") && menu.includes("/admin/domain_blocks"));
  });

  it("domain blocks: create, conflict shown on the form, the suspension's confirmation, edit, delete; logged", async () => {
    const trolls = [await remote("troll", "spam.example"), await remote("troll2", "spam.example")];
    let page = await web.get("/admin/domain_blocks/new");
    const forged = await web.submit(page, "/admin/domain_blocks", {
      domain: "forged.example",
      authenticity_token: "x",
    });
    assert.equal(forged.status, 422);

    // A limit is added at once.
    page = await submitOk(page, "/admin/domain_blocks", {
      domain: "Spam.Example",
      severity: "silence",
      reject_media: "1",
      public_comment: "Spam",
      private_comment: "Seen in reports",
    });
    assert.equal(notice(page), "Domain blocked.");
    const row = rowFor(page, "data-domain", "spam.example");
    assert.ok(row, "listed");
    assert.match(row.text, /Limit/);
    assert.match(row.text, /media/);
    assert.match(row.text, /Spam/);

    // The same domain again, and a weaker block of a subdomain: the conflict on the form (422).
    page = await web.get("/admin/domain_blocks/new");
    let r = await web.submit(page, "/admin/domain_blocks", { domain: "spam.example", severity: "noop" });
    assert.equal(r.status, 422);
    assert.match(alertText(r.doc) ?? "", /already imposed stricter limits on spam\.example/);
    assert.equal(
      r.doc.querySelector("#domain")?.getAttribute("value"),
      "spam.example",
      "the form keeps what was typed",
    );
    r = await web.submit(page, "/admin/domain_blocks", { domain: "sub.spam.example", severity: "noop" });
    assert.equal(r.status, 422);
    r = await web.submit(page, "/admin/domain_blocks", { domain: "", severity: "noop" });
    assert.equal(r.status, 422);
    assert.match(alertText(r.doc) ?? "", /can't be blank/);

    // A suspension asks first, saying what it does to the known accounts.
    r = await web.submit(page, "/admin/domain_blocks", { domain: "evil.example", severity: "suspend" });
    assert.equal(r.status, 200);
    assert.match(textOf(r.doc, "h1"), /Confirm the block of evil\.example/);
    assert.equal((await s.request("/api/v1/admin/domain_blocks", { token: admin.token })).body.length, 1, "not yet");
    page = await submitOk(r, "/admin/domain_blocks");
    assert.ok(rowFor(page, "data-domain", "evil.example"));

    const api = (await s.request("/api/v1/admin/domain_blocks", { token: admin.token })).body as {
      id: string;
      domain: string;
      severity: string;
      reject_media: boolean;
      private_comment: string;
    }[];
    const spam = api.find((b) => b.domain === "spam.example");
    assert.ok(spam);
    assert.deepEqual([spam.severity, spam.reject_media, spam.private_comment], ["silence", true, "Seen in reports"]);
    assert.equal(api.find((b) => b.domain === "evil.example")?.severity, "suspend");

    // Raising the limit to a suspension: the confirmation names the two known accounts.
    page = await web.get(`/admin/domain_blocks/${spam.id}/edit`);
    assert.equal(page.doc.querySelector("#severity_silence")?.hasAttribute("checked"), true);
    r = await web.submit(page, `/admin/domain_blocks/${spam.id}`, { severity: "suspend" });
    assert.equal(r.status, 200);
    assert.match(textOf(r.doc, ".block-effects"), /2 known accounts of spam\.example will be suspended/);
    assert.match(r.body, /from “Limit” to “Suspend”/);
    await submitOk(r, `/admin/domain_blocks/${spam.id}`);
    for (const id of trolls)
      assert.ok((await s.ctx.repos.accounts.getById(id))?.suspendedAt, "the block suspended the account");

    // Lowering it says the block's suspensions are lifted; a comment alone needs no confirmation.
    page = await web.get(`/admin/domain_blocks/${spam.id}/edit`);
    r = await web.submit(page, `/admin/domain_blocks/${spam.id}`, { severity: "noop" });
    assert.match(textOf(r.doc, ".block-effects"), /unsuspended/);
    page = await web.get(`/admin/domain_blocks/${spam.id}/edit`);
    page = await submitOk(page, `/admin/domain_blocks/${spam.id}`, { public_comment: "Spam waves" });
    assert.equal(notice(page), "Domain block changed.");
    assert.match(rowFor(page, "data-domain", "spam.example")?.text ?? "", /Suspend[\s\S]*Spam waves/);

    // Delete.
    page = await submitOk(page, `/admin/domain_blocks/${spam.id}/delete`);
    assert.equal(notice(page), "Domain unblocked.");
    assert.equal(rowFor(page, "data-domain", "spam.example"), null);
    assert.equal((await web.get(`/admin/domain_blocks/${spam.id}/edit`)).status, 404);
    assert.deepEqual(await logged("DomainBlock"), [
      "destroy spam.example",
      "update spam.example",
      "update spam.example",
      "create evil.example",
      "create spam.example",
    ]);
  });

  it("domain allows: add, refuse a bad domain, remove; logged", async () => {
    let page = await web.get("/admin/domain_allows");
    assert.equal(
      (await web.submit(page, "/admin/domain_allows", { domain: "friends.example", authenticity_token: "x" })).status,
      422,
    );
    page = await submitOk(page, "/admin/domain_allows", { domain: "friends.example" });
    assert.equal(notice(page), "Domain allowed.");
    assert.ok(rowFor(page, "data-domain", "friends.example"));
    page = await submitOk(page, "/admin/domain_allows", { domain: "friends.example" });
    assert.equal(notice(page), "The domain was already allowed.");
    const bad = await web.submit(page, "/admin/domain_allows", { domain: "not a domain" });
    assert.equal(bad.status, 422);
    assert.match(alertText(bad.doc) ?? "", /not a valid domain/);
    const allows = (await s.request("/api/v1/admin/domain_allows", { token: admin.token })).body as { id: string }[];
    assert.equal(allows.length, 1);
    page = await submitOk(page, `/admin/domain_allows/${allows[0].id}/delete`);
    assert.equal(rowFor(page, "data-domain", "friends.example"), null);
    assert.deepEqual(await logged("DomainAllow"), ["destroy friends.example", "create friends.example"]);
  });

  it("e-mail domain blocks: add (with approval), refuse a duplicate, remove; logged", async () => {
    let page = await web.get("/admin/email_domain_blocks");
    assert.equal(
      (await web.submit(page, "/admin/email_domain_blocks", { domain: "x.example", authenticity_token: "x" })).status,
      422,
    );
    page = await submitOk(page, "/admin/email_domain_blocks", {
      domain: "Mailinator.Example",
      allow_with_approval: "1",
    });
    assert.equal(notice(page), "E-mail domain blocked.");
    assert.match(rowFor(page, "data-domain", "mailinator.example")?.text ?? "", /Need approval/);
    page = await submitOk(page, "/admin/email_domain_blocks", { domain: "spam-mail.example" });
    assert.match(rowFor(page, "data-domain", "spam-mail.example")?.text ?? "", /Blocked/);
    const dup = await web.submit(page, "/admin/email_domain_blocks", { domain: "spam-mail.example" });
    assert.equal(dup.status, 422);
    assert.match(alertText(dup.doc) ?? "", /already been taken/);
    const api = (await s.request("/api/v1/admin/email_domain_blocks", { token: admin.token })).body as {
      id: string;
      domain: string;
      allow_with_approval: boolean;
    }[];
    assert.deepEqual(api.map((b) => [b.domain, b.allow_with_approval]).sort(), [
      ["mailinator.example", true],
      ["spam-mail.example", false],
    ]);
    const id = api.find((b) => b.domain === "spam-mail.example")?.id;
    page = await submitOk(page, `/admin/email_domain_blocks/${id}/delete`);
    assert.equal(rowFor(page, "data-domain", "spam-mail.example"), null);
    assert.deepEqual(await logged("EmailDomainBlock"), [
      "destroy spam-mail.example",
      "create spam-mail.example",
      "create mailinator.example",
    ]);
  });

  it("canonical e-mail blocks: add by address or hash, test an address, refuse a bad hash, remove; logged", async () => {
    let page = await web.get("/admin/canonical_email_blocks");
    assert.equal(
      (await web.submit(page, "/admin/canonical_email_blocks", { email: "a@b.example", authenticity_token: "x" }))
        .status,
      422,
    );
    page = await submitOk(page, "/admin/canonical_email_blocks", { email: "Jane.Doe+spam@Mail.Example" });
    assert.equal(notice(page), "Address blocked.");
    const hash = "a".repeat(64);
    page = await submitOk(page, "/admin/canonical_email_blocks", { canonical_email_hash: hash }, 0);
    assert.ok(rowFor(page, "data-hash", hash));
    const bad = await web.submit(page, "/admin/canonical_email_blocks", { canonical_email_hash: "xyz" });
    assert.equal(bad.status, 422);
    assert.match(alertText(bad.doc) ?? "", /hash is invalid/);

    // Any spelling of the address is caught; another is not.
    let r = await web.submit(page, "/admin/canonical_email_blocks/test", { email: "janedoe@mail.example" });
    assert.equal(r.status, 200);
    assert.match(textOf(r.doc, ".test-result"), /janedoe@mail\.example is blocked/);
    r = await web.submit(page, "/admin/canonical_email_blocks/test", { email: "john@mail.example" });
    assert.match(textOf(r.doc, ".test-result"), /is not blocked/);

    const api = (await s.request("/api/v1/admin/canonical_email_blocks", { token: admin.token })).body as {
      id: string;
      canonical_email_hash: string;
    }[];
    assert.equal(api.length, 2);
    const other = api.find((b) => b.canonical_email_hash === hash);
    page = await submitOk(page, `/admin/canonical_email_blocks/${other?.id}/delete`);
    assert.equal(rowFor(page, "data-hash", hash), null);
    assert.deepEqual(
      (await logged("CanonicalEmailBlock")).map((l) => l.split(" ")[0]),
      ["destroy", "create", "create"],
    );
  });

  it("IP rules: add a range with severity, comment and expiry, refuse a bad one, edit, remove; logged", async () => {
    let page = await web.get("/admin/ip_blocks/new");
    assert.equal(
      (await web.submit(page, "/admin/ip_blocks", { ip: "192.0.2.0/24", authenticity_token: "x" })).status,
      422,
    );
    page = await submitOk(page, "/admin/ip_blocks", {
      ip: "192.0.2.0/24",
      severity: "sign_up_block",
      comment: "Sign-up spam",
      expires_in: "86400",
    });
    assert.equal(notice(page), "IP rule added.");
    assert.match(rowFor(page, "data-ip", "192.0.2.0/24")?.text ?? "", /Sign-ups refused[\s\S]*Sign-up spam/);
    const form = await web.get("/admin/ip_blocks/new");
    let r = await web.submit(form, "/admin/ip_blocks", { ip: "999.1.1.1", severity: "no_access" });
    assert.equal(r.status, 422);
    assert.match(alertText(r.doc) ?? "", /Ip is invalid/);
    r = await web.submit(form, "/admin/ip_blocks", { ip: "192.0.2.0/24", severity: "no_access" });
    assert.equal(r.status, 422);
    assert.match(alertText(r.doc) ?? "", /already been taken/);

    const [block] = (await s.request("/api/v1/admin/ip_blocks", { token: admin.token })).body as {
      id: string;
      expires_at: string | null;
    }[];
    assert.ok(block.expires_at);
    page = await web.get(`/admin/ip_blocks/${block.id}/edit`);
    assert.equal(page.doc.querySelector("#expires_in option[selected]")?.getAttribute("value"), "keep");
    page = await submitOk(page, `/admin/ip_blocks/${block.id}`, { severity: "sign_up_requires_approval" });
    assert.equal(notice(page), "IP rule changed.");
    const changed = (await s.request(`/api/v1/admin/ip_blocks/${block.id}`, { token: admin.token })).body;
    assert.equal(changed.severity, "sign_up_requires_approval");
    assert.equal(changed.expires_at, block.expires_at, "the expiry was kept");
    page = await submitOk(page, `/admin/ip_blocks/${block.id}/delete`);
    assert.equal(rowFor(page, "data-ip", "192.0.2.0/24"), null);
    assert.deepEqual(await logged("IpBlock"), ["destroy 192.0.2.0/24", "update 192.0.2.0/24", "create 192.0.2.0/24"]);
  });

  it("known servers: counts, block state, filters, and delivery health as the deliveries recorded it", async () => {
    const a = await remote("ann", "peer.example");
    await remote("ben", "peer.example");
    await remote("cat", "down.example");
    await s.follow(plain, { account: (await s.ctx.repos.accounts.getById(a))! });
    const report = await s.request("/api/v1/reports", { method: "POST", token: plain.token, json: { account_id: a } });
    assert.equal(report.status, 200);

    // Deliveries: peer.example worked after a failure, down.example fails.
    noteDelivery(s.ctx, "https://peer.example/inbox", new Error("connect ECONNREFUSED"));
    noteDelivery(s.ctx, "https://peer.example/inbox");
    const failure = Object.assign(new Error("Failed to send activity"), { statusCode: 503 });
    noteDelivery(s.ctx, "https://down.example/users/cat/inbox", failure);
    await flushDeliveryHealth(s.ctx);
    noteDelivery(s.ctx, "https://down.example/users/cat/inbox", failure);

    let page = await web.get("/admin/instances");
    const peer = rowFor(page, "data-domain", "peer.example");
    assert.ok(peer);
    const cells = peer.querySelectorAll("td").map((td) => td.text.trim());
    assert.deepEqual(cells.slice(1, 5), ["2", "1", "0", "1"]);
    assert.match(cells[6], /Delivering/);
    assert.match(rowFor(page, "data-domain", "down.example")?.text ?? "", /2 failures in a row/);
    assert.match(rowFor(page, "data-domain", "evil.example")?.text ?? "", /Suspend/);

    page = await web.get("/admin/instances?failing=1");
    assert.deepEqual(
      page.doc.querySelectorAll("tr[data-domain]").map((r) => r.getAttribute("data-domain")),
      ["down.example"],
    );
    page = await web.get("/admin/instances?blocked=1");
    assert.deepEqual(
      page.doc.querySelectorAll("tr[data-domain]").map((r) => r.getAttribute("data-domain")),
      ["evil.example"],
    );
    page = await web.get("/admin/instances?q=PEER");
    assert.deepEqual(
      page.doc.querySelectorAll("tr[data-domain]").map((r) => r.getAttribute("data-domain")),
      ["peer.example"],
    );

    // One server: its health and queued deliveries (one delivery waiting for a later run).
    await s.ctx.queue.enqueue(
      "federation.outbox",
      { type: "outbox", inbox: "https://down.example/users/cat/inbox", activityId: "https://x/1" },
      { runAt: new Date(Date.now() + 86_400_000) },
    );
    page = await web.get("/admin/instances/down.example");
    assert.equal(page.status, 200);
    assert.match(textOf(page.doc, ".last-success"), /Never/);
    assert.match(textOf(page.doc, ".last-failure"), /HTTP 503/);
    assert.equal(textOf(page.doc, ".failures"), "2");
    assert.match(textOf(page.doc, ".totals"), /0 delivered, 2 failed/);
    assert.match(textOf(page.doc, ".queued"), /^1 waiting, 0 retrying/);
    assert.ok(page.doc.querySelector('a[href="/admin/domain_blocks/new?domain=down.example"]'));
    page = await web.get("/admin/instances/peer.example");
    assert.doesNotMatch(textOf(page.doc, ".last-success"), /Never/);
    assert.equal(textOf(page.doc, ".failures"), "0");
    assert.match(textOf(page.doc, ".last-failure"), /ECONNREFUSED/);
    assert.match(textOf(page.doc, ".queued"), /^0 waiting/);
    assert.equal((await web.get("/admin/instances/not%20a%20domain")).status, 404);
  });

  it("a delivery job records its outcome: a refused delivery and then one that worked show on the server's page", async () => {
    const remote = await startFakeActor();
    try {
      await s.createUser("sender");
      const federation = await s.ctx.federation();
      const base = s.ctx.config.baseUrl;
      const fctx = federation.createContext(new URL(base), s.ctx);
      const send = async (n: number) => {
        const id = `${base}/users/sender/statuses/${n}`;
        await fctx.sendActivity(
          { identifier: "sender" },
          { id: new URL(remote.actorId), inboxId: new URL(remote.inbox) },
          new Create({
            id: new URL(`${id}/activity`),
            actor: fctx.getActorUri("sender"),
            object: new Note({
              id: new URL(id),
              content: "hi",
              attribution: fctx.getActorUri("sender"),
              to: PUBLIC_COLLECTION,
            }),
            to: PUBLIC_COLLECTION,
          }),
        );
      };
      const host = new URL(remote.origin).host;
      // 410: a permanent failure, the job ends at once.
      // Once: a 410 is not knocked again with the other signature spec (only a 400, 401 or 403
      // is: federation/delivery-send.ts).
      remote.failNext.push(410);
      await send(1);
      await s.settle({ allowDead: true, delayed: false });
      let page = await web.get(`/admin/instances/${encodeURIComponent(host)}`);
      assert.equal(page.status, 200);
      assert.match(textOf(page.doc, ".last-failure"), /HTTP 410/);
      assert.match(textOf(page.doc, ".last-success"), /Never/);
      assert.equal(textOf(page.doc, ".failures"), "1");

      await send(2);
      await s.settle({ delayed: false });
      assert.equal(remote.received.length, 2);
      page = await web.get(`/admin/instances/${encodeURIComponent(host)}`);
      assert.doesNotMatch(textOf(page.doc, ".last-success"), /Never/);
      assert.equal(textOf(page.doc, ".failures"), "0");
      assert.match(textOf(page.doc, ".totals"), /1 delivered, 1 failed/);
      page = await web.get(`/admin/instances?q=${encodeURIComponent(host)}`);
      assert.match(rowFor(page, "data-domain", host)?.text ?? "", /Delivering/);
    } finally {
      await remote.close();
    }
  });
});
