import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createInstance, type Instance, startServer } from "../cli/harness.ts";

/** Asks for an actor nobody has: Fedify notes it at debug level ("Actor … not found"). */
async function unknownActorLogs(inst: Instance, level: string): Promise<string> {
  const server = await startServer({ env: { ...inst.env, LOG_LEVEL: level }, cwd: inst.dir });
  try {
    const r = await fetch(`${server.url}/users/nobody`, { headers: { accept: "application/activity+json" } });
    assert.equal(r.status, 404);
    await r.body?.cancel();
    // The console sink writes synchronously, but the pipe may deliver a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    await server.stop();
  }
  return server.output();
}

describe("LOG_LEVEL reaches Fedify's loggers", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("shows Fedify's debug messages with LOG_LEVEL=debug, and not at info", async () => {
    const debug = await unknownActorLogs(inst, "debug");
    assert.match(debug, /fedify.*Actor .*nobody.* not found/);
    const info = await unknownActorLogs(inst, "info");
    assert.doesNotMatch(info, /Actor .*nobody.* not found/);
    assert.match(info, /Gannet is listening/);
  });
});
