import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { Browser, formFields, submitSignIn } from "./oauth-browser.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";
const BLOCK_KEYS = [
  "id",
  "domain",
  "digest",
  "created_at",
  "severity",
  "reject_media",
  "reject_reports",
  "private_comment",
  "public_comment",
  "obfuscate",
];

describe("Admin API: domain blocks", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let readOnly: TestUser;

  const req = (u: TestUser | undefined, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json: json ?? (method === "GET" ? undefined : {}) });
  const create = async (json: Record<string, unknown>, u: TestUser = admin) => {
    const r = await req(u, "/api/v1/admin/domain_blocks", "POST", json);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const remote = async (username: string, domain: string, extra: Record<string, unknown> = {}) => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain,
      uri: `https://${domain}/users/${username}`,
      created_at: now,
      updated_at: now,
      ...extra,
    });
    return id;
  };
  const account = async (id: string) => {
    const a = await s.ctx.repos.accounts.getById(id);
    assert.ok(a);
    return a;
  };
  const log = async (targetId: string) =>
    (await s.ctx.repos.adminActionLogs.page({ targetId }, { limit: 10 })).map((e) => [
      e.action,
      e.targetType,
      e.accountId,
      e.summary,
    ]);

  before(async () => {
    s = await startTestServer({});
    owner = await s.createUser("own", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    readOnly = await s.createUser("reader", { role: "Admin", scopes: "read admin:read:domain_blocks" });
  });
  after(() => s.close());

  it("creates, shows, lists (with Link), changes and deletes blocks, each in the action log", async () => {
    const b = await create({
      domain: "Spam.Example",
      severity: "noop",
      reject_media: "1",
      private_comment: "for mods",
      public_comment: "spam",
      obfuscate: true,
    });
    assert.deepEqual(Object.keys(b).sort(), [...BLOCK_KEYS].sort());
    assert.equal(b.domain, "spam.example");
    assert.equal(b.digest, createHash("sha256").update("spam.example").digest("hex"));
    assert.equal(b.severity, "noop");
    assert.equal(b.reject_media, true);
    assert.equal(b.reject_reports, false);
    assert.equal(b.private_comment, "for mods");
    assert.equal(b.public_comment, "spam");
    assert.equal(b.obfuscate, true);
    // The default severity is silence.
    const second = await create({ domain: "loud.example" });
    assert.equal(second.severity, "silence");

    const one = await req(owner, `/api/v1/admin/domain_blocks/${b.id}`);
    expectEntity(one, "AdminDomainBlock", "GET one block");
    assert.deepEqual(one.body, b);
    const page = await req(owner, "/api/v1/admin/domain_blocks?limit=1");
    expectEntity(page, ["AdminDomainBlock"], "GET blocks");
    assert.deepEqual(
      page.body.map((x: { id: string }) => x.id),
      [second.id],
    );
    assert.match(page.headers.get("link") ?? "", new RegExp(`max_id=${second.id}.*rel="next"`));
    const rest = await req(owner, `/api/v1/admin/domain_blocks?max_id=${second.id}`);
    assert.deepEqual(
      rest.body.map((x: { id: string }) => x.id),
      [b.id],
    );

    const put = await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "PUT", {
      reject_reports: true,
      public_comment: "",
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.reject_reports, true);
    assert.equal(put.body.reject_media, true, "unchanged");
    assert.equal(put.body.public_comment, null);
    assert.equal(put.body.created_at, b.created_at);

    const del = await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE");
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await req(admin, `/api/v1/admin/domain_blocks/${b.id}`)).status, 404);
    assert.equal((await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE")).status, 404);
    assert.deepEqual(await log(b.id), [
      ["destroy", "DomainBlock", admin.account.id, "@adm unblocked domain spam.example"],
      [
        "update",
        "DomainBlock",
        admin.account.id,
        "@adm changed block for domain spam.example (noop, reject media, reject reports)",
      ],
      ["create", "DomainBlock", admin.account.id, "@adm blocked domain spam.example (noop, reject media)"],
    ]);
    await req(admin, `/api/v1/admin/domain_blocks/${second.id}`, "DELETE");
  });

  it("works through masto's admin client", async () => {
    const masto = createRestAPIClient({ url: s.url, accessToken: owner.token });
    const b = await masto.v1.admin.domainBlocks.create({ domain: "masto.example", severity: "suspend" });
    assert.equal(b.severity, "suspend");
    const list = await masto.v1.admin.domainBlocks.list();
    assert.ok(list.some((x) => x.id === b.id));
    await masto.v1.admin.domainBlocks.$select(b.id).remove();
    await s.settle();
  });

  it("refuses a domain already covered with 422 and the existing block; a stricter subdomain block passes", async () => {
    const parent = await create({ domain: "covered.example", severity: "silence", reject_media: true });
    const same = await req(admin, "/api/v1/admin/domain_blocks", "POST", {
      domain: "COVERED.example",
      severity: "suspend",
    });
    assert.equal(same.status, 422);
    assert.equal(same.body.error, "You have already imposed stricter limits on covered.example.");
    assert.deepEqual(same.body.existing_domain_block, parent);
    // A subdomain block no stricter than the parent's: refused.
    for (const json of [
      { domain: "a.covered.example", severity: "silence" },
      { domain: "a.covered.example", severity: "noop", reject_media: true },
      { domain: "a.covered.example", severity: "silence", reject_reports: false },
    ]) {
      const r = await req(admin, "/api/v1/admin/domain_blocks", "POST", json);
      assert.equal(r.status, 422, JSON.stringify(json));
      assert.deepEqual(r.body.existing_domain_block, parent);
    }
    // Stricter: a suspension, or the same severity rejecting reports too.
    const stricter = await create({
      domain: "b.covered.example",
      severity: "silence",
      reject_media: true,
      reject_reports: true,
    });
    assert.equal(stricter.domain, "b.covered.example");
    const suspended = await create({ domain: "c.covered.example", severity: "suspend" });
    // Under a suspended subdomain only another suspension passes (Mastodon's stricter_than?); the
    // nearest covering block is the one answered.
    const under = await req(admin, "/api/v1/admin/domain_blocks", "POST", {
      domain: "x.c.covered.example",
      severity: "silence",
      reject_media: true,
      reject_reports: true,
    });
    assert.equal(under.status, 422);
    assert.equal(under.body.existing_domain_block.id, suspended.id);
    for (const b of [stricter, suspended, parent]) await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE");
    await s.settle();
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    const before = (await req(admin, "/api/v1/admin/domain_blocks")).body.length;
    for (const json of [
      {},
      { domain: "" },
      { domain: "https://x.example/path" },
      { domain: "not a domain" },
      { domain: "ok.example", severity: "nuke" },
      { domain: "ok.example", reject_media: "maybe" },
      { domain: s.ctx.config.localDomain },
    ]) {
      const r = await req(admin, "/api/v1/admin/domain_blocks", "POST", json);
      assert.equal(r.status, 422, JSON.stringify(json));
      assert.equal(typeof r.body.error, "string");
    }
    const b = await create({ domain: "ok.example" });
    const bad = await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "PUT", { severity: "nuke" });
    assert.equal(bad.status, 422);
    assert.equal((await req(admin, `/api/v1/admin/domain_blocks/${b.id}`)).body.severity, "silence");
    assert.equal((await req(admin, "/api/v1/admin/domain_blocks/abc")).status, 404);
    await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE");
    assert.equal((await req(admin, "/api/v1/admin/domain_blocks")).body.length, before);
  });

  it("needs Manage Federation and the scope: Owner and Admin yes, Moderator and others no", async () => {
    const b = await create({ domain: "perm.example", severity: "noop" });
    for (const [u, status] of [
      [owner, 200],
      [admin, 200],
      [moderator, 403],
      [plain, 403],
      [undefined, 401],
    ] as const) {
      assert.equal((await req(u, "/api/v1/admin/domain_blocks")).status, status, u?.account.username);
      assert.equal((await req(u, `/api/v1/admin/domain_blocks/${b.id}`)).status, status);
    }
    for (const u of [moderator, plain, readOnly, undefined]) {
      const expected = u === undefined ? 401 : 403;
      const c = await req(u, "/api/v1/admin/domain_blocks", "POST", { domain: "nope.example" });
      assert.equal(c.status, expected);
      assert.equal(
        (await req(u, `/api/v1/admin/domain_blocks/${b.id}`, "PUT", { severity: "suspend" })).status,
        expected,
      );
      assert.equal((await req(u, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE")).status, expected);
    }
    assert.equal((await req(readOnly, "/api/v1/admin/domain_blocks")).status, 200);
    assert.equal((await req(admin, `/api/v1/admin/domain_blocks/${b.id}`)).body.severity, "noop");
    assert.equal(await s.ctx.repos.instanceDomainBlocks.getByDomain("nope.example"), undefined);
    await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE");
  });

  it("accepts a signed-in admin's session, with its CSRF token for changes (422 and nothing changed without)", async () => {
    const b = new Browser(s);
    assert.equal((await submitSignIn(b, (await b.request("/auth/sign_in")).body, admin)).status, 302);
    const csrf = formFields((await b.request("/auth/sign_in")).body, "/auth/sign_out").authenticity_token;
    assert.ok(csrf);
    assert.equal((await b.request("/api/v1/admin/domain_blocks")).status, 200);
    const refused = await b.request("/api/v1/admin/domain_blocks", {
      method: "POST",
      form: { domain: "session.example" },
    });
    assert.equal(refused.status, 422);
    assert.equal(await s.ctx.repos.instanceDomainBlocks.getByDomain("session.example"), undefined);
    const made = await b.request("/api/v1/admin/domain_blocks", {
      method: "POST",
      form: { domain: "session.example", severity: "noop" },
      headers: { "X-CSRF-Token": csrf },
    });
    assert.equal(made.status, 200, made.body);
    const id = (made.body as unknown as { id: string }).id;
    const gone = await b.request(`/api/v1/admin/domain_blocks/${id}`, {
      method: "DELETE",
      headers: { "X-CSRF-Token": csrf },
    });
    assert.equal(gone.status, 200);
    const logs = await s.ctx.repos.adminActionLogs.page({ targetId: id }, { limit: 10 });
    assert.deepEqual(
      logs.map((e) => [e.action, e.accountId]),
      [
        ["destroy", admin.account.id],
        ["create", admin.account.id],
      ],
    );
  });

  it("limits the accounts the block covers, and a severity change or removal undoes only what it did", async () => {
    const earlier = "2020-01-01T00:00:00.000Z";
    const byBlock = await remote("one", "harsh.example");
    const sub = await remote("two", "sub.harsh.example");
    const loner = await remote("three", "harsh.example", { silenced_at: earlier });
    const outsider = await remote("four", "elsewhere.example");
    const b = await create({ domain: "harsh.example", severity: "silence" });
    assert.equal((await account(byBlock)).silencedAt, b.created_at);
    assert.equal((await account(sub)).silencedAt, b.created_at);
    assert.equal((await account(loner)).silencedAt, earlier, "already silenced: left as it was");
    assert.equal((await account(outsider)).silencedAt, null);

    // silence → noop: the block's silences are lifted, the individual one stays.
    let r = await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "PUT", { severity: "noop" });
    assert.equal(r.status, 200);
    assert.equal((await account(byBlock)).silencedAt, null);
    assert.equal((await account(sub)).silencedAt, null);
    assert.equal((await account(loner)).silencedAt, earlier);

    // An account suspended by its own moderation stays suspended when the block's suspension goes.
    const suspendedAlone = await remote("five", "harsh.example", { suspended_at: earlier, suspension_origin: "local" });
    r = await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "PUT", { severity: "suspend" });
    assert.equal(r.status, 200);
    assert.equal((await account(byBlock)).suspendedAt, b.created_at);
    assert.equal((await account(suspendedAlone)).suspendedAt, earlier);
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("sub.harsh.example"), false);
    await s.settle();

    // suspend → silence: unsuspended, then silenced by the block.
    r = await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "PUT", { severity: "silence" });
    assert.equal(r.status, 200);
    const back = await account(byBlock);
    assert.equal(back.suspendedAt, null);
    assert.equal(back.silencedAt, b.created_at);
    assert.equal((await account(suspendedAlone)).suspendedAt, earlier);
    assert.equal(await s.ctx.repos.instanceDomainBlocks.isDeliveryAllowed("sub.harsh.example"), true);

    // Removal lifts the block's silences only.
    await req(admin, `/api/v1/admin/domain_blocks/${b.id}`, "DELETE");
    assert.equal((await account(byBlock)).silencedAt, null);
    assert.equal((await account(sub)).silencedAt, null);
    assert.equal((await account(loner)).silencedAt, earlier);
    assert.equal((await account(suspendedAlone)).suspendedAt, earlier);
    await s.settle();
  });
});
