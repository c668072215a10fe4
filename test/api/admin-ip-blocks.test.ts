import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { COMMAND_LINE } from "../../src/services/moderation/action-log.ts";
import {
  createIpBlock,
  destroyIpBlock,
  IP_BLOCKS_CHANNEL,
  pruneExpiredIpBlocks,
} from "../../src/services/moderation/ip-blocks.ts";
import { assertOnlyBlockManagers, createStaff, logEntries, type Staff, signUp } from "../fixtures/admin-blocks.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const BASE = "/api/v1/admin/ip_blocks";
const ALLOWED = [200, 401, 200];
const REFUSED = [403, 403, 403];
const KEYS = ["comment", "created_at", "expires_at", "id", "ip", "severity"];

/** Waits (up to 10 s) until `check` holds. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`never: ${what}`);
    await sleep(20);
  }
}

/** The status of a WebSocket handshake on the streaming endpoint (without a token: 401 when let through). */
function upgradeStatus(base: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL("/api/v1/streaming?stream=public", base), {
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
        ...headers,
      },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("upgrade", (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Admin API: IP blocks", () => {
  let s: TestServer;
  let staff: Staff;
  let app: string;

  const create = (json: Record<string, unknown>, token = staff.admin.token) =>
    s.request(BASE, { method: "POST", token, json });
  const from = (ip: string) => ({ "x-forwarded-for": ip });
  const all = async () => (await s.request(`${BASE}?limit=200`, { token: staff.owner.token })).body;
  /** Statuses of an API call, an OAuth call and a web page from `ip`. */
  // (The OAuth call names no client: 401 when it gets through.)
  const surfaces = async (ip: string) => [
    (await s.request("/api/v1/instance", { headers: from(ip) })).status,
    (await s.request("/oauth/token", { headers: from(ip), form: { grant_type: "client_credentials" } })).status,
    (await s.request("/auth/sign_in", { headers: from(ip) })).status,
  ];

  before(async () => {
    s = await startTestServer({ REGISTRATIONS_MODE: "open" });
    staff = await createStaff(s);
    app = await s.appToken("read write");
  });
  after(() => s.close());

  it("creates a block as Mastodon renders it (the range's network address), and logs it", async () => {
    const r = await create({ ip: "192.0.2.77/24", severity: "sign_up_block", comment: "spam wave" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), KEYS);
    assert.equal(r.body.ip, "192.0.2.0/24");
    assert.equal(r.body.severity, "sign_up_block");
    assert.equal(r.body.comment, "spam wave");
    assert.equal(r.body.expires_at, null);
    const [entry] = await logEntries(s, "IpBlock");
    assert.equal(entry?.action, "create");
    assert.equal(entry?.targetId, r.body.id);
    assert.equal(entry?.accountId, staff.admin.account.id);
    assert.match(entry?.summary ?? "", /192\.0\.2\.0\/24/);
    assert.deepEqual((await s.request(`${BASE}/${r.body.id}`, { token: staff.owner.token })).body, r.body);
    const single = await create({ ip: "2001:DB8::5", severity: "sign_up_block", comment: null, expires_in: null });
    assert.equal(single.status, 200, JSON.stringify(single.body));
    assert.equal(single.body.comment, "");
    assert.equal(single.body.ip, "2001:db8::5/128");
  });

  it("sign_up_block refuses sign-ups from the range as closed registrations, and only from it", async () => {
    const r = await signUp(s, app, "x1@example.com", { ip: "192.0.2.9" });
    assert.equal(r.status, 403, JSON.stringify(r.body));
    assert.deepEqual(r.body, { error: "This action is not allowed" });
    assert.equal(await s.ctx.repos.users.getByEmail("x1@example.com"), undefined);
    const ok = await signUp(s, app, "x2@example.com", { ip: "192.0.3.9" });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    // The rest of the API still works from the range.
    assert.deepEqual(await surfaces("192.0.2.9"), ALLOWED);
  });

  it("sign_up_requires_approval sends sign-ups from the range to the approval queue", async () => {
    const r = await create({ ip: "198.51.100.0/28", severity: "sign_up_requires_approval" });
    assert.equal(r.status, 200);
    assert.equal((await signUp(s, app, "q1@example.com", { ip: "198.51.100.3" })).status, 200);
    assert.equal((await s.ctx.repos.users.getByEmail("q1@example.com"))?.approved, false);
    assert.equal((await signUp(s, app, "q2@example.com", { ip: "198.51.100.30" })).status, 200);
    assert.equal((await s.ctx.repos.users.getByEmail("q2@example.com"))?.approved, true);
  });

  it("no_access refuses the API, OAuth, web pages and streaming from the range at once, and lifts at once", async () => {
    assert.deepEqual(await surfaces("203.0.113.5"), ALLOWED);
    assert.equal(await upgradeStatus(s.url, from("203.0.113.5")), 401);
    const r = await create({ ip: "203.0.113.0/24", severity: "no_access" });
    assert.equal(r.status, 200);
    assert.deepEqual(await surfaces("203.0.113.5"), REFUSED);
    assert.equal(await upgradeStatus(s.url, from("203.0.113.5")), 403);
    assert.equal(await upgradeStatus(s.url, from("203.0.114.5")), 401);
    const refused = await s.request("/api/v1/instance", { headers: from("203.0.113.200") });
    assert.equal(await refused.body, "Forbidden\n");
    // Also with a token, and for a sign-up.
    assert.equal(
      (
        await s.request("/api/v1/accounts/verify_credentials", {
          token: staff.owner.token,
          headers: from("203.0.113.6"),
        })
      ).status,
      403,
    );
    assert.equal((await signUp(s, app, "nope@example.com", { ip: "203.0.113.7" })).status, 403);
    // Other addresses are untouched.
    assert.deepEqual(await surfaces("203.0.114.5"), ALLOWED);
    const del = await s.request(`${BASE}/${r.body.id}`, { method: "DELETE", token: staff.owner.token });
    assert.deepEqual([del.status, del.body], [200, {}]);
    assert.deepEqual(await surfaces("203.0.113.5"), ALLOWED);
    const [entry] = await logEntries(s, "IpBlock");
    assert.deepEqual([entry?.action, entry?.targetId], ["destroy", r.body.id]);
  });

  it("changes a block with PUT (severity, range, comment, expiry), effective at once, and logs it", async () => {
    const r = await create({ ip: "100.64.0.0/16", severity: "sign_up_block", comment: "old" });
    assert.deepEqual(await surfaces("100.64.1.1"), ALLOWED);
    const put = await s.request(`${BASE}/${r.body.id}`, {
      method: "PUT",
      token: staff.admin.token,
      json: { severity: "no_access", comment: "new", expires_in: 3600 },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.severity, "no_access");
    assert.equal(put.body.comment, "new");
    assert.equal(put.body.ip, "100.64.0.0/16");
    const expires = Date.parse(put.body.expires_at) - Date.now();
    assert.ok(expires > 3500_000 && expires <= 3600_000, put.body.expires_at);
    assert.deepEqual(await surfaces("100.64.1.1"), REFUSED);
    const moved = await s.request(`${BASE}/${r.body.id}`, {
      method: "PUT",
      token: staff.admin.token,
      json: { ip: "100.65.0.0/16" },
    });
    assert.equal(moved.body.ip, "100.65.0.0/16");
    assert.equal(moved.body.severity, "no_access");
    assert.deepEqual(await surfaces("100.64.1.1"), ALLOWED);
    assert.deepEqual(await surfaces("100.65.1.1"), REFUSED);
    const [entry] = await logEntries(s, "IpBlock");
    assert.deepEqual([entry?.action, entry?.targetId], ["update", r.body.id]);
    await s.request(`${BASE}/${r.body.id}`, { method: "DELETE", token: staff.owner.token });
  });

  it("an expired block stops applying, and the scheduler's task deletes it", async () => {
    const r = await create({ ip: "192.0.2.128/25", severity: "no_access", expires_in: 3 });
    assert.equal(r.status, 200);
    const expiresAt = Date.parse(r.body.expires_at);
    assert.equal((await s.request("/api/v1/instance", { headers: from("192.0.2.200") })).status, 403);
    await sleep(Math.max(0, expiresAt - Date.now()) + 50);
    assert.equal((await s.request("/api/v1/instance", { headers: from("192.0.2.200") })).status, 200);
    // An expired sign_up_block no longer refuses sign-ups either.
    const signUpBlock = await create({ ip: "198.51.100.128/25", severity: "sign_up_block", expires_in: 1 });
    await sleep(Math.max(0, Date.parse(signUpBlock.body.expires_at) - Date.now()) + 50);
    assert.equal((await signUp(s, app, "late@example.com", { ip: "198.51.100.200" })).status, 200);
    await pruneExpiredIpBlocks(s.ctx);
    const ids = (await all()).map((b: { id: string }) => b.id);
    assert.ok(!ids.includes(r.body.id));
    assert.ok(!ids.includes(signUpBlock.body.id));
  });

  it("re-reads the blocks when the bus says another process changed them", async () => {
    const id = s.ctx.ids.next();
    await s.ctx.repos.signUpBlocks.insertIp({
      id,
      ip: "198.18.0.0/15",
      severity: "no_access",
      comment: "",
      expiresAt: null,
      createdAt: new Date().toISOString(),
    });
    await s.ctx.bus.publish(IP_BLOCKS_CHANNEL, "changed", null);
    await eventually(
      async () => (await s.request("/api/v1/instance", { headers: from("198.18.3.4") })).status === 403,
      "the block applies",
    );
    await s.ctx.repos.signUpBlocks.deleteIp(id);
    await s.ctx.bus.publish(IP_BLOCKS_CHANNEL, "changed", null);
    await eventually(
      async () => (await s.request("/api/v1/instance", { headers: from("198.18.3.4") })).status === 200,
      "the block is lifted",
    );
  });

  it("refuses bad input with 422 and changes nothing", async () => {
    const before = await all();
    const logged = (await logEntries(s, "IpBlock")).length;
    for (const [json, error] of [
      [{ severity: "no_access" }, "Validation failed: Ip can't be blank"],
      [{ ip: "300.1.2.3", severity: "no_access" }, "Validation failed: Ip is invalid"],
      [{ ip: "10.0.0.0/33", severity: "no_access" }, "Validation failed: Ip is invalid"],
      [{ ip: "example.com", severity: "no_access" }, "Validation failed: Ip is invalid"],
      [{ ip: "10.1.0.0/16" }, "Validation failed: Severity can't be blank"],
      [{ ip: "10.1.0.0/16", severity: "ban" }, "Validation failed: Severity is not included in the list"],
      [{ ip: "192.0.2.1/24", severity: "no_access" }, "Validation failed: Ip has already been taken"],
      [{ ip: "10.1.0.0/16", severity: "no_access", expires_in: -5 }, undefined],
      [{ ip: "10.1.0.0/16", severity: "no_access", expires_in: "soon" }, undefined],
      [{ ip: ["10.1.0.0/16"], severity: "no_access" }, undefined],
    ] as const) {
      const r = await create(json);
      assert.equal(r.status, 422, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
      if (error) assert.equal(r.body.error, error);
    }
    const [first] = before;
    for (const json of [{ severity: "ban" }, { ip: "nonsense" }, { expires_in: -1 }]) {
      const r = await s.request(`${BASE}/${first.id}`, { method: "PUT", token: staff.admin.token, json });
      assert.equal(r.status, 422, JSON.stringify(json));
    }
    assert.deepEqual(await all(), before);
    assert.equal((await logEntries(s, "IpBlock")).length, logged);
    assert.equal((await s.request(`${BASE}/424242`, { token: staff.owner.token })).status, 404);
    assert.equal(
      (await s.request(`${BASE}/424242`, { method: "PUT", token: staff.owner.token, json: {} })).status,
      404,
    );
  });

  it("lists newest first, paginated with Link", async () => {
    const list = await all();
    assert.ok(list.length >= 3);
    const page = await s.request(`${BASE}?limit=2`, { token: staff.owner.token });
    assert.deepEqual(
      page.body.map((b: { id: string }) => b.id),
      list.slice(0, 2).map((b: { id: string }) => b.id),
    );
    assert.match(page.headers.get("link") ?? "", new RegExp(`max_id=${page.body[1].id}[^>]*>; rel="next"`));
  });

  it("is open to Owner and Admin only (Manage Blocks)", async () => {
    let n = 0;
    await assertOnlyBlockManagers(s, staff, (token) => s.request(BASE, { token }));
    await assertOnlyBlockManagers(s, staff, async (token) => {
      n += 1;
      return s.request(BASE, { method: "POST", token, json: { ip: `10.2.${n}.0/24`, severity: "sign_up_block" } });
    });
    const created = (await all()).filter((b: { ip: string }) => b.ip.startsWith("10.2."));
    assert.equal(created.length, 2);
    await assertOnlyBlockManagers(s, staff, (token) => s.request(`${BASE}/${created[0].id}`, { token }));
    await assertOnlyBlockManagers(s, staff, (token) =>
      s.request(`${BASE}/${created[0].id}`, { method: "PUT", token, json: { comment: "x" } }),
    );
    const ids = created.map((b: { id: string }) => b.id);
    await assertOnlyBlockManagers(s, staff, async (token) => {
      const id = token === staff.owner.token || token === staff.admin.token ? ids.pop() : created[0].id;
      return s.request(`${BASE}/${id}`, { method: "DELETE", token });
    });
  });
});

describe("IP blocks and the client's address", () => {
  it("behind a trusted proxy, X-Forwarded-For names the client (tested above); from an untrusted peer it is ignored", async () => {
    const s = await startTestServer({ TRUSTED_PROXY_IP: "10.99.0.1" });
    try {
      const far = await createIpBlock(s.ctx, COMMAND_LINE, { ip: "203.0.113.0/24", severity: "no_access" });
      // The peer (127.0.0.1) is not a trusted proxy: its X-Forwarded-For is not believed.
      const r = await s.request("/api/v1/instance", { headers: { "x-forwarded-for": "203.0.113.9" } });
      assert.equal(r.status, 200);
      await destroyIpBlock(s.ctx, COMMAND_LINE, far);
    } finally {
      await s.close();
    }
  });

  it("never refuses loopback (as Mastodon's safelist)", async () => {
    const s = await startTestServer();
    try {
      await createIpBlock(s.ctx, COMMAND_LINE, { ip: "0.0.0.0/0", severity: "no_access" });
      await createIpBlock(s.ctx, COMMAND_LINE, { ip: "::/0", severity: "no_access" });
      assert.equal((await s.request("/api/v1/instance")).status, 200);
      assert.equal((await s.request("/api/v1/instance", { headers: { "x-forwarded-for": "127.0.0.5" } })).status, 200);
      assert.equal((await s.request("/api/v1/instance", { headers: { "x-forwarded-for": "8.8.8.8" } })).status, 403);
      assert.equal(
        (await s.request("/api/v1/instance", { headers: { "x-forwarded-for": "2001:db8::1" } })).status,
        403,
      );
    } finally {
      await s.close();
    }
  });
});
