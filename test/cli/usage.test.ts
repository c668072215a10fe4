import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CLI, createInstance, gannet, type Instance, ROOT, runNode } from "./harness.ts";

describe("gannet usage, help and settings", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("prints help on stdout with exit 0", async () => {
    for (const args of [["help"], ["--help"], ["-h"]]) {
      const r = await gannet(inst, ...args);
      assert.equal(r.code, 0);
      assert.equal(r.stderr, "");
      assert.match(r.stdout, /^Usage: gannet COMMAND/);
      assert.match(r.stdout, /accounts create USERNAME --email EMAIL/);
      assert.match(r.stdout, /tokens create USERNAME/);
      assert.match(r.stdout, /^ {2}backup DIR\|FILE\.tar /m);
      assert.match(r.stdout, /^ {2}restore DIR\|FILE\.tar \[--force\]/m);
      assert.match(r.stdout, /^ {2}doctor \[--url BASE_URL\]/m);
    }
    for (const command of ["backup", "restore", "doctor"]) {
      const help = await gannet(inst, "help", command);
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, new RegExp(`^Usage: gannet ${command}`));
      const flag = await gannet(inst, command, "--help");
      assert.equal(flag.code, 0, command);
      assert.equal(flag.stdout, help.stdout);
    }
    const sub = await gannet(inst, "help", "tokens", "create");
    assert.equal(sub.code, 0);
    assert.match(sub.stdout, /^Usage: gannet tokens create USERNAME \[--scopes/);
    const flag = await gannet(inst, "accounts", "modify", "--help");
    assert.equal(flag.code, 0);
    assert.match(flag.stdout, /--reset-password/);
    const group = await gannet(inst, "accounts", "--help");
    assert.equal(group.code, 0);
    assert.match(group.stdout, /gannet accounts delete USERNAME/);
  });

  it("answers a missing or unknown command with the usage on stderr and exit 2", async () => {
    const cases: [string[], RegExp][] = [
      [[], /missing command/],
      [["frobnicate"], /unknown command "frobnicate"/],
      [["accounts"], /missing accounts subcommand/],
      [["accounts", "rename", "a"], /unknown command "accounts rename"/],
      [["tokens", "revoke"], /unknown command "tokens revoke"/],
      [["help", "nonsense"], /no help for "nonsense"/],
      [["backup"], /missing DIR or FILE\.tar/],
      [["backup", "a", "b"], /unexpected argument "b"/],
      [["restore", "a", "--overwrite"], /Unknown option '--overwrite'/],
      [["doctor", "extra"], /unexpected argument "extra"/],
    ];
    await Promise.all(
      cases.map(async ([args, message]) => {
        const r = await gannet(inst, ...args);
        assert.equal(r.code, 2, args.join(" "));
        assert.equal(r.stdout, "");
        assert.match(r.stderr, message);
        assert.match(r.stderr, /Usage: gannet/);
      }),
    );
  });

  it("stops with one line and exit 2 on a bad setting, before touching the database", async () => {
    for (const [name, value] of [
      ["PORT", "abc"],
      ["DATABASE_URL", "mysql://x"],
      ["REGISTRATIONS_MODE", "maybe"],
    ]) {
      const r = await gannet({ ...inst, env: { ...inst.env, [name]: value } }, "accounts", "list");
      assert.equal(r.code, 2, name);
      assert.equal(r.stdout, "");
      const lines = r.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], new RegExp(`^gannet: configuration error: ${name}\\b`));
    }
  });

  it("reads settings from a .env file in the working directory", async () => {
    const dir = join(inst.dir, "with-env");
    await mkdir(dir);
    await writeFile(join(dir, ".env"), "# a comment\nREGISTRATIONS_MODE=maybe\n");
    const env = { ...inst.env };
    const bad = await runNode(CLI, ["accounts", "list"], { env, cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /REGISTRATIONS_MODE/);
    // The environment wins over the file.
    const good = await runNode(CLI, ["accounts", "list"], { env: { ...env, REGISTRATIONS_MODE: "open" }, cwd: dir });
    assert.equal(good.code, 0, good.stderr);
  });

  it("runs through bin/gannet.js (what npx gannet starts), passing arguments and exit status", async () => {
    const bin = join(ROOT, "bin", "gannet.js");
    const ok = await runNode(bin, ["accounts", "list"], { env: inst.env, cwd: inst.dir });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, "username\temail\trole\tconfirmed\tapproved\tdisabled\n");
    const bad = await runNode(bin, ["accounts", "create", "x"], { env: inst.env, cwd: inst.dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--email is required/);
  });
});
