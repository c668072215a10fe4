import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createInstance, type Env, getJson, type Instance, startServer } from "../cli/harness.ts";

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("the compile cache (src/main.ts)", () => {
  let inst: Instance;
  let tmp: string;
  before(async () => {
    inst = await createInstance();
    tmp = await mkdtemp(join(tmpdir(), "gannet-compile-cache-"));
  });
  after(async () => {
    await inst.cleanup();
    await rm(tmp, { recursive: true, force: true });
  });

  it("is written under the temporary directory once the server listens, and reused by the next start", async () => {
    // Without NODE_COMPILE_CACHE (the test script sets one), the server picks the directory itself.
    const env = { ...inst.env, TMPDIR: tmp, NODE_COMPILE_CACHE: undefined } as unknown as Env;
    const first = await startServer({ env, cwd: inst.dir });
    let written: string[];
    try {
      assert.equal((await getJson(`${first.url}/health`)).status, 200);
      written = filesUnder(join(tmp, "node-compile-cache"));
      assert.ok(written.length > 100, `the modules loaded so far are cached: ${written.length} files`);
    } finally {
      assert.equal(await first.stop(), 0, first.output());
    }
    const second = await startServer({ env, cwd: inst.dir });
    try {
      assert.equal((await getJson(`${second.url}/api/v1/instance`)).status, 200);
    } finally {
      assert.equal(await second.stop(), 0, second.output());
    }
  });
});
