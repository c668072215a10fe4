import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { addCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// Timelines answer from kept JSON texts of statuses and accounts (services/statuses/views-text.ts):
// every change must show at once, and the text must be the same JSON as the single-status answer.
describe("timelines: kept status and account JSON", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  const local = async (u: TestUser) => {
    const r = await s.request("/api/v1/timelines/public?local=true&limit=40", { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(String(r.headers.get("content-type")), /^application\/json/);
    return r.body as Record<string, any>[];
  };
  const entry = async (u: TestUser, id: string) => {
    const found = (await local(u)).find((x) => x.id === id);
    assert.ok(found, `status ${id} is on the timeline`);
    return found;
  };
  const post = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { id: string };
  };
  const single = async (u: TestUser, id: string) =>
    (await s.request(`/api/v1/statuses/${id}`, { token: u.token })).body;

  /** The same JSON, members in the same order. */
  const sameJson = (a: unknown, b: unknown) => assert.equal(JSON.stringify(a), JSON.stringify(b));

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
  });
  after(() => s.close());

  it("is the same JSON as the status itself, viewer flags included", async () => {
    const { id } = await post(alice, { status: "hello #kept @bob" });
    await s.request(`/api/v1/statuses/${id}/favourite`, { method: "POST", token: bob.token });
    for (let round = 0; round < 2; round++) {
      sameJson(await entry(bob, id), await single(bob, id));
      sameJson(await entry(carol, id), await single(carol, id));
    }
    assert.equal((await entry(bob, id)).favourited, true);
    assert.equal((await entry(carol, id)).favourited, false);
    assert.equal((await entry(carol, id)).favourites_count, 1);
  });

  it("shows an edit, a new count and an account change at once", async () => {
    const { id } = await post(alice, { status: "first words" });
    await local(bob);
    await local(bob);
    const edit = await s.request(`/api/v1/statuses/${id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "second words" },
    });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    let e = await entry(bob, id);
    assert.match(e.content, /second words/);
    assert.notEqual(e.edited_at, null);
    await s.request(`/api/v1/statuses/${id}/reblog`, { method: "POST", token: carol.token });
    e = await entry(bob, id);
    assert.equal(e.reblogs_count, 1);
    const upd = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      json: { display_name: "Alice Renamed" },
    });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    e = await entry(bob, id);
    assert.equal(e.account.display_name, "Alice Renamed");
    // A change written behind the server's back (another process, an admin's SQL) shows too.
    await s.ctx.db
      .updateTable("accounts")
      .set({ display_name: "Written Elsewhere" })
      .where("id", "=", alice.account.id)
      .execute();
    await s.ctx.db.updateTable("statuses").set({ content: "<p>rewritten</p>" }).where("id", "=", id).execute();
    e = await entry(bob, id);
    assert.equal(e.account.display_name, "Written Elsewhere");
    assert.equal(e.content, "<p>rewritten</p>");
    sameJson(e, await single(bob, id));
  });

  it("shows a custom emoji added after the post, and a boost with its original", async () => {
    const { id } = await post(alice, { status: "look :keptcat:" });
    assert.deepEqual((await entry(bob, id)).emojis, []);
    const png = new Uint8Array(
      await sharp({ create: { width: 16, height: 16, channels: 4, background: "#3366ff" } })
        .png()
        .toBuffer(),
    );
    await addCustomEmoji(s.ctx, { shortcode: "keptcat", data: png });
    assert.deepEqual(
      (await entry(bob, id)).emojis.map((x: { shortcode: string }) => x.shortcode),
      ["keptcat"],
    );
    await s.follow(bob, carol);
    const boost = await s.request(`/api/v1/statuses/${id}/reblog`, { method: "POST", token: carol.token });
    assert.equal(boost.status, 200);
    for (let i = 0; i < 250; i++) {
      const home = (await s.request("/api/v1/timelines/home", { token: bob.token })).body as { id: string }[];
      if (home.some((x) => x.id === boost.body.id)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const home = (await s.request("/api/v1/timelines/home", { token: bob.token })).body as { id: string }[];
    const shown = home.find((x) => x.id === boost.body.id);
    sameJson(shown, await single(bob, boost.body.id));
  });

  it("keeps notifications the same JSON as one notification", async () => {
    await post(carol, { status: "@bob ping" });
    for (let i = 0; i < 250; i++) {
      const list = (await s.request("/api/v1/notifications", { token: bob.token })).body as { type: string }[];
      if (list.some((n) => n.type === "mention")) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const list = (await s.request("/api/v1/notifications", { token: bob.token })).body as { id: string }[];
    assert.ok(list.length > 0);
    for (const n of list) {
      sameJson(n, (await s.request(`/api/v1/notifications/${n.id}`, { token: bob.token })).body);
    }
  });
});
