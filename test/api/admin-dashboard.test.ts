import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { GANNET_VERSION } from "../../src/lib/version.ts";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";
const RANGE = { start_at: "2025-03-01", end_at: "2025-03-03" };
const DAYS = ["2025-03-01", "2025-03-02", "2025-03-03"];
const at = (day: string, time = "12:00:00") => `${day}T${time}.000Z`;

/** The daily figures of a measure, as numbers. */
const series = (m: { data: { date: string; value: string }[] }) => m.data.map((d) => Number(d.value));

describe("Admin API: dashboard measures, dimensions and retention", () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let moderator: TestUser;
  let plain: TestUser;
  let readOnlyAdmin: TestUser;
  let u1: TestUser;
  let u2: TestUser;
  let u3: TestUser;
  let tagId: string;
  const remote = { id: "", sub: "" };

  const post = (u: TestUser | undefined, path: string, json: Record<string, unknown>) =>
    s.request(path, { method: "POST", token: u?.token, json });
  const backdate = async (
    table: "statuses" | "favourites" | "reports" | "users" | "accounts",
    id: string,
    iso: string,
  ) => {
    await s.ctx.db.updateTable(table).set({ created_at: iso }).where("id", "=", id).execute();
  };

  before(async () => {
    s = await startTestServer({});
    const db = s.ctx.db;
    owner = await s.createUser("own", { role: "Owner", scopes: ADMIN_SCOPES });
    admin = await s.createUser("adm", { role: "Admin", scopes: ADMIN_SCOPES });
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    readOnlyAdmin = await s.createUser("ro", { role: "Admin", scopes: "read write" });

    // Sign-ups: u1 and u2 on March 1st (u1 from an app), u3 on the 2nd, old on February 27th.
    u1 = await s.createUser("uone");
    u2 = await s.createUser("utwo");
    u3 = await s.createUser("uthree");
    const old = await s.createUser("uold");
    const appId = s.ctx.ids.next();
    const now = new Date().toISOString();
    await db
      .insertInto("oauth_applications")
      .values({
        id: appId,
        name: "Tusky",
        website: null,
        redirect_uris: "urn:ietf:wg:oauth:2.0:oob",
        scopes: "read",
        client_id: `c${appId}`,
        client_secret: `s${appId}`,
        superapp: false,
        owner_account_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const signUps: [TestUser, string, Record<string, unknown>][] = [
      [
        u1,
        at("2025-03-01", "08:00:00"),
        { locale: "en", current_sign_in_at: at("2025-03-02"), created_by_application_id: appId },
      ],
      [u2, at("2025-03-01", "09:00:00"), { locale: "de", current_sign_in_at: at("2025-03-03") }],
      [u3, at("2025-03-02", "08:00:00"), { locale: "en", current_sign_in_at: at("2025-03-02") }],
      [old, at("2025-02-27", "08:00:00"), { locale: "fr" }],
    ];
    await db
      .insertInto("user_ips")
      .values({ user_id: u3.user.id, ip: "192.0.2.3", used_at: at("2025-03-03") })
      .execute();

    // Posts: S1 by u3 and S2 (u1's reply) on the 1st, S5 (unlisted) on the 3rd, an old one on Feb 27th.
    const s1 = await post(u3, "/api/v1/statuses", { status: "hello #Gannet", language: "en" });
    assert.equal(s1.status, 200, JSON.stringify(s1.body));
    await backdate("statuses", s1.body.id, at("2025-03-01", "09:00:00"));
    const s2 = await post(u1, "/api/v1/statuses", {
      status: "nice #gannet",
      in_reply_to_id: s1.body.id,
      language: "de",
    });
    await backdate("statuses", s2.body.id, at("2025-03-01", "10:00:00"));
    const s5 = await post(u3, "/api/v1/statuses", { status: "#gannet again", visibility: "unlisted", language: "en" });
    await backdate("statuses", s5.body.id, at("2025-03-03"));
    const s4 = await post(old, "/api/v1/statuses", { status: "long ago" });
    await backdate("statuses", s4.body.id, at("2025-02-27"));
    // A poll of February 27th; u3 votes for two of its options on the 3rd (one interaction).
    const poll = await post(old, "/api/v1/statuses", {
      status: "which?",
      poll: { options: ["a", "b", "c"], expires_in: 86400, multiple: true },
    });
    assert.equal(poll.status, 200, JSON.stringify(poll.body));
    await backdate("statuses", poll.body.id, at("2025-02-27"));
    const vote = await post(u3, `/api/v1/polls/${poll.body.poll.id}/votes`, { choices: ["0", "1"] });
    assert.equal(vote.status, 200, JSON.stringify(vote.body));
    await db
      .updateTable("poll_votes")
      .set({ created_at: at("2025-03-03") })
      .where("account_id", "=", u3.account.id)
      .execute();
    // u2 favourites S1 on the 1st and boosts it on the 2nd.
    await post(u2, `/api/v1/statuses/${s1.body.id}/favourite`, {});
    const fav = await db
      .selectFrom("favourites")
      .select("id")
      .where("account_id", "=", u2.account.id)
      .executeTakeFirstOrThrow();
    await backdate("favourites", String(fav.id), at("2025-03-01"));
    const boost = await post(u2, `/api/v1/statuses/${s1.body.id}/reblog`, {});
    assert.equal(boost.status, 200, JSON.stringify(boost.body));
    await backdate("statuses", boost.body.id, at("2025-03-02"));
    const tag = await s.ctx.repos.statuses.getTag("gannet");
    assert.ok(tag);
    tagId = tag.id;

    // Remote accounts: r1 of remote.example (March 2nd), r2 of sub.remote.example (3rd).
    remote.id = s.ctx.ids.next();
    remote.sub = s.ctx.ids.next();
    for (const [id, domain, day] of [
      [remote.id, "remote.example", "2025-03-02"],
      [remote.sub, "sub.remote.example", "2025-03-03"],
    ] as const) {
      await s.ctx.repos.accounts.insert({
        id,
        username: "rob",
        domain,
        uri: `https://${domain}/users/rob`,
        url: `https://${domain}/@rob`,
        created_at: at(day),
        updated_at: at(day),
      });
    }
    // S3: r1's public post in French with the tag, on the 2nd, with 1.5 KB of media.
    const s3 = s.ctx.ids.next();
    await db
      .insertInto("statuses")
      .values({
        id: s3,
        uri: "https://remote.example/statuses/1",
        account_id: remote.id,
        visibility: "public",
        language: "fr",
        local: false,
        content: "<p>#gannet</p>",
        created_at: at("2025-03-02"),
        updated_at: at("2025-03-02"),
      })
      .execute();
    await db.insertInto("statuses_tags").values({ status_id: s3, tag_id: tagId }).execute();
    await db
      .insertInto("media_attachments")
      .values({
        id: s.ctx.ids.next(),
        account_id: remote.id,
        status_id: s3,
        scheduled_status_id: null,
        type: "image",
        file_key: null,
        file_content_type: "image/png",
        file_size: 1536,
        small_key: null,
        thumbnail_key: null,
        thumbnail_content_type: null,
        remote_url: "https://remote.example/media/1.png",
        description: null,
        focus_x: null,
        focus_y: null,
        blurhash: null,
        created_at: at("2025-03-02"),
        updated_at: at("2025-03-02"),
      })
      .execute();
    // Follows: r1 follows u1 on the 2nd; u1 follows r1 on the 3rd.
    for (const [from, to, day] of [
      [remote.id, u1.account.id, "2025-03-02"],
      [u1.account.id, remote.id, "2025-03-03"],
    ] as const) {
      await s.ctx.repos.follows.insert({
        id: s.ctx.ids.next(),
        account_id: from,
        target_account_id: to,
        created_at: at(day),
      });
    }
    // Reports: u1 reports r1 on the 1st (resolved on the 3rd), and u3 on the 2nd.
    const r1 = await post(u1, "/api/v1/reports", { account_id: remote.id, comment: "spam" });
    assert.equal(r1.status, 200, JSON.stringify(r1.body));
    await db
      .updateTable("reports")
      .set({ created_at: at("2025-03-01"), action_taken_at: at("2025-03-03") })
      .where("id", "=", r1.body.id)
      .execute();
    const r2 = await post(u1, "/api/v1/reports", { account_id: u3.account.id, comment: "rude" });
    await backdate("reports", r2.body.id, at("2025-03-02"));
    await s.settle({ delayed: false });
    // The seeded users' own tokens (issued today) would count as today's activity: gone.
    await db
      .deleteFrom("oauth_access_tokens")
      .where("user_id", "in", [u1.user.id, u2.user.id, u3.user.id, old.user.id])
      .execute();
    // The addresses recorded when the test users signed up and used their tokens are from today.
    await db
      .deleteFrom("user_ips")
      .where("user_id", "in", [u1.user.id, u2.user.id, u3.user.id, old.user.id])
      .where("used_at", ">", at("2025-12-31"))
      .execute();
    // Sign-up and sign-in times last: using a token moves a user's sign-in to now.
    for (const [u, created, more] of signUps) {
      await db
        .updateTable("users")
        .set({ created_at: created, last_sign_in_at: null, current_sign_in_at: null, ...more })
        .where("id", "=", u.user.id)
        .execute();
      await backdate("accounts", u.account.id, created);
    }
  });
  after(() => s.close());

  const measures = async (keys: string[], more: Record<string, unknown> = {}, u: TestUser = admin) => {
    const r = await post(u, "/api/v1/admin/measures", { keys, ...RANGE, ...more });
    return expectEntity<any[]>(r, ["AdminMeasure"], `measures ${keys.join(",")}`);
  };
  const one = async (key: string, more: Record<string, unknown> = {}) => {
    const [m] = await measures([key], more);
    assert.equal(m.key, key);
    return m;
  };

  it("answers each measure over the requested days with Mastodon's shape: strings, one point a day", async () => {
    const m = await one("new_users");
    assert.deepEqual(Object.keys(m), ["key", "unit", "total", "previous_total", "data"]);
    assert.equal(m.unit, null);
    assert.deepEqual(
      m.data.map((d: { date: string }) => d.date),
      DAYS.map((d) => `${d}T00:00:00Z`),
    );
    assert.equal(typeof m.total, "string");
    assert.deepEqual(series(m), [2, 1, 0]);
    assert.equal(m.total, "3");
    assert.equal(m.previous_total, "1", "the three days before: the February 27th sign-up");
  });

  it("active_users: local users who posted, favourited, boosted or signed in, per day and distinct over the days", async () => {
    const m = await one("active_users");
    assert.deepEqual(series(m), [3, 3, 2]);
    assert.equal(m.total, "3");
    assert.equal(m.previous_total, "1");
  });

  it("interactions: local favourites, boosts, replies to others, follows and poll votes", async () => {
    const m = await one("interactions");
    assert.deepEqual(series(m), [2, 1, 2]);
    assert.equal(m.total, "5");
    assert.equal(m.previous_total, "0");
  });

  it("opened_reports and resolved_reports", async () => {
    const [opened, resolved] = await measures(["opened_reports", "resolved_reports"]);
    assert.deepEqual(series(opened), [1, 1, 0]);
    assert.equal(opened.total, "2");
    assert.deepEqual(series(resolved), [0, 0, 1]);
    assert.equal(resolved.total, "1");
  });

  it("tag_uses, tag_accounts and tag_servers of one tag (tag_*[id])", async () => {
    const [uses, accounts, servers] = await measures(["tag_uses", "tag_accounts", "tag_servers"], {
      tag_uses: { id: tagId },
      tag_accounts: { id: tagId },
      tag_servers: { id: tagId },
    });
    assert.deepEqual(series(uses), [2, 1, 0], "public posts only");
    assert.equal(uses.total, "3");
    assert.deepEqual(series(accounts), [2, 1, 0]);
    assert.equal(accounts.total, "3");
    assert.deepEqual(series(servers), [1, 1, 1], "this server counts as one; any visibility");
    assert.equal(servers.total, "2");
    assert.equal(servers.previous_total, "0");
  });

  it("instance_* measures: all-time totals without previous_total, daily figures in the days, subdomains on request", async () => {
    const domain = { domain: "remote.example" };
    const keys = [
      "instance_accounts",
      "instance_media_attachments",
      "instance_reports",
      "instance_statuses",
      "instance_follows",
      "instance_followers",
    ];
    const list = await measures(keys, Object.fromEntries(keys.map((k) => [k, domain])));
    const byKey = Object.fromEntries(list.map((m) => [m.key, m]));
    assert.deepEqual(Object.keys(byKey), keys);
    for (const m of list) assert.equal("previous_total" in m, false, m.key);
    assert.equal(byKey.instance_accounts.total, "1");
    assert.deepEqual(series(byKey.instance_accounts), [0, 1, 0]);
    const media = byKey.instance_media_attachments;
    assert.deepEqual([media.unit, media.total, media.human_value], ["bytes", "1536", "1.5 KB"]);
    assert.deepEqual(series(media), [0, 1536, 0]);
    assert.equal(byKey.instance_reports.total, "1");
    assert.deepEqual(series(byKey.instance_reports), [1, 0, 0]);
    assert.equal(byKey.instance_statuses.total, "1");
    assert.deepEqual(series(byKey.instance_statuses), [0, 1, 0]);
    assert.equal(byKey.instance_follows.total, "1");
    assert.deepEqual(series(byKey.instance_follows), [0, 0, 1]);
    assert.equal(byKey.instance_followers.total, "1");
    assert.deepEqual(series(byKey.instance_followers), [0, 1, 0]);
    const wide = await one("instance_accounts", {
      instance_accounts: { domain: "remote.example", include_subdomains: true },
    });
    assert.equal(wide.total, "2");
    assert.deepEqual(series(wide), [0, 1, 1]);
  });

  it("keeps the order asked, leaves unknown keys out, and answers [] for no known key", async () => {
    const list = await measures(["resolved_reports", "nonsense", "new_users"]);
    assert.deepEqual(
      list.map((m) => m.key),
      ["resolved_reports", "new_users"],
    );
    assert.deepEqual(await measures(["nonsense"]), []);
    const form = await s.request("/api/v1/admin/measures", {
      method: "POST",
      token: admin.token,
      form: { "keys[]": ["new_users"], start_at: "2025-03-01T05:00:00Z", end_at: "2025-03-03" },
    });
    assert.equal(form.status, 200);
    assert.equal(form.body[0].total, "3", "a form works, and a time is ignored");
  });

  it("refuses bad dates and missing key parameters with 400, an unknown tag with 404", async () => {
    const bad = async (body: Record<string, unknown>, status: number, error: RegExp) => {
      const r = await post(admin, "/api/v1/admin/measures", body);
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.match(r.body.error, error);
    };
    await bad({ keys: ["new_users"], end_at: "2025-03-03" }, 400, /start_at/);
    await bad({ keys: ["new_users"], start_at: "2025-03-01" }, 400, /end_at/);
    await bad(
      { keys: ["new_users"], start_at: "2025-02-30", end_at: "2025-03-03" },
      400,
      /start_at is not a valid date/,
    );
    await bad({ keys: ["new_users"], start_at: "yesterday", end_at: "2025-03-03" }, 400, /start_at/);
    await bad({ keys: ["new_users"], start_at: "1900-01-01", end_at: "2025-03-03" }, 400, /too long/);
    await bad({ keys: ["tag_uses"], ...RANGE }, 400, /param is missing or the value is empty: tag_uses/);
    await bad({ keys: ["tag_uses"], ...RANGE, tag_uses: "1" }, 400, /tag_uses/);
    await bad({ keys: ["tag_uses"], ...RANGE, tag_uses: { id: "999999" } }, 404, /Record not found/);
    await bad({ keys: ["tag_uses"], ...RANGE, tag_uses: { id: "abc" } }, 404, /Record not found/);
    await bad(
      { keys: ["instance_statuses"], ...RANGE, instance_statuses: { include_subdomains: "true" } },
      400,
      /domain/,
    );
    const backwards = await measures(["new_users"], { start_at: "2025-03-03", end_at: "2025-03-01" });
    assert.deepEqual([backwards[0].total, backwards[0].data], ["0", []], "an end before the start has no days");
  });

  it("dimensions: languages, sources, servers, tag and instance breakdowns, limit", async () => {
    const r = await post(admin, "/api/v1/admin/dimensions", {
      keys: [
        "languages",
        "sources",
        "servers",
        "tag_servers",
        "tag_languages",
        "instance_accounts",
        "instance_languages",
        "bogus",
      ],
      ...RANGE,
      tag_servers: { id: tagId },
      tag_languages: { id: tagId },
      instance_accounts: { domain: "remote.example" },
      instance_languages: { domain: "remote.example" },
    });
    const list = expectEntity<any[]>(r, ["AdminDimension"], "dimensions");
    const by = Object.fromEntries(list.map((d) => [d.key, d.data]));
    assert.deepEqual(Object.keys(by), [
      "languages",
      "sources",
      "servers",
      "tag_servers",
      "tag_languages",
      "instance_accounts",
      "instance_languages",
    ]);
    assert.deepEqual(by.languages, [
      { key: "en", human_key: "English", value: "2" },
      { key: "de", human_key: "German", value: "1" },
    ]);
    assert.deepEqual(by.sources, [
      { key: "web", human_key: "Website", value: "2" },
      { key: "Tusky", human_key: "Tusky", value: "1" },
    ]);
    const local = s.ctx.config.localDomain;
    assert.deepEqual(by.servers, [
      { key: local, human_key: local, value: "4" },
      { key: "remote.example", human_key: "remote.example", value: "1" },
    ]);
    assert.deepEqual(by.tag_servers, [
      { key: local, human_key: local, value: "3" },
      { key: "remote.example", human_key: "remote.example", value: "1" },
    ]);
    assert.deepEqual(
      by.tag_languages.map((d: { key: string; value: string }) => [d.key, d.value]),
      [
        ["en", "2"],
        ["de", "1"],
        ["fr", "1"],
      ],
    );
    assert.deepEqual(by.instance_accounts, [{ key: "rob", human_key: "rob", value: "1" }]);
    assert.deepEqual(by.instance_languages, [{ key: "fr", human_key: "French", value: "1" }]);

    const limited = await post(admin, "/api/v1/admin/dimensions", { keys: ["servers"], ...RANGE, limit: 1 });
    assert.deepEqual(
      limited.body[0].data.map((d: { key: string }) => d.key),
      [local],
    );
  });

  it("dimensions: space_usage and software_versions need no dates", async () => {
    const r = await post(admin, "/api/v1/admin/dimensions", { keys: ["space_usage", "software_versions"] });
    const [space, versions] = expectEntity<any[]>(r, ["AdminDimension"], "dimensions");
    const db = s.ctx.dialect === "postgres" ? "postgresql" : "sqlite";
    const spaceKeys = space.data.map((d: { key: string }) => d.key);
    assert.deepEqual(spaceKeys, s.ctx.redis ? [db, "redis", "media"] : [db, "media"]);
    for (const d of space.data) {
      assert.equal(d.unit, "bytes");
      assert.match(d.value, /^\d+$/);
      assert.match(d.human_value, /^\d+(\.\d+)? (Bytes?|KB|MB|GB|TB)$/);
    }
    assert.ok(Number(space.data.at(-1).value) >= 1536, "media counts the remote attachment");
    assert.ok(Number(space.data[0].value) > 0, "the database has a size");
    assert.deepEqual(versions.data[0], {
      key: "gannet",
      human_key: "Gannet",
      value: GANNET_VERSION,
      human_value: GANNET_VERSION,
    });
    assert.deepEqual(versions.data[1].value, process.versions.node);
    assert.equal(versions.data[2].key, db);
    assert.match(versions.data[2].value, /^\d+(\.\d+)*/);
  });

  it("dimensions: bad limit 400, missing dates 400, missing parameters 400", async () => {
    for (const [body, error] of [
      [{ keys: ["servers"], ...RANGE, limit: -1 }, /limit/],
      [{ keys: ["servers"], ...RANGE, limit: "abc" }, /limit/],
      [{ keys: ["servers"] }, /start_at/],
      [{ keys: ["tag_languages"], ...RANGE }, /tag_languages/],
    ] as const) {
      const r = await post(admin, "/api/v1/admin/dimensions", body);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.error, error);
    }
  });

  it("retention: daily cohorts of sign-ups and the share of each still active later", async () => {
    const r = await post(admin, "/api/v1/admin/retention", { ...RANGE, frequency: "day" });
    const cohorts = expectEntity<any[]>(r, ["AdminCohort"], "retention");
    assert.deepEqual(
      cohorts.map((c) => [
        c.period,
        c.frequency,
        c.data.map((d: { date: string; value: string; rate: number }) => [d.date.slice(0, 10), d.value, d.rate]),
      ]),
      [
        [
          "2025-03-01T00:00:00Z",
          "day",
          [
            ["2025-03-01", "2", 1],
            ["2025-03-02", "2", 1],
            ["2025-03-03", "1", 0.5],
          ],
        ],
        [
          "2025-03-02T00:00:00Z",
          "day",
          [
            ["2025-03-02", "1", 1],
            ["2025-03-03", "1", 1],
          ],
        ],
        ["2025-03-03T00:00:00Z", "day", [["2025-03-03", "0", 0]]],
      ],
    );
    const monthly = await post(admin, "/api/v1/admin/retention", {
      start_at: "2025-03-02",
      end_at: "2025-03-31",
      frequency: "month",
    });
    assert.deepEqual(monthly.body, [
      {
        period: "2025-03-01T00:00:00Z",
        frequency: "month",
        data: [{ date: "2025-03-01T00:00:00Z", rate: 1, value: "3" }],
      },
    ]);
    const other = await post(admin, "/api/v1/admin/retention", { ...RANGE, frequency: "week" });
    assert.equal(other.body[0].frequency, "day", "any other frequency is day, as Mastodon");
    const missing = await post(admin, "/api/v1/admin/retention", { start_at: "2025-03-01" });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error, /end_at/);
  });

  it("works with the masto client: measures, dimensions and retention", async () => {
    const client = createRestAPIClient({ url: s.url, accessToken: moderator.token });
    const range = { startAt: "2025-03-01T00:00:00Z", endAt: "2025-03-03T00:00:00Z" };
    const [newUsers, uses] = await client.v1.admin.measures.create({
      keys: ["new_users", "tag_uses"],
      ...range,
      tagUses: { id: tagId },
    });
    assert.deepEqual([newUsers?.total, newUsers?.previousTotal, uses?.total], ["3", "1", "3"]);
    const [servers] = await client.v1.admin.dimensions.create({ keys: ["servers"], ...range, limit: "5" });
    assert.equal(servers?.data[0]?.value, "4");
    const cohorts = await client.v1.admin.retention.create({ ...range, frequency: "month" });
    assert.equal(cohorts[0]?.data[0]?.value, "3");
  });

  it("needs View Dashboard and admin:read: Owner, Admin and Moderator may; others 403, no token 401", async () => {
    for (const path of ["/api/v1/admin/measures", "/api/v1/admin/dimensions", "/api/v1/admin/retention"]) {
      const body = { keys: ["new_users", "languages"], ...RANGE };
      for (const u of [owner, admin, moderator]) {
        const r = await post(u, path, body);
        assert.equal(r.status, 200, `${path} ${u.account.username}: ${JSON.stringify(r.body)}`);
        assert.ok(Array.isArray(r.body) && r.body.length > 0);
      }
      assert.equal((await post(plain, path, body)).status, 403, `${path}: no staff role`);
      assert.equal((await post(readOnlyAdmin, path, body)).status, 403, `${path}: no admin scope`);
      assert.equal((await post(undefined, path, body)).status, 401, `${path}: no token`);
    }
  });
});
