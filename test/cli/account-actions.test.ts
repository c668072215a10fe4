import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

describe("gannet accounts suspend|unsuspend|silence|unsilence|sensitive|unsensitive", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
    const ctx = await inst.openContext();
    try {
      await createLocalAccount(ctx, {
        username: "troll",
        email: "troll@example.com",
        password: "a long enough password",
        confirmed: true,
        approved: true,
      });
      const now = new Date().toISOString();
      await ctx.repos.accounts.insert({
        id: ctx.ids.next(),
        username: "spammer",
        domain: "spam.example",
        uri: "https://spam.example/users/spammer",
        created_at: now,
        updated_at: now,
      });
    } finally {
      await ctx.close();
    }
  });
  after(() => inst.cleanup());

  async function state(username: string, domain: string | null) {
    const ctx = await inst.openContext();
    try {
      const a = await ctx.repos.accounts.getByUsername(username, domain);
      assert.ok(a);
      const logs = await ctx.repos.adminActionLogs.page({ targetId: a.id }, { limit: 20 });
      const warnings = await ctx.repos.accountWarnings.ofTarget(a.id);
      return { a, logs, warnings };
    } finally {
      await ctx.close();
    }
  }

  it("acts on a local account, with a warning, and logs as the gannet command", async () => {
    assert.equal(await gannetOk(inst, "accounts", "silence", "troll", "--text", "Calm down."), "OK\n");
    let s = await state("troll", null);
    assert.notEqual(s.a.silencedAt, null);
    assert.equal(s.warnings[0].action, "silence");
    assert.equal(s.warnings[0].text, "Calm down.");
    assert.equal(s.warnings[0].accountId, null);
    assert.equal(s.logs[0].action, "silence");
    assert.equal(s.logs[0].accountId, null);
    assert.equal(s.logs[0].summary, "The gannet command limited @troll");

    assert.equal(await gannetOk(inst, "accounts", "sensitive", "troll"), "OK\n");
    assert.equal(await gannetOk(inst, "accounts", "suspend", "@troll"), "OK\n");
    s = await state("troll", null);
    assert.notEqual(s.a.sensitizedAt, null);
    assert.equal(s.a.suspensionOrigin, "local");

    for (const undo of ["unsuspend", "unsilence", "unsensitive"]) {
      assert.equal(await gannetOk(inst, "accounts", undo, "troll"), "OK\n");
    }
    s = await state("troll", null);
    assert.equal(s.a.suspendedAt, null);
    assert.equal(s.a.silencedAt, null);
    assert.equal(s.a.sensitizedAt, null);
    assert.deepEqual(
      s.logs.map((l) => l.action),
      ["unsensitive", "unsilence", "unsuspend", "suspend", "sensitive", "silence"],
    );
  });

  it("acts on a remote account named user@domain", async () => {
    assert.equal(await gannetOk(inst, "accounts", "suspend", "spammer@spam.example"), "OK\n");
    const s = await state("spammer", "spam.example");
    assert.equal(s.a.suspensionOrigin, "local");
    assert.equal(s.logs[0].summary, "The gannet command suspended @spammer@spam.example");
    assert.equal(await gannetOk(inst, "accounts", "unsuspend", "spammer@spam.example"), "OK\n");
    assert.equal((await state("spammer", "spam.example")).a.suspendedAt, null);
  });

  it("fails clearly for unknown accounts, a suspension not made here, and bad arguments", async () => {
    const missing = await gannet(inst, "accounts", "suspend", "nobody");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no account named nobody/);
    const notSuspended = await gannet(inst, "accounts", "unsuspend", "troll");
    assert.equal(notSuspended.code, 1);
    assert.match(notSuspended.stderr, /not suspended/);
    const noArg = await gannet(inst, "accounts", "silence");
    assert.equal(noArg.code, 2);
    assert.match(noArg.stderr, /missing ACCOUNT/);
    const badOption = await gannet(inst, "accounts", "unsilence", "troll", "--text", "x");
    assert.equal(badOption.code, 2);
    const help = await gannetOk(inst, "help", "accounts", "suspend");
    assert.match(help, /SUSPENSION_PURGE_DELAY_DAYS/);
    assert.deepEqual((await state("troll", null)).logs.length, 6);
  });
});
