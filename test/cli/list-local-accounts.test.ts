import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AppContext } from "../../src/context.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { deleteLocalAccount } from "../../src/services/admin/delete-local-account.ts";
import { eachLocalAccount, listLocalAccounts } from "../../src/services/admin/list-local-accounts.ts";
import { findLocalUser } from "../../src/services/admin/local-user.ts";
import { createInstance, type Instance } from "./harness.ts";

/** The listing behind `gannet accounts list` (and later the admin API), page by page. */
describe("listLocalAccounts", () => {
  let inst: Instance;
  let ctx: AppContext;
  const names = ["u1", "u2", "u3", "u4", "u5"];
  before(async () => {
    inst = await createInstance();
    ctx = await inst.openContext();
    for (const username of names) {
      await createLocalAccount(ctx, {
        username,
        email: `${username}@example.com`,
        password: "a long enough password",
        confirmed: username !== "u2",
        approved: true,
        role: username === "u1" ? "Admin" : undefined,
      });
    }
  });
  after(async () => {
    await ctx.close();
    await inst.cleanup();
  });

  it("pages in creation order without gaps or repeats", async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await listLocalAccounts(ctx, { afterAccountId: after, limit: 2 });
      assert.ok(page.length <= 2);
      seen.push(...page.map((a) => a.username));
      if (page.length < 2) break;
      after = page[page.length - 1].accountId;
    }
    assert.deepEqual(seen, names);
  });

  it("reports role and state, and leaves deleted accounts out", async () => {
    const u3 = await findLocalUser(ctx, "U3");
    assert.ok("found" in u3);
    await deleteLocalAccount(ctx, u3.found);
    assert.deepEqual(await findLocalUser(ctx, "u3"), { missing: "deleted" });
    assert.deepEqual(await findLocalUser(ctx, "nobody"), { missing: "no-account" });
    const all = [];
    for await (const a of eachLocalAccount(ctx)) all.push(a);
    assert.deepEqual(
      all.map((a) => [a.username, a.role, a.confirmed, a.approved, a.disabled]),
      [
        ["u1", "Admin", true, true, false],
        ["u2", "everyone", false, true, false],
        ["u4", "everyone", true, true, false],
        ["u5", "everyone", true, true, false],
      ],
    );
  });
});
