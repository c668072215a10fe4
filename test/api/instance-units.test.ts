import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { encodeBlurhash } from "../../src/lib/blurhash.ts";
import { instanceVersion } from "../../src/lib/version.ts";
import { weekStart } from "../../src/services/instance/stats.ts";
import { ttlCached } from "../../src/services/instance/ttl-cache.ts";
import { generateVapidKeys } from "../../src/services/instance/vapid.ts";

const BASE83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";
const decode83 = (s: string) => [...s].reduce((n, ch) => n * 83 + BASE83.indexOf(ch), 0);

const toLinear = (v: number) => {
  const x = v / 255;
  return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
};

/** Unpacks a hash into its linear colour components, written from the BlurHash description. */
function unpackBlurhash(hash: string): number[][] {
  const flag = decode83(hash[0]);
  const count = ((flag % 9) + 1) * (Math.floor(flag / 9) + 1);
  const maxAc = (decode83(hash[1]) + 1) / 166;
  const dc = decode83(hash.slice(2, 6));
  const out = [[toLinear(dc >> 16), toLinear((dc >> 8) & 255), toLinear(dc & 255)]];
  for (let i = 1; i < count; i++) {
    const v = decode83(hash.slice(4 + i * 2, 6 + i * 2));
    const q = [Math.floor(v / 361), Math.floor(v / 19) % 19, v % 19];
    out.push(q.map((n) => Math.sign(n - 9) * ((n - 9) / 9) ** 2 * maxAc));
  }
  return out;
}

