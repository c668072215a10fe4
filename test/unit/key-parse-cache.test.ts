import assert from "node:assert/strict";
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, it } from "node:test";
import { CryptographicKey } from "@fedify/vocab";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import { installKeyParseCache, keyParseStats } from "../../src/federation/key-parse-cache.ts";

const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });

/** A key as Fedify keeps it in its key cache (its own JSON-LD serialisation). */
async function cachedKeyJson(): Promise<Record<string, unknown>> {
  const publicKey = await crypto.subtle.importKey(
    "spki",
    pair.publicKey.export({ type: "spki", format: "der" }),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    true,
    ["verify"],
  );
  const key = new CryptographicKey({
    id: new URL("https://remote.example/users/a#main-key"),
    owner: new URL("https://remote.example/users/a"),
    publicKey,
  });
  return (await key.toJsonLd()) as Record<string, unknown>;
}

async function verifies(key: CryptographicKey): Promise<boolean> {
  const data = new TextEncoder().encode("signed");
  const signature = sign("sha256", data, pair.privateKey);
  assert.ok(key.publicKey);
  return crypto.subtle.verify("RSASSA-PKCS1-v1_5", key.publicKey, signature, data);
}

describe("the key parse cache", () => {
  installKeyParseCache();
  const contextLoader = getDocumentLoader();

  it("parses the same cached JSON once, to a key that verifies as a fresh parse does", async () => {
    const json = await cachedKeyJson();
    const start = { ...keyParseStats };
    const first = await CryptographicKey.fromJsonLd(json, { contextLoader });
    const second = await CryptographicKey.fromJsonLd(json, { contextLoader });
    assert.equal(second, first);
    assert.deepEqual(keyParseStats, { parsed: start.parsed + 1, reused: start.reused + 1 });
    assert.equal(first.id?.href, "https://remote.example/users/a#main-key");
    assert.equal(first.ownerId?.href, "https://remote.example/users/a");
    assert.ok(await verifies(first));
  });

  it("parses an equal but other object, another loader or a base URL anew", async () => {
    const json = await cachedKeyJson();
    const first = await CryptographicKey.fromJsonLd(json, { contextLoader });
    const copy = await CryptographicKey.fromJsonLd(structuredClone(json), { contextLoader });
    assert.notEqual(copy, first);
    const otherLoader = await CryptographicKey.fromJsonLd(json, { contextLoader: getDocumentLoader() });
    assert.notEqual(otherLoader, first);
    const based = await CryptographicKey.fromJsonLd(json, {
      contextLoader,
      baseUrl: new URL("https://remote.example/"),
    });
    assert.notEqual(based, first);
    for (const key of [copy, otherLoader, based]) {
      assert.equal(key.id?.href, first.id?.href);
      assert.ok(await verifies(key));
    }
  });

  it("does not keep a parse that failed", async () => {
    const json = {
      ...(await cachedKeyJson()),
      publicKeyPem: "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----",
    };
    const start = keyParseStats.parsed;
    await assert.rejects(CryptographicKey.fromJsonLd(json, { contextLoader }));
    await assert.rejects(CryptographicKey.fromJsonLd(json, { contextLoader }));
    assert.equal(keyParseStats.parsed, start + 2);
  });
});
