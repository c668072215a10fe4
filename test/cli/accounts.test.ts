import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AppContext } from "../../src/context.ts";
import { sha256 } from "../../src/lib/crypto.ts";
import { passwords } from "../../src/lib/passwords.ts";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

/** `gannet accounts ...` run as a real process; the database is then read back directly. */
describe("gannet accounts", () => {
  let inst: Instance;
  let ctx: AppContext;
  before(async () => {
    inst = await createInstance({ REGISTRATIONS_MODE: "approved" });
    await gannetOk(inst, "accounts", "list"); // creates the schema before this process opens it
    ctx = await inst.openContext();
  });
  after(async () => {
    await ctx.close();
    await inst.cleanup();
  });

  async function userOf(username: string) {
    const account = await ctx.repos.accounts.getByUsername(username, null);
    assert.ok(account, `no account ${username}`);
    const user = await ctx.repos.users.getByAccountId(account.id);
    return { account, user };
  }

  describe("create", () => {
    it("creates an account with a generated password, printed like tootctl", async () => {
      const r = await gannet(
        inst,
        "accounts",
        "create",
        "alice",
        "--email",
        "alice@example.com",
        "--role",
        "Owner",
        "--confirmed",
        "--approved",
      );
      assert.equal(r.code, 0, r.stderr);
      const m = /^OK\nNew password: (\S+)\n$/.exec(r.stdout);
      assert.ok(m, `unexpected stdout ${JSON.stringify(r.stdout)}`);
      assert.equal(r.stderr, "");
      const { account, user } = await userOf("alice");
      assert.ok(user);
      assert.equal(account.domain, null);
      assert.equal(user.email, "alice@example.com");
      assert.equal((await ctx.repos.roles.getById(user.roleId))?.name, "Owner");
      assert.notEqual(user.confirmedAt, null);
      assert.equal(user.approved, true);
      assert.equal(user.disabled, false);
      assert.ok(await passwords.verify(user.encryptedPassword, m[1]));
    });

    it("uses --password and then prints only OK", async () => {
      const r = await gannet(
        inst,
        "accounts",
        "create",
        "bob",
        "--email",
        "bob@example.com",
        "--password",
        "correct horse battery",
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "OK\n");
      const { user } = await userOf("bob");
      assert.ok(user);
      assert.ok(await passwords.verify(user.encryptedPassword, "correct horse battery"));
      assert.equal((await ctx.repos.roles.getById(user.roleId))?.name, "everyone");
    });

    it("leaves an account unconfirmed and pending without the flags, and says so on stderr", async () => {
      const { user } = await userOf("bob");
      assert.ok(user);
      assert.equal(user.confirmedAt, null);
      assert.equal(user.approved, false);
      const r = await gannet(inst, "accounts", "create", "carol", "--email", "carol@example.com");
      assert.equal(r.code, 0);
      assert.match(r.stderr, /carol cannot sign in until confirmed/);
      assert.match(r.stderr, /carol is waiting for approval/);
    });

    it("approves new accounts by itself when registrations are open, as Mastodon does", async () => {
      const r = await gannet(
        { ...inst, env: { ...inst.env, REGISTRATIONS_MODE: "open" } },
        "accounts",
        "create",
        "dave",
        "--email",
        "dave@example.com",
        "--password",
        "dave's password",
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await userOf("dave")).user?.approved, true);
    });

    it("lets the operator take a reserved username, with an e-mail domain without a dot as Mastodon does", async () => {
      const r = await gannet(
        inst,
        "accounts",
        "create",
        "admin",
        "--email",
        "admin@localhost",
        "--confirmed",
        "--approved",
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await userOf("admin")).user?.email, "admin@localhost");
    });

    it("fails with exit 1 and one line for a taken username, a taken or bad e-mail, a bad name or an unknown role", async () => {
      const cases: [string[], RegExp][] = [
        [["ALICE", "--email", "new@example.com"], /Username is already taken/],
        [["erin", "--email", "Alice@Example.com"], /Email is already taken/],
        [["erin", "--email", "not-an-address"], /Email is invalid/],
        [["erin", "--email", "erin%x@localhost"], /Email is invalid/],
        [["erin", "--email", "erin,x@localhost"], /Email is invalid/],
        [["bad-name!", "--email", "erin@example.com"], /Username must contain only letters/],
        [["erin", "--email", "erin@example.com", "--role", "Emperor"], /no role named Emperor/],
        [["erin", "--email", "erin@example.com", "--password", "short"], /Password is too short/],
      ];
      // Failed commands change nothing, so they can run side by side.
      await Promise.all(
        cases.map(async ([args, message]) => {
          const r = await gannet(inst, "accounts", "create", ...args);
          assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
          assert.equal(r.stdout, "");
          assert.match(r.stderr, message);
          assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
          assert.match(r.stderr, /^gannet: /);
        }),
      );
      assert.equal(await ctx.repos.accounts.getByUsername("erin", null), undefined);
    });

    it("answers bad arguments with a usage message and exit 2", async () => {
      const cases = [
        ["accounts", "create", "frank"],
        ["accounts", "create", "--email", "frank@example.com"],
        ["accounts", "create", "frank", "--email"],
        ["accounts", "create", "frank", "--email", "frank@example.com", "--admin"],
        ["accounts", "create", "frank", "extra", "--email", "frank@example.com"],
        ["accounts", "create", "frank", "--email", "frank@example.com", "--confirmed=yes"],
      ];
      await Promise.all(
        cases.map(async (args) => {
          const r = await gannet(inst, ...args);
          assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
          assert.equal(r.stdout, "");
          assert.match(r.stderr, /Usage: gannet accounts create USERNAME --email EMAIL/);
        }),
      );
      assert.equal(await ctx.repos.accounts.getByUsername("frank", null), undefined);
    });
  });

  describe("modify", () => {
    it("changes the role, confirms and approves", async () => {
      const r = await gannet(inst, "accounts", "modify", "bob", "--role", "Moderator", "--confirm", "--approve");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "OK\n");
      const { user } = await userOf("bob");
      assert.ok(user);
      assert.equal((await ctx.repos.roles.getById(user.roleId))?.name, "Moderator");
      assert.notEqual(user.confirmedAt, null);
      assert.equal(user.approved, true);
      // Each change is logged as the gannet command, newest first (--approve through the approval service).
      const log = await ctx.repos.adminActionLogs.page({ targetType: "User", targetId: user.id }, { limit: 10 });
      assert.deepEqual(
        log.map((e) => [e.action, e.accountId]),
        [
          ["approve", null],
          ["confirm", null],
          ["change_role", null],
        ],
      );
    });

    it("puts the account back in the everyone role with --remove-role", async () => {
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--remove-role")).code, 0);
      const { user } = await userOf("bob");
      assert.equal((await ctx.repos.roles.getById(user!.roleId))?.name, "everyone");
    });

    it("disables and enables the login", async () => {
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--disable")).code, 0);
      assert.equal((await userOf("bob")).user?.disabled, true);
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--enable")).code, 0);
      assert.equal((await userOf("bob")).user?.disabled, false);
    });

    it("changes the e-mail address", async () => {
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--email", "robert@example.com")).code, 0);
      assert.equal((await userOf("bob")).user?.email, "robert@example.com");
      assert.equal(await ctx.repos.users.getByEmail("bob@example.com"), undefined);
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--email", "bob@intranet")).code, 0);
      assert.equal((await userOf("bob")).user?.email, "bob@intranet");
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--email", "robert@example.com")).code, 0);
    });

    it("turns the trends review e-mail off", async () => {
      assert.equal((await gannet(inst, "accounts", "modify", "bob", "--trends-emails", "off")).code, 0);
      assert.deepEqual((await userOf("bob")).user?.settings.notificationEmails, { trends: false });
    });

    it("resets the password and prints the new one", async () => {
      const r = await gannet(inst, "accounts", "modify", "bob", "--reset-password");
      assert.equal(r.code, 0, r.stderr);
      const m = /^OK\nNew password: (\S+)\n$/.exec(r.stdout);
      assert.ok(m, r.stdout);
      const { user } = await userOf("bob");
      assert.ok(await passwords.verify(user!.encryptedPassword, m[1]));
      assert.equal(await passwords.verify(user!.encryptedPassword, "correct horse battery"), false);
    });

    it("fails with exit 1 for an unknown user, an unknown role or a taken e-mail", async () => {
      const cases: [string[], RegExp][] = [
        [["nobody", "--confirm"], /no local account named nobody/],
        [["bob", "--role", "Emperor"], /Role Emperor does not exist/],
        [["bob", "--email", "alice@example.com"], /Email is already taken/],
        [["bob", "--email", "nope"], /Email is invalid/],
      ];
      await Promise.all(
        cases.map(async ([args, message]) => {
          const r = await gannet(inst, "accounts", "modify", ...args);
          assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
          assert.equal(r.stdout, "");
          assert.match(r.stderr, message);
          assert.equal(r.stderr.trimEnd().split("\n").length, 1);
        }),
      );
      assert.equal((await userOf("bob")).user?.email, "robert@example.com");
    });

    it("answers contradictory or unknown options with a usage message and exit 2", async () => {
      const cases = [
        ["bob", "--disable", "--enable"],
        ["bob", "--role", "Admin", "--remove-role"],
        ["bob", "--suspend"],
        ["bob", "--trends-emails", "maybe"],
        [],
      ];
      await Promise.all(
        cases.map(async (args) => {
          const r = await gannet(inst, "accounts", "modify", ...args);
          assert.equal(r.code, 2, args.join(" "));
          assert.match(r.stderr, /Usage: gannet accounts modify USERNAME/);
        }),
      );
      assert.equal((await userOf("bob")).user?.disabled, false);
    });
  });

  describe("list", () => {
    it("prints a header and one tab-separated line per live local account", async () => {
      const r = await gannet(inst, "accounts", "list");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      const lines = r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split("\t"));
      assert.deepEqual(lines, [
        ["username", "email", "role", "confirmed", "approved", "disabled"],
        ["alice", "alice@example.com", "Owner", "yes", "yes", "no"],
        ["bob", "robert@example.com", "everyone", "yes", "yes", "no"],
        ["carol", "carol@example.com", "everyone", "no", "no", "no"],
        ["dave", "dave@example.com", "everyone", "no", "yes", "no"],
        ["admin", "admin@localhost", "everyone", "yes", "yes", "no"],
      ]);
    });

    it("refuses arguments with exit 2", async () => {
      const r = await gannet(inst, "accounts", "list", "--all");
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Usage: gannet accounts list/);
    });
  });

  describe("delete", () => {
    it("removes the user and its tokens but keeps the account row, emptied and marked deleted", async () => {
      const token = (await gannetOk(inst, "tokens", "create", "carol")).trim();
      await ctx.repos.accounts.update((await userOf("carol")).account.id, { display_name: "Carol", note: "<p>hi</p>" });
      const before = await userOf("carol");
      const r = await gannet(inst, "accounts", "delete", "carol");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "OK\n");
      const account = await ctx.repos.accounts.getById(before.account.id);
      assert.ok(account, "the account row must stay so the name stays taken");
      assert.equal(account.suspensionOrigin, "deleted");
      assert.notEqual(account.suspendedAt, null);
      assert.equal(account.displayName, "");
      assert.equal(account.note, "");
      assert.equal(await ctx.repos.users.getByAccountId(account.id), undefined);
      assert.equal(await ctx.repos.users.getById(before.user!.id), undefined);
      assert.equal(await ctx.repos.oauth.getTokenByHash(sha256(token)), undefined);
    });

    it("keeps the username taken and leaves the account out of the list", async () => {
      const r = await gannet(inst, "accounts", "create", "carol", "--email", "carol2@example.com");
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Username is already taken/);
      const list = await gannetOk(inst, "accounts", "list");
      assert.doesNotMatch(list, /^carol\t/m);
    });

    it("fails with exit 1 for a deleted or unknown account", async () => {
      for (const [name, message] of [
        ["carol", /carol has been deleted/],
        ["nobody", /no local account named nobody/],
      ] as const) {
        const r = await gannet(inst, "accounts", "delete", name);
        assert.equal(r.code, 1);
        assert.equal(r.stdout, "");
        assert.match(r.stderr, message);
      }
      const r = await gannet(inst, "accounts", "modify", "carol", "--confirm");
      assert.equal(r.code, 1);
      assert.match(r.stderr, /carol has been deleted/);
    });

    it("needs exactly one username", async () => {
      for (const args of [[], ["a", "b"]]) {
        const r = await gannet(inst, "accounts", "delete", ...args);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /Usage: gannet accounts delete USERNAME/);
      }
    });
  });
});
