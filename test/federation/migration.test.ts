import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { accountsAliases, accountsMove } from "../../src/cli/commands/migration.ts";
import type { Output } from "../../src/cli/output.ts";
import { parseCommand } from "../../src/cli/parse-command.ts";
import { CommandError } from "../../src/cli/usage.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { type FakeActor, type FakeRemote, startFakeRemote } from "./fake-remote.ts";

const ALLOW = { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" };

/** Runs `gannet accounts aliases|move ...` against a test server's context; answers stdout's lines. */
async function gannet(server: TestServer, ...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  const io: Output = { out: async (l) => void lines.push(l), err: async () => {} };
  const cmd = parseCommand(argv);
  if (cmd.kind === "accounts-aliases") await accountsAliases(server.ctx, cmd, io);
  else if (cmd.kind === "accounts-move") await accountsMove(server.ctx, cmd, io);
  else throw new Error(`not a migration command: ${argv.join(" ")}`);
  return lines;
}

describe("account aliases and moves (gannet accounts aliases / move)", () => {
  let a: TestServer;
  let b: TestServer;
  let fake: FakeRemote;
  let alice: TestUser;
  let neighbour: TestUser;
  let newAlice: TestUser;
  let fan: FakeActor;

  before(async () => {
    [a, b] = await Promise.all([startTestServer(ALLOW), startTestServer(ALLOW)]);
    fake = await startFakeRemote();
    alice = await a.createUser("alice");
    neighbour = await a.createUser("neighbour");
    newAlice = await b.createUser("newalice");
    fan = await fake.addActor(a, "fan");
    await a.ctx.repos.follows.insert({
      id: a.ctx.ids.next(),
      account_id: fan.accountId,
      target_account_id: alice.account.id,
      uri: `${fan.uri}#follows/1`,
      created_at: new Date().toISOString(),
    });
    await a.follow(neighbour, alice);
  });
  after(async () => {
    await Promise.all([a.close(), b.close(), fake.close()]);
  });

  test("the command line parses aliases and move", () => {
    assert.deepEqual(parseCommand(["accounts", "aliases", "bob", "--add", "x@y.example", "--add", "z@y.example"]), {
      kind: "accounts-aliases",
      username: "bob",
      add: ["x@y.example", "z@y.example"],
      remove: [],
    });
    assert.throws(() => parseCommand(["accounts", "move", "bob"]), /--to is required/);
  });

  test("moving needs the target to list the account as an alias", async () => {
    await assert.rejects(
      gannet(a, "accounts", "move", "alice", "--to", `newalice@${b.ctx.config.localDomain}`),
      (e: unknown) => e instanceof CommandError && /aliases/.test(e.message),
    );
    const fresh = await a.ctx.repos.accounts.getById(alice.account.id);
    assert.equal(fresh?.movedToAccountId, null, "nothing changed");
  });

  test("an alias is resolved through WebFinger and listed as the actor URI", async () => {
    const lines = await gannet(b, "accounts", "aliases", "newalice", "--add", `alice@${a.ctx.config.localDomain}`);
    assert.deepEqual(lines, [alice.account.uri]);
    const actor = await b.request("/users/newalice", { headers: { accept: "application/activity+json" } });
    assert.deepEqual([actor.body.alsoKnownAs].flat(), [alice.account.uri]);
    assert.deepEqual(await gannet(b, "accounts", "aliases", "newalice"), [alice.account.uri]);
  });

  test("moving marks the account moved, sends Move to remote followers and takes local followers along", async () => {
    fake.clear();
    const lines = await gannet(a, "accounts", "move", "alice", "--to", `newalice@${b.ctx.config.localDomain}`);
    assert.deepEqual(lines, ["OK", newAlice.account.uri]);
    await a.settle();
    const moved = await a.ctx.repos.accounts.getById(alice.account.id);
    const target = await a.ctx.repos.accounts.getByUri(newAlice.account.uri);
    assert.ok(target && moved?.movedToAccountId === target.id);
    const [move] = fake.activities("Move");
    assert.ok(move, "the remote follower's server got a Move");
    assert.equal(move.body.actor, alice.account.uri);
    assert.equal(move.body.object, alice.account.uri);
    assert.equal(move.body.target, newAlice.account.uri);
    const request = await a.ctx.repos.follows.getRequest(neighbour.account.id, target.id);
    const follow = await a.ctx.repos.follows.getFollow(neighbour.account.id, target.id);
    assert.ok(request || follow, "the local follower follows (or asked to follow) the new account");
    const profile = await a.request(`/api/v1/accounts/${alice.account.id}`);
    assert.equal(profile.body.moved?.id, target.id);
  });
});
