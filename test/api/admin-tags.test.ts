import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

describe("Admin API: hashtags", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let readOnly: TestUser;
  let alice: TestUser;
  const ids: Record<string, string> = {};

  const req = (u: TestUser | undefined, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json: json ?? (method === "GET" ? undefined : {}) });
  const postStatus = (text: string, more: Record<string, unknown> = {}) =>
    req(alice, "/api/v1/statuses", "POST", { status: text, ...more });
  const logFor = (id: string) => s.ctx.repos.adminActionLogs.page({ targetType: "Tag", targetId: id }, { limit: 10 });
  const searchTags = async (q: string) => {
    const r = await req(alice, `/api/v2/search?type=hashtags&q=${encodeURIComponent(q)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.hashtags.map((t: { name: string }) => t.name.toLowerCase());
  };

  before(async () => {
    s = await startTestServer({});
    owner = await s.createUser("own", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    readOnly = await s.createUser("ro", { role: "Admin", scopes: "read admin:read" });
    alice = await s.createUser("alice");
    for (const text of ["un #Café", "deux #spamword", "trois #hiddenthing and #hiddenother"]) {
      const r = await postStatus(text);
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    for (const name of ["cafe", "spamword", "hiddenthing", "hiddenother"]) {
      const tag = await s.ctx.repos.statuses.getTag(name);
      assert.ok(tag, name);
      ids[name] = tag.id;
    }
  });
  after(() => s.close());

  it("lists every tag newest first as Admin::Tag, paginated with Link", async () => {
    const r = await req(admin, "/api/v1/admin/tags");
    const list = expectEntity<any[]>(r, ["AdminTag"], "admin tags");
    assert.deepEqual(
      list.map((t) => t.id),
      [ids.hiddenother, ids.hiddenthing, ids.spamword, ids.cafe].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1)),
    );
    const cafe = list.find((t) => t.id === ids.cafe);
    assert.equal(cafe.name, "Café", "the display name, as first written");
    assert.equal(cafe.url, `${s.ctx.config.baseUrl}/tags/cafe`);
    assert.equal(cafe.history.length, 7);
    assert.equal(cafe.history[0].uses, "1");
    assert.deepEqual([cafe.trendable, cafe.usable, cafe.listable, cafe.requires_review], [false, true, true, true]);

    const first = await req(admin, "/api/v1/admin/tags?limit=2");
    assert.equal(first.body.length, 2);
    const link = first.headers.get("link") ?? "";
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    assert.ok(next, link);
    assert.match(link, /rel="prev"/);
    const second = await req(admin, new URL(next).pathname + new URL(next).search);
    assert.deepEqual(
      [...first.body, ...second.body].map((t: { id: string }) => t.id),
      list.map((t) => t.id),
    );
  });

  it("shows one tag; an unknown or malformed id is 404", async () => {
    const r = await req(owner, `/api/v1/admin/tags/${ids.spamword}`);
    assert.equal(expectEntity(r, "AdminTag", "admin tag").name, "spamword");
    assert.equal((await req(admin, "/api/v1/admin/tags/999999999")).status, 404);
    assert.equal((await req(admin, "/api/v1/admin/tags/nope")).status, 404);
    assert.equal((await req(admin, "/api/v1/admin/tags/999999999", "PUT", { usable: false })).status, 404);
  });

  it("changes the display name only to a case or accent variant (else 422, nothing changed), and logs update/Tag", async () => {
    const r = await req(admin, `/api/v1/admin/tags/${ids.cafe}`, "PUT", { display_name: "CAFE" });
    const tag = expectEntity(r, "AdminTag", "updated tag");
    assert.equal(tag.name, "CAFE");
    assert.equal(tag.requires_review, false, "a moderator reviewed it");
    const [entry] = await logFor(ids.cafe);
    assert.ok(entry);
    assert.deepEqual([entry.action, entry.targetType, entry.accountId], ["update", "Tag", admin.account.id]);
    assert.match(entry.summary, /^@adm updated the hashtag #CAFE/);

    for (const [displayName, error] of [
      ["coffee", "Validation failed: Display name does not match the previous name"],
      ["ca fe", "Validation failed: Display name is invalid"],
      ["", "Validation failed: Display name is invalid, Display name does not match the previous name"],
    ]) {
      const bad = await req(admin, `/api/v1/admin/tags/${ids.cafe}`, "PUT", { display_name: displayName });
      assert.equal(bad.status, 422, JSON.stringify(bad.body));
      assert.equal(bad.body.error, error);
    }
    assert.equal((await logFor(ids.cafe)).length, 1, "refused changes are not logged");
    assert.equal((await req(admin, `/api/v1/admin/tags/${ids.cafe}`)).body.name, "CAFE");
    const accented = await req(admin, `/api/v1/admin/tags/${ids.cafe}`, "PUT", { display_name: "Café" });
    assert.equal(accented.body.name, "Café");
  });

  it("an unusable tag refuses new posts, edits and scheduled posts with Mastodon's 422; usable again allows them", async () => {
    const r = await req(admin, `/api/v1/admin/tags/${ids.spamword}`, "PUT", { usable: false, trendable: "true" });
    const tag = expectEntity(r, "AdminTag", "unusable tag");
    assert.deepEqual([tag.usable, tag.trendable, tag.listable], [false, true, true]);
    const before = (await req(alice, `/api/v1/accounts/${alice.account.id}/statuses`)).body.length;

    const refused = await postStatus("buy now #SpamWord");
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error, "Validation failed: Text contained a disallowed hashtag: spamword");
    const scheduled = await postStatus("later #spamword", {
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    assert.equal(scheduled.status, 422, JSON.stringify(scheduled.body));
    const fine = await postStatus("nothing to see");
    assert.equal(fine.status, 200);
    const edit = await req(alice, `/api/v1/statuses/${fine.body.id}`, "PUT", { status: "now #spamword" });
    assert.equal(edit.status, 422);
    assert.match(edit.body.error, /disallowed hashtag: spamword/);
    const after = (await req(alice, `/api/v1/accounts/${alice.account.id}/statuses`)).body;
    assert.equal(after.length, before + 1, "only the clean post was stored");
    assert.equal(after[0].content.includes("spamword"), false, "the edit changed nothing");

    await req(admin, `/api/v1/admin/tags/${ids.hiddenother}`, "PUT", { usable: false });
    const two = await postStatus("#hiddenother #spamword");
    assert.equal(two.body.error, "Validation failed: Text contained the disallowed hashtags: hiddenother, spamword");
    await req(admin, `/api/v1/admin/tags/${ids.hiddenother}`, "PUT", { usable: true });

    const reset = await req(admin, `/api/v1/admin/tags/${ids.spamword}`, "PUT", { usable: "" });
    assert.equal(reset.body.usable, true, "empty: back to the default");
    assert.equal((await postStatus("fine again #spamword")).status, 200);
    const actions = await logFor(ids.spamword);
    assert.equal(actions.length, 2);
    assert.match(actions[1]?.summary ?? "", /usable: no, trendable: yes/);
  });

  it("an unlisted tag stays out of hashtag search and featured-tag suggestions", async () => {
    assert.deepEqual((await searchTags("hidden")).sort(), ["hiddenother", "hiddenthing"]);
    const suggested = async () =>
      (await req(alice, "/api/v1/featured_tags/suggestions")).body.map((t: { name: string }) => t.name);
    assert.ok((await suggested()).includes("hiddenthing"));

    const r = await req(admin, `/api/v1/admin/tags/${ids.hiddenthing}`, "PUT", { listable: false });
    assert.equal(r.body.listable, false);
    assert.deepEqual(await searchTags("hidden"), ["hiddenother"]);
    assert.deepEqual(await searchTags("hiddenthing"), [], "not even by its exact name");
    assert.equal((await suggested()).includes("hiddenthing"), false);
    assert.equal((await postStatus("still usable #hiddenthing")).status, 200, "unlisted is not unusable");

    await req(admin, `/api/v1/admin/tags/${ids.hiddenthing}`, "PUT", { listable: true });
    assert.deepEqual((await searchTags("hidden")).sort(), ["hiddenother", "hiddenthing"]);
  });

  it("exclude_unreviewed keeps the exact match and reviewed tags", async () => {
    const r = await req(alice, "/api/v2/search?type=hashtags&exclude_unreviewed=true&q=hidden");
    const names = r.body.hashtags.map((t: { name: string }) => t.name);
    assert.ok(names.includes("hiddenthing") && names.includes("hiddenother"), "both were reviewed above");
    const fresh = await postStatus("#hiddennew");
    assert.equal(fresh.status, 200);
    const again = await req(alice, "/api/v2/search?type=hashtags&exclude_unreviewed=true&q=hidden");
    assert.equal(
      again.body.hashtags.some((t: { name: string }) => t.name === "hiddennew"),
      false,
    );
    const exact = await req(alice, "/api/v2/search?type=hashtags&exclude_unreviewed=true&q=hiddennew");
    assert.deepEqual(
      exact.body.hashtags.map((t: { name: string }) => t.name),
      ["hiddennew"],
    );
  });

  it("refuses a switch that is no boolean with 422 and changes nothing", async () => {
    const r = await req(admin, `/api/v1/admin/tags/${ids.cafe}`, "PUT", { usable: "maybe" });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal((await req(admin, `/api/v1/admin/tags/${ids.cafe}`)).body.usable, true);
  });

  it("needs Manage Taxonomies: Owner and Admin may; Moderator, non-staff 403; admin:read cannot write; no token 401", async () => {
    const paths: [string, string][] = [
      ["GET", "/api/v1/admin/tags"],
      ["GET", `/api/v1/admin/tags/${ids.cafe}`],
      ["PUT", `/api/v1/admin/tags/${ids.cafe}`],
    ];
    for (const [method, path] of paths) {
      for (const u of [owner, admin]) assert.equal((await req(u, path, method)).status, 200, `${method} ${path}`);
      assert.equal((await req(moderator, path, method)).status, 403, `${method} ${path}: moderator`);
      assert.equal((await req(plain, path, method)).status, 403, `${method} ${path}: no role`);
      assert.equal((await req(undefined, path, method)).status, 401, `${method} ${path}: no token`);
    }
    assert.equal((await req(readOnly, "/api/v1/admin/tags")).status, 200);
    assert.equal((await req(readOnly, `/api/v1/admin/tags/${ids.cafe}`, "PUT", { usable: false })).status, 403);
    assert.equal((await req(admin, `/api/v1/admin/tags/${ids.cafe}`)).body.usable, true);
  });
});
