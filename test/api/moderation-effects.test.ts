import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { openSocket } from "../helpers/streaming.ts";

/**
 * What suspension, silence and sensitive do to the read surfaces (docs/moderation.md, "What
 * suspension, silence and sensitive do"). The flags are set on the account row through the
 * repository, as the admin actions do; nothing else is called, so the kept JSON must notice on its
 * own (render_changes). Each flag is checked before, while set, and after it is lifted.
 */
describe("moderation effects: suspension, silence and sensitive on every read surface", () => {
  let s: TestServer;
  let n = 0;

  interface StatusJson {
    id: string;
    sensitive: boolean;
    account: { id: string; limited?: boolean; suspended?: boolean; display_name: string };
    reblog: StatusJson | null;
  }

  const user = (name: string) => s.createUser(`${name}${++n}`);
  const get = async <T = any>(u: TestUser | undefined, path: string): Promise<T> => {
    const r = await s.request(path, { token: u?.token });
    assert.equal(r.status, 200, `GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const call = async <T = any>(u: TestUser, method: string, path: string, json?: unknown): Promise<T> => {
    const r = await s.request(path, { method, token: u.token, json: json ?? {} });
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const post = (u: TestUser, json: Record<string, unknown>) => call<StatusJson>(u, "POST", "/api/v1/statuses", json);
  const ids = (list: { id: string }[]) => list.map((x) => x.id);
  const setFlags = (u: TestUser, patch: Record<string, string | null>) =>
    s.ctx.repos.accounts.update(u.account.id, patch);
  const now = () => new Date().toISOString();
  const settle = () => s.settle({ delayed: false });
  /** The notifications of `u` (v1), as `type:from`. */
  const notes = async (u: TestUser, query = "") =>
    (await get<{ type: string; account: { id: string } }[]>(u, `/api/v1/notifications${query}`)).map(
      (x) => `${x.type}:${x.account.id}`,
    );
  /** The grouped notifications of `u` (v2), as `type:sample account ids`. */
  const groups = async (u: TestUser) => {
    const body = await get<{ notification_groups: { type: string; sample_account_ids: string[] }[] }>(
      u,
      "/api/v2/notifications",
    );
    return body.notification_groups.map((g) => `${g.type}:${g.sample_account_ids.join(",")}`);
  };
  const timelines = (tag: string) => [
    "/api/v1/timelines/public",
    "/api/v1/timelines/public?local=true",
    `/api/v1/timelines/tag/${tag}`,
  ];

  before(async () => {
    s = await startTestServer({});
  });
  after(() => s.close());

  it("suspension: the account is emptied and everything it wrote disappears; unsuspending restores it", async () => {
    const viewer = await user("viewer");
    const target = await user("suspendee");
    const other = await user("bystander");
    await call(target, "PATCH", "/api/v1/accounts/update_credentials", {
      display_name: "Target Name",
      note: "my bio",
      locked: true,
      fields_attributes: { 0: { name: "site", value: "somewhere" } },
    });
    await call(viewer, "POST", `/api/v1/accounts/${target.account.id}/follow`);
    await call(target, "POST", `/api/v1/follow_requests/${viewer.account.id}/authorize`);
    await call(target, "POST", `/api/v1/accounts/${viewer.account.id}/follow`);
    await call(viewer, "POST", `/api/v1/accounts/${target.account.id}/pin`);
    const root = await post(viewer, { status: "the root" });
    const own = await post(target, { status: "hello #suspendtag", visibility: "public" });
    const reply = await post(target, {
      status: `@${viewer.account.username} a reply`,
      in_reply_to_id: root.id,
      visibility: "public",
    });
    await call(target, "POST", `/api/v1/statuses/${root.id}/favourite`);
    await call(target, "POST", `/api/v1/statuses/${root.id}/reblog`, { visibility: "public" });
    await call(other, "POST", `/api/v1/statuses/${root.id}/favourite`);
    const others = await post(other, { status: "by someone else", visibility: "public" });
    const boost = await call<StatusJson>(target, "POST", `/api/v1/statuses/${others.id}/reblog`, {
      visibility: "public",
    });
    await settle();
    const t = target.account.id;

    const check = async (suspended: boolean) => {
      const where = suspended ? "while suspended" : "when not suspended";
      const account = await get(viewer, `/api/v1/accounts/${t}`);
      assert.equal(account.suspended, suspended ? true : undefined, where);
      assert.equal(account.display_name, suspended ? "" : "Target Name", where);
      assert.equal(account.note === "", suspended, where);
      assert.equal(account.fields.length, suspended ? 0 : 1, where);
      assert.equal(account.locked, !suspended, where);
      assert.equal(account.avatar.endsWith("/avatars/original/missing.png"), true);
      assert.equal(account.statuses_count, 4, "the counts stay, as Mastodon's");
      const lookup = await get(undefined, `/api/v1/accounts/lookup?acct=${target.account.username}`);
      assert.equal(lookup.id, t);
      assert.equal(lookup.suspended, suspended ? true : undefined);
      // Relationships leave it out unless `with_suspended`.
      assert.deepEqual(ids(await get(viewer, `/api/v1/accounts/relationships?id[]=${t}`)), suspended ? [] : [t]);
      assert.deepEqual(ids(await get(viewer, `/api/v1/accounts/relationships?id[]=${t}&with_suspended=true`)), [t]);
      // Search.
      const found = await get(viewer, `/api/v2/search?q=${target.account.username}&type=accounts`);
      assert.equal(ids(found.accounts).includes(t), !suspended, `search ${where}`);
      // Its statuses.
      const byId = await s.request(`/api/v1/statuses/${own.id}`, { token: viewer.token });
      assert.equal(byId.status, suspended ? 404 : 200, where);
      assert.equal((await s.request(`/api/v1/statuses/${own.id}`)).status, suspended ? 404 : 200);
      const profile = await get<StatusJson[]>(viewer, `/api/v1/accounts/${t}/statuses`);
      // Its post, its reply and its two boosts.
      assert.equal(profile.length, suspended ? 0 : 4, where);
      assert.equal(ids(profile).includes(reply.id), !suspended, where);
      assert.deepEqual(ids(await get(viewer, `/api/v1/statuses?id[]=${own.id}`)), suspended ? [] : [own.id]);
      // Timelines: home (the viewer follows it), public, local, hashtag.
      const home = await get<StatusJson[]>(viewer, "/api/v1/timelines/home");
      assert.equal(ids(home).includes(own.id), !suspended, `home ${where}`);
      assert.equal(ids(home).includes(boost.id), !suspended, `its boost in home ${where}`);
      for (const path of timelines("suspendtag")) {
        for (const u of [viewer, other, undefined]) {
          assert.equal(ids(await get(u, path)).includes(own.id), !suspended, `${path} ${where}`);
        }
      }
      // The thread.
      const context = await get(viewer, `/api/v1/statuses/${root.id}/context`);
      assert.equal(ids(context.descendants).includes(reply.id), !suspended, `context ${where}`);
      // Who favourited and boosted.
      assert.deepEqual(
        ids(await get(viewer, `/api/v1/statuses/${root.id}/favourited_by`)).sort(),
        (suspended ? [other.account.id] : [t, other.account.id]).sort(),
      );
      assert.deepEqual(ids(await get(viewer, `/api/v1/statuses/${root.id}/reblogged_by`)), suspended ? [] : [t]);
      // Followers and following: its own lists are empty, and it is out of others'.
      assert.deepEqual(ids(await get(viewer, `/api/v1/accounts/${t}/followers`)), suspended ? [] : [viewer.account.id]);
      assert.deepEqual(ids(await get(viewer, `/api/v1/accounts/${t}/following`)), suspended ? [] : [viewer.account.id]);
      assert.equal(ids(await get(viewer, `/api/v1/accounts/${viewer.account.id}/followers`)).includes(t), !suspended);
      assert.equal(ids(await get(viewer, "/api/v1/endorsements")).includes(t), !suspended, `endorsed ${where}`);
      // Notifications it caused: the mention, favourite, boost and follow.
      const fromIt = (await notes(viewer)).filter((x) => x.endsWith(`:${t}`));
      assert.deepEqual(
        fromIt.sort(),
        suspended ? [] : [`favourite:${t}`, `follow:${t}`, `mention:${t}`, `reblog:${t}`],
      );
      const grouped = await groups(viewer);
      assert.equal(
        grouped.some((g) => g.includes(t)),
        !suspended,
        `v2 ${where}: ${grouped.join(" ")}`,
      );
      const unread = await get(viewer, "/api/v1/notifications/unread_count");
      // The other account's favourite is grouped with the target's in v1 counts apart.
      assert.equal(unread.count, suspended ? 1 : 5, `unread ${where}`);
    };

    await check(false);
    await setFlags(target, { suspended_at: now(), suspension_origin: "local" });
    await check(true);
    await setFlags(target, { suspended_at: null, suspension_origin: null });
    await check(false);
  });

  it("a remote account suspended by its own server is hidden the same way", async () => {
    const viewer = await user("viewer");
    const target = await user("remotesus");
    const st = await post(target, { status: "remote-ish" });
    await setFlags(target, { suspended_at: now(), suspension_origin: "remote" });
    assert.equal((await s.request(`/api/v1/statuses/${st.id}`, { token: viewer.token })).status, 404);
    assert.equal((await get(viewer, `/api/v1/accounts/${target.account.id}`)).suspended, true);
    // A deleted account keeps its 410.
    await setFlags(target, { suspension_origin: "deleted" });
    assert.equal((await s.request(`/api/v1/accounts/${target.account.id}`)).status, 410);
  });

  it("silence: out of public timelines, streams and directory, limited, notifications filtered for non-followers", async () => {
    const follower = await user("follower");
    const stranger = await user("stranger");
    const target = await user("silencee");
    const t = target.account.id;
    await s.ctx.db.updateTable("accounts").set({ discoverable: true }).where("id", "=", t).execute();
    await call(follower, "POST", `/api/v1/accounts/${t}/follow`);
    const first = await post(target, { status: "before #silencetag" });
    await settle();
    // Warm the kept JSON of the follower's home.
    const warm = await get<StatusJson[]>(follower, "/api/v1/timelines/home");
    assert.equal(warm.find((x) => x.id === first.id)?.account.limited, undefined);

    await setFlags(target, { silenced_at: now() });
    const stream = await openSocket(s.url, { token: stranger.token, query: { stream: "public:local" } });
    stream.send({ type: "subscribe", stream: "nonsense" });
    await stream.inbox.next((m) => m.error !== undefined, "the subscription");
    const during = await post(target, { status: "during #silencetag" });
    // Nor on the public streams: the stranger's own post comes, the silenced one never did.
    const marker = await post(stranger, { status: "a marker", visibility: "public" });
    await stream.event("update", (p) => p?.includes(`"id":"${marker.id}"`) === true, "the marker");
    assert.ok(!stream.inbox.received.some((m) => m.payload?.includes(`"id":"${during.id}"`)));
    await stream.close();
    await call(target, "POST", `/api/v1/statuses/${(await post(stranger, { status: "fav me" })).id}/favourite`);
    await post(target, { status: `@${stranger.account.username} @${follower.account.username} hi both` });
    await call(target, "POST", `/api/v1/accounts/${stranger.account.id}/follow`);
    await settle();

    for (const path of timelines("silencetag")) {
      for (const u of [follower, stranger, target, undefined]) {
        const got = ids(await get(u, path));
        assert.ok(!got.includes(first.id) && !got.includes(during.id), `${path} as ${u?.account.username}`);
      }
    }
    const home = await get<StatusJson[]>(follower, "/api/v1/timelines/home");
    assert.ok(ids(home).includes(during.id), "its followers still get it at home");
    assert.equal(home.find((x) => x.id === first.id)?.account.limited, true, "the kept Account JSON was refreshed");
    assert.equal((await get(stranger, `/api/v1/statuses/${during.id}`)).account.limited, true);
    assert.equal((await get(undefined, `/api/v1/accounts/${t}`)).limited, true);
    assert.equal((await get(stranger, `/api/v1/accounts/${t}`)).suspended, undefined);
    // Search still finds it (as Mastodon's); the directory does not list it.
    const found = await get(stranger, `/api/v2/search?q=${target.account.username}&type=accounts`);
    assert.ok(ids(found.accounts).includes(t));
    assert.ok(!ids(await get(stranger, "/api/v1/directory?local=true&limit=80")).includes(t));
    // Notifications: filtered for the stranger (a request holds the mention), shown to the follower.
    assert.deepEqual(
      (await notes(stranger)).filter((x) => x.endsWith(`:${t}`)),
      [],
    );
    assert.ok(!(await groups(stranger)).some((g) => g.includes(t)));
    assert.deepEqual(ids((await get(stranger, "/api/v1/notifications/requests")).map((r: any) => r.account)), [t]);
    assert.deepEqual(
      (await notes(stranger, "?include_filtered=true")).filter((x) => x.endsWith(`:${t}`)).sort(),
      // Its follow of someone who does not follow it is a request (Mastodon's FollowService).
      [`favourite:${t}`, `follow_request:${t}`, `mention:${t}`],
    );
    assert.deepEqual(
      (await notes(follower)).filter((x) => x.endsWith(`:${t}`)),
      [`mention:${t}`],
    );
    // A stranger whose policy accepts limited accounts gets them.
    const open = await user("open");
    await call(open, "PATCH", "/api/v2/notifications/policy", { for_limited_accounts: "accept" });
    await post(target, { status: `@${open.account.username} hello` });
    await settle();
    assert.deepEqual(await notes(open), [`mention:${t}`]);

    // Lifted: back on the public timelines, not limited, notifications pass.
    await setFlags(target, { silenced_at: null });
    for (const path of timelines("silencetag")) {
      assert.ok(ids(await get(stranger, path)).includes(during.id), path);
    }
    assert.equal((await get(stranger, `/api/v1/accounts/${t}`)).limited, undefined);
    const homeAfter = await get<StatusJson[]>(follower, "/api/v1/timelines/home");
    assert.equal(homeAfter.find((x) => x.id === first.id)?.account.limited, undefined);
    assert.ok(ids(await get(stranger, "/api/v1/directory?local=true&limit=80")).includes(t));
    await post(target, { status: `@${stranger.account.username} again` });
    await settle();
    assert.ok((await notes(stranger)).includes(`mention:${t}`));
  });
});
