import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const AP = { accept: "application/activity+json" };

describe("federation: Mastodon's outbox page URLs", () => {
  let s: TestServer;
  const made: string[] = [];

  before(async () => {
    s = await startTestServer();
    const carol = await s.createUser("carol");
    for (let i = 0; i < 23; i++) {
      const r = await s.request("/api/v1/statuses", { method: "POST", token: carol.token, json: { status: `n${i}` } });
      assert.equal(r.status, 200);
      made.push(r.body.uri);
    }
  });
  after(() => s?.close());

  const objects = (page: { orderedItems: { object: { id: string } }[] }) => page.orderedItems.map((i) => i.object.id);

  it("answers ?page=true with the first OrderedCollectionPage, and ?page=true&max_id= with the next", async () => {
    const first = await s.request("/users/carol/outbox?page=true", { headers: AP });
    assert.equal(first.status, 200);
    assert.equal(first.body.type, "OrderedCollectionPage");
    assert.equal(first.body.orderedItems.length, 20);
    assert.equal(objects(first.body)[0], made[22]);
    const same = await s.request(new URL(first.body.id).pathname + new URL(first.body.id).search, { headers: AP });
    assert.deepEqual(objects(same.body), objects(first.body));
    const lastId = new URL(first.body.next).searchParams.get("cursor");
    assert.ok(lastId);
    const next = await s.request(`/users/carol/outbox?page=true&max_id=${lastId}`, { headers: AP });
    assert.equal(next.body.type, "OrderedCollectionPage");
    assert.deepEqual(objects(next.body), [made[2], made[1], made[0]]);
  });

  it("still answers the collection itself without page=true", async () => {
    const collection = await s.request("/users/carol/outbox", { headers: AP });
    assert.equal(collection.body.type, "OrderedCollection");
    const notPaged = await s.request("/users/carol/outbox?page=false", { headers: AP });
    assert.equal(notPaged.body.type, "OrderedCollection");
  });
});
