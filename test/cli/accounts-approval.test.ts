import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AppContext } from "../../src/context.ts";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

/** `gannet accounts approve|reject` run as a real process; the database is then read back directly. */
describe("gannet accounts approve and reject", () => {
  let inst: Instance;
  let ctx: AppContext;
  before(async () => {
    inst = await createInstance({ REGISTRATIONS_MODE: "approved" });
    for (const name of ["waiter", "spammer", "settled"]) {
      const extra = name === "settled" ? ["--approved"] : [];
      await gannetOk(inst, "accounts", "create", name, "--email", `${name}@example.com`, "--confirmed", ...extra);
    }
    ctx = await inst.openContext();
  });
  after(async () => {
    await ctx.close();
    await inst.cleanup();
  });

  const userOf = async (username: string) => {
    const account = await ctx.repos.accounts.getByUsername(username, null);
    return account && (await ctx.repos.users.getByAccountId(account.id));
  };
  const logOf = (userId: string) =>
    ctx.repos.adminActionLogs.page({ targetType: "User", targetId: userId }, { limit: 10 });

  it("approve: the pending user is approved, logged as the gannet command", async () => {
    const before = await userOf("waiter");
    assert.equal(before?.approved, false);
    const r = await gannet(inst, "accounts", "approve", "waiter");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "OK\n");
    assert.equal((await userOf("waiter"))?.approved, true);
    const [entry] = await logOf(before?.id as string);
    assert.equal(entry.action, "approve");
    assert.equal(entry.accountId, null);
    assert.equal(entry.summary, "The gannet command approved the sign-up of @waiter");
  });

  it("reject: the pending account is gone and its name can be created again", async () => {
    const before = await userOf("spammer");
    const r = await gannet(inst, "accounts", "reject", "spammer");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await ctx.repos.accounts.getByUsername("spammer", null), undefined);
    const [entry] = await logOf(before?.id as string);
    assert.equal(entry.action, "reject");
    assert.equal(entry.summary, "The gannet command rejected the sign-up of @spammer");
    await gannetOk(inst, "accounts", "create", "spammer", "--email", "spammer@example.com");
  });

  it("refuses an account that is not pending, an unknown one, and a missing name", async () => {
    for (const action of ["approve", "reject"]) {
      const r = await gannet(inst, "accounts", action, "settled");
      assert.equal(r.code, 1, action);
      assert.match(r.stderr, /settled is not waiting for approval/);
      const unknown = await gannet(inst, "accounts", action, "nobody");
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /no local account named nobody/);
      const missing = await gannet(inst, "accounts", action);
      assert.equal(missing.code, 2, action);
      assert.match(missing.stderr, /Usage: gannet accounts/);
    }
    assert.ok(await userOf("settled"));
    assert.deepEqual(await logOf((await userOf("settled"))?.id as string), []);
  });
});
