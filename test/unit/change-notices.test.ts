import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ChangeNotice, ChangeNotices } from "../../src/db/change-notices.ts";

// PostgreSQL's change notices (db/change-notices.ts) without a bus: what is sent, what is counted.
describe("change notices", () => {
  it("coalesce the writes of a moment into one notice naming each group once, sent before close ends", async () => {
    const n = new ChangeNotices(30_000);
    const sent: ChangeNotice[] = [];
    n.sendWith(async (x) => void sent.push(x));
    n.committed(["cached"]);
    n.committed(["feed", "cached"]);
    n.committed(["render"]);
    await n.close();
    assert.equal(sent.length, 1);
    assert.deepEqual([...(sent[0]?.g ?? [])].sort(), ["cached", "feed", "render"]);
    assert.equal(sent[0]?.o, n.origin);
  });

  it("are not counted until listening; the others' move only their groups; one's own are ignored", async () => {
    const n = new ChangeNotices(30_000);
    assert.equal(n.external("cached"), undefined);
    n.listening(true);
    const cached = n.external("cached");
    const feed = n.external("feed");
    assert.notEqual(cached, undefined);
    n.received({ o: "another", g: ["feed"] });
    assert.equal(n.external("cached"), cached);
    assert.notEqual(n.external("feed"), feed);
    const after = n.external("feed");
    n.received({ o: n.origin, g: ["feed"] });
    assert.equal(n.external("feed"), after);
    await n.close();
  });

  it("a lost bus stops caching, and its return counts as a change to every group", async () => {
    const n = new ChangeNotices(30_000);
    n.listening(true);
    const before = n.external("domain") ?? -1;
    n.listening(false);
    assert.equal(n.external("domain"), undefined);
    n.listening(true);
    assert.ok((n.external("domain") ?? -1) > before);
    await n.close();
  });

  it("a maximum age of 0 never caches", async () => {
    const n = new ChangeNotices(0);
    n.listening(true);
    assert.equal(n.external("cached"), undefined);
    await n.close();
  });
});
