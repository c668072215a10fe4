import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { addCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { runElsewhere } from "../helpers/elsewhere.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * verify_credentials answers from kept text: whatever it shows must still be current after a
 * change, whether this server made it or another process wrote it to the database.
 */
describe("verify_credentials after changes", () => {
  let s: TestServer;
  let n = 0;
  const user = (prefix: string) => s.createUser(`${prefix}${++n}`);
  const me = async (u: TestUser) => {
    const r = await s.request("/api/v1/accounts/verify_credentials", { token: u.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  const elsewhere = (text: string, params: unknown[]) => runElsewhere(s, text, params);

  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  it("shows an edit of the account, made here or elsewhere", async () => {
    const u = await user("edited");
    assert.equal((await me(u)).display_name, "");
    const upd = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: u.token,
      json: { display_name: "Here" },
    });
    assert.equal(upd.status, 200);
    assert.equal((await me(u)).display_name, "Here");
    await s.ctx.db.updateTable("accounts").set({ display_name: "Kysely" }).where("id", "=", u.account.id).execute();
    assert.equal((await me(u)).display_name, "Kysely");
    await elsewhere("UPDATE accounts SET display_name = ?, followers_count = ? WHERE id = ?", [
      "Elsewhere",
      7,
      u.account.id,
    ]);
    const body = await me(u);
    assert.equal(body.display_name, "Elsewhere");
    assert.equal(body.followers_count, 7);
  });

  it("counts a new follow request at once, and one written elsewhere", async () => {
    const locked = await user("locked");
    const asker = await user("asker");
    const other = await user("other");
    const upd = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: locked.token,
      json: { locked: true },
    });
    assert.equal(upd.status, 200);
    // The asker's first request notes its sign-in (a write of its own): made before the count is kept.
    await me(asker);
    assert.equal((await me(locked)).source.follow_requests_count, 0);
    const r = await s.request(`/api/v1/accounts/${locked.account.id}/follow`, { method: "POST", token: asker.token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.requested, true);
    assert.equal((await me(locked)).source.follow_requests_count, 1);
    await elsewhere(
      "INSERT INTO follow_requests (id, account_id, target_account_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
      [s.ctx.ids.next(), other.account.id, locked.account.id, new Date().toISOString(), new Date().toISOString()],
    );
    assert.equal((await me(locked)).source.follow_requests_count, 2);
    const ok = await s.request(`/api/v1/follow_requests/${asker.account.id}/authorize`, {
      method: "POST",
      token: locked.token,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await me(locked)).source.follow_requests_count, 1);
  });

  it("shows a change of role or of the role itself, made here or elsewhere", async () => {
    const id = s.ctx.ids.next();
    const now = new Date().toISOString();
    await s.ctx.repos.roles.insert({
      id,
      name: "Gardener",
      color: "#336633",
      permissions: 0,
      position: 10,
      highlighted: false,
      created_at: now,
      updated_at: now,
    });
    const u = await user("gardener");
    assert.equal((await me(u)).role.id, "-99");
    await s.ctx.repos.users.update(u.user.id, { role_id: id });
    let body = await me(u);
    assert.equal(body.role.name, "Gardener");
    assert.deepEqual(body.roles, []);
    // Written straight to the table: no role cache is told.
    await s.ctx.repos.roles.update(id, { name: "Head Gardener", highlighted: true });
    body = await me(u);
    assert.equal(body.role.name, "Head Gardener");
    assert.deepEqual(body.roles, [{ id, name: "Head Gardener", color: "#336633" }]);
    await elsewhere("UPDATE user_roles SET name = ?, color = ? WHERE id = ?", ["Groundskeeper", "#123456", id]);
    body = await me(u);
    assert.equal(body.role.name, "Groundskeeper");
    assert.deepEqual(body.roles, [{ id, name: "Groundskeeper", color: "#123456" }]);
    await elsewhere("UPDATE users SET role_id = ? WHERE id = ?", ["-99", u.user.id]);
    body = await me(u);
    assert.equal(body.role.id, "-99");
    assert.deepEqual(body.roles, []);
  });

  it("shows a custom emoji once it exists, and not once it is disabled elsewhere", async () => {
    const u = await user("emojiname");
    await s.ctx.db
      .updateTable("accounts")
      .set({ display_name: "Fresh :freshcat:" })
      .where("id", "=", u.account.id)
      .execute();
    assert.deepEqual((await me(u)).emojis, []);
    const png = new Uint8Array(
      await sharp({ create: { width: 16, height: 16, channels: 4, background: "#33cc66" } })
        .png()
        .toBuffer(),
    );
    const emoji = await addCustomEmoji(s.ctx, { shortcode: "freshcat", data: png });
    assert.deepEqual(
      (await me(u)).emojis.map((e: { shortcode: string }) => e.shortcode),
      ["freshcat"],
    );
    await elsewhere("UPDATE custom_emojis SET disabled = ? WHERE id = ?", [1, emoji.id]);
    assert.deepEqual((await me(u)).emojis, []);
    await s.ctx.db.updateTable("custom_emojis").set({ disabled: false }).where("id", "=", emoji.id).execute();
    assert.equal((await me(u)).emojis.length, 1);
  });

  it("answers each user their own account, the same JSON as update_credentials", async () => {
    const a = await user("same");
    const b = await user("same");
    for (let i = 0; i < 3; i++) {
      assert.equal((await me(a)).id, a.account.id);
      assert.equal((await me(b)).id, b.account.id);
    }
    const upd = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: a.token,
      json: { note: "hello" },
    });
    assert.deepEqual(await me(a), upd.body);
  });
});
