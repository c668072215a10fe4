import { createPrivateKey } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import { signRequest } from "@fedify/fedify";
import { testRsaPair } from "./test-keys.ts";

/** One request a fake actor's inbox received. */
export interface ReceivedPost {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A tiny ActivityPub actor on loopback with its own RSA key: a remote server in tests. */
export interface FakeActor {
  origin: string;
  actorId: string;
  inbox: string;
  keyId: string;
  received: ReceivedPost[];
  /** GET requests, in order (paths and headers). */
  gets: ReceivedPost[];
  /** Status codes the inbox answers with, in turn (then 202). */
  failNext: number[];
  /** While true, inbox POSTs are received but never answered (a server hanging until the sender's time-out). */
  hang: boolean;
  /** A request signed with this actor's key (cavage draft, as Mastodon signs). */
  signedGet(url: string, accept?: string): Promise<Request>;
  /** A POST of `activity` signed with this actor's key (cavage draft, with a digest). */
  signedPost(url: string, activity: unknown): Promise<Request>;
  close(): Promise<void>;
}

export async function startFakeActor(): Promise<FakeActor> {
  const pair = await testRsaPair();
  const publicKeyPem = pair.publicKey;
  const privateKey = createPrivateKey(pair.privateKey);
  const signingKey = await crypto.subtle.importKey(
    "pkcs8",
    privateKey.export({ type: "pkcs8", format: "der" }),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    true,
    ["sign"],
  );
  const received: ReceivedPost[] = [];
  const gets: ReceivedPost[] = [];
  const failNext: number[] = [];
  const hanging: { hang: boolean; held: ServerResponse[] } = { hang: false, held: [] };
  let origin = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/inbox") {
        received.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
        if (hanging.hang) {
          hanging.held.push(res);
          return;
        }
        res.writeHead(failNext.shift() ?? 202).end();
        return;
      }
      if (req.method === "GET") gets.push({ url: req.url ?? "", headers: req.headers, body: "" });
      if (req.method === "GET" && req.url === "/redirect") {
        res.writeHead(302, { location: "/users/remote" }).end();
        return;
      }
      if (req.method === "GET" && req.url === "/big") {
        // 3 MiB of JSON: more than a document may be.
        res.writeHead(200, { "content-type": "application/activity+json" });
        res.end(JSON.stringify({ id: `${origin}/big`, type: "Note", content: "x".repeat(3 * 1024 * 1024) }));
        return;
      }
      if (req.method === "GET" && req.url?.startsWith("/users/remote")) {
        res.writeHead(200, { "content-type": "application/activity+json" }).end(
          JSON.stringify({
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            id: `${origin}/users/remote`,
            type: "Person",
            preferredUsername: "remote",
            inbox: `${origin}/inbox`,
            outbox: `${origin}/users/remote/outbox`,
            publicKey: { id: `${origin}/users/remote#main-key`, owner: `${origin}/users/remote`, publicKeyPem },
          }),
        );
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://localhost:${port}`;
  return {
    origin,
    actorId: `${origin}/users/remote`,
    inbox: `${origin}/inbox`,
    keyId: `${origin}/users/remote#main-key`,
    received,
    gets,
    failNext,
    get hang() {
      return hanging.hang;
    },
    set hang(value: boolean) {
      hanging.hang = value;
      if (!value) for (const res of hanging.held.splice(0)) res.writeHead(202).end();
    },
    signedGet(url, accept = "application/activity+json") {
      return signRequest(
        new Request(url, { headers: { accept } }),
        signingKey,
        new URL(`${origin}/users/remote#main-key`),
        {
          spec: "draft-cavage-http-signatures-12",
        },
      );
    },
    signedPost(url, activity) {
      const request = new Request(url, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: JSON.stringify(activity),
      });
      return signRequest(request, signingKey, new URL(`${origin}/users/remote#main-key`), {
        spec: "draft-cavage-http-signatures-12",
      });
    },
    close: () => {
      for (const res of hanging.held.splice(0)) res.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
