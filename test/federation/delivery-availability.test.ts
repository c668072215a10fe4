import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { jobsList } from "../../src/cli/commands/jobs.ts";
import type { Account } from "../../src/db/repositories/accounts.ts";
import { DELIVERY_ATTEMPTS, deliveryBackoff } from "../../src/federation/delivery-limits.ts";
import { forgetUnavailable } from "../../src/services/federation/availability.ts";
import { flushDeliveryHealth, setDeliveryClock } from "../../src/services/federation/delivery-health.ts";
import { type FakeActor, startFakeActor } from "../helpers/fake-actor.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { signIn, textOf, type WebClient } from "../helpers/web.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";
const DAY = 86_400_000;

/** A remote account on `remote`'s loopback server that follows `author`. */
async function remoteFollower(s: TestServer, remote: FakeActor, username: string, author: TestUser): Promise<Account> {
  const id = s.ctx.ids.next();
  const now = new Date().toISOString();
  const host = new URL(remote.origin).host;
  await s.ctx.repos.accounts.insert({
    id,
    username,
    domain: host,
    uri: `${remote.origin}/users/${username}`,
    inbox_url: `${remote.origin}/inbox`,
    shared_inbox_url: `${remote.origin}/inbox`,
    created_at: now,
    updated_at: now,
  });
  const account = (await s.ctx.repos.accounts.getById(id)) as Account;
  await s.follow({ account }, author);
  return account;
}

/** The server answers 500 to everything until `recovers` (Fedify knocks twice, with each signature spec). */
const fails = (remote: FakeActor) => remote.failNext.splice(0, remote.failNext.length, ...Array(50).fill(500));
const recovers = (remote: FakeActor) => void remote.failNext.splice(0);

const creates = (remote: FakeActor) => remote.received.filter((r) => JSON.parse(r.body).type === "Create").length;

async function post(s: TestServer, author: TestUser, text: string): Promise<void> {
  const r = await s.request("/api/v1/statuses", { method: "POST", token: author.token, json: { status: text } });
  assert.equal(r.status, 200);
}

/** Captures what `gannet jobs list` prints. */
async function jobsListOutput(s: TestServer): Promise<string> {
  const lines: string[] = [];
  await jobsList(s.ctx, { out: async (l) => void lines.push(l), err: async () => {} });
  return lines.join("\n");
}

describe("delivery: Mastodon's retry schedule", () => {
  it("waits count⁴ + 15 s plus Sidekiq's and Mastodon's jitter, over 16 retries", () => {
    assert.equal(DELIVERY_ATTEMPTS, 17);
    // No jitter (random 0): Sidekiq's base delay count⁴ + 15 s, count = attempt - 1.
    const base = [1, 2, 3, 4, 5, 16].map((a) => deliveryBackoff(a, () => 0) / 1000);
    assert.deepEqual(base, [15, 16, 31, 96, 271, 50_640]);
    // Most jitter: + 9 × (count + 1) s, + half of count⁴.
    assert.equal(
      deliveryBackoff(3, () => 0.999_999),
      Math.round((16 + 15 + 9 * 3 + 0.999_999 * 8) * 1000),
    );
    let total = 0;
    for (let a = 1; a < DELIVERY_ATTEMPTS; a++) total += deliveryBackoff(a, () => 0);
    // The last retry about two days after the first attempt (without jitter).
    assert.ok(total > 2 * DAY && total < 2.2 * DAY, String(total));
  });
});

