import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { COMMAND_LINE } from "../../src/services/moderation/action-log.ts";
import { blockCanonicalEmail, canonicalEmail } from "../../src/services/moderation/sign-up-blocks.ts";
import { assertOnlyBlockManagers, createStaff, logEntries, type Staff, signUp } from "../fixtures/admin-blocks.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const BASE = "/api/v1/admin/canonical_email_blocks";
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("Admin API: canonical e-mail blocks", () => {
  let s: TestServer;
  let staff: Staff;
  let app: string;

  const create = (json: Record<string, unknown>, token = staff.admin.token) =>
    s.request(BASE, { method: "POST", token, json });
  const test = (email: unknown, token = staff.admin.token) =>
    s.request(`${BASE}/test`, { method: "POST", token, json: { email } });
  const count = async () => (await s.request(`${BASE}?limit=200`, { token: staff.owner.token })).body.length;

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open" });
    staff = await createStaff(s);
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("canonicalises as Mastodon: lower case, dots and +suffix dropped from the local part", () => {
    assert.equal(canonicalEmail("J.Doe+x@Example.com"), "jdoe@example.com");
    assert.equal(canonicalEmail("jdoe@example.com"), "jdoe@example.com");
    assert.equal(canonicalEmail("a.b.c+d+e@Mail.Example"), "abc@mail.example");
    // Dots in the domain stay.
    assert.equal(canonicalEmail("x@a.b.example"), "x@a.b.example");
  });

  it("blocks by e-mail: answers the hash of the canonical address, and logs it", async () => {
    const r = await create({ email: "jdoe@example.com" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), ["canonical_email_hash", "id"]);
    assert.equal(r.body.canonical_email_hash, sha("jdoe@example.com"));
    const [entry] = await logEntries(s, "CanonicalEmailBlock");
    assert.equal(entry?.action, "create");
    assert.equal(entry?.targetId, r.body.id);
    assert.equal(entry?.accountId, staff.admin.account.id);
    const one = await s.request(`${BASE}/${r.body.id}`, { token: staff.owner.token });
    assert.deepEqual(one.body, r.body);
  });

  it("blocks by hash, lower-casing it", async () => {
    const hash = sha("mallory@example.net");
    const r = await create({ canonical_email_hash: hash.toUpperCase() });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.canonical_email_hash, hash);
  });

  it("tests an address against the blocks (every variant of the canonical address matches)", async () => {
    for (const variant of ["J.Doe+x@Example.com", "jdoe@example.com", "JDOE@EXAMPLE.COM", "j.d.o.e+a+b@example.com"]) {
      const r = await test(variant);
      assert.equal(r.status, 200);
      assert.equal(r.body.length, 1, variant);
      assert.equal(r.body[0].canonical_email_hash, sha("jdoe@example.com"));
    }
    assert.deepEqual((await test("jdoe@example.org")).body, []);
    assert.deepEqual((await test("jdoex@example.com")).body, []);
    assert.equal((await test(undefined)).status, 400);
  });

  it("refuses sign-ups with a matching address as Mastodon does (the e-mail is taken)", async () => {
    for (const email of ["J.Doe+x@Example.com", "jdoe@example.com", "mallory@example.net", "Mal.Lory+z@example.net"]) {
      const r = await signUp(s, app, email, { ip: `198.51.100.${email.length}` });
      assert.equal(r.status, 422, `${email}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body.details.email, [{ error: "ERR_TAKEN", description: "is already taken" }]);
    }
    const ok = await signUp(s, app, "jdoe2@example.com");
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it("refuses an e-mail change to a blocked address", async () => {
    const r = await signUp(s, app, "frank@example.org");
    assert.equal(r.status, 200);
    const change = await s.request("/api/v1/emails/confirmations", {
      token: r.body.access_token,
      json: { email: "j.doe@example.com" },
    });
    assert.equal(change.status, 422, JSON.stringify(change.body));
    assert.equal(change.body.details.email[0].error, "ERR_TAKEN");
  });

  it("blockCanonicalEmail (for suspensions) names the account, logs, and answers an existing block", async () => {
    const victim = await s.createUser("spammer");
    const block = await blockCanonicalEmail(s.ctx, COMMAND_LINE, "Spam.Mer+1@Example.org", victim.account.id);
    assert.equal(block.canonicalEmailHash, sha("spammer@example.org"));
    assert.equal(block.referenceAccountId, victim.account.id);
    const [entry] = await logEntries(s, "CanonicalEmailBlock");
    assert.equal(entry?.targetId, block.id);
    assert.equal(entry?.accountId, null);
    const again = await blockCanonicalEmail(s.ctx, COMMAND_LINE, "spammer@example.org", null);
    assert.equal(again.id, block.id);
    assert.equal((await test("spammer+x@example.org")).body[0].id, block.id);
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    const before = await count();
    const logged = (await logEntries(s, "CanonicalEmailBlock")).length;
    for (const [json, error] of [
      [{}, "Validation failed: Canonical email hash can't be blank"],
      [{ email: "" }, "Validation failed: Canonical email hash can't be blank"],
      [{ canonical_email_hash: "abc" }, "Validation failed: Canonical email hash is invalid"],
      [{ canonical_email_hash: "z".repeat(64) }, "Validation failed: Canonical email hash is invalid"],
      [{ email: "JDoe@example.com" }, "Validation failed: Canonical email hash has already been taken"],
      [{ email: { x: 1 } }, undefined],
    ] as const) {
      const r = await create(json);
      assert.equal(r.status, 422, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
      if (error) assert.equal(r.body.error, error);
    }
    assert.equal(await count(), before);
    assert.equal((await logEntries(s, "CanonicalEmailBlock")).length, logged);
    assert.equal((await s.request(`${BASE}/12345`, { token: staff.owner.token })).status, 404);
  });

  it("lists newest first with Link, and deletes with {} (logged; the address may sign up again)", async () => {
    const page = await s.request(`${BASE}?limit=1`, { token: staff.owner.token });
    assert.equal(page.body.length, 1);
    assert.match(page.headers.get("link") ?? "", /rel="next"/);
    const all = (await s.request(BASE, { token: staff.owner.token })).body;
    assert.equal(all[0].id, page.body[0].id);
    const target = all.find(
      (b: { canonical_email_hash: string }) => b.canonical_email_hash === sha("jdoe@example.com"),
    );
    const r = await s.request(`${BASE}/${target.id}`, { method: "DELETE", token: staff.owner.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {});
    const [entry] = await logEntries(s, "CanonicalEmailBlock");
    assert.equal(entry?.action, "destroy");
    assert.equal(entry?.targetId, target.id);
    assert.equal((await signUp(s, app, "J.Doe+x@Example.com")).status, 200);
  });

  it("is open to Owner and Admin only (Manage Blocks)", async () => {
    let n = 0;
    await assertOnlyBlockManagers(s, staff, (token) => s.request(BASE, { token }));
    await assertOnlyBlockManagers(s, staff, (token) =>
      s.request(`${BASE}/test`, { method: "POST", token, json: { email: "a@b.example" } }),
    );
    await assertOnlyBlockManagers(s, staff, async (token) => {
      n += 1;
      return s.request(BASE, { method: "POST", token, json: { email: `perm${n}@example.com` } });
    });
    const created = await test("perm1@example.com");
    assert.equal((await test("perm3@example.com")).body.length, 0, "a moderator's request created nothing");
    await assertOnlyBlockManagers(s, staff, (token) => s.request(`${BASE}/${created.body[0].id}`, { token }));
    const ids = [created.body[0].id, (await test("perm2@example.com")).body[0].id];
    await assertOnlyBlockManagers(s, staff, async (token) => {
      const id = token === staff.owner.token || token === staff.admin.token ? ids.pop() : "1";
      return s.request(`${BASE}/${id}`, { method: "DELETE", token });
    });
  });
});
