import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("gannet email-domain-blocks, ip-blocks, canonical-email-blocks", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  /** The command line's action log entries of `targetType`, newest first. */
  const logged = async (targetType: string) => {
    const ctx = await inst.openContext();
    try {
      return await ctx.repos.adminActionLogs.page({ targetType }, { limit: 20 });
    } finally {
      await ctx.close();
    }
  };

  it("adds, lists and removes e-mail domain blocks, logging each change as the command line", async () => {
    assert.equal(
      await gannetOk(inst, "email-domain-blocks", "add", "Spam.Example", "maybe.example", "--allow-with-approval"),
      "Added spam.example\nAdded maybe.example\n",
    );
    assert.equal(
      await gannetOk(inst, "email-domain-blocks", "add", "spam.example"),
      "spam.example is already blocked\n",
    );
    const list = (await gannetOk(inst, "email-domain-blocks", "list")).trimEnd().split("\n");
    assert.equal(list[0], "domain\tallow with approval\tcreated at");
    assert.deepEqual(
      list.slice(1).map((l) => l.split("\t").slice(0, 2)),
      [
        ["maybe.example", "yes"],
        ["spam.example", "yes"],
      ],
    );
    const [entry] = await logged("EmailDomainBlock");
    assert.equal(entry?.action, "create");
    assert.equal(entry?.accountId, null);
    assert.match(entry?.summary ?? "", /^The gannet command blocked e-mail domain maybe\.example/);
    assert.equal(await gannetOk(inst, "email-domain-blocks", "remove", "maybe.example"), "Removed maybe.example\n");
    const missing = await gannet(inst, "email-domain-blocks", "remove", "maybe.example");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /maybe\.example is not blocked/);
    assert.equal((await logged("EmailDomainBlock"))[0]?.action, "destroy");
    const bad = await gannet(inst, "email-domain-blocks", "add", "not a domain");
    assert.equal(bad.code, 2);
  });

  it("adds, lists and removes IP blocks", async () => {
    assert.equal(
      await gannetOk(
        inst,
        "ip-blocks",
        "add",
        "192.0.2.7/24",
        "2001:db8::/32",
        "--severity",
        "no_access",
        "--comment",
        "abuse",
      ),
      "Added 192.0.2.0/24\nAdded 2001:db8::/32\n",
    );
    assert.equal(
      await gannetOk(inst, "ip-blocks", "add", "198.51.100.1", "--severity", "sign_up_block", "--duration", "3600"),
      "Added 198.51.100.1/32\n",
    );
    const list = (await gannetOk(inst, "ip-blocks", "list")).trimEnd().split("\n");
    assert.equal(list[0], "ip\tseverity\texpires at\tcomment");
    assert.deepEqual(list[1]?.split("\t"), ["192.0.2.0/24", "no_access", "never", "abuse"]);
    assert.equal(list[3]?.split("\t")[1], "sign_up_block");
    assert.notEqual(list[3]?.split("\t")[2], "never");
    assert.equal((await logged("IpBlock"))[0]?.action, "create");
    assert.equal(await gannetOk(inst, "ip-blocks", "remove", "192.0.2.0/24"), "Removed 192.0.2.0/24\n");
    assert.equal((await logged("IpBlock"))[0]?.action, "destroy");
    for (const args of [
      ["ip-blocks", "add", "192.0.2.0/24"],
      ["ip-blocks", "add", "192.0.2.0/24", "--severity", "ban"],
      ["ip-blocks", "add", "300.0.0.1", "--severity", "no_access"],
      ["ip-blocks", "add", "10.0.0.1", "--severity", "no_access", "--duration", "soon"],
    ]) {
      assert.equal((await gannet(inst, ...args)).code, 2, args.join(" "));
    }
    assert.equal((await gannet(inst, "ip-blocks", "remove", "10.9.9.9")).code, 1);
  });

  it("adds canonical e-mail blocks by address or by account, and removes them by any spelling", async () => {
    assert.equal(
      await gannetOk(inst, "canonical-email-blocks", "add", "J.Doe+x@Example.com"),
      `Added J.Doe+x@Example.com: ${sha("jdoe@example.com")}\n`,
    );
    assert.equal(
      await gannetOk(inst, "canonical-email-blocks", "add", "jdoe@example.com"),
      "jdoe@example.com is already blocked\n",
    );
    await gannetOk(inst, "accounts", "create", "spammer", "--email", "Spam.Mer@example.org");
    assert.equal(
      await gannetOk(inst, "canonical-email-blocks", "add", "--account", "spammer"),
      `Blocked the address of spammer: ${sha("spammer@example.org")}\n`,
    );
    const list = (await gannetOk(inst, "canonical-email-blocks", "list")).trimEnd().split("\n");
    assert.equal(list[0], "id\tcanonical email hash\taccount id");
    assert.equal(list.length, 3);
    assert.notEqual(list[2]?.split("\t")[2], "");
    assert.equal((await logged("CanonicalEmailBlock"))[0]?.action, "create");
    assert.equal(
      await gannetOk(inst, "canonical-email-blocks", "remove", "jd.oe+y@EXAMPLE.com"),
      "Removed jd.oe+y@EXAMPLE.com\n",
    );
    assert.equal(
      await gannetOk(inst, "canonical-email-blocks", "remove", sha("spammer@example.org")),
      `Removed ${sha("spammer@example.org")}\n`,
    );
    assert.equal((await logged("CanonicalEmailBlock"))[0]?.action, "destroy");
    assert.equal((await gannetOk(inst, "canonical-email-blocks", "list")).trimEnd().split("\n").length, 1);
    assert.equal((await gannet(inst, "canonical-email-blocks", "remove", "nobody@example.com")).code, 1);
    assert.equal((await gannet(inst, "canonical-email-blocks", "add", "--account", "ghost")).code, 1);
    assert.equal((await gannet(inst, "canonical-email-blocks", "add", "not-an-address")).code, 2);
  });

  it("documents each command in its help", async () => {
    for (const group of ["email-domain-blocks", "ip-blocks", "canonical-email-blocks"]) {
      const help = await gannet(inst, "help", group);
      assert.equal(help.code, 0);
      assert.match(help.stdout, new RegExp(`^Usage: gannet ${group} add`));
      const r = await gannet(inst, group, "add", "--help");
      assert.equal(r.code, 0, group);
      assert.match(r.stdout, new RegExp(`^Usage: gannet ${group} add`));
    }
    const all = await gannetOk(inst, "help");
    assert.match(all, /^ {2}email-domain-blocks add DOMAIN/m);
    assert.match(all, /^ {2}ip-blocks add IP/m);
    assert.match(all, /^ {2}canonical-email-blocks add EMAIL/m);
  });
});
