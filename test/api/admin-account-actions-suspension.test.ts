import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { canonicalEmailHash } from "../../src/services/moderation/sign-up-blocks.ts";
import { queueDueSuspensionPurges } from "../../src/services/moderation/suspension.ts";
import { type FakeActor, type FakeRemote, startFakeRemote } from "../federation/fake-remote.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket } from "../helpers/streaming.ts";
import { Browser, submitSignIn } from "./oauth-browser.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";
const DAY = 86_400_000;

describe("Admin API: suspension, unsuspension and deleting a suspended account's data", () => {
  let s: TestServer;
  let fake: FakeRemote;
  let carol: FakeActor;
  let admin: TestUser;
  let moderator: TestUser;
  let viewer: TestUser;

  const act = (by: TestUser, id: string, json: Record<string, unknown>) =>
    s.request(`/api/v1/admin/accounts/${id}/action`, { method: "POST", token: by.token, json });
  const post = (by: TestUser, path: string) => s.request(path, { method: "POST", token: by.token, json: {} });
  const destroy = (by: TestUser, id: string) =>
    s.request(`/api/v1/admin/accounts/${id}`, { method: "DELETE", token: by.token });
  const logActions = async (targetId: string) =>
    (await s.ctx.repos.adminActionLogs.page({ targetType: "Account", targetId }, { limit: 20 })).map((l) => l.action);
  const account = async (id: string) => {
    const a = await s.ctx.repos.accounts.getById(id);
    assert.ok(a);
    return a;
  };
  /** A local user with a post and a remote follower (carol). */
  async function victim(name: string) {
    const u = await s.createUser(name);
    await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: u.token,
      json: { display_name: `${name} display` },
    });
    const p = await s.request("/api/v1/statuses", { token: u.token, json: { status: `hello from ${name}` } });
    assert.equal(p.status, 200);
    await s.ctx.repos.follows.insert({
      id: s.ctx.ids.next(),
      account_id: carol.accountId,
      target_account_id: u.account.id,
      uri: `${carol.uri}#follows/${name}`,
      created_at: new Date().toISOString(),
    });
    await s.follow(viewer, u);
    await s.settle();
    return { u, statusId: p.body.id as string };
  }

  before(async () => {
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    fake = await startFakeRemote();
    carol = await fake.addActor(s, "carol");
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    viewer = await s.createUser("vic");
  });
  after(async () => {
    await s.close();
    await fake.close();
  });

  it("suspending stops tokens and sessions, tells followers' servers; unsuspending restores everything", async () => {
    const { u, statusId } = await victim("sus1");
    const b = new Browser(s);
    const signedIn = await submitSignIn(b, (await b.request("/auth/sign_in")).body, u);
    assert.equal(signedIn.status, 302);
    const sessionCookies = new Map(b.cookies);
    fake.clear();

    const r = await act(moderator, u.account.id, { type: "suspend", text: "bye" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {});
    const a = await account(u.account.id);
    assert.notEqual(a.suspendedAt, null);
    assert.equal(a.suspensionOrigin, "local");
    assert.deepEqual(await logActions(u.account.id), ["suspend"]);
    // Its address is blocked from signing up again (a canonical e-mail block naming the account).
    const blocks = () =>
      s.ctx.db
        .selectFrom("canonical_email_blocks")
        .select(["canonical_email_hash", "reference_account_id"])
        .where("reference_account_id", "=", u.account.id)
        .execute();
    assert.deepEqual(
      (await blocks()).map((b) => b.canonical_email_hash),
      [canonicalEmailHash(u.user.email)],
    );

    // Tokens and sessions stop working at once; signing in is refused.
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 403);
    const old = new Browser(s);
    for (const [k, v] of sessionCookies) old.cookies.set(k, v);
    assert.match((await old.request("/auth/sign_in")).body, /action="\/auth\/sign_in"/);
    const again = new Browser(s);
    assert.equal((await submitSignIn(again, (await again.request("/auth/sign_in")).body, u)).status, 403);

    // The followers' server gets an Update of the actor: suspended, its profile empty.
    await s.settle();
    const [update] = fake.activities("Update", "/inbox");
    assert.ok(update, JSON.stringify(fake.received.map((x) => x.body.type)));
    assert.equal(update.body.object.id, u.account.uri);
    assert.equal(update.body.object.suspended, true);
    assert.ok(!update.body.object.name, JSON.stringify(update.body.object));

    // Nothing was deleted.
    assert.equal((await s.ctx.repos.statuses.getById(statusId))?.deletedAt, null);
    assert.deepEqual([...(await s.ctx.repos.follows.followedAmong(viewer.account.id, [u.account.id]))], [u.account.id]);

    // Unsuspend: only by someone who may, and only a suspension made here.
    fake.clear();
    const un = await post(moderator, `/api/v1/admin/accounts/${u.account.id}/unsuspend`);
    assert.equal(un.status, 200, JSON.stringify(un.body));
    assert.equal(un.body.suspended, false);
    assert.equal(un.body.id, u.account.id);
    assert.equal((await account(u.account.id)).suspendedAt, null);
    assert.deepEqual(await logActions(u.account.id), ["unsuspend", "suspend"]);
    assert.deepEqual(await blocks(), []);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token: u.token })).status, 200);
    await s.settle();
    const [full] = fake.activities("Update", "/inbox");
    assert.ok(full);
    assert.equal(full.body.object.name, "sus1 display");
    assert.notEqual(full.body.object.suspended, true);
    const statuses = await s.request(`/api/v1/accounts/${u.account.id}/statuses`, { token: viewer.token });
    assert.deepEqual(
      statuses.body.map((x: { id: string }) => x.id),
      [statusId],
    );
    const rel = await s.request(`/api/v1/accounts/relationships?id[]=${u.account.id}`, { token: viewer.token });
    assert.equal(rel.body[0].following, true);
    const fresh = await s.request("/auth/sign_in");
    assert.equal(fresh.status, 200);
    const back = new Browser(s);
    assert.equal((await submitSignIn(back, (await back.request("/auth/sign_in")).body, u)).status, 302);
  });

  it("suspending closes the account's streaming connections, and new ones are refused", async () => {
    const u = await s.createUser("sus3");
    const other = await s.createUser("sus4");
    const doomed = await openSocket(s.url, { token: u.token, query: { stream: "user" } });
    const survivor = await openSocket(s.url, { token: other.token, query: { stream: "user" } });
    const closed = new Promise<void>((resolve) => doomed.ws.once("close", () => resolve()));
    assert.equal((await act(admin, u.account.id, { type: "suspend" })).status, 200);
    await closed;
    await assert.rejects(openSocket(s.url, { token: u.token, query: { stream: "user" } }));
    assert.equal(survivor.ws.readyState, survivor.ws.OPEN);
    await survivor.close();
  });

  it("canonical e-mail hashes ignore case, dots and a +suffix in the local part", () => {
    assert.equal(canonicalEmailHash("J.Doe+x@Example.com"), canonicalEmailHash("jdoe@example.com"));
    assert.notEqual(canonicalEmailHash("jdoe@example.com"), canonicalEmailHash("jdoe@example.org"));
    assert.match(canonicalEmailHash("a@b.c"), /^[0-9a-f]{64}$/);
  });

  it("unsuspend is refused (403) for an account that is not suspended here", async () => {
    const u = await s.createUser("sus2");
    assert.equal((await post(admin, `/api/v1/admin/accounts/${u.account.id}/unsuspend`)).status, 403);
    await s.ctx.repos.accounts.update(carol.accountId, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "remote",
    });
    assert.equal((await post(admin, `/api/v1/admin/accounts/${carol.accountId}/unsuspend`)).status, 403);
    await s.ctx.repos.accounts.update(carol.accountId, { suspended_at: null, suspension_origin: null });
    assert.deepEqual(await logActions(u.account.id), []);
  });

  it("a remote account can be suspended and unsuspended here", async () => {
    const dave = await fake.addActor(s, "dave");
    assert.equal((await act(admin, dave.accountId, { type: "suspend" })).status, 200);
    const a = await account(dave.accountId);
    assert.equal(a.suspensionOrigin, "local");
    const un = await post(admin, `/api/v1/admin/accounts/${dave.accountId}/unsuspend`);
    assert.equal(un.status, 200);
    assert.equal(un.body.suspended, false);
    assert.equal(un.body.domain, fake.domain);
  });

  it("DELETE needs Delete User Data and a suspended account; it deletes the data, the name stays taken", async () => {
    const { u, statusId } = await victim("del1");
    assert.equal((await destroy(admin, u.account.id)).status, 403);
    assert.equal((await act(admin, u.account.id, { type: "suspend" })).status, 200);
    // Moderators lack Delete User Data.
    assert.equal((await destroy(moderator, u.account.id)).status, 403);
    assert.equal((await destroy(admin, "999999999")).status, 404);
    assert.equal((await s.ctx.repos.statuses.getById(statusId))?.deletedAt, null);

    const r = await destroy(admin, u.account.id);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.id, u.account.id);
    assert.equal(r.body.suspended, true);
    await s.settle();
    const a = await account(u.account.id);
    assert.equal(a.suspensionOrigin, "deleted");
    assert.equal(a.displayName, "");
    assert.notEqual((await s.ctx.repos.statuses.getById(statusId))?.deletedAt, null);
    assert.equal(await s.ctx.repos.users.getByAccountId(u.account.id), undefined);
    assert.deepEqual(await logActions(u.account.id), ["destroy", "suspend"]);
    // The name stays taken.
    const signUp = await s.request("/api/v1/accounts", {
      token: await s.appToken("write"),
      json: {
        username: "del1",
        email: "new-del1@example.com",
        password: "a-long-password-1",
        agreement: true,
        locale: "en",
      },
    });
    assert.equal(signUp.status, 422, JSON.stringify(signUp.body));
    assert.equal(signUp.body.details?.username?.[0]?.error, "ERR_TAKEN", JSON.stringify(signUp.body));
    // Deleting again: it is no longer a suspended account with data.
    assert.equal((await destroy(admin, u.account.id)).status, 403);
  });

  it("DELETE of a suspended remote account deletes its posts", async () => {
    const erin = await fake.addActor(s, "erin");
    const statusId = await fake.addStatus(s, erin);
    assert.equal((await act(admin, erin.accountId, { type: "suspend" })).status, 200);
    assert.equal((await destroy(admin, erin.accountId)).status, 200);
    await s.settle();
    assert.equal((await account(erin.accountId)).suspensionOrigin, "deleted");
    assert.notEqual((await s.ctx.repos.statuses.getById(statusId))?.deletedAt, null);
  });

  it("the scheduled purge deletes the data of accounts suspended longer than the delay", async () => {
    const { u, statusId } = await victim("pur1");
    const kept = await victim("pur2");
    assert.equal((await act(admin, u.account.id, { type: "suspend" })).status, 200);
    // Not yet due: nothing is queued.
    assert.equal(await queueDueSuspensionPurges(s.ctx), 0);
    assert.equal(await queueDueSuspensionPurges(s.ctx, new Date(Date.now() + 29 * DAY)), 0);
    // Due: this one, and any other account earlier tests left suspended.
    assert.ok((await queueDueSuspensionPurges(s.ctx, new Date(Date.now() + 31 * DAY))) >= 1);
    await s.settle();
    const a = await account(u.account.id);
    assert.equal(a.suspensionOrigin, "deleted");
    assert.notEqual((await s.ctx.repos.statuses.getById(statusId))?.deletedAt, null);
    // An account that is not suspended keeps everything; nothing is left to purge.
    assert.equal((await s.ctx.repos.statuses.getById(kept.statusId))?.deletedAt, null);
    assert.equal(await queueDueSuspensionPurges(s.ctx, new Date(Date.now() + 31 * DAY)), 0);
  });
});
