import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { FetchTimeoutError, ForbiddenAddressError, UnsupportedUrlError } from "../../src/lib/net/errors.ts";
import { createGuardedFetch } from "../../src/lib/net/guarded-fetch.ts";
import type { GuardedPost } from "../../src/lib/net/guarded-post.ts";

interface Recorder {
  url: string;
  hits: { url: string; body: string; headers: IncomingMessage["headers"] }[];
  connections: number;
}

const servers: Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Recorder> {
  const server = createServer();
  const rec: Recorder = { url: "", hits: [], connections: 0 };
  server.on("connection", () => rec.connections++);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      rec.hits.push({ url: req.url ?? "", body: Buffer.concat(chunks).toString(), headers: req.headers });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  rec.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return rec;
}

const postOf = (allowed: string[]): GuardedPost => {
  const post = createGuardedFetch({ allowedPrivateAddresses: allowed, baseUrl: "http://gannet.test" }).post;
  assert.ok(post);
  return post;
};

const body = Buffer.from('{"type":"Create"}');

describe("the guarded client's lean POST", () => {
  it("refuses an address the operator has not allowed, by IP literal or by name, before any request", async () => {
    const srv = await serve((_req, res) => res.end());
    const port = new URL(srv.url).port;
    await assert.rejects(postOf([])(new URL(`${srv.url}/inbox`), {}, body), ForbiddenAddressError);
    await assert.rejects(postOf([])(new URL(`http://localhost:${port}/inbox`), {}, body), ForbiddenAddressError);
    await assert.rejects(postOf([])(new URL("file:///etc/passwd"), {}, body), UnsupportedUrlError);
    assert.equal(srv.hits.length, 0);
  });

  it("sends the headers and body, answers the status and headers, and keeps the connection", async () => {
    const srv = await serve((_req, res) => res.writeHead(202, { "x-answer": "yes" }).end("accepted"));
    const post = postOf(["127.0.0.1"]);
    const headers = { "content-type": "application/activity+json", signature: "sig" };
    for (let i = 0; i < 3; i++) {
      const a = await post(new URL(`${srv.url}/inbox?x=1`), headers, body);
      assert.equal(a.status, 202);
      assert.equal(a.headers["x-answer"], "yes");
      assert.equal(a.text(), "", "no text kept unless asked");
    }
    assert.equal(srv.hits.length, 3);
    const hit = srv.hits[0];
    assert.equal(hit?.url, "/inbox?x=1");
    assert.equal(hit?.body, body.toString());
    assert.equal(hit?.headers.signature, "sig");
    assert.equal(hit?.headers["content-length"], String(body.length));
    assert.equal(hit?.headers["user-agent"], "Gannet/0.1.0 (+http://gannet.test)");
    assert.equal(srv.connections, 1, "the answers were read to their end, so one connection served all");
  });

  it("keeps the start of an error's body as text, decompressed, cut at the limit", async () => {
    const srv = await serve((req, res) => {
      if (req.url === "/gzip") res.writeHead(500, { "content-encoding": "gzip" }).end(gzipSync("broken inside"));
      else res.writeHead(400).end("x".repeat(2000));
    });
    const post = postOf(["127.0.0.1"]);
    const gz = await post(new URL(`${srv.url}/gzip`), {}, body, { keep: 1024 });
    assert.equal(gz.status, 500);
    assert.equal(gz.text(), "broken inside");
    const long = await post(new URL(`${srv.url}/long`), {}, body, { keep: 1024 });
    assert.equal(long.status, 400);
    assert.equal(long.text(), `${"x".repeat(1024)}… (truncated)`);
  });

  it("answers a long body's status without reading it all, and gives up on a silent server in time", async () => {
    const srv = await serve((req, res) => {
      if (req.url === "/huge") res.writeHead(200).end(Buffer.alloc(1024 * 1024));
      else if (req.url === "/stall-body") res.writeHead(200).write("partial");
      // Otherwise never answers.
    });
    const post = postOf(["127.0.0.1"]);
    assert.equal((await post(new URL(`${srv.url}/huge`), {}, body)).status, 200);
    await assert.rejects(post(new URL(`${srv.url}/silent`), {}, body, { timeoutMs: 200 }), FetchTimeoutError);
    await assert.rejects(post(new URL(`${srv.url}/stall-body`), {}, body, { timeoutMs: 200 }), FetchTimeoutError);
  });
});
