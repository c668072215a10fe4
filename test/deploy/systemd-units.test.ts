/**
 * The systemd units in deploy/systemd: `systemd-analyze verify` accepts them (when it is
 * installed), each service is sandboxed alike and restarts on failure, and each runs the server
 * as `npm start` does, in a role Gannet knows.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config/index.ts";

const ROOT = join(import.meta.dirname, "../..");
const DIR = join(ROOT, "deploy/systemd");
const ANALYZE = "/usr/bin/systemd-analyze";
const units = readdirSync(DIR).filter((f) => f.endsWith(".service") || f.endsWith(".target"));
const services = units.filter((f) => f.endsWith(".service"));
const text = (f: string) => readFileSync(join(DIR, f), "utf8");

/** The lines from the sandbox comment to the blank line after it. */
function sandbox(unit: string): string {
  const s = text(unit);
  const start = s.indexOf("# The sandbox:");
  assert.ok(start >= 0, `${unit} has no sandbox section`);
  return s.slice(start, s.indexOf("\n\n", start));
}

test("the units are the expected ones", () => {
  assert.deepEqual(services.sort(), [
    "gannet-scheduler.service",
    "gannet-streaming.service",
    "gannet-web.service",
    "gannet-worker.service",
    "gannet.service",
  ]);
  assert.ok(units.includes("gannet.target"));
});

test("every service is sandboxed alike, restarts on failure and reads the environment file", () => {
  const reference = sandbox("gannet.service");
  for (const key of ["NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes"]) {
    assert.ok(reference.includes(`\n${key}\n`), `gannet.service lacks ${key}`);
  }
  for (const unit of services) {
    const s = text(unit);
    assert.equal(sandbox(unit), reference, `${unit}'s sandbox differs from gannet.service's`);
    assert.match(s, /^Restart=on-failure$/m, unit);
    assert.match(s, /^EnvironmentFile=\/etc\/gannet\/gannet\.env$/m, unit);
    assert.match(s, /^StateDirectory=gannet$/m, unit);
    assert.match(s, /^User=gannet$/m, unit);
  }
});

test("each service runs the build as npm start does, in a role Gannet accepts", () => {
  const start = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.start as string;
  const run = /&& node (.*dist\/current\/main\.js)$/.exec(start)?.[1];
  assert.ok(run, `package.json's start script changed: ${start}`);
  const roles: Record<string, string> = {
    "gannet.service": "all",
    "gannet-web.service": "web",
    "gannet-streaming.service": "streaming",
    "gannet-worker.service": "worker",
    "gannet-scheduler.service": "scheduler",
  };
  for (const unit of services) {
    const exec = /^ExecStart=(.*)$/m.exec(text(unit))?.[1] ?? "";
    assert.ok(exec.endsWith(`/opt/gannet/node_modules/.bin/node ${run}`), `${unit}: ${exec}`);
    assert.match(text(unit), /^ExecStartPre=\/opt\/gannet\/node_modules\/\.bin\/node .*scripts\/build\.ts$/m);
    // The environment `npm start` exports before node (malloc's settings) is the unit's too.
    for (const [, pair] of (/export ((?:[A-Z_]+=\S+ ?)+)&&/.exec(start)?.[1] ?? "").matchAll(/([A-Z_]+=\S+)/g)) {
      assert.match(text(unit), new RegExp(`^Environment=.*\\b${pair}\\b`, "m"), `${unit} lacks ${pair}`);
    }
    const role = /GANNET_ROLE=(\S+)/.exec(exec)?.[1] ?? "all";
    assert.equal(role, roles[unit], unit);
    const config = loadConfig(
      { GANNET_ROLE: role, REDIS_URL: "redis://127.0.0.1:6379", SECRET_KEY: "x".repeat(32), DATA_DIR: tmpdir() },
      { createDataDir: false },
    );
    assert.equal(config.roles.worker, role === "all" || role === "worker", unit);
  }
});

test("systemd-analyze verify accepts the units", {
  skip: existsSync(ANALYZE) ? false : "systemd-analyze not installed: unit verification skipped",
}, () => {
  // The units point at /opt/gannet; here the checkout stands in for it, so the commands exist.
  const dir = mkdtempSync(join(tmpdir(), "gannet-units-"));
  try {
    for (const unit of units) writeFileSync(join(dir, unit), text(unit).replaceAll("/opt/gannet", ROOT));
    const r = spawnSync(ANALYZE, ["verify", "--man=no", ...units.map((u) => join(dir, u))], { encoding: "utf8" });
    // Unknown keys and bad values are only warnings (exit 0): any output fails the test.
    assert.equal(`${r.stdout}${r.stderr}`.trim(), "", "systemd-analyze verify complained");
    assert.equal(r.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
