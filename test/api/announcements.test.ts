import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import type { BusMessage } from "../../src/infra/bus/interface.ts";
import { ANNOUNCEMENTS_CHANNEL } from "../../src/services/announcements/events.ts";
import {
  createAnnouncement,
  deleteAnnouncement,
  publishAnnouncement,
  unpublishAnnouncement,
} from "../../src/services/announcements/manage.ts";
import { addCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const png = async () =>
  new Uint8Array(
    await sharp({ create: { width: 32, height: 32, channels: 4, background: "#3366ff" } })
      .png()
      .toBuffer(),
  );

const reactionPath = (id: string, name: string) => `/api/v1/announcements/${id}/reactions/${encodeURIComponent(name)}`;

describe("announcements", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const events: BusMessage[] = [];
  let off: () => void;

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    await addCustomEmoji(s.ctx, { shortcode: "blobcat", data: await png() });
    const sub = s.ctx.bus.subscribe(ANNOUNCEMENTS_CHANNEL, (m) => void events.push(m));
    await sub.ready;
    off = sub;
  });
  after(async () => {
    off();
    await s.close();
  });

  /** Waits for background jobs and returns (and forgets) the bus events so far. */
  const drained = async (count: number) => {
    await s.settle();
    const end = Date.now() + 5000;
    while (events.length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return events.splice(0);
  };

  it("lists none at first, and needs a user token (any scope)", async () => {
    const r = await s.request("/api/v1/announcements", { token: alice.token });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, []);
    const bare = await s.request("/api/v1/announcements");
    assert.deepEqual([bare.status, bare.body], [422, { error: "This method requires an authenticated user" }]);
    assert.equal((await s.request("/api/v1/announcements", { token: await s.appToken("read") })).status, 422);
    const profileOnly = await s.createUser("carol", { scopes: "profile" });
    assert.equal((await s.request("/api/v1/announcements", { token: profileOnly.token })).status, 200);
  });

  it("serves Mastodon's Announcement entity, renders the text, and streams `announcement` when published", async () => {
    const a = await createAnnouncement(s.ctx, {
      text: "Maintenance tonight, see https://example.com/status #downtime @bob :blobcat:\nThanks",
      startsAt: "2026-05-01T18:00:00.000Z",
      endsAt: "2026-05-01T20:00:00.000Z",
      allDay: false,
      publish: true,
    });
    const [event] = await drained(1);
    assert.equal(event?.event, "announcement");
    const r = await s.request("/api/v1/announcements", { token: alice.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 1);
    const got = r.body[0];
    assert.deepEqual(Object.keys(got), [
      "id",
      "content",
      "starts_at",
      "ends_at",
      "all_day",
      "published_at",
      "updated_at",
      "read",
      "mentions",
      "statuses",
      "tags",
      "emojis",
      "reactions",
    ]);
    assert.equal(got.id, a.id);
    assert.equal(got.starts_at, "2026-05-01T18:00:00.000Z");
    assert.equal(got.ends_at, "2026-05-01T20:00:00.000Z");
    assert.equal(got.all_day, false);
    assert.equal(got.read, false);
    assert.match(got.published_at, /^\d{4}-\d\d-\d\dT/);
    assert.match(got.content, /^<p>Maintenance tonight, see <a href="https:\/\/example.com\/status"/);
    assert.match(got.content, /class="mention hashtag" rel="tag">#<span>downtime<\/span><\/a>/);
    assert.match(got.content, /class="u-url mention">@<span>bob<\/span><\/a><\/span> :blobcat:<br \/>Thanks<\/p>$/);
    assert.deepEqual(got.mentions, [
      { id: bob.account.id, username: "bob", url: `${s.ctx.config.baseUrl}/@bob`, acct: "bob" },
    ]);
    assert.deepEqual(got.statuses, []);
    assert.deepEqual(got.tags, [{ name: "downtime", url: `${s.ctx.config.baseUrl}/tags/downtime` }]);
    assert.deepEqual(
      got.emojis.map((e: { shortcode: string }) => e.shortcode),
      ["blobcat"],
    );
    assert.deepEqual(got.reactions, []);
    // Streamed to everyone alike: no `read`, otherwise the same entity.
    const { read: _read, ...shared } = got;
    assert.deepEqual(event?.payload, shared);
    await deleteAnnouncement(s.ctx, a.id);
    await drained(1);
  });

  it("keeps drafts out until published; unpublishing and deleting stream `announcement.delete`", async () => {
    const draft = await createAnnouncement(s.ctx, {
      text: "draft",
      startsAt: null,
      endsAt: null,
      allDay: false,
      publish: false,
    });
    assert.deepEqual(await drained(0), []);
    assert.deepEqual((await s.request("/api/v1/announcements", { token: alice.token })).body, []);
    assert.equal(
      (await s.request(`/api/v1/announcements/${draft.id}/dismiss`, { method: "POST", token: alice.token })).status,
      404,
    );
    await publishAnnouncement(s.ctx, draft.id);
    assert.deepEqual(
      (await drained(1)).map((e) => e.event),
      ["announcement"],
    );
    const listed = (await s.request("/api/v1/announcements", { token: alice.token })).body;
    assert.deepEqual(
      listed.map((a: { id: string; starts_at: null; ends_at: null }) => [a.id, a.starts_at, a.ends_at]),
      [[draft.id, null, null]],
    );
    await unpublishAnnouncement(s.ctx, draft.id);
    assert.deepEqual(
      (await drained(1)).map((e) => [e.event, e.payload]),
      [["announcement.delete", draft.id]],
    );
    assert.deepEqual((await s.request("/api/v1/announcements", { token: alice.token })).body, []);
    await deleteAnnouncement(s.ctx, draft.id);
    // A draft was never shown: nothing to tell.
    assert.deepEqual(await drained(0), []);
  });

  it("dismisses: `read` becomes true; `with_dismissed=false` leaves it out; scope write:accounts", async () => {
    const a = await createAnnouncement(s.ctx, {
      text: "hello",
      startsAt: null,
      endsAt: null,
      allDay: false,
      publish: true,
    });
    await drained(1);
    const readOnly = await s.createUser("dave", { scopes: "read write:favourites" });
    assert.equal(
      (await s.request(`/api/v1/announcements/${a.id}/dismiss`, { method: "POST", token: readOnly.token })).status,
      403,
    );
    const d = await s.request(`/api/v1/announcements/${a.id}/dismiss`, { method: "POST", token: alice.token });
    assert.equal(d.status, 200);
    assert.deepEqual(d.body, {});
    // Again is fine.
    assert.equal(
      (await s.request(`/api/v1/announcements/${a.id}/dismiss`, { method: "POST", token: alice.token })).status,
      200,
    );
    const mine = (await s.request("/api/v1/announcements", { token: alice.token })).body;
    assert.deepEqual(
      mine.map((x: { read: boolean }) => x.read),
      [true],
    );
    assert.deepEqual((await s.request("/api/v1/announcements?with_dismissed=true", { token: alice.token })).body, mine);
    assert.deepEqual((await s.request("/api/v1/announcements?with_dismissed=false", { token: alice.token })).body, []);
    const bobs = (await s.request("/api/v1/announcements?with_dismissed=false", { token: bob.token })).body;
    assert.deepEqual(
      bobs.map((x: { read: boolean }) => x.read),
      [false],
    );
    assert.equal(
      (await s.request("/api/v1/announcements/999999/dismiss", { method: "POST", token: alice.token })).status,
      404,
    );
    assert.equal(
      (await s.request("/api/v1/announcements/abc/dismiss", { method: "POST", token: alice.token })).status,
      404,
    );
    await deleteAnnouncement(s.ctx, a.id);
    await drained(1);
  });

  it("reactions: unicode and custom emoji, counts and `me`, streamed as `announcement.reaction`; limits and errors as Mastodon", async () => {
    const a = await createAnnouncement(s.ctx, {
      text: "react",
      startsAt: null,
      endsAt: null,
      allDay: false,
      publish: true,
    });
    await drained(1);
    const put = (u: TestUser, name: string) => s.request(reactionPath(a.id, name), { method: "PUT", token: u.token });
    const del = (u: TestUser, name: string) =>
      s.request(reactionPath(a.id, name), { method: "DELETE", token: u.token });

    const r1 = await put(alice, "👍");
    assert.equal(r1.status, 200);
    assert.deepEqual(r1.body, {});
    assert.deepEqual(
      (await drained(1)).map((e) => [e.event, e.payload]),
      [["announcement.reaction", { name: "👍", count: 1, announcement_id: a.id }]],
    );
    assert.equal((await put(bob, "👍")).status, 200);
    assert.equal((await put(bob, "blobcat")).status, 200);
    const events2 = await drained(2);
    assert.deepEqual(events2[0]?.payload, { name: "👍", count: 2, announcement_id: a.id });
    const custom = events2[1]?.payload as Record<string, unknown>;
    assert.deepEqual(Object.keys(custom), ["name", "count", "url", "static_url", "announcement_id"]);
    assert.equal(custom.count, 1);
    assert.match(String(custom.url), /^http:\/\/.+\.png$/);

    const seen = (await s.request("/api/v1/announcements", { token: alice.token })).body[0].reactions;
    assert.deepEqual(seen[0], { name: "👍", me: true, count: 2 });
    assert.deepEqual(Object.keys(seen[1]), ["name", "me", "count", "url", "static_url"]);
    assert.deepEqual([seen[1].name, seen[1].me, seen[1].count], ["blobcat", false, 1]);

    // The same reaction again, a word, an emoji and a word: 422 as Mastodon.
    assert.deepEqual(await put(alice, "👍").then((r) => [r.status, r.body]), [422, { error: "Duplicate record" }]);
    for (const bad of ["thumbsup", "👍x", "👍👍", ":blobcat:"]) {
      const r = await put(alice, bad);
      assert.deepEqual([r.status, r.body], [422, { error: "Validation failed: Name is not a recognized emoji" }], bad);
    }
    // Skin tones, flags and unqualified forms are emoji too.
    for (const ok of ["👍🏽", "🇫🇷", "❤"]) assert.equal((await put(alice, ok)).status, 200, ok);
    await drained(3);
    // Eight different at most: five more fill it (2 + 3 + 3 = 8).
    for (const ok of ["🎉", "😀", "🚀"]) assert.equal((await put(alice, ok)).status, 200, ok);
    await drained(3);
    assert.deepEqual(await put(bob, "🔥").then((r) => [r.status, r.body]), [
      422,
      { error: "Validation failed: Limit of different reactions reached" },
    ]);
    // One already there is still fine.
    assert.equal((await put(bob, "🎉")).status, 200);
    await drained(1);

    const d = await del(bob, "👍");
    assert.deepEqual([d.status, d.body], [200, {}]);
    assert.deepEqual(
      (await drained(1)).map((e) => e.payload),
      [{ name: "👍", count: 1, announcement_id: a.id }],
    );
    assert.equal((await del(bob, "👍")).status, 404);
    assert.equal((await del(alice, "🔥")).status, 404);
    assert.equal((await s.request(reactionPath("99999999", "👍"), { method: "PUT", token: alice.token })).status, 404);
    const noScope = await s.createUser("erin", { scopes: "read write:accounts" });
    assert.equal((await put(noScope, "👍")).status, 403);

    // Deleting the announcement sends `announcement.delete` and no reaction event.
    await deleteAnnouncement(s.ctx, a.id);
    assert.deepEqual(
      (await drained(1)).map((e) => [e.event, e.payload]),
      [["announcement.delete", a.id]],
    );
    assert.equal((await put(alice, "👍")).status, 404);
  });
});
