import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

describe("gannet domains", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("blocks, lists, changes and unblocks a domain, applying the severity to its known accounts", async () => {
    const ctx = await inst.openContext();
    try {
      const now = new Date().toISOString();
      for (const [name, domain] of [
        ["one", "spam.example"],
        ["two", "sub.spam.example"],
        ["three", "fine.example"],
      ]) {
        await ctx.repos.accounts.insert({
          id: ctx.ids.next(),
          username: name,
          domain,
          uri: `https://${domain}/users/${name}`,
          created_at: now,
          updated_at: now,
        });
      }
    } finally {
      await ctx.close();
    }
    assert.equal(
      await gannetOk(inst, "domains", "block", "Spam.Example", "--severity", "silence", "--reject-media"),
      "OK\n",
    );
    const listed = await gannetOk(inst, "domains", "list");
    assert.equal(
      listed,
      "domain\tseverity\treject media\treject reports\tpublic comment\nspam.example\tsilence\tyes\tno\t\nallowed:\n",
    );
    const check = await inst.openContext();
    try {
      const silenced = async (u: string, d: string) =>
        (await check.repos.accounts.getByUsername(u, d))?.silencedAt !== null;
      assert.equal(await silenced("one", "spam.example"), true);
      assert.equal(await silenced("two", "sub.spam.example"), true);
      assert.equal(await silenced("three", "fine.example"), false);
      assert.equal(await check.repos.instanceDomainBlocks.isDeliveryAllowed("sub.spam.example"), true);
    } finally {
      await check.close();
    }
    // Made a suspension: delivery stops, accounts are suspended.
    assert.equal(await gannetOk(inst, "domains", "block", "spam.example", "--public-comment", "spam"), "OK\n");
    const suspended = await inst.openContext();
    try {
      assert.equal(await suspended.repos.instanceDomainBlocks.isDeliveryAllowed("sub.spam.example"), false);
      assert.notEqual((await suspended.repos.accounts.getByUsername("one", "spam.example"))?.suspendedAt, null);
    } finally {
      await suspended.close();
    }
    assert.equal(await gannetOk(inst, "domains", "unblock", "spam.example"), "OK\n");
    const lifted = await inst.openContext();
    try {
      const one = await lifted.repos.accounts.getByUsername("one", "spam.example");
      assert.equal(one?.suspendedAt, null);
      assert.equal(one?.silencedAt, null);
      assert.equal(await lifted.repos.instanceDomainBlocks.isDeliveryAllowed("spam.example"), true);
    } finally {
      await lifted.close();
    }
    const again = await gannet(inst, "domains", "unblock", "spam.example");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /not blocked/);
  });

  it("writes the action log as the gannet command, and refuses a block a parent's covers", async () => {
    assert.equal(await gannetOk(inst, "domains", "block", "logged.example", "--severity", "silence"), "OK\n");
    const refused = await gannet(inst, "domains", "block", "a.logged.example", "--severity", "noop");
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /already imposed stricter limits on logged\.example/);
    assert.equal(await gannetOk(inst, "domains", "unblock", "logged.example"), "OK\n");
    assert.equal(await gannetOk(inst, "domains", "allow", "pals.example"), "OK\n");
    assert.equal(await gannetOk(inst, "domains", "disallow", "pals.example"), "OK\n");
    const ctx = await inst.openContext();
    try {
      const entries = await ctx.repos.adminActionLogs.page({}, { limit: 10 });
      const mine = entries
        .filter((e) => e.humanIdentifier === "logged.example" || e.humanIdentifier === "pals.example")
        .map((e) => [e.action, e.targetType, e.accountId, e.summary]);
      assert.deepEqual(mine, [
        ["destroy", "DomainAllow", null, "The gannet command disallowed federation with domain pals.example"],
        ["create", "DomainAllow", null, "The gannet command allowed federation with domain pals.example"],
        ["destroy", "DomainBlock", null, "The gannet command unblocked domain logged.example"],
        ["create", "DomainBlock", null, "The gannet command blocked domain logged.example (silence)"],
      ]);
    } finally {
      await ctx.close();
    }
  });

  it("accepts a port, keeps allows for limited federation, and refuses bad arguments with exit 2", async () => {
    assert.equal(await gannetOk(inst, "domains", "block", "localhost:3001"), "OK\n");
    assert.equal(await gannetOk(inst, "domains", "allow", "friends.example"), "OK\n");
    const out = await gannetOk(inst, "domains", "list");
    assert.match(out, /^localhost:3001\tsuspend\tno\tno\t$/m);
    assert.match(out, /allowed:\nfriends\.example\n$/);
    const bad = await gannet(inst, "domains", "block", "https://x.example/");
    assert.equal(bad.code, 2);
    const sev = await gannet(inst, "domains", "block", "x.example", "--severity", "nuke");
    assert.equal(sev.code, 2);
    assert.match(sev.stderr, /--severity must be/);
    assert.match(await gannetOk(inst, "help", "domains", "block"), /^Usage: gannet domains block DOMAIN/);
  });
});
