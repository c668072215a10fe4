import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { saveMarkers } from "../../src/services/markers.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

describe("markers", () => {
  let s: TestServer;
  let alice: TestUser;

  const save = (u: TestUser, json: unknown) => s.request("/api/v1/markers", { method: "POST", token: u.token, json });
  const read = (u: TestUser, q = "?timeline[]=home&timeline[]=notifications") =>
    s.request(`/api/v1/markers${q}`, { token: u.token });

  before(async () => {
    s = await startTestServer({});
    alice = await s.createUser("alice");
  });
  after(() => s.close());

  it("round-trips positions; the version grows with each move", async () => {
    assert.deepEqual((await read(alice)).body, {});
    const first = await save(alice, { home: { last_read_id: "103" }, notifications: { last_read_id: "55" } });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ["home", "notifications"]);
    assert.equal(first.body.home.last_read_id, "103");
    assert.equal(first.body.home.version, 0);
    assert.match(first.body.home.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(first.body.home), ["last_read_id", "version", "updated_at"]);

    const moved = await s.request("/api/v1/markers", {
      method: "POST",
      token: alice.token,
      form: { "home[last_read_id]": "110" },
    });
    assert.equal(moved.status, 200);
    assert.deepEqual(Object.keys(moved.body), ["home"]);
    assert.equal(moved.body.home.last_read_id, "110");
    assert.equal(moved.body.home.version, 1);
    // The same position again changes nothing.
    assert.equal((await save(alice, { home: { last_read_id: "110" } })).body.home.version, 1);

    const got = (await read(alice)).body;
    assert.equal(got.home.last_read_id, "110");
    assert.equal(got.home.version, 1);
    assert.equal(got.notifications.last_read_id, "55");
    assert.equal(got.notifications.version, 0);
    assert.deepEqual(Object.keys((await read(alice, "?timeline[]=notifications")).body), ["notifications"]);
    assert.deepEqual((await read(alice, "")).body, {});
    assert.deepEqual((await read(alice, "?timeline[]=public")).body, {});
  });

  it("refuses a bad id and keeps markers per account", async () => {
    assert.equal((await save(alice, { home: { last_read_id: "abc" } })).status, 422);
    const bob = await s.createUser("bob");
    assert.deepEqual((await read(bob)).body, {});
  });

  it("a marker moved meanwhile is a conflict (409 in the API)", async () => {
    const carol = await s.createUser("carol");
    assert.equal((await save(carol, { home: { last_read_id: "5" } })).status, 200);
    // Another request moves the marker between our read and our write: the stale version loses.
    assert.equal(await s.ctx.repos.markers.update(carol.account.id, "home", "6", 0, new Date().toISOString()), true);
    assert.equal(await s.ctx.repos.markers.update(carol.account.id, "home", "7", 0, new Date().toISOString()), false);
    const fresh = await saveMarkers(s.ctx, carol.account.id, new Map([["home", "8"]]));
    assert.notEqual(fresh, "conflict");
  });

  it("checks tokens and scopes", async () => {
    assert.equal((await s.request("/api/v1/markers")).status, 401);
    const notes = await s.createUser("notes", { scopes: "read:notifications" });
    assert.equal((await read(notes)).status, 403);
    const reader = await s.createUser("reader", { scopes: "read:statuses" });
    assert.equal((await read(reader)).status, 200);
    assert.equal((await save(reader, { home: { last_read_id: "1" } })).status, 403);
    const app = await s.appToken("read write");
    assert.equal((await s.request("/api/v1/markers", { token: app })).status, 422);
    assert.equal(
      (await s.request("/api/v1/markers", { method: "POST", token: app, json: { home: { last_read_id: "1" } } }))
        .status,
      422,
    );
  });
});
