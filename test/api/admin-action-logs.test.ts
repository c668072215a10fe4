import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import {
  createAnnouncement,
  deleteAnnouncement,
  publishAnnouncement,
  unpublishAnnouncement,
} from "../../src/services/announcements/manage.ts";
import { addCustomEmoji, deleteCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { COMMAND_LINE, logAction, moderatorOf } from "../../src/services/moderation/action-log.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

const ENTRY_KEYS = [
  "id",
  "action",
  "target_type",
  "target_id",
  "human_identifier",
  "summary",
  "account",
  "created_at",
].sort();

describe("Admin API: the action log (a Gannet extension)", () => {
  let s: TestServer;
  let moderator: TestUser;
  let admin: TestUser;
  let reportsOnly: TestUser;
  let plain: TestUser;
  let reportId: string;

  const req = (u: TestUser | undefined, path: string, method = "GET", json?: Record<string, unknown>) =>
    s.request(path, { method, token: u?.token, json: json ?? (method === "GET" ? undefined : {}) });

  before(async () => {
    s = await startTestServer({});
    const now = new Date().toISOString();
    await s.ctx.repos.roles.insert({
      id: "77",
      name: "Reports only",
      color: "",
      permissions: 0x10,
      position: 5,
      highlighted: false,
      created_at: now,
      updated_at: now,
    });
    s.ctx.roles.invalidate();
    moderator = await s.createUser("mo", { role: "Moderator", scopes: ADMIN_SCOPES });
    admin = await s.createUser("ada", { role: "Admin", scopes: ADMIN_SCOPES });
    reportsOnly = await s.createUser("rex", { role: "Reports only", scopes: ADMIN_SCOPES });
    plain = await s.createUser("pat", { scopes: ADMIN_SCOPES });
    const reporter = await s.createUser("rita");
    const target = await s.createUser("troll");
    const r = await s.request("/api/v1/reports", {
      token: reporter.token,
      json: { account_id: target.account.id, comment: "bad" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    reportId = r.body.id;
  });
  after(() => s.close());

  it("records each report action with Mastodon's action names, and shows who did it", async () => {
    const steps: [string, string, string][] = [
      ["assign_to_self", "assigned_to_self", "@mo took report"],
      ["unassign", "unassigned", "@mo left report"],
      ["resolve", "resolve", "@mo resolved report"],
      ["reopen", "reopen", "@mo reopened report"],
    ];
    for (const [path, action, summary] of steps) {
      const r = await req(moderator, `/api/v1/admin/reports/${reportId}/${path}`, "POST");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const log = await req(moderator, `/api/v1/admin/action_logs?limit=1`);
      assert.equal(log.status, 200, JSON.stringify(log.body));
      const [entry] = log.body;
      assert.deepEqual(Object.keys(entry).sort(), ENTRY_KEYS);
      assert.equal(entry.action, action);
      assert.equal(entry.target_type, "Report");
      assert.equal(entry.target_id, reportId);
      assert.equal(entry.summary, `${summary} #${reportId}`);
      assert.equal(entry.account.id, moderator.account.id);
      assert.equal(entry.account.username, "mo");
      assert.match(entry.created_at, /^\d{4}-\d\d-\d\dT/);
    }
    const u = await req(moderator, `/api/v1/admin/reports/${reportId}`, "PUT", { category: "spam" });
    assert.equal(u.status, 200, JSON.stringify(u.body));
    const [entry] = (await req(moderator, "/api/v1/admin/action_logs?limit=1")).body;
    assert.equal(entry.action, "update");
    assert.equal(entry.summary, `@mo changed report #${reportId}`);
    // A refused change is not logged.
    const before = (await req(moderator, "/api/v1/admin/action_logs")).body.length;
    const bad = await req(moderator, `/api/v1/admin/reports/${reportId}`, "PUT", { category: "nonsense" });
    assert.equal(bad.status, 422);
    assert.equal((await req(moderator, "/api/v1/admin/action_logs")).body.length, before);
  });

  it("shows the command line's entries with a null account", async () => {
    await logAction(s.ctx, COMMAND_LINE, {
      action: "create",
      targetType: "CustomEmoji",
      targetId: "4242",
      humanIdentifier: ":blob:",
      summary: "added the custom emoji :blob:",
    });
    const [entry] = (await req(admin, "/api/v1/admin/action_logs?limit=1")).body;
    assert.equal(entry.account, null);
    assert.equal(entry.summary, "The gannet command added the custom emoji :blob:");
    assert.equal(entry.human_identifier, ":blob:");
  });

  it("filters by account_id, target_id and target_type", async () => {
    const byMo = (await req(admin, `/api/v1/admin/action_logs?account_id=${moderator.account.id}`)).body;
    assert.equal(byMo.length, 5);
    assert.ok(byMo.every((e: { account: { id: string } }) => e.account.id === moderator.account.id));
    assert.deepEqual((await req(admin, `/api/v1/admin/action_logs?account_id=${admin.account.id}`)).body, []);
    assert.deepEqual((await req(admin, "/api/v1/admin/action_logs?account_id=nonsense")).body, []);
    const byTarget = (await req(admin, `/api/v1/admin/action_logs?target_id=${reportId}`)).body;
    assert.equal(byTarget.length, 5);
    const emojis = (await req(admin, "/api/v1/admin/action_logs?target_type=CustomEmoji")).body;
    assert.deepEqual(
      emojis.map((e: { target_id: string }) => e.target_id),
      ["4242"],
    );
    const none = await req(admin, `/api/v1/admin/action_logs?target_type=CustomEmoji&target_id=${reportId}`);
    assert.deepEqual(none.body, []);
    // Empty filters are no filters.
    assert.equal((await req(admin, "/api/v1/admin/action_logs?account_id=&target_id=")).body.length, 6);
  });

  it("pages newest first with Link headers", async () => {
    const all = (await req(admin, "/api/v1/admin/action_logs")).body.map((e: { id: string }) => e.id);
    assert.equal(all.length, 6);
    assert.deepEqual(
      all,
      [...all].sort((a: string, b: string) => (BigInt(b) > BigInt(a) ? 1 : -1)),
    );
    const first = await req(admin, "/api/v1/admin/action_logs?limit=4");
    assert.deepEqual(
      first.body.map((e: { id: string }) => e.id),
      all.slice(0, 4),
    );
    const link = first.headers.get("link") ?? "";
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    assert.ok(next, link);
    assert.match(next, new RegExp(`max_id=${all[3]}`));
    const second = await req(admin, new URL(next).pathname + new URL(next).search);
    assert.deepEqual(
      second.body.map((e: { id: string }) => e.id),
      all.slice(4),
    );
    const since = await req(admin, `/api/v1/admin/action_logs?min_id=${all[2]}`);
    assert.deepEqual(
      since.body.map((e: { id: string }) => e.id),
      all.slice(0, 2),
    );
  });

  it("records announcements and custom emojis, by whoever the service is told acted", async () => {
    const by = moderatorOf(admin.account);
    const a = await createAnnouncement(
      s.ctx,
      { text: "Maintenance  tonight", startsAt: null, endsAt: null, allDay: false, publish: false },
      by,
    );
    await publishAnnouncement(s.ctx, a.id, by);
    await unpublishAnnouncement(s.ctx, a.id, by);
    assert.equal(await deleteAnnouncement(s.ctx, a.id, by), true);
    const announcements = await s.ctx.repos.adminActionLogs.page({ targetType: "Announcement" }, { limit: 10 });
    assert.deepEqual(
      announcements.map((e) => [e.action, e.targetId, e.accountId, e.summary]),
      [
        ["destroy", a.id, admin.account.id, '@ada deleted the announcement "Maintenance tonight"'],
        ["unpublish", a.id, admin.account.id, '@ada unpublished the announcement "Maintenance tonight"'],
        ["publish", a.id, admin.account.id, '@ada published the announcement "Maintenance tonight"'],
        ["create", a.id, admin.account.id, '@ada created the announcement "Maintenance tonight"'],
      ],
    );
    const data = new Uint8Array(
      await sharp({ create: { width: 16, height: 16, channels: 4, background: "#3366ff" } })
        .png()
        .toBuffer(),
    );
    const emoji = await addCustomEmoji(s.ctx, { shortcode: "logged", data }, by);
    assert.equal(await deleteCustomEmoji(s.ctx, "logged", by), true);
    const emojis = await s.ctx.repos.adminActionLogs.page(
      { targetType: "CustomEmoji", accountId: admin.account.id },
      { limit: 10 },
    );
    assert.deepEqual(
      emojis.map((e) => [e.action, e.targetId, e.humanIdentifier, e.summary]),
      [
        ["destroy", emoji.id, ":logged:", "@ada deleted the custom emoji :logged:"],
        ["create", emoji.id, ":logged:", "@ada added the custom emoji :logged:"],
      ],
    );
    // A refused emoji is not logged.
    await assert.rejects(addCustomEmoji(s.ctx, { shortcode: "bad one", data }, by));
    assert.equal((await s.ctx.repos.adminActionLogs.page({ targetType: "CustomEmoji" }, { limit: 10 })).length, 3);
  });

  it("needs View Audit Log and admin:read; entries cannot be changed or deleted", async () => {
    assert.equal((await req(undefined, "/api/v1/admin/action_logs")).status, 401);
    assert.equal((await req(plain, "/api/v1/admin/action_logs")).status, 403);
    assert.equal((await req(reportsOnly, "/api/v1/admin/action_logs")).status, 403);
    const noScope = await s.createUser("nos", { role: "Admin", scopes: "read write" });
    assert.equal((await req(noScope, "/api/v1/admin/action_logs")).status, 403);
    const [entry] = (await req(admin, "/api/v1/admin/action_logs?limit=1")).body;
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const r = await req(admin, `/api/v1/admin/action_logs/${entry.id}`, method, { summary: "nothing happened" });
      assert.ok(r.status === 404 || r.status === 405, `${method}: ${r.status}`);
    }
    assert.equal((await req(admin, "/api/v1/admin/action_logs", "DELETE")).status, 404);
    const again = (await req(admin, "/api/v1/admin/action_logs?limit=1")).body[0];
    assert.deepEqual(again, entry);
    assert.equal((await s.ctx.repos.adminActionLogs.page({}, { limit: 100 })).length, 12);
  });
});