describe("instance building blocks", () => {
  it("builds the version string clients parse", () => {
    assert.equal(instanceVersion(), "4.5.0 (compatible; Gannet 0.1.0)");
  });

  it("blurhash: a flat colour gives its own colour as the DC component", () => {
    const w = 8;
    const h = 6;
    const px = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) px.set([200, 100, 50, 255], i * 4);
    const hash = encodeBlurhash(px, w, h, 4, 3);
    assert.equal(hash.length, 4 + 2 + 2 * 11);
    assert.equal(hash[0], BASE83[3 + 2 * 9]);
    assert.equal(decode83(hash.slice(2, 6)), (200 << 16) | (100 << 8) | 50);
    assert.match(hash, /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]+$/);
  });

  it("blurhash: the packed components match the picture's cosine components", () => {
    const w = 32;
    const h = 24;
    const px = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const t = (x / (w - 1) + y / (h - 1)) / 2;
        const wave = Math.cos((3 * Math.PI * x) / w);
        px.set([30 + 200 * t, 120 - 80 * t + 40 * wave, 220 - 150 * t, 255].map(Math.round), (y * w + x) * 4);
      }
    }
    const hash = encodeBlurhash(px, w, h, 4, 3);
    const decoded = unpackBlurhash(hash);
    assert.equal(decoded.length, 12);
    // The components as the BlurHash description defines them, in floating point.
    const maxAc = (decode83(hash[1]) + 1) / 166;
    for (let j = 0; j < 3; j++) {
      for (let i = 0; i < 4; i++) {
        const want = [0, 0, 0];
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const basis = Math.cos((Math.PI * i * x) / w) * Math.cos((Math.PI * j * y) / h);
            for (let c = 0; c < 3; c++) want[c] += basis * toLinear(px[(y * w + x) * 4 + c]);
          }
        }
        const scale = (i === 0 && j === 0 ? 1 : 2) / (w * h);
        const got = decoded[i + j * 4];
        for (let c = 0; c < 3; c++) {
          const v = want[c] * scale;
          // Quantisation: 1/255 in sRGB for the average colour, 19 square-root steps for the rest.
          const tolerance = i === 0 && j === 0 ? 0.01 : 0.12 * maxAc + 0.005;
          assert.ok(Math.abs(got[c] - v) <= tolerance, `component ${i},${j} channel ${c}: ${got[c]} vs ${v}`);
        }
      }
    }
  });

  it("VAPID keys are a matching P-256 pair in web-push's format", () => {
    const { publicKey, privateKey } = generateVapidKeys();
    assert.match(publicKey, /^[A-Za-z0-9_-]+$/);
    assert.match(privateKey, /^[A-Za-z0-9_-]+$/);
    const point = Buffer.from(publicKey, "base64url");
    assert.equal(point.length, 65);
    assert.equal(point[0], 0x04);
    assert.equal(Buffer.from(privateKey, "base64url").length, 32);
    const x = point.subarray(1, 33).toString("base64url");
    const y = point.subarray(33).toString("base64url");
    const priv = createPrivateKey({ key: { kty: "EC", crv: "P-256", x, y, d: privateKey }, format: "jwk" });
    const pub = createPublicKey({ key: { kty: "EC", crv: "P-256", x, y }, format: "jwk" });
    const sig = sign("sha256", Buffer.from("push"), priv);
    assert.ok(verify("sha256", Buffer.from("push"), pub, sig));
    assert.notEqual(generateVapidKeys().publicKey, publicKey);
  });

  it("ttlCached loads once per period, shares a load in flight and retries after a failure", async () => {
    let t = 0;
    let loads = 0;
    let fail = false;
    const c = ttlCached(
      1000,
      async () => {
        loads++;
        if (fail) throw new Error("boom");
        return loads;
      },
      () => t,
    );
    const [a, b] = await Promise.all([c.get(), c.get()]);
    assert.deepEqual([a, b, loads], [1, 1, 1]);
    t = 999;
    assert.equal(await c.get(), 1);
    t = 1000;
    assert.equal(await c.get(), 2);
    fail = true;
    t = 5000;
    await assert.rejects(c.get());
    fail = false;
    assert.equal(await c.get(), 4);
    const never = ttlCached(0, async () => ++loads);
    assert.notEqual(await never.get(), await never.get());
  });

  it("weeks start on Monday 00:00 UTC", () => {
    assert.equal(weekStart(Date.parse("2026-11-22T08:00:00Z")), Date.parse("2026-11-16T00:00:00Z"));
    assert.equal(weekStart(Date.parse("2026-11-16T00:00:00Z")), Date.parse("2026-11-16T00:00:00Z"));
    assert.equal(weekStart(Date.parse("2026-11-15T23:59:59Z")), Date.parse("2026-11-09T00:00:00Z"));
    assert.equal(weekStart(Date.parse("2027-01-01T12:00:00Z")), Date.parse("2026-12-28T00:00:00Z"));
  });

  it("reads the instance settings from the environment", () => {
    const dir = mkdtempSync(join(tmpdir(), "gannet-config-"));
    const env = { DATA_DIR: dir, LOCAL_DOMAIN: "social.example" };
    const d = loadConfig(env);
    assert.equal(d.streamingApiBaseUrl, "wss://social.example");
    assert.equal(d.defaultLocale, "en");
    assert.equal(d.instanceStatsCacheSeconds, 60);
    assert.equal(d.vapid, undefined);
    const c = loadConfig({
      ...env,
      STREAMING_API_BASE_URL: "wss://streaming.social.example/",
      SOURCE_BASE_URL: "https://git.example/gannet",
      DEFAULT_LOCALE: "de",
      VAPID_PUBLIC_KEY: "pub",
      VAPID_PRIVATE_KEY: "priv",
      INSTANCE_STATS_CACHE_SECONDS: "0",
    });
    assert.equal(c.streamingApiBaseUrl, "wss://streaming.social.example");
    assert.equal(c.sourceUrl, "https://git.example/gannet");
    assert.equal(c.defaultLocale, "de");
    assert.deepEqual(c.vapid, { publicKey: "pub", privateKey: "priv" });
    assert.equal(c.instanceStatsCacheSeconds, 0);
    assert.throws(() => loadConfig({ ...env, VAPID_PUBLIC_KEY: "pub" }), ConfigError);
    assert.throws(() => loadConfig({ ...env, STREAMING_API_BASE_URL: "https://x.example" }), ConfigError);
    assert.throws(() => loadConfig({ ...env, DEFAULT_LOCALE: "English" }), ConfigError);
  });
});
