import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertOnlyBlockManagers, createStaff, logEntries, type Staff, signUp } from "../fixtures/admin-blocks.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const BASE = "/api/v1/admin/email_domain_blocks";
const KEYS = ["allow_with_approval", "created_at", "domain", "history", "id"];

describe("Admin API: e-mail domain blocks", () => {
  let s: TestServer;
  let staff: Staff;
  let app: string;

  const create = (json: Record<string, unknown>, token = staff.admin.token) =>
    s.request(BASE, { method: "POST", token, json });
  const count = async () => (await s.request(`${BASE}?limit=200`, { token: staff.owner.token })).body.length;

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open" });
    staff = await createStaff(s);
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("creates a block as Mastodon renders it, with seven empty days of history, and logs it", async () => {
    const r = await create({ domain: "Spam.Example" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), KEYS);
    assert.equal(r.body.domain, "spam.example");
    assert.equal(r.body.allow_with_approval, false);
    assert.equal(r.body.history.length, 7);
    const today = Math.floor(Date.now() / 86_400_000) * 86_400;
    assert.deepEqual(r.body.history[0], { day: String(today), accounts: "0", uses: "0" });
    assert.equal(r.body.history[6].day, String(today - 6 * 86_400));
    const [entry] = await logEntries(s, "EmailDomainBlock");
    assert.equal(entry?.action, "create");
    assert.equal(entry?.targetId, r.body.id);
    assert.equal(entry?.accountId, staff.admin.account.id);
    assert.match(entry?.summary ?? "", /^@admin_ann blocked e-mail domain spam\.example/);
    const one = await s.request(`${BASE}/${r.body.id}`, { token: staff.owner.token });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, r.body);
  });

  it("refuses a sign-up from the domain and from its subdomains with Mastodon's ERR_BLOCKED, and counts them", async () => {
    for (const email of ["eve@spam.example", "eve2@mail.SPAM.example"]) {
      const r = await signUp(s, app, email, { ip: `198.51.100.${email.length}` });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(r.body.details.email, [
        { error: "ERR_BLOCKED", description: "uses a disallowed e-mail provider" },
      ]);
      assert.equal(r.body.error, "Validation failed: Email uses a disallowed e-mail provider");
      assert.equal(await s.ctx.repos.users.getByEmail(email.toLowerCase()), undefined);
    }
    // A domain that merely ends in the same letters is not a subdomain.
    const ok = await signUp(s, app, "adam@notspam.example");
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const [block] = (await s.request(BASE, { token: staff.owner.token })).body;
    assert.equal(block.domain, "spam.example");
    assert.deepEqual(block.history[0], { day: block.history[0].day, accounts: "2", uses: "2" });
  });

  it("refuses an e-mail change to a blocked domain (POST /api/v1/emails/confirmations)", async () => {
    const r = await signUp(s, app, "carol@fine.example");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const change = await s.request("/api/v1/emails/confirmations", {
      token: r.body.access_token,
      json: { email: "carol@sub.spam.example" },
    });
    assert.equal(change.status, 422, JSON.stringify(change.body));
    assert.equal(change.body.details.email[0].error, "ERR_BLOCKED");
    const user = await s.ctx.repos.users.getByEmail("carol@fine.example");
    assert.equal(user?.unconfirmedEmail, null);
    const fine = await s.request("/api/v1/emails/confirmations", {
      token: r.body.access_token,
      json: { email: "carol@other.example" },
    });
    assert.equal(fine.status, 200, JSON.stringify(fine.body));
  });

  it("refuses to confirm a new address whose domain was blocked after the change was asked for", async () => {
    const r = await signUp(s, app, "gina@fine.example");
    assert.equal(r.status, 200);
    const change = await s.request("/api/v1/emails/confirmations", {
      token: r.body.access_token,
      json: { email: "gina@later.example" },
    });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    const mail = s.ctx.mailer.recent.findLast((m) => m.to === "gina@later.example");
    const token = /confirmation_token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    assert.ok(token);
    assert.equal((await create({ domain: "later.example" })).status, 200);
    await s.request(`/auth/confirmation?confirmation_token=${token}`);
    const stored = await s.ctx.repos.users.getByEmail("gina@fine.example");
    assert.equal(stored?.email, "gina@fine.example");
    assert.equal(stored?.unconfirmedEmail, null);
    assert.equal(await s.ctx.repos.users.getByEmail("gina@later.example"), undefined);
  });

  it("with allow_with_approval puts the sign-up in the approval queue instead", async () => {
    const r = await create({ domain: "maybe.example", allow_with_approval: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.allow_with_approval, true);
    const up = await signUp(s, app, "dan@sub.maybe.example", { ip: "198.51.100.40" });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const user = await s.ctx.repos.users.getByEmail("dan@sub.maybe.example");
    assert.equal(user?.approved, false);
    const other = await signUp(s, app, "dora@elsewhere.example");
    assert.equal(other.status, 200);
    assert.equal((await s.ctx.repos.users.getByEmail("dora@elsewhere.example"))?.approved, true);
    const one = await s.request(`${BASE}/${r.body.id}`, { token: staff.owner.token });
    assert.equal(one.body.history[0].uses, "1");
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    const before = await count();
    const logged = (await logEntries(s, "EmailDomainBlock")).length;
    for (const [json, error] of [
      [{}, "Validation failed: Domain can't be blank"],
      [{ domain: "" }, "Validation failed: Domain can't be blank"],
      [{ domain: "not a domain" }, "Validation failed: Domain is invalid"],
      [{ domain: "a@b.example" }, "Validation failed: Domain is invalid"],
      [{ domain: "SPAM.example" }, "Validation failed: Domain has already been taken"],
      [{ domain: ["x.example"] }, undefined],
      [{ domain: "ok.example", allow_with_approval: "perhaps" }, undefined],
    ] as const) {
      const r = await create(json);
      assert.equal(r.status, 422, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
      if (error) assert.equal(r.body.error, error);
    }
    assert.equal(await count(), before);
    assert.equal((await logEntries(s, "EmailDomainBlock")).length, logged);
    assert.equal((await s.request(`${BASE}/99999`, { token: staff.owner.token })).status, 404);
    assert.equal((await s.request(`${BASE}/abc`, { token: staff.owner.token })).status, 404);
    assert.equal((await s.request(`${BASE}/99999`, { method: "DELETE", token: staff.owner.token })).status, 404);
  });

  it("lists newest first, paginated with Link", async () => {
    for (const d of ["p1.example", "p2.example", "p3.example"]) assert.equal((await create({ domain: d })).status, 200);
    const all = await s.request(BASE, { token: staff.owner.token });
    assert.equal(all.body[0].domain, "p3.example");
    const page = await s.request(`${BASE}?limit=2`, { token: staff.owner.token });
    assert.deepEqual(
      page.body.map((b: { domain: string }) => b.domain),
      ["p3.example", "p2.example"],
    );
    const link = page.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${page.body[1].id}[^>]*>; rel="next"`));
    const next = await s.request(`${BASE}?limit=2&max_id=${page.body[1].id}`, { token: staff.owner.token });
    assert.equal(next.body[0].domain, "p1.example");
  });

  it("deletes a block with {}, logs it, and the domain may sign up again", async () => {
    const [block] = (await s.request(`${BASE}?limit=200`, { token: staff.owner.token })).body.filter(
      (b: { domain: string }) => b.domain === "spam.example",
    );
    const r = await s.request(`${BASE}/${block.id}`, { method: "DELETE", token: staff.owner.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    assert.equal((await s.request(`${BASE}/${block.id}`, { token: staff.owner.token })).status, 404);
    const [entry] = await logEntries(s, "EmailDomainBlock");
    assert.equal(entry?.action, "destroy");
    assert.equal(entry?.targetId, block.id);
    assert.equal(entry?.humanIdentifier, "spam.example");
    const up = await signUp(s, app, "eve@spam.example");
    assert.equal(up.status, 200, JSON.stringify(up.body));
  });

  it("is open to Owner and Admin only (Manage Blocks)", async () => {
    let n = 0;
    await assertOnlyBlockManagers(s, staff, (token) => s.request(BASE, { token }));
    await assertOnlyBlockManagers(s, staff, async (token) => {
      n += 1;
      return s.request(BASE, { method: "POST", token, json: { domain: `perm${n}.example` } });
    });
    const { body: list } = await s.request(`${BASE}?limit=200`, { token: staff.owner.token });
    const created = list.filter((b: { domain: string }) => b.domain.startsWith("perm"));
    // Only the owner's and the admin's requests created anything.
    assert.equal(created.length, 2);
    await assertOnlyBlockManagers(s, staff, (token) => s.request(`${BASE}/${created[0].id}`, { token }));
    const ids = created.map((b: { id: string }) => b.id);
    await assertOnlyBlockManagers(s, staff, async (token) => {
      const id = token === staff.owner.token || token === staff.admin.token ? ids.pop() : created[0].id;
      return s.request(`${BASE}/${id}`, { method: "DELETE", token });
    });
  });
});
