import assert from "node:assert/strict";
import { existsSync, lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createInstance, getJson, type Instance, ROOT, runNode, startServer } from "../cli/harness.ts";

const BUILD = join(ROOT, "scripts", "build.ts");

/**
 * What `npm start` does, with the build written to `out`: build, then run the build's main.js.
 * `files`: the build of one file per module (quicker to make than the bundle).
 */
async function npmStart(inst: Instance, out: string, files = false) {
  const built = await runNode(BUILD, ["--out", out, ...(files ? ["--files"] : [])], { env: {}, cwd: ROOT });
  assert.equal(built.code, 0, built.stderr);
  return startServer({ env: inst.env, cwd: inst.dir, main: join(out, "current", "main.js") });
}

function builds(out: string): string[] {
  return readdirSync(out).filter((name) => /^[0-9a-f]{16}$/.test(name));
}

describe("scripts/build.ts (npm start's build)", () => {
  let dir: string;
  const instances: Instance[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "gannet-build-"));
    // The build's modules import packages: let them find the project's node_modules from there.
    await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
    for (let i = 0; i < 2; i++) instances.push(await createInstance());
  });
  after(async () => {
    for (const inst of instances) await inst.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("two starts at once from one checkout both build and serve", async () => {
    for (let round = 0; round < 3; round++) {
      const out = join(dir, `at-once-${round}`);
      // The first round bundles; the others make one file per module, which races the same way.
      const started = await Promise.allSettled(instances.map((inst) => npmStart(inst, out, round > 0)));
      const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      try {
        for (const s of started) if (s.status === "rejected") throw s.reason;
        for (const server of servers) {
          const health = await getJson(`${server.url}/health`);
          assert.equal(health.status, 200, server.output());
        }
      } finally {
        for (const server of servers) assert.equal(await server.stop(), 0, server.output());
      }
      const made = builds(out);
      assert.equal(made.length, 1, `one build of the same sources: ${made}`);
      assert.equal(readlinkSync(join(out, "current")), made[0]);
      assert.deepEqual(
        readdirSync(out).filter((name) => name.startsWith(".")),
        [],
        "no temporary directory or link is left behind",
      );
    }
  });

  it("writes nothing when the sources have not changed since the last build", async () => {
    const out = join(dir, "again");
    const first = await runNode(BUILD, ["--out", out], { env: {}, cwd: ROOT });
    assert.match(first.stderr, /(built|bundled) \d+ files/);
    const main = join(out, "current", "main.js");
    const written = statSync(main).mtimeMs;
    const second = await runNode(BUILD, ["--out", out], { env: {}, cwd: ROOT });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /is up to date/);
    assert.equal(statSync(main).mtimeMs, written);
  });

  it("replaces a dist/ of the old flat layout and keeps only the newest builds", async () => {
    const out = join(dir, "old");
    await mkdir(out);
    await writeFile(join(out, "main.js"), "throw new Error('stale');\n");
    const built = await runNode(BUILD, ["--out", out], { env: {}, cwd: ROOT });
    assert.equal(built.code, 0, built.stderr);
    assert.ok(!existsSync(join(out, "main.js")), "the old flat files are gone");
    assert.ok(lstatSync(join(out, "current")).isSymbolicLink());

    // Builds of earlier sources, oldest first.
    const old = ["00000000000000a1", "00000000000000a2", "00000000000000a3", "00000000000000a4"];
    for (const [i, name] of old.entries()) {
      await mkdir(join(out, name));
      const when = new Date(Date.now() - (10 - i) * 60_000);
      await utimes(join(out, name), when, when);
    }
    // As after a change of the sources and back: the build is there, but not the current one.
    await rm(join(out, "current"));
    const again = await runNode(BUILD, ["--out", out], { env: {}, cwd: ROOT });
    assert.equal(again.code, 0, again.stderr);
    const current = readlinkSync(join(out, "current"));
    assert.deepEqual(builds(out).sort(), [current, "00000000000000a3", "00000000000000a4"].sort());
  });
});
