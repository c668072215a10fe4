import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createScheduler } from "../../src/infra/scheduler/scheduler.ts";
import { purgeUnattachedMedia } from "../../src/services/media/media-attachments.ts";
import { queueDueScheduledStatuses } from "../../src/services/scheduled-statuses/publish.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe("scheduled statuses", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const post = (u: TestUser, json: Record<string, unknown>, headers?: Record<string, string>) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json, headers });
  const schedule = async (u: TestUser, json: Record<string, unknown>) => {
    const r = await post(u, { scheduled_at: inMinutes(60), ...json });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const count = async (table: "scheduled_statuses" | "statuses") =>
    Number(
      (
        await s.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Moves a scheduled status into the past, as if its time had come. */
  const makeDue = (id: string) =>
    s.ctx.db
      .updateTable("scheduled_statuses")
      .set({ scheduled_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", id)
      .execute();
  const settled = () =>
    s.settle({ names: ["scheduled-statuses.publish", "notifications.create", "feeds.fan-out"], delayed: false });
  const publishNow = async (id: string) => {
    await makeDue(id);
    await s.ctx.queue.enqueue("scheduled-statuses.publish", { id });
    await settled();
  };
  const statusesOf = async (u: TestUser) =>
    (await s.request(`/api/v1/accounts/${u.account.id}/statuses`, { token: u.token })).body as any[];
  const upload = async (u: TestUser) => {
    const r = await s.request("/api/v1/media", {
      method: "POST",
      token: u.token,
      json: { file: PNG, description: "dot" },
    });
    assert.equal(r.status, 200);
    return r.body.id as string;
  };

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(() => s.close());

  it("scheduled_at creates a ScheduledStatus instead of a post", async () => {
    const statuses = await count("statuses");
    const at = inMinutes(30);
    const r = await post(alice, { status: "later", scheduled_at: at, visibility: "unlisted", sensitive: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const b = r.body;
    assert.deepEqual(Object.keys(b), ["id", "scheduled_at", "params", "media_attachments"]);
    assert.match(b.id, /^\d+$/);
    assert.equal(b.scheduled_at, at);
    assert.deepEqual(Object.keys(b.params), [
      "poll",
      "text",
      "language",
      "media_ids",
      "sensitive",
      "visibility",
      "idempotency",
      "scheduled_at",
      "spoiler_text",
      "application_id",
      "in_reply_to_id",
      "with_rate_limit",
      "allowed_mentions",
    ]);
    assert.equal(b.params.text, "later");
    assert.equal(b.params.visibility, "unlisted");
    assert.equal(b.params.sensitive, true);
    assert.equal(b.params.poll, null);
    assert.equal(b.params.media_ids, null);
    assert.equal(b.params.scheduled_at, null);
    assert.equal(b.params.idempotency, null);
    assert.equal(b.params.in_reply_to_id, null);
    assert.equal(b.params.with_rate_limit, false);
    assert.equal(b.params.allowed_mentions, null);
    assert.deepEqual(b.media_attachments, []);
    assert.equal(await count("statuses"), statuses, "nothing posted yet");
    // Its publication waits in the queue for the time.
    const state = await s.ctx.queue.state();
    assert.ok(state.counts.some((c) => c.name === "scheduled-statuses.publish" && c.state === "delayed"));
    // A time already past posts at once, as Mastodon does.
    const past = await post(alice, { status: "now", scheduled_at: new Date(Date.now() - 60_000).toISOString() });
    assert.equal(past.status, 200);
    assert.equal(past.body.content, "<p>now</p>");
  });

  it("rejects bad input with Mastodon's messages and stores nothing", async () => {
    const before = [await count("scheduled_statuses"), await count("statuses")];
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { status: "soon", scheduled_at: inMinutes(4) },
        422,
        "Validation failed: Scheduled at The scheduled date must be in the future",
      ],
      [{ status: "bad", scheduled_at: "tomorrow" }, 422, "Record invalid"],
      [{ status: "bad", scheduled_at: "2030-13-45T10:00:00Z" }, 422, "Record invalid"],
      [
        { status: "soon", scheduled_at: inMinutes(1) },
        422,
        "Validation failed: Scheduled at The scheduled date must be in the future",
      ],
      [
        { status: "x".repeat(501), scheduled_at: inMinutes(60) },
        422,
        "Validation failed: Text character limit of 500 exceeded",
      ],
      [
        { status: "q", scheduled_at: inMinutes(60), poll: { options: ["a"], expires_in: 600 } },
        422,
        "Validation failed: Poll options must have more than one item",
      ],
      [
        { status: "r", scheduled_at: inMinutes(60), in_reply_to_id: "123456789" },
        404,
        "The post you are trying to reply to does not appear to exist.",
      ],
      [{ status: "", scheduled_at: inMinutes(60) }, 422, "Validation failed: Text can't be blank"],
    ];
    for (const [json, status, error] of cases) {
      const r = await post(alice, json);
      assert.equal(r.status, status, JSON.stringify(json));
      assert.equal(r.body.error, error, JSON.stringify(json));
    }
    // A form body (toot's) gets the same words.
    const form = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      form: { status: "bad", scheduled_at: "tomorrow" },
    });
    assert.equal(form.status, 422);
    assert.deepEqual(form.body, { error: "Record invalid" });
    assert.deepEqual([await count("scheduled_statuses"), await count("statuses")], before);
    // So does moving a scheduled post to a time that is not one.
    const kept = await schedule(alice, { status: "move me badly" });
    const moved = await s.request(`/api/v1/scheduled_statuses/${kept.id}`, {
      method: "PUT",
      token: alice.token,
      json: { scheduled_at: "next week" },
    });
    assert.equal(moved.status, 422);
    assert.equal(moved.body.error, "Record invalid");
    await s.request(`/api/v1/scheduled_statuses/${kept.id}`, { method: "DELETE", token: alice.token });
  });

  it("honours Idempotency-Key", async () => {
    const before = await count("scheduled_statuses");
    const headers = { "idempotency-key": "sched-1" };
    const a = await post(alice, { status: "once", scheduled_at: inMinutes(60) }, headers);
    const b = await post(alice, { status: "once", scheduled_at: inMinutes(60) }, headers);
    assert.equal(a.status, 200);
    assert.equal(b.body.id, a.body.id);
    assert.equal(await count("scheduled_statuses"), before + 1);
  });

  it("lists, shows, moves and cancels only the owner's, with Link headers", async () => {
    const carol = await s.createUser("carol");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await schedule(carol, { status: `s${i}` })).id);
    const list = await s.request("/api/v1/scheduled_statuses?limit=2", { token: carol.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((x: { id: string }) => x.id),
      [ids[2], ids[1]],
    );
    const link = list.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${ids[1]}>; rel="next"`));
    assert.match(link, new RegExp(`min_id=${ids[2]}>; rel="prev"`));
    const next = await s.request(`/api/v1/scheduled_statuses?limit=2&max_id=${ids[1]}`, { token: carol.token });
    assert.deepEqual(
      next.body.map((x: { id: string }) => x.id),
      [ids[0]],
    );
    assert.deepEqual((await s.request("/api/v1/scheduled_statuses", { token: bob.token })).body, []);
    assert.equal((await s.request("/api/v1/scheduled_statuses?limit=-1", { token: carol.token })).status, 400);

    const one = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, { token: carol.token });
    assert.equal(one.status, 200);
    assert.equal(one.body.params.text, "s0");
    for (const path of [
      `/api/v1/scheduled_statuses/${ids[0]}`,
      "/api/v1/scheduled_statuses/123",
      "/api/v1/scheduled_statuses/x",
    ]) {
      const r = await s.request(path, { token: bob.token });
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error, "Record not found");
    }

    const at = inMinutes(120);
    const moved = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, {
      method: "PUT",
      token: carol.token,
      json: { scheduled_at: at },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.scheduled_at, at);
    const tooSoon = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, {
      method: "PUT",
      token: carol.token,
      form: { scheduled_at: inMinutes(1) },
    });
    assert.equal(tooSoon.status, 422);
    assert.equal(tooSoon.body.error, "Validation failed: Scheduled at The scheduled date must be in the future");
    const invalid = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, {
      method: "PUT",
      token: carol.token,
      json: { scheduled_at: "soon" },
    });
    assert.equal(invalid.status, 422);
    const unchanged = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, {
      method: "PUT",
      token: carol.token,
      json: {},
    });
    assert.equal(unchanged.body.scheduled_at, at);
    const foreign = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, {
      method: "PUT",
      token: bob.token,
      json: { scheduled_at: inMinutes(200) },
    });
    assert.equal(foreign.status, 404);

    assert.equal(
      (await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, { method: "DELETE", token: bob.token })).status,
      404,
    );
    const del = await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, { method: "DELETE", token: carol.token });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, { token: carol.token })).status, 404);
    assert.equal(
      (await s.request(`/api/v1/scheduled_statuses/${ids[0]}`, { method: "DELETE", token: carol.token })).status,
      404,
    );
  });

  it("checks scopes", async () => {
    const id = (await schedule(alice, { status: "scoped" })).id;
    assert.equal((await s.request("/api/v1/scheduled_statuses")).status, 401);
    assert.equal((await s.request(`/api/v1/scheduled_statuses/${id}`, { method: "DELETE" })).status, 401);
    const reader = await s.createUser("reader", { scopes: "read:statuses" });
    assert.equal((await s.request("/api/v1/scheduled_statuses", { token: reader.token })).status, 200);
    assert.equal((await s.request(`/api/v1/scheduled_statuses/1`, { method: "PUT", token: reader.token })).status, 403);
    assert.equal(
      (await s.request(`/api/v1/scheduled_statuses/1`, { method: "DELETE", token: reader.token })).status,
      403,
    );
    const writer = await s.createUser("writer", { scopes: "write:statuses" });
    assert.equal((await s.request("/api/v1/scheduled_statuses", { token: writer.token })).status, 403);
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/scheduled_statuses", { token: app })).status, 422);
  });

  it("limits: 25 on one day, 300 in all", async () => {
    const dan = await s.createUser("dan");
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 25; i++) {
      const at = `${day}T10:${String(i).padStart(2, "0")}:00.000Z`;
      assert.equal((await post(dan, { status: `d${i}`, scheduled_at: at })).status, 200);
    }
    const over = await post(dan, { status: "one more", scheduled_at: `${day}T23:59:00.000Z` });
    assert.equal(over.status, 422);
    assert.equal(over.body.error, "Validation failed: You have exceeded the limit of 25 scheduled posts for today");
    assert.equal(
      (await post(dan, { status: "next day", scheduled_at: `${day}T00:00:00.000Z`.replace(day, nextDay(day)) })).status,
      200,
    );

    const eve = await s.createUser("eve");
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: s.ctx.ids.next(),
      account_id: eve.account.id,
      scheduled_at: new Date(Date.now() + (10 + i) * 86_400_000).toISOString(),
      params: { text: `row ${i}` },
      created_at: new Date().toISOString(),
    }));
    for (const row of rows) await s.ctx.repos.scheduledStatuses.insert(row);
    const total = await post(eve, { status: "too many", scheduled_at: inMinutes(60) });
    assert.equal(total.status, 422);
    assert.equal(total.body.error, "Validation failed: You have exceeded the limit of 300 scheduled posts");
  });

  it("publishes on time through the normal path: media, poll, mentions, feeds; once", async () => {
    const m = await upload(alice);
    const sched = await schedule(alice, { status: "hello @bob", media_ids: [m], visibility: "public" });
    assert.deepEqual(sched.params.media_ids, [m]);
    assert.deepEqual(
      sched.media_attachments.map((x: { id: string }) => x.id),
      [m],
    );
    // Its media are not unattached uploads: the purge leaves them.
    await purgeUnattachedMedia(s.ctx, new Date(Date.now() + 2 * 86_400_000));
    assert.ok(await s.ctx.repos.media.getById(m), "media kept");
    const before = await count("statuses");
    await publishNow(sched.id);
    await publishNow(sched.id);
    assert.equal(await count("statuses"), before + 1, "published once");
    const [status] = await statusesOf(alice);
    assert.equal(status.content.includes("@<span>bob</span>"), true);
    assert.deepEqual(
      status.media_attachments.map((x: { id: string }) => x.id),
      [m],
    );
    assert.equal((await s.request(`/api/v1/scheduled_statuses/${sched.id}`, { token: alice.token })).status, 404);
    const media = await s.ctx.repos.media.getById(m);
    assert.equal(media?.statusId, status.id);
    assert.equal(media?.scheduledStatusId, null);
    // Fan-out and notifications happened.
    const home = await s.request("/api/v1/timelines/home", { token: alice.token });
    assert.equal(home.body[0].id, status.id);
    const notes = await s.request("/api/v1/notifications", { token: bob.token });
    assert.ok(
      notes.body.some(
        (n: { type: string; status: { id: string } }) => n.type === "mention" && n.status.id === status.id,
      ),
    );

    const withPoll = await schedule(alice, {
      status: "vote later",
      poll: { options: ["a", "b"], expires_in: 600, multiple: true },
    });
    assert.deepEqual(withPoll.params.poll, {
      options: ["a", "b"],
      expires_in: 600,
      multiple: true,
      hide_totals: false,
    });
    await publishNow(withPoll.id);
    const [polled] = await statusesOf(alice);
    assert.equal(polled.content, "<p>vote later</p>");
    assert.equal(polled.poll.multiple, true);
    assert.deepEqual(
      polled.poll.options.map((o: { title: string }) => o.title),
      ["a", "b"],
    );
  });

  it("the periodic sweep publishes what is due; a reply whose post is gone is dropped", async () => {
    const a = await schedule(alice, { status: "swept" });
    const parent = (await post(bob, { status: "parent" })).body;
    const reply = await schedule(alice, { status: "reply", in_reply_to_id: parent.id });
    assert.equal(reply.params.in_reply_to_id, parent.id);
    await s.request(`/api/v1/statuses/${parent.id}`, { method: "DELETE", token: bob.token });
    await makeDue(a.id);
    await makeDue(reply.id);
    assert.equal(await queueDueScheduledStatuses(s.ctx), 2);
    await settled();
    const texts = (await statusesOf(alice)).map((x) => x.content);
    assert.ok(texts.includes("<p>swept</p>"));
    assert.ok(!texts.includes("<p>reply</p>"));
    assert.equal(await queueDueScheduledStatuses(s.ctx), 0);
    // The sweep is a registered periodic task.
    const c = await schedule(alice, { status: "by the scheduler" });
    await makeDue(c.id);
    await (await createScheduler(s.ctx)).runSoon("scheduled-statuses.sweep");
    const end = Date.now() + 10_000;
    while ((await s.ctx.repos.scheduledStatuses.getById(c.id)) && Date.now() < end) await sleep(20);
    await settled();
    assert.ok((await statusesOf(alice)).some((x) => x.content === "<p>by the scheduler</p>"));
  });

  it("cancelling releases the media to the ordinary unattached uploads", async () => {
    const m = await upload(alice);
    const sched = await schedule(alice, { status: "cancel me", media_ids: [m] });
    assert.equal((await s.ctx.repos.media.getById(m))?.scheduledStatusId, sched.id);
    await s.request(`/api/v1/scheduled_statuses/${sched.id}`, { method: "DELETE", token: alice.token });
    assert.equal((await s.ctx.repos.media.getById(m))?.scheduledStatusId, null);
    const reuse = await post(alice, { status: "reused", media_ids: [m] });
    assert.equal(reuse.body.media_attachments[0].id, m);
  });
});

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}
