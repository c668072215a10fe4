import { createDecipheriv, createECDH, createHmac, createPublicKey, type ECDH, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A push service on loopback for Web Push tests: it records what Gannet sends and answers with
 * the statuses a test queues per path (201 otherwise). `decryptPush` reads a message the way a
 * browser does, with the subscription's private key and auth secret (RFC 8291 aes128gcm, or the
 * legacy aesgcm draft Mastodon still sends to clients that did not ask for the standard).
 */

/** A browser-side subscription: the keys a client sends, and the private half it keeps. */
export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
  ecdh: ECDH;
  authSecret: Buffer;
}

export function newSubscriptionKeys(): SubscriptionKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: authSecret.toString("base64url"),
    ecdh,
    authSecret,
  };
}

export interface ReceivedPush {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface PushReceiver {
  url: string;
  received: ReceivedPush[];
  /** Answers the next requests to `path` with these statuses, in order. */
  answer(path: string, ...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const queued = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ method: req.method ?? "", path, headers: req.headers, body: Buffer.concat(chunks) });
      const status = queued.get(path)?.shift() ?? 201;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answer(path, ...statuses) {
      queued.set(path, [...(queued.get(path) ?? []), ...statuses]);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const hmac = (key: Buffer, data: Buffer): Buffer => createHmac("sha256", key).update(data).digest();
/** HKDF-Expand for one block (RFC 5869), which is all Web Push needs. */
const expand = (prk: Buffer, info: Buffer, length: number): Buffer =>
  hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);

function aesGcmDecrypt(key: Buffer, nonce: Buffer, data: Buffer): Buffer {
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
}

/** RFC 8291 + RFC 8188: one record, the sender's public key in the header's key id. */
function decryptAes128gcm(body: Buffer, keys: SubscriptionKeys): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20] ?? 0;
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = keys.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), keys.ecdh.getPublicKey(), senderPublic]);
  const ikm = expand(hmac(keys.authSecret, shared), keyInfo, 32);
  const prk = hmac(salt, ikm);
  const cek = expand(prk, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = expand(prk, Buffer.from("Content-Encoding: nonce\0"), 12);
  const padded = aesGcmDecrypt(cek, nonce, ciphertext);
  // The last record ends with a 0x02 delimiter, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

function headerParam(header: string | undefined, name: string): Buffer {
  const m = new RegExp(`(?:^|[;,\\s])${name}=([A-Za-z0-9_-]+)`).exec(header ?? "");
  if (!m?.[1]) throw new Error(`no ${name} in ${header}`);
  return Buffer.from(m[1], "base64url");
}

/** draft-ietf-webpush-encryption-04 (aesgcm): salt and sender key in headers, 2-byte padding prefix. */
function decryptAesgcm(push: ReceivedPush, keys: SubscriptionKeys): Buffer {
  const salt = headerParam(push.headers.encryption as string | undefined, "salt");
  const senderPublic = headerParam(push.headers["crypto-key"] as string | undefined, "dh");
  const shared = keys.ecdh.computeSecret(senderPublic);
  const ikm = expand(hmac(keys.authSecret, shared), Buffer.from("Content-Encoding: auth\0"), 32);
  const len = (b: Buffer) => Buffer.from([b.length >> 8, b.length & 0xff]);
  const receiverPublic = keys.ecdh.getPublicKey();
  const context = Buffer.concat([
    Buffer.from("P-256\0"),
    len(receiverPublic),
    receiverPublic,
    len(senderPublic),
    senderPublic,
  ]);
  const prk = hmac(salt, ikm);
  const cek = expand(prk, Buffer.concat([Buffer.from("Content-Encoding: aesgcm\0"), context]), 16);
  const nonce = expand(prk, Buffer.concat([Buffer.from("Content-Encoding: nonce\0"), context]), 12);
  const padded = aesGcmDecrypt(cek, nonce, push.body);
  const padding = padded.readUInt16BE(0);
  return padded.subarray(2 + padding);
}

/** The payload JSON of a received push, decrypted as the subscribing browser would. */
export function decryptPush(push: ReceivedPush, keys: SubscriptionKeys): Record<string, unknown> {
  const encoding = push.headers["content-encoding"];
  const plain = encoding === "aes128gcm" ? decryptAes128gcm(push.body, keys) : decryptAesgcm(push, keys);
  return JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
}

/**
 * The VAPID credentials of a push (RFC 8292 `vapid t=..., k=...` or the legacy `WebPush` +
 * `Crypto-Key: p256ecdsa=`), with the JWT's ES256 signature checked against the key it names.
 */
export function vapidOf(push: ReceivedPush): { key: string; claims: Record<string, unknown> } {
  const authorization = push.headers.authorization ?? "";
  let jwt: string;
  let key: string;
  const standard = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (standard?.[1] && standard[2]) {
    jwt = standard[1];
    key = standard[2];
  } else {
    const legacy = /^WebPush ([^\s]+)$/.exec(authorization);
    if (!legacy?.[1]) throw new Error(`not a VAPID Authorization header: ${authorization}`);
    jwt = legacy[1];
    key = headerParam(push.headers["crypto-key"] as string | undefined, "p256ecdsa").toString("base64url");
  }
  const [header, claims, signature] = jwt.split(".");
  if (!header || !claims || !signature) throw new Error("malformed JWT");
  const point = Buffer.from(key, "base64url");
  const publicKey = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verify(
    "sha256",
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!ok) throw new Error("VAPID JWT signature does not verify");
  const head = JSON.parse(Buffer.from(header, "base64url").toString()) as { alg?: string };
  if (head.alg !== "ES256") throw new Error(`VAPID JWT alg ${head.alg}`);
  return { key, claims: JSON.parse(Buffer.from(claims, "base64url").toString()) as Record<string, unknown> };
}