describe("delivery: unavailable servers and slow ones", () => {
  let s: TestServer;
  let admin: TestUser;
  let author: TestUser;
  let web: WebClient;
  let down: FakeActor;
  let host: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    admin = await s.createUser("availadmin", { role: "Admin", scopes: ADMIN_SCOPES });
    author = await s.createUser("availauthor");
    web = await signIn(s, admin);
    down = await startFakeActor();
    host = new URL(down.origin).host;
    await remoteFollower(s, down, "downer", author);
  });
  after(async () => {
    setDeliveryClock(s.ctx, undefined);
    await down.close();
    await s.close();
  });

  it("retries a failed delivery after 15-24 s (Mastodon's first retry), shown by `gannet jobs list`", async () => {
    fails(down);
    const before = Date.now();
    await post(s, author, "first");
    await s.settle({ allowDead: true, delayed: false });
    const state = await s.ctx.queue.state();
    const retry = state.failing.find((f) => f.name === "federation.outbox");
    assert.ok(retry, JSON.stringify(state));
    assert.equal(retry.maxAttempts, 17);
    const wait = retry.runAt.getTime() - before;
    assert.ok(wait >= 15_000 && wait < 25_000 + (Date.now() - before), String(wait));
    const out = await jobsListOutput(s);
    assert.match(out, /federation\.outbox\tdelayed\t1/);
    // One day of failure: the server is listed as failing, not yet unavailable.
    await flushDeliveryHealth(s.ctx);
    assert.match(await jobsListOutput(s), new RegExp(`\\n${host.replace(".", "\\.")}\\tfailing\\t1\\t`));
  });

  it("marks a server unavailable after failures on 7 days, skips it, shows it, and restarts delivery", async () => {
    const start = Date.now();
    // Failures on six more days (the clock of the delivery notes moved a day at a time).
    for (let day = 1; day <= 6; day++) {
      setDeliveryClock(s.ctx, () => new Date(start + day * DAY));
      fails(down);
      await post(s, author, `day ${day}`);
      await s.settle({ allowDead: true, delayed: false });
      await flushDeliveryHealth(s.ctx);
      let page = await web.get(`/admin/instances/${encodeURIComponent(host)}`);
      const availability = textOf(page.doc, ".availability");
      if (day < 6) {
        assert.match(availability, new RegExp(`Failing for ${day + 1} days`), `day ${day}`);
        continue;
      }
      assert.match(availability, /Unavailable/);
      page = await web.get("/admin/instances");
      assert.match(page.doc.querySelector(`tr[data-domain="${host}"]`)?.text ?? "", /Unavailable/);
    }
    assert.match(await jobsListOutput(s), new RegExp(`\\n${host.replace(".", "\\.")}\\tunavailable\\t7\\t\\S+Z`));
    // The admin API shows no availability (Mastodon's instance entity has none).
    const api = await s.request(`/api/v1/admin/domain_blocks`, { token: admin.token });
    assert.equal(api.status, 200);

    // Skipped: neither a new post nor the queued retries reach it.
    const received = down.received.length;
    await post(s, author, "while unavailable");
    await s.settle({ allowDead: true, delayed: false });
    // A delivery already queued (a retry come due) ends without a request too.
    await s.ctx.queue.enqueue(
      "federation.outbox",
      { type: "outbox", inbox: `${down.origin}/inbox`, activityId: `${s.url}/queued` },
      { attempts: 17 },
    );
    await s.settle({ allowDead: true, delayed: false });
    assert.equal(down.received.length, received);
    const outbox = (await s.ctx.queue.state()).counts.filter((c) => c.name === "federation.outbox");
    assert.deepEqual(
      outbox.filter((c) => c.state !== "delayed"),
      [],
    );

    recovers(down);
    // An administrator restarts delivery (Mastodon's "Restart delivery"): the next post arrives.
    let page = await web.get(`/admin/instances/${encodeURIComponent(host)}`);
    const r = await web.submit(page, `/admin/instances/${encodeURIComponent(host)}/restart_delivery`, {});
    assert.equal(r.status, 303);
    page = await web.follow(r);
    assert.match(textOf(page.doc, ".availability"), /^Available$/);
    const creates0 = creates(down);
    await post(s, author, "available again");
    await s.settle({ allowDead: true, delayed: false });
    assert.equal(creates(down), creates0 + 1);
    await flushDeliveryHealth(s.ctx);
    assert.doesNotMatch(await jobsListOutput(s), new RegExp(`\\n${host.replace(".", "\\.")}\\t`));
  });
});

describe("delivery: an unavailable server that writes to us", () => {
  let s: TestServer;
  let author: TestUser;
  let remote: FakeActor;
  let host: string;

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    author = await s.createUser("inverseauthor");
    remote = await startFakeActor();
    host = new URL(remote.origin).host;
    await remoteFollower(s, remote, "inverse", author);
  });
  after(async () => {
    await remote.close();
    await s.close();
  });

  it("is available again once a signed activity arrives from it (Mastodon's track_inverse_success!)", async () => {
    const now = new Date().toISOString();
    await s.ctx.db
      .insertInto("delivery_health")
      .values({
        domain: host,
        failure_days: 7,
        last_failure_day: now.slice(0, 10),
        unavailable_since: now,
        updated_at: now,
      } as never)
      .onConflict((oc) => oc.column("domain").doUpdateSet({ failure_days: 7, unavailable_since: now } as never))
      .execute();
    forgetUnavailable(s.ctx);
    assert.match(await jobsListOutput(s), new RegExp(`\\n${host.replace(".", "\\.")}\\tunavailable\\t`));
    const like = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${remote.origin}/likes/1`,
      type: "Like",
      actor: remote.actorId,
      object: `${s.url}/users/${author.account.username}`,
    };
    const res = await fetch(await remote.signedPost(`${s.url}/inbox`, like));
    assert.ok(res.status < 300, String(res.status));
    assert.doesNotMatch(await jobsListOutput(s), new RegExp(`\\n${host.replace(".", "\\.")}\\t`));
    const creates0 = creates(remote);
    await post(s, author, "reaches the server again");
    await s.settle({ allowDead: true, delayed: false });
    assert.equal(creates(remote), creates0 + 1);
  });
});

describe("delivery: a slow server does not hold the others", () => {
  let s: TestServer;
  let author: TestUser;
  let slow: FakeActor;
  let healthy: FakeActor;

  before(async () => {
    // Two delivery slots, one per server: without the per-server limit two deliveries to the
    // hanging server would hold both until their 10 s time-out.
    s = await startTestServer({
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1",
      DELIVERY_CONCURRENCY: "2",
      DELIVERY_CONCURRENCY_PER_SERVER: "1",
    });
    author = await s.createUser("slowauthor");
    slow = await startFakeActor();
    healthy = await startFakeActor();
    slow.hang = true;
    await remoteFollower(s, slow, "slowpoke", author);
    await remoteFollower(s, healthy, "quick", author);
  });
  after(async () => {
    await slow.close();
    await healthy.close();
    await s.close();
  });

  it("delivers to a healthy server while another hangs, one request at a time to the hanging one", async () => {
    for (let i = 0; i < 3; i++) await post(s, author, `post ${i}`);
    for (let i = 0; i < 600 && creates(healthy) < 3; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(creates(healthy), 3);
    // The hanging server still holds its first delivery: the healthy one did not wait for it.
    assert.equal(slow.received.length, 1);
    slow.hang = false;
  });
});
