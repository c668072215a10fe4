import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

describe("gannet announcements", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("creates, lists, publishes, unpublishes and deletes announcements", async () => {
    const id = (await gannetOk(inst, "announcements", "create", "--text", "Hello\tall\nsecond line")).trim();
    assert.match(id, /^\d+$/);
    const draft = (
      await gannetOk(
        inst,
        "announcements",
        "create",
        "--text",
        "Party",
        "--starts-at",
        "2026-05-01",
        "--ends-at",
        "2026-05-02",
        "--all-day",
        "--draft",
      )
    ).trim();
    const list = await gannetOk(inst, "announcements", "list");
    const lines = list.trimEnd().split("\n");
    assert.equal(lines[0], "id\tpublished\tstarts at\tends at\tall day\ttext");
    assert.deepEqual(
      lines.slice(1).sort(),
      [
        `${draft}\tno\t2026-05-01T00:00:00.000Z\t2026-05-02T00:00:00.000Z\tyes\tParty`,
        `${id}\tyes\t\t\tno\tHello all`,
      ].sort(),
    );
    assert.equal(await gannetOk(inst, "announcements", "publish", draft), "OK\n");
    const ctx = await inst.openContext();
    try {
      const published = await ctx.repos.announcements.listPublished();
      assert.deepEqual(published.map((a) => a.id).sort(), [id, draft].sort());
      // Each publication queued its streaming event for the server's workers.
      const counts = (await ctx.queue.state()).counts.filter((c) => c.name === "announcements.publish");
      assert.equal(
        counts.reduce((n, c) => n + c.count, 0),
        2,
      );
    } finally {
      await ctx.close();
    }
    assert.equal(await gannetOk(inst, "announcements", "unpublish", draft), "OK\n");
    assert.equal(await gannetOk(inst, "announcements", "delete", id), "OK\n");
    assert.equal(await gannetOk(inst, "announcements", "delete", draft), "OK\n");
    assert.equal(await gannetOk(inst, "announcements", "list"), "id\tpublished\tstarts at\tends at\tall day\ttext\n");
  });

  it("refuses bad arguments (exit 2) and unknown ids (exit 1)", async () => {
    for (const args of [
      ["create"],
      ["create", "--text", "  "],
      ["create", "--text", "x", "--starts-at", "2026-05-01"],
      ["create", "--text", "x", "--starts-at", "tomorrow", "--ends-at", "2026-05-01"],
      ["create", "--text", "x", "--starts-at", "2026-05-02", "--ends-at", "2026-05-01"],
      ["delete"],
      ["delete", "abc"],
      ["publish", "1", "2"],
    ]) {
      const r = await gannet(inst, "announcements", ...args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, /^gannet: /);
    }
    const r = await gannet(inst, "announcements", "delete", "12345");
    assert.deepEqual([r.code, r.stdout, r.stderr.trim()], [1, "", "gannet: no announcement 12345"]);
    assert.match((await gannetOk(inst, "help", "announcements")).toString(), /gannet announcements create --text TEXT/);
  });
});
