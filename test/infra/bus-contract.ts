import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import type { BusMessage, EventBus } from "../../src/infra/bus/interface.ts";
import { waitFor } from "./queue-contract.ts";

/** One backend under test: buses it makes share messages, as processes would. */
export interface BusBackend {
  /** A new bus instance (its own connections where the backend has them). */
  make(): Promise<EventBus>;
  /** A bus of another server sharing the same Redis or database (another namespace or schema). */
  makeElsewhere?(): Promise<EventBus>;
  /** Whether two instances are two processes (false: the in-process bus, where each is alone). */
  shared: boolean;
  close(): Promise<void>;
}

/** Collects what a listener receives. */
function inbox() {
  const got: BusMessage[] = [];
  return { got, listener: (m: BusMessage) => void got.push(m) };
}

/** The behaviour every EventBus must have; `open` is called once per suite. */
export function busContract(label: string, open: () => Promise<BusBackend>): void {
  describe(`EventBus contract: ${label}`, () => {
    let backend: BusBackend;
    const buses: EventBus[] = [];
    const make = async () => {
      const b = await backend.make();
      buses.push(b);
      return b;
    };
    /** A publisher and a subscriber: two processes where the backend has them. */
    const pair = async () => {
      const sub = await make();
      return { sub, pub: backend.shared ? await make() : sub };
    };
    let n = 0;
    /** A fresh channel name per test, so tests never see each other's messages. */
    const channel = (base = "timeline") => `${base}:${process.pid}:${++n}:${Math.random().toString(36).slice(2, 8)}`;
    before(async () => {
      backend = await open();
    });
    afterEach(async () => {
      await Promise.all(buses.splice(0).map((b) => b.close()));
    });
    after(async () => {
      await backend.close();
    });

    it("delivers a published message, with its channel, event and payload, once the subscription is ready", async () => {
      const { sub, pub } = await pair();
      const ch = channel();
      const a = inbox();
      await sub.subscribe(ch, a.listener).ready;
      const payload = { id: "123", s: 'é ✓ "quoted" \u2028', list: [1, null, true], nested: { x: "y" } };
      await pub.publish(ch, "update", payload);
      await pub.publish(ch, "filters_changed", null);
      await pub.publish(ch, "delete", "123");
      await waitFor(() => a.got.length === 3, 5000, "three messages");
      assert.deepEqual(a.got, [
        { channel: ch, event: "update", payload },
        { channel: ch, event: "filters_changed", payload: null },
        { channel: ch, event: "delete", payload: "123" },
      ]);
    });

    it("keeps the order of one publisher's messages on a channel, large and small mixed", async () => {
      const { sub, pub } = await pair();
      const ch = channel();
      const a = inbox();
      await sub.subscribe(ch, a.listener).ready;
      // Over PostgreSQL's 8,000-byte NOTIFY limit, in multi-byte characters.
      const big = (i: number) => ({ i, text: `${"ж".repeat(6000)}${i}` });
      for (let i = 0; i < 30; i++) await pub.publish(ch, "update", i % 7 === 3 ? big(i) : { i });
      await waitFor(() => a.got.length === 30, 10_000, "thirty messages");
      assert.deepEqual(
        a.got.map((m) => (m.payload as { i: number }).i),
        Array.from({ length: 30 }, (_, i) => i),
      );
      assert.deepEqual(a.got[3]?.payload, big(3));
    });

    it("gives every listener of a channel each message; other channels' messages go elsewhere", async () => {
      const { sub, pub } = await pair();
      const [c1, c2] = [channel(), channel()];
      const a = inbox();
      const b = inbox();
      const c = inbox();
      await Promise.all([sub.subscribe(c1, a.listener).ready, sub.subscribe(c1, b.listener).ready]);
      await sub.subscribe(c2, c.listener).ready;
      await pub.publish(c1, "e1", 1);
      await pub.publish(c2, "e2", 2);
      await waitFor(() => a.got.length === 1 && b.got.length === 1 && c.got.length === 1, 5000, "deliveries");
      assert.deepEqual([a.got[0]?.payload, b.got[0]?.payload, c.got[0]?.event], [1, 1, "e2"]);
    });

    it("stops delivering to a listener once it unsubscribes, and may subscribe again", async () => {
      const { sub, pub } = await pair();
      const ch = channel();
      const a = inbox();
      const b = inbox();
      const offA = sub.subscribe(ch, a.listener);
      await offA.ready;
      await sub.subscribe(ch, b.listener).ready;
      await pub.publish(ch, "e", 1);
      await waitFor(() => a.got.length === 1 && b.got.length === 1);
      offA();
      offA();
      await pub.publish(ch, "e", 2);
      // b shares the channel, so once b has the second message a would have had it too.
      await waitFor(() => b.got.length === 2);
      assert.equal(a.got.length, 1);

      // The channel's last listener leaves, then one comes back.
      const ch2 = channel();
      const c = inbox();
      const offC = sub.subscribe(ch2, c.listener);
      await offC.ready;
      offC();
      const d = inbox();
      await sub.subscribe(ch2, d.listener).ready;
      await pub.publish(ch2, "e", 3);
      await waitFor(() => d.got.length === 1);
      assert.equal(c.got.length, 0);
    });

    it("a listener that throws does not keep the message from the others", async () => {
      const { sub, pub } = await pair();
      const ch = channel();
      const a = inbox();
      await sub.subscribe(ch, () => {
        throw new Error("listener failure (expected in this test)");
      }).ready;
      await sub.subscribe(ch, a.listener).ready;
      await pub.publish(ch, "e", 1);
      await waitFor(() => a.got.length === 1);
    });

    it("carries channel names of any length and characters, each to its own listeners", async () => {
      const { sub, pub } = await pair();
      const long = `hashtag:${"a".repeat(300)}`;
      const names = [long, `${long}b`, 'list:"quoted" name; DROP', "hashtag:日本語:local", "a"];
      const boxes = names.map(() => inbox());
      for (const [i, name] of names.entries()) await sub.subscribe(name, boxes[i]!.listener).ready;
      for (const [i, name] of names.entries()) await pub.publish(name, "e", i);
      await waitFor(() => boxes.every((b) => b.got.length === 1), 5000, "one message each");
      assert.deepEqual(
        boxes.map((b) => b.got[0]?.payload),
        names.map((_, i) => i),
      );
      assert.deepEqual(
        boxes.map((b) => b.got[0]?.channel),
        names,
      );
    });

    it("knows which channels someone listens to, and never loses a message to a new listener after 'nobody listens'", async () => {
      const { sub, pub } = await pair();
      const ch = channel();
      assert.deepEqual([...(await pub.listened([ch, "nobody:here"]))], []);
      // Nobody listens: dropped without error.
      await pub.publish(ch, "e", 0);
      const a = inbox();
      await sub.subscribe(ch, a.listener).ready;
      // The publisher was just told nobody listens; the message must arrive all the same.
      await pub.publish(ch, "e", 1);
      assert.deepEqual([...(await pub.listened([ch, "nobody:here"]))], [ch]);
      await waitFor(() => a.got.length === 1, 5000, "the message after subscribing");
      assert.equal(a.got[0]?.payload, 1);
    });

    if (label !== "memory") {
      it("two processes each publish and listen: each gets the other's messages and its own", async () => {
        const one = await make();
        const two = await make();
        const ch = channel("public:local");
        const a = inbox();
        const b = inbox();
        await Promise.all([one.subscribe(ch, a.listener).ready, two.subscribe(ch, b.listener).ready]);
        await one.publish(ch, "update", "from one");
        await two.publish(ch, "update", "from two");
        await waitFor(() => a.got.length === 2 && b.got.length === 2, 5000, "both messages in both");
        for (const box of [a, b]) assert.deepEqual(box.got.map((m) => m.payload).sort(), ["from one", "from two"]);
      });
    }

    it("after close, subscriptions end and publishing fails; other instances carry on", async () => {
      const { sub, pub } = await pair();
      const other = backend.shared ? await make() : pub;
      const ch = channel();
      const a = inbox();
      await sub.subscribe(ch, a.listener).ready;
      const b = inbox();
      if (other !== sub) await other.subscribe(ch, b.listener).ready;
      await sub.close();
      await sub.close();
      await assert.rejects(sub.subscribe(ch, () => {}).ready);
      await assert.rejects(sub.publish(ch, "e", 1));
      if (other !== sub) {
        await pub.publish(ch, "e", 2);
        await waitFor(() => b.got.length === 1);
        assert.equal(a.got.length, 0);
      }
    });

    if (label !== "memory") {
      it("servers sharing the Redis or database in other namespaces or schemas never see each other's messages", async () => {
        assert.ok(backend.makeElsewhere);
        const here = await make();
        const there = await backend.makeElsewhere();
        buses.push(there);
        const ch = channel();
        const a = inbox();
        const b = inbox();
        await here.subscribe(ch, a.listener).ready;
        await there.subscribe(ch, b.listener).ready;
        await here.publish(ch, "e", "here");
        await there.publish(ch, "e", "there");
        await waitFor(() => a.got.length >= 1 && b.got.length >= 1);
        // Each publisher's second message arrives after its first, so nothing else is on the way.
        await here.publish(ch, "e", "here 2");
        await there.publish(ch, "e", "there 2");
        await waitFor(() => a.got.length >= 2 && b.got.length >= 2);
        assert.deepEqual(
          a.got.map((m) => m.payload),
          ["here", "here 2"],
        );
        assert.deepEqual(
          b.got.map((m) => m.payload),
          ["there", "there 2"],
        );
      });
    }
  });
}
