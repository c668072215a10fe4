import assert from "node:assert/strict";
import { after, before, describe, it, mock } from "node:test";
import type { Kysely } from "kysely";
import type { DB } from "../../src/db/schema.ts";
import { createStatus } from "../../src/services/statuses/create.ts";
import { idempotencyKeyOf, idempotentId } from "../../src/services/statuses/idempotency.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// An `Idempotency-Key` is taken in the transaction that stores the post: the post and its key
// are stored together or not at all, so a retry after any failure posts exactly once.
describe("statuses: Idempotency-Key", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const post = (u: TestUser, key: string, json: Record<string, unknown>) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json, headers: { "idempotency-key": key } });
  const countText = async (text: string) =>
    Number(
      (
        await s.ctx.db
          .selectFrom("statuses")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("text", "=", text)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const input = (text: string, key: string) => ({ text, spoilerText: "", applicationId: null, idempotencyKey: key });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(() => s.close());

  it("a retry with the same key answers the same post; another key or account posts anew", async () => {
    const a = await post(alice, "k-1", { status: "once only" });
    assert.equal(a.status, 200);
    const b = await post(alice, "k-1", { status: "once only" });
    assert.equal(b.status, 200);
    assert.equal(b.body.id, a.body.id);
    const form = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      form: { status: "once only" },
      headers: { "idempotency-key": "k-1" },
    });
    assert.equal(form.body.id, a.body.id);
    assert.equal(await countText("once only"), 1);
    assert.notEqual((await post(alice, "k-2", { status: "once only" })).body.id, a.body.id);
    assert.notEqual((await post(bob, "k-1", { status: "once only" })).body.id, a.body.id);
    assert.equal(await countText("once only"), 3);
  });

  it("requests racing with one key post once", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(alice, "race-1", { status: "racing" })));
    for (const r of answers) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(new Set(answers.map((r) => r.body.id)).size, 1);
    assert.equal(await countText("racing"), 1);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await Promise.all(
      Array.from({ length: 4 }, () => post(alice, "race-2", { status: "racing later", scheduled_at: at })),
    );
    for (const r of scheduled) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(new Set(scheduled.map((r) => r.body.id)).size, 1);
    const list = await s.request("/api/v1/scheduled_statuses", { token: alice.token });
    assert.equal(list.body.filter((x: { params: { text: string } }) => x.params.text === "racing later").length, 1);
  });

  it("the key is written in the transaction that stores the post", async () => {
    const key = idempotencyKeyOf("status", alice.account.id, "in-trx") as string;
    const seen: { key?: string; status?: string }[] = [];
    // attachToStatus runs inside the transaction, after the post's rows.
    const media = s.ctx.repos.media;
    const original = media.attachToStatus.bind(media);
    const spy = mock.method(media, "attachToStatus", async (...args: Parameters<typeof original>) => {
      const [, statusId, , trx] = args;
      const db = trx as Kysely<DB>;
      const kv = await db.selectFrom("kv_store").select("value").where("key", "=", key).executeTakeFirst();
      const row = await db.selectFrom("statuses").select("id").where("id", "=", statusId).executeTakeFirst();
      seen.push({ key: kv?.value, status: row?.id });
      return original(...args);
    });
    try {
      const r = await post(alice, "in-trx", { status: "seen inside" });
      assert.equal(r.status, 200);
      assert.deepEqual(seen, [{ key: r.body.id, status: r.body.id }]);
    } finally {
      spy.mock.restore();
    }
  });

  it("when the post's transaction rolls back, no key is left; the retry posts once", async () => {
    const key = idempotencyKeyOf("status", alice.account.id, "rollback-1") as string;
    const statuses = s.ctx.repos.statuses;
    const spy = mock.method(statuses, "addToAccountCount", async () => {
      throw new Error("the disk went away");
    });
    try {
      await assert.rejects(createStatus(s.ctx, alice.account, alice.user, input("rolled back", "rollback-1")), /disk/);
    } finally {
      spy.mock.restore();
    }
    assert.equal(await countText("rolled back"), 0);
    assert.equal(await idempotentId(s.ctx, key), undefined, "no key without its post");
    const retry = await post(alice, "rollback-1", { status: "rolled back" });
    assert.equal(retry.status, 200);
    assert.equal(await countText("rolled back"), 1);
    // The key recorded names the post, which exists.
    const id = await idempotentId(s.ctx, key);
    assert.equal(id, retry.body.id);
    assert.ok(await s.ctx.repos.statuses.getById(id as string));
  });

  it("a failure right after the commit cannot make the retry post twice", async () => {
    // The jobs are queued after the commit: failing there is what a crash after the commit
    // looks like to the client (no answer), with the post and its key stored.
    const queue = s.ctx.queue;
    const spy = mock.method(queue, "enqueueMany", async () => {
      throw new Error("crashed after the commit");
    });
    try {
      await assert.rejects(
        createStatus(s.ctx, alice.account, alice.user, input("after commit", "commit-1")),
        /crashed/,
      );
    } finally {
      spy.mock.restore();
    }
    assert.equal(await countText("after commit"), 1);
    const retry = await post(alice, "commit-1", { status: "after commit" });
    assert.equal(retry.status, 200);
    assert.equal(await countText("after commit"), 1, "the retry answers the stored post");
    assert.equal(retry.body.id, await idempotentId(s.ctx, idempotencyKeyOf("status", alice.account.id, "commit-1")!));
  });

  it("an expired key is taken over", async () => {
    const key = idempotencyKeyOf("status", alice.account.id, "old-1") as string;
    const first = await post(alice, "old-1", { status: "first of two" });
    await s.ctx.db
      .updateTable("kv_store")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("key", "=", key)
      .execute();
    const second = await post(alice, "old-1", { status: "second of two" });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.id, first.body.id);
    assert.equal(await idempotentId(s.ctx, key), second.body.id);
    // The claim itself: a live entry holds the key, one past its time does not.
    const kv = s.ctx.repos.kv;
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 60_000).toISOString();
    assert.equal(await kv.claim(key, "1", later, now), false);
    await kv.set("claim-test", "old", new Date(Date.now() - 1000).toISOString());
    assert.equal(await kv.claim("claim-test", "new", later, now), true);
    assert.equal(await kv.get("claim-test", now), "new");
  });
});
