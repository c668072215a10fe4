import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import {
  FetchTimeoutError,
  ForbiddenAddressError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  UnsupportedUrlError,
} from "../../src/lib/net/errors.ts";
import { createGuardedFetch } from "../../src/lib/net/guarded-fetch.ts";

/** A loopback server that records what reached it. */
interface Recorder {
  server: Server;
  url: string;
  hits: { method: string; url: string; body: string; headers: IncomingMessage["headers"] }[];
}

const servers: Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Recorder> {
  const rec: Recorder = { server: createServer(), url: "", hits: [] };
  rec.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      rec.hits.push({
        method: req.method ?? "",
        url: req.url ?? "",
        body: Buffer.concat(chunks).toString(),
        headers: req.headers,
      });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => rec.server.listen(0, host, resolve));
  servers.push(rec.server);
  rec.url = `http://${host}:${(rec.server.address() as AddressInfo).port}`;
  return rec;
}

const guarded = (allowed: string[]) =>
  createGuardedFetch({ allowedPrivateAddresses: allowed, baseUrl: "http://gannet.test" });

describe("guarded fetch", () => {
  it("refuses a loopback address unless the operator allows it", async () => {
    const srv = await serve("127.0.0.1", (_req, res) => res.end("hello"));
    await assert.rejects(guarded([])(`${srv.url}/x`), ForbiddenAddressError);
    assert.equal(srv.hits.length, 0, "no request reached the server");

    const res = await guarded(["127.0.0.1"])(`${srv.url}/x`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "hello");
    assert.equal(res.url, `${srv.url}/x`);
    assert.equal(res.redirected, false);
    assert.match(srv.hits[0]?.headers["user-agent"] ?? "", /^Gannet\/.*gannet\.test/);
  });

  it("checks the addresses a host name resolves to when connecting", async () => {
    const srv = await serve("127.0.0.1", (_req, res) => res.end("by name"));
    const port = new URL(srv.url).port;
    const err = await guarded([])(`http://localhost:${port}/`).then(
      () => assert.fail("fetched"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ForbiddenAddressError);
    assert.equal(err.hostname, "localhost");
    assert.equal(srv.hits.length, 0);
    const ok = await guarded(["127.0.0.0/8", "::1"])(`http://localhost:${port}/`);
    assert.equal(await ok.text(), "by name");
  });

  it("checks every redirect hop again", async () => {
    const target = await serve("127.0.0.2", (_req, res) => res.end("second hop"));
    const start = await serve("127.0.0.1", (_req, res) => {
      res.writeHead(302, { location: `${target.url}/landing` }).end();
    });
    // 127.0.0.1 is allowed and 127.0.0.2 is not: the first hop passes, the second is refused.
    await assert.rejects(guarded(["127.0.0.1"])(start.url), ForbiddenAddressError);
    assert.equal(start.hits.length, 1);
    assert.equal(target.hits.length, 0, "the redirect target was never contacted");

    const res = await guarded(["127.0.0.0/8"])(start.url);
    assert.equal(await res.text(), "second hop");
    assert.equal(res.url, `${target.url}/landing`);
    assert.equal(res.redirected, true);
  });

  it("stops after the redirect limit and follows fetch's method rules", async () => {
    const loop = await serve("127.0.0.1", (req, res) => {
      if (req.url === "/see-other") res.writeHead(303, { location: "/done" }).end();
      else if (req.url === "/done") res.end(`${req.method}`);
      else res.writeHead(301, { location: "/again" }).end();
    });
    const fetch = guarded(["127.0.0.1"]);
    await assert.rejects(fetch(`${loop.url}/start`, { maxRedirects: 2 }), TooManyRedirectsError);
    assert.equal(loop.hits.length, 3, "the first request and two redirects");

    const manual = await fetch(`${loop.url}/start`, { redirect: "manual" });
    assert.equal(manual.status, 301);
    assert.equal(manual.headers.get("location"), "/again");

    const posted = await fetch(`${loop.url}/see-other`, { method: "POST", body: "payload" });
    assert.equal(await posted.text(), "GET");
    assert.equal(loop.hits.at(-2)?.body, "payload");
    assert.equal(loop.hits.at(-1)?.body, "");
  });

  it("sends the method, headers and body it is given", async () => {
    const echo = await serve("127.0.0.1", (_req, res) => res.writeHead(201, { "x-reply": "yes" }).end("{}"));
    const res = await guarded(["127.0.0.1"])(`${echo.url}/inbox?q=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ a: 1 }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("x-reply"), "yes");
    const hit = echo.hits[0];
    assert.equal(hit?.method, "POST");
    assert.equal(hit?.url, "/inbox?q=1");
    assert.equal(hit?.body, '{"a":1}');
    assert.equal(hit?.headers["content-type"], "application/json");
    assert.equal(hit?.headers.authorization, "Bearer t");
  });

  it("bounds the response body, declared, streamed or compressed", async () => {
    const big = await serve("127.0.0.1", (req, res) => {
      if (req.url === "/declared") res.writeHead(200, { "content-length": "5000" }).end("x".repeat(5000));
      else if (req.url === "/gzip") {
        res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.alloc(1_000_000)));
      } else {
        res.write("y".repeat(3000));
        res.end("y".repeat(3000));
      }
    });
    const fetch = guarded(["127.0.0.1"]);
    await assert.rejects(fetch(`${big.url}/declared`, { maxBytes: 1000 }), ResponseTooLargeError);
    const streamed = await fetch(`${big.url}/chunked`, { maxBytes: 1000 });
    await assert.rejects(streamed.text(), ResponseTooLargeError);
    const bomb = await fetch(`${big.url}/gzip`, { maxBytes: 100_000 });
    await assert.rejects(bomb.arrayBuffer(), ResponseTooLargeError);
    const inflated = await fetch(`${big.url}/gzip`, { maxBytes: 2_000_000 });
    assert.equal((await inflated.arrayBuffer()).byteLength, 1_000_000);
    const fits = await fetch(`${big.url}/chunked`, { maxBytes: 6000 });
    assert.equal((await fits.text()).length, 6000);
  });

  it("aborts a server that does not answer, or stops sending, within the time limit", async () => {
    const slow = await serve("127.0.0.1", (req, res) => {
      // Never ends: only the client's time limit finishes the exchange.
      if (req.url === "/stall-body") res.writeHead(200).write("partial");
    });
    const fetch = guarded(["127.0.0.1"]);
    await assert.rejects(fetch(`${slow.url}/no-answer`, { timeoutMs: 200 }), FetchTimeoutError);
    const res = await fetch(`${slow.url}/stall-body`, { timeoutMs: 300 });
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), FetchTimeoutError);
  });

  it("fetches only http and https URLs, and refuses forbidden IP literals before connecting", async () => {
    const fetch = guarded([]);
    await assert.rejects(fetch("file:///etc/passwd"), UnsupportedUrlError);
    await assert.rejects(fetch("ftp://example.com/"), UnsupportedUrlError);
    await assert.rejects(fetch("not a url"), UnsupportedUrlError);
    await assert.rejects(fetch("http://[::1]:9/"), ForbiddenAddressError);
    await assert.rejects(fetch("http://[::ffff:127.0.0.1]:9/"), ForbiddenAddressError);
    await assert.rejects(fetch("http://2130706433:9/"), ForbiddenAddressError, "decimal form of 127.0.0.1");
    await assert.rejects(fetch("http://169.254.169.254/latest/meta-data/"), ForbiddenAddressError);
  });
});
