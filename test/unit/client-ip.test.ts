import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { resolveClientIp } from "../../src/http/middleware/client-ip.ts";

describe("resolveClientIp", () => {
  const loopback = ["127.0.0.1", "::1"];

  it("is the peer when there is no X-Forwarded-For, or the peer is not trusted", () => {
    assert.equal(resolveClientIp("203.0.113.7", null, loopback), "203.0.113.7");
    assert.equal(resolveClientIp("203.0.113.7", "198.51.100.1", loopback), "203.0.113.7");
    assert.equal(resolveClientIp("::ffff:203.0.113.7", undefined, loopback), "203.0.113.7");
  });

  it("takes the last untrusted hop when a trusted proxy forwards", () => {
    assert.equal(resolveClientIp("127.0.0.1", "198.51.100.1", loopback), "198.51.100.1");
    // A forged first hop does not win over the address the proxy saw.
    assert.equal(resolveClientIp("127.0.0.1", "10.9.9.9, 198.51.100.1", loopback), "198.51.100.1");
    assert.equal(resolveClientIp("::1", "198.51.100.1, 127.0.0.1", loopback), "198.51.100.1");
  });

  it("trusts ranges (a proxy somewhere in a container network)", () => {
    const docker = ["172.16.0.0/12"];
    assert.equal(resolveClientIp("172.30.0.1", "198.51.100.1", docker), "198.51.100.1");
    assert.equal(resolveClientIp("::ffff:172.30.0.1", "198.51.100.1", docker), "198.51.100.1");
    assert.equal(resolveClientIp("172.32.0.1", "198.51.100.1", docker), "172.32.0.1");
    assert.equal(resolveClientIp("fd00::5", "198.51.100.1", ["fd00::/8"]), "198.51.100.1");
  });

  it("matches another spelling of a listed address", () => {
    assert.equal(resolveClientIp("0:0:0:0:0:0:0:1", "198.51.100.1", loopback), "198.51.100.1");
  });
});

describe("TRUSTED_PROXY_IP", () => {
  const dir = mkdtempSync(join(tmpdir(), "gannet-trusted-"));
  const load = (value: string) => loadConfig({ DATA_DIR: join(dir, "data"), TRUSTED_PROXY_IP: value }, { cwd: dir });

  it("takes addresses and ranges", () => {
    assert.deepEqual(load("10.0.0.0/8, ::1").trustedProxies, ["10.0.0.0/8", "::1"]);
  });

  it("refuses an entry that is neither, naming it", () => {
    assert.throws(
      () => load("10.0.0.0/8,proxy.local"),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /TRUSTED_PROXY_IP: "proxy\.local" is not an IP address or CIDR range/);
        return true;
      },
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
