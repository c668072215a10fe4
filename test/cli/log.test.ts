import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AppContext } from "../../src/context.ts";
import { logAction, moderatorOf } from "../../src/services/moderation/action-log.ts";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"));

/** `gannet log`, after commands that write the action log, run as real processes. */
describe("gannet log", () => {
  let inst: Instance;
  let ctx: AppContext;
  let announcement: string;

  before(async () => {
    inst = await createInstance({ REGISTRATIONS_MODE: "approved" });
    await gannetOk(inst, "accounts", "create", "alice", "--email", "alice@example.com", "--confirmed", "--approved");
    await gannetOk(inst, "accounts", "create", "bob", "--email", "bob@example.com", "--role", "Moderator");
    await gannetOk(inst, "accounts", "modify", "bob", "--role", "Admin", "--confirm", "--approve");
    await gannetOk(inst, "roles", "create", "Helpers", "--permissions", "manage_reports", "--position", "5");
    await gannetOk(inst, "roles", "modify", "Helpers", "--color", "#ff0000");
    announcement = (await gannetOk(inst, "announcements", "create", "--text", "Hello everyone")).trim();
    await gannetOk(inst, "announcements", "delete", announcement);
    await gannetOk(inst, "roles", "delete", "Helpers");
    await gannetOk(inst, "accounts", "delete", "alice");
    ctx = await inst.openContext();
  });
  after(async () => {
    await ctx.close();
    await inst.cleanup();
  });

  it("prints every entry the commands wrote, newest first, done by the command line", async () => {
    const r = await gannet(inst, "log");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    const [header, ...entries] = rows(r.stdout);
    assert.deepEqual(header, ["id", "time", "who", "action", "target type", "target id", "summary"]);
    assert.deepEqual(
      entries.map((e) => [e[2], e[3], e[4], e[6]]),
      [
        ["-", "destroy", "Account", "The gannet command deleted @alice"],
        ["-", "destroy", "UserRole", "The gannet command deleted the role Helpers"],
        ["-", "destroy", "Announcement", 'The gannet command deleted the announcement "Hello everyone"'],
        ["-", "create", "Announcement", 'The gannet command created the announcement "Hello everyone"'],
        ["-", "update", "UserRole", "The gannet command changed the role Helpers"],
        ["-", "create", "UserRole", "The gannet command created the role Helpers"],
        ["-", "approve", "User", "The gannet command approved the sign-up of @bob"],
        ["-", "confirm", "User", "The gannet command confirmed the e-mail address of @bob"],
        ["-", "change_role", "User", "The gannet command gave @bob the role Admin"],
        ["-", "create", "Account", "The gannet command created @bob"],
        ["-", "create", "Account", "The gannet command created @alice"],
      ],
    );
    assert.equal(entries[3][5], announcement);
    for (const e of entries) assert.match(e[1], /^\d{4}-\d\d-\d\dT/);
    // The entries are in the database as the API reads them.
    const stored = await ctx.repos.adminActionLogs.page({}, { limit: 100 });
    assert.deepEqual(
      stored.map((e) => e.id),
      entries.map((e) => e[0]),
    );
    assert.ok(stored.every((e) => e.accountId === null));
  });

  it("filters by target type and by who acted, and stops at --limit", async () => {
    const roles = rows(await gannetOk(inst, "log", "--target-type", "UserRole")).slice(1);
    assert.deepEqual(
      roles.map((e) => e[3]),
      ["destroy", "update", "create"],
    );
    const two = rows(await gannetOk(inst, "log", "--limit", "2")).slice(1);
    assert.deepEqual(
      two.map((e) => e[6]),
      ["The gannet command deleted @alice", "The gannet command deleted the role Helpers"],
    );
    const bob = await ctx.repos.accounts.getByUsername("bob", null);
    assert.ok(bob);
    await logAction(ctx, moderatorOf(bob), {
      action: "resolve",
      targetType: "Report",
      targetId: "12345",
      humanIdentifier: "report #12345",
      summary: "resolved report #12345\tquickly",
    });
    const byBob = rows(await gannetOk(inst, "log", "--account", "bob")).slice(1);
    assert.deepEqual(byBob, [
      [byBob[0][0], byBob[0][1], "bob", "resolve", "Report", "12345", "@bob resolved report #12345 quickly"],
    ]);
    assert.deepEqual(rows(await gannetOk(inst, "log", "--account", "@bob", "--target-type", "Account")).slice(1), []);
  });

  it("refuses bad arguments with exit 2 and an unknown account with exit 1", async () => {
    for (const args of [
      ["--limit", "0"],
      ["--limit", "ten"],
      ["--limit", "-3"],
      ["extra"],
      ["--account", ""],
      ["--what"],
    ]) {
      const r = await gannet(inst, "log", ...args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /Usage: gannet log/);
    }
    const r = await gannet(inst, "log", "--account", "nobody");
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^gannet: no local account named nobody/);
    assert.match(await gannetOk(inst, "help", "log"), /^Usage: gannet log/);
  });
});
