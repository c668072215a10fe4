import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("statuses with media attachments", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const upload = async (u: TestUser): Promise<string> => {
    const r = await s.request("/api/v1/media", {
      method: "POST",
      token: u.token,
      json: { file: PNG, description: "dot" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id;
  };
  const post = (u: TestUser, json: Record<string, unknown>) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(() => s.close());

  it("attaches own uploads, media-only posts allowed, only_media lists them", async () => {
    const m1 = await upload(alice);
    const r = await post(alice, { status: "", media_ids: [m1] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.media_attachments.map((m: { id: string }) => m.id),
      [m1],
    );
    assert.equal(r.body.media_attachments[0].description, "dot");
    await post(alice, { status: "no media" });
    const only = await s.request(`/api/v1/accounts/${alice.account.id}/statuses?only_media=true`);
    assert.deepEqual(
      only.body.map((x: { id: string }) => x.id),
      [r.body.id],
    );
    // Someone else's upload, or one already attached, is not attached again.
    const foreign = await upload(bob);
    const again = await post(alice, { status: "reuse", media_ids: [m1, foreign] });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.media_attachments, []);
    const tooMany = await post(alice, { status: "x", media_ids: ["1", "2", "3", "4", "5"] });
    assert.equal(tooMany.status, 422);
    assert.equal((await post(alice, { status: "x", media_ids: [{ a: 1 }] })).status, 422);
  });

  it("edit replaces media; delete answers them for redraft and detaches them", async () => {
    const m1 = await upload(alice);
    const m2 = await upload(alice);
    const st = (await post(alice, { status: "with media", media_ids: [m1] })).body;
    const e = await s.request(`/api/v1/statuses/${st.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "with other media", media_ids: [m2] },
    });
    assert.equal(e.status, 200);
    assert.deepEqual(
      e.body.media_attachments.map((m: { id: string }) => m.id),
      [m2],
    );
    const d = await s.request(`/api/v1/statuses/${st.id}`, { method: "DELETE", token: alice.token });
    assert.deepEqual(
      d.body.media_attachments.map((m: { id: string }) => m.id),
      [m2],
    );
    // Detached: a redraft can use the upload again.
    const redraft = await post(alice, { status: "redraft", media_ids: [m2] });
    assert.deepEqual(
      redraft.body.media_attachments.map((m: { id: string }) => m.id),
      [m2],
    );
    const gone = await s.request(`/api/v1/statuses/${redraft.body.id}?delete_media=true`, {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(gone.status, 200);
    assert.equal((await s.request(`/api/v1/media/${m2}`, { token: alice.token })).status, 404);
  });
});
