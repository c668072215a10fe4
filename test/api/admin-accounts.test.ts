import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { deleteLocalAccount } from "../../src/services/admin/delete-local-account.ts";
import { findLocalUser } from "../../src/services/admin/local-user.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

/** Admin::Account's members, in Mastodon's order (created_by_application_id and invited_by_account_id only when set). */
const KEYS = [
  "id",
  "username",
  "domain",
  "created_at",
  "email",
  "ip",
  "confirmed",
  "suspended",
  "silenced",
  "sensitized",
  "disabled",
  "approved",
  "locale",
  "invite_request",
  "ips",
  "account",
  "role",
];

describe("Admin API: account listings and one account", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carl: TestUser;
  let dora: TestUser;
  let pete: TestUser;
  let goneId: string;
  const remote: Record<string, string> = {};
  const now = new Date().toISOString();

  const get = (path: string, u: TestUser = admin) => s.request(path, { token: u.token });
  /** The usernames a listing answers (remote ones as user@domain), asserting a 200. */
  const names = async (path: string): Promise<string[]> => {
    const r = await get(path);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body.map((a: any) => (a.domain ? `${a.username}@${a.domain}` : a.username));
  };
  const addRemote = async (username: string, domain: string, extra: Record<string, unknown> = {}) => {
    const id = s.ctx.ids.next();
    await s.ctx.repos.accounts.insert({
      id,
      username,
      domain,
      uri: `https://${domain}/users/${username}`,
      url: `https://${domain}/@${username}`,
      created_at: now,
      updated_at: now,
      ...extra,
    });
    remote[`${username}@${domain}`] = id;
  };

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "approved" });
    owner = await s.createUser("olga", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adam", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mona", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("plain", { scopes: ADMIN_SCOPES });
    alice = await s.createUser("alice");
    await s.ctx.repos.accounts.update(alice.account.id, { display_name: "Alice Liddell" });
    bob = await s.createUser("bob");
    await s.ctx.repos.users.update(bob.user.id, { disabled: true });
    carl = await s.createUser("carl");
    await s.ctx.repos.accounts.update(carl.account.id, { silenced_at: now, sensitized_at: now });
    dora = await s.createUser("dora");
    await s.ctx.repos.accounts.update(dora.account.id, { suspended_at: now, suspension_origin: "local" });
    pete = await s.createUser("pete", { approved: false });
    const gone = await s.createUser("gone");
    goneId = gone.account.id;
    const found = await findLocalUser(s.ctx, "gone");
    assert.ok("found" in found);
    await deleteLocalAccount(s.ctx, found.found);
    await addRemote("rita", "remote.example", { silenced_at: now });
    await addRemote("sam", "other.example", { display_name: "Sam Remote" });
    await addRemote("tom", "remote.example", { suspended_at: now, suspension_origin: "local" });
    // Deleted by its server: Mastodon destroys such an account, so moderators no longer see it.
    await addRemote("vic", "remote.example", { suspended_at: now, suspension_origin: "deleted" });
    // Addresses: alice from two, bob from one of a range alice used too.
    await s.ctx.repos.adminAccounts.recordIp(alice.user.id, "203.0.113.7", "2026-01-01T00:00:00.000Z");
    await s.ctx.repos.adminAccounts.recordIp(alice.user.id, "2001:db8::1", "2026-02-01T00:00:00.000Z");
    await s.ctx.repos.adminAccounts.recordIp(bob.user.id, "203.0.113.200", "2026-01-05T00:00:00.000Z");
  });
  after(() => s.close());

  const LOCAL_STAFF = ["olga", "adam", "mona"];

  describe("GET /api/v1/admin/accounts (older filters)", () => {
    it("lists local accounts that are not suspended, newest first, by default", async () => {
      const all = await names("/api/v1/admin/accounts");
      assert.deepEqual(all, ["pete", "carl", "bob", "alice", "plain", "mona", "adam", "olga"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?local=true"), all);
      assert.deepEqual(await names("/api/v1/admin/accounts?active=true"), all);
    });

    it("remote and by_domain", async () => {
      assert.deepEqual(await names("/api/v1/admin/accounts?remote=true"), ["sam@other.example", "rita@remote.example"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?remote=true&by_domain=remote.example"), [
        "rita@remote.example",
      ]);
      // As in Mastodon, by_domain alone keeps the local default: no local account has a domain.
      assert.deepEqual(await names("/api/v1/admin/accounts?by_domain=remote.example"), []);
      assert.deepEqual(await names("/api/v1/admin/accounts?remote=true&suspended=true"), ["tom@remote.example"]);
    });

    it("one status at a time: pending, disabled, silenced, suspended (deleted ones too), sensitized", async () => {
      assert.deepEqual(await names("/api/v1/admin/accounts?pending=true"), ["pete"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?disabled=true"), ["bob"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?silenced=true"), ["carl"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?remote=1&silenced=1"), ["rita@remote.example"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?suspended=true"), ["gone", "dora"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?sensitized=true"), ["carl"]);
      // The last status flag wins (Mastodon's order: active, pending, disabled, silenced, suspended).
      assert.deepEqual(await names("/api/v1/admin/accounts?pending=true&suspended=true"), ["gone", "dora"]);
    });

    it("username and display_name match the start, in any case; email too", async () => {
      assert.deepEqual(await names("/api/v1/admin/accounts?username=AL"), ["alice"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?username=lice"), []);
      assert.deepEqual(await names("/api/v1/admin/accounts?display_name=alice%20l"), ["alice"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?display_name=Liddell"), []);
      assert.deepEqual(await names("/api/v1/admin/accounts?email=BOB@"), ["bob"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?email=example.com"), []);
      // LIKE's wildcards are taken literally.
      assert.deepEqual(await names("/api/v1/admin/accounts?username=%25"), []);
      assert.deepEqual(await names("/api/v1/admin/accounts?username=_"), []);
    });

    it("ip: an address or a range of the addresses users used; anything else matches nobody", async () => {
      assert.deepEqual(await names("/api/v1/admin/accounts?ip=203.0.113.7"), ["alice"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?ip=203.0.113.0/24"), ["bob", "alice"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?ip=2001:db8::/32"), ["alice"]);
      assert.deepEqual(await names("/api/v1/admin/accounts?ip=198.51.100.0/24"), []);
      assert.deepEqual(await names("/api/v1/admin/accounts?ip=not-an-address"), []);
    });

    it("staff: users whose role can manage reports", async () => {
      assert.deepEqual(await names("/api/v1/admin/accounts?staff=true"), ["mona", "adam", "olga"]);
    });
  });

  describe("GET /api/v2/admin/accounts", () => {
    it("lists every account without filters: local and remote, suspended and deleted", async () => {
      const all = await names("/api/v2/admin/accounts");
      for (const n of ["alice", "dora", "gone", "pete", "rita@remote.example", "tom@remote.example", ...LOCAL_STAFF]) {
        assert.ok(all.includes(n), n);
      }
      assert.equal(all.length, 13);
    });

    it("origin", async () => {
      assert.deepEqual(await names("/api/v2/admin/accounts?origin=remote"), [
        "tom@remote.example",
        "sam@other.example",
        "rita@remote.example",
      ]);
      const local = await names("/api/v2/admin/accounts?origin=local");
      assert.equal(local.length, 10);
      assert.ok(!local.some((n) => n.includes("@")));
    });

    it("status", async () => {
      assert.deepEqual(await names("/api/v2/admin/accounts?status=pending"), ["pete"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?status=disabled"), ["bob"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?status=silenced"), ["rita@remote.example", "carl"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?status=suspended"), ["tom@remote.example", "gone", "dora"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?status=sensitized"), ["carl"]);
      const active = await names("/api/v2/admin/accounts?status=active");
      assert.equal(active.length, 10);
      assert.ok(!active.includes("dora") && !active.includes("gone") && !active.includes("tom@remote.example"));
      assert.deepEqual(await names("/api/v2/admin/accounts?origin=local&status=silenced"), ["carl"]);
    });

    it("permissions=staff, role_ids[] (permissions wins), invited_by", async () => {
      assert.deepEqual(await names("/api/v2/admin/accounts?permissions=staff"), ["mona", "adam", "olga"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?role_ids[]=1"), ["mona"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?role_ids[]=2&role_ids[]=3"), ["adam", "olga"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?role_ids[]=nope"), []);
      assert.deepEqual(await names("/api/v2/admin/accounts?role_ids[]=1&permissions=staff"), ["mona", "adam", "olga"]);
      // Gannet has no invites: an inviter invited nobody.
      assert.deepEqual(await names(`/api/v2/admin/accounts?invited_by=${alice.account.id}`), []);
    });

    it("username, display_name, by_domain, email, ip", async () => {
      assert.deepEqual(await names("/api/v2/admin/accounts?username=s"), ["sam@other.example"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?display_name=sam"), ["sam@other.example"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?by_domain=REMOTE.example"), [
        "tom@remote.example",
        "rita@remote.example",
      ]);
      assert.deepEqual(await names("/api/v2/admin/accounts?email=ali"), ["alice"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?ip=203.0.113.200"), ["bob"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?origin=remote&username=rita&by_domain=other.example"), []);
    });

    it("refuses an unknown origin or status with 400", async () => {
      const o = await get("/api/v2/admin/accounts?origin=mars");
      assert.equal(o.status, 400);
      assert.deepEqual(o.body, { error: "Unknown origin: mars" });
      const st = await get("/api/v2/admin/accounts?status=happy");
      assert.equal(st.status, 400);
      assert.deepEqual(st.body, { error: "Unknown status: happy" });
      assert.equal((await get("/api/v2/admin/accounts?limit=many")).status, 400);
    });
  });

  describe("pagination", () => {
    it("pages newest first with max_id, min_id and since_id, and Link headers carrying the filters", async () => {
      const all = (await get("/api/v2/admin/accounts?origin=local")).body.map((a: any) => a.id);
      const first = await get("/api/v2/admin/accounts?origin=local&limit=4");
      assert.deepEqual(
        first.body.map((a: any) => a.id),
        all.slice(0, 4),
      );
      const link = first.headers.get("link") ?? "";
      const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
      const prev = /<([^>]+)>; rel="prev"/.exec(link)?.[1];
      assert.ok(next && prev, link);
      const nextUrl = new URL(next);
      assert.equal(nextUrl.pathname, "/api/v2/admin/accounts");
      assert.equal(nextUrl.searchParams.get("max_id"), all[3]);
      assert.equal(nextUrl.searchParams.get("origin"), "local");
      assert.equal(nextUrl.searchParams.get("limit"), "4");
      assert.equal(new URL(prev).searchParams.get("min_id"), all[0]);
      const second = await get(`${nextUrl.pathname}${nextUrl.search}`);
      assert.deepEqual(
        second.body.map((a: any) => a.id),
        all.slice(4, 8),
      );
      // min_id pages forward from a cursor: the oldest ones after it, still newest first.
      const newer = await get(`/api/v2/admin/accounts?origin=local&limit=2&min_id=${all[6]}`);
      assert.deepEqual(
        newer.body.map((a: any) => a.id),
        [all[4], all[5]],
      );
      const since = await get(`/api/v2/admin/accounts?origin=local&limit=2&since_id=${all[6]}`);
      assert.deepEqual(
        since.body.map((a: any) => a.id),
        [all[0], all[1]],
      );
      // The v1 list pages the same way; a short page has no next link.
      const v1 = await get("/api/v1/admin/accounts?limit=100&username=a");
      assert.deepEqual(
        v1.body.map((a: any) => a.username),
        ["alice", "adam"],
      );
      assert.doesNotMatch(v1.headers.get("link") ?? "", /rel="next"/);
      assert.match(v1.headers.get("link") ?? "", /username=a/);
    });
  });

  describe("GET /api/v1/admin/accounts/:id", () => {
    it("answers every member of a local user's Admin::Account", async () => {
      const r = await get(`/api/v1/admin/accounts/${alice.account.id}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const a = r.body;
      assert.deepEqual(Object.keys(a), KEYS);
      assert.equal(a.id, alice.account.id);
      assert.equal(a.username, "alice");
      assert.equal(a.domain, null);
      assert.equal(a.created_at, alice.account.createdAt);
      assert.equal(a.email, "alice@example.com");
      assert.equal(a.ip, "2001:db8::1", "the most recently used address");
      assert.deepEqual(a.ips, [
        { ip: "2001:db8::1", used_at: "2026-02-01T00:00:00.000Z" },
        { ip: "203.0.113.7", used_at: "2026-01-01T00:00:00.000Z" },
      ]);
      assert.equal(a.confirmed, true);
      assert.equal(a.approved, true);
      for (const k of ["suspended", "silenced", "sensitized", "disabled"]) assert.equal(a[k], false, k);
      assert.equal(a.locale, "en");
      assert.equal(a.invite_request, null);
      assert.equal(a.account.id, alice.account.id);
      assert.equal(a.account.display_name, "Alice Liddell");
      // A user without a role shows the everyone role, as in Mastodon.
      assert.equal(a.role.id, "-99");
      assert.equal(a.role.permissions, String(0x10000));
      const staff = (await get(`/api/v1/admin/accounts/${moderator.account.id}`)).body;
      assert.deepEqual(staff.role, {
        id: "1",
        name: "Moderator",
        permissions: String(0x4 | 0x8 | 0x10 | 0x200 | 0x400 | 0x800 | 0x10000),
        color: "",
        highlighted: true,
      });
    });

    it("shows moderation state: disabled, silenced, sensitized, suspended, pending", async () => {
      assert.equal((await get(`/api/v1/admin/accounts/${bob.account.id}`)).body.disabled, true);
      const c = (await get(`/api/v1/admin/accounts/${carl.account.id}`)).body;
      assert.equal(c.silenced, true);
      assert.equal(c.sensitized, true);
      assert.equal((await get(`/api/v1/admin/accounts/${dora.account.id}`)).body.suspended, true);
      assert.equal((await get(`/api/v1/admin/accounts/${pete.account.id}`)).body.approved, false);
    });

    it("answers a remote account without user facts, and a deleted one as suspended", async () => {
      const r = (await get(`/api/v1/admin/accounts/${remote["rita@remote.example"]}`)).body;
      assert.deepEqual(Object.keys(r), KEYS);
      assert.equal(r.domain, "remote.example");
      assert.equal(r.silenced, true);
      for (const k of ["email", "ip", "locale", "invite_request", "role"]) assert.equal(r[k], null, k);
      for (const k of ["confirmed", "approved", "disabled"]) assert.equal(r[k], false, k);
      assert.deepEqual(r.ips, []);
      assert.equal(r.account.acct, "rita@remote.example");
      const g = await get(`/api/v1/admin/accounts/${goneId}`);
      assert.equal(g.status, 200);
      assert.equal(g.body.suspended, true);
      assert.equal(g.body.email, null);
      assert.equal((await get(`/api/v1/admin/accounts/${remote["vic@remote.example"]}`)).status, 404);
    });

    it("answers 404 for an unknown or malformed id", async () => {
      assert.equal((await get("/api/v1/admin/accounts/123456789")).status, 404);
      assert.equal((await get("/api/v1/admin/accounts/abc")).status, 404);
    });
  });

  describe("who may call", () => {
    const paths = () => [
      "/api/v1/admin/accounts",
      "/api/v2/admin/accounts",
      `/api/v1/admin/accounts/${alice.account.id}`,
    ];

    it("Owner, Admin and Moderator (all hold Manage Users) may read", async () => {
      for (const u of [owner, admin, moderator]) {
        for (const p of paths()) assert.equal((await get(p, u)).status, 200, `${u.account.username} ${p}`);
      }
    });

    it("a user with admin scopes but no staff role gets 403, no token 401, a token without the scope 403", async () => {
      for (const p of paths()) {
        const r = await get(p, plain);
        assert.equal(r.status, 403, p);
        assert.deepEqual(r.body, { error: "This action is not allowed" });
        assert.equal((await s.request(p)).status, 401, p);
      }
      const noScope = await s.createUser("noscope", { role: "Admin", scopes: "read write" });
      assert.equal((await get("/api/v1/admin/accounts", noScope)).status, 403);
    });

    it("a role with Manage Users but not Manage Reports may read (and is not staff)", async () => {
      await s.ctx.repos.roles.insert({
        id: "77",
        name: "Greeter",
        color: "",
        permissions: 0x400,
        position: 5,
        highlighted: false,
        created_at: now,
        updated_at: now,
      });
      s.ctx.roles.invalidate();
      const greeter = await s.createUser("greeter", { role: "Greeter", scopes: ADMIN_SCOPES });
      assert.equal((await get("/api/v2/admin/accounts", greeter)).status, 200);
      assert.deepEqual(await names("/api/v2/admin/accounts?permissions=staff"), ["noscope", "mona", "adam", "olga"]);
      assert.deepEqual(await names("/api/v2/admin/accounts?role_ids[]=77"), ["greeter"]);
    });
  });
});
