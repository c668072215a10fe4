/**
 * What the reverse-proxy tests share: a self-signed certificate, a proxy process run in the
 * foreground from its own temporary directory, an HTTPS client that trusts that certificate, and
 * the checks made through the proxy (sign-in, the API, streaming, uploads, forwarded headers).
 * The client connects from 127.0.0.2, so Gannet (trusting only the proxy, 127.0.0.1) can tell the
 * client's address the proxy forwarded from the proxy's own.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import sharp from "sharp";
import WebSocket from "ws";
import { authorizeAsUser, Browser, exchangeCode, redirectParams, registerApp } from "../api/oauth-browser.ts";
import { freePort } from "../helpers/ports.ts";
import { type ApiResponse, type RequestOptions, startTestServer, type TestServer } from "../helpers/server.ts";
import { EVENT_WAIT_MS } from "../helpers/streaming.ts";

/** The address the test client connects from: not a trusted proxy for Gannet. */
export const CLIENT_ADDRESS = "127.0.0.2";
/** The address Gannet trusts: the proxy's, as it connects to Gannet. */
export const PROXY_ADDRESS = "127.0.0.1";

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/** What a proxy test runs: Gannet on its public HTTPS address through the proxy, and a temp dir. */
export interface ProxySetup {
  dir: string;
  httpPort: number;
  httpsPort: number;
  /** The public base URL: the proxy's HTTPS port. */
  base: string;
  server: TestServer;
  cert: { certFile: string; keyFile: string; pem: string };
  /** Registers the started proxy, stopped when the test ends (before Gannet). */
  started(proxy: ProxyProcess): ProxyProcess;
}

/**
 * Gannet started for a proxy in front: LOCAL_DOMAIN on the proxy's HTTPS port, https links,
 * only the proxy's address trusted; a temp dir with a self-signed certificate; all of it
 * removed when the test ends.
 */
export async function proxySetup(t: TestContext, name: string): Promise<ProxySetup> {
  const dir = await mkdtemp(join(tmpdir(), `gannet-${name}-`));
  const httpsPort = await freePort();
  const httpPort = await freePort();
  const server = await startTestServer({
    LOCAL_DOMAIN: `127.0.0.1:${httpsPort}`,
    LOCAL_HTTPS: "true",
    TRUSTED_PROXY_IP: PROXY_ADDRESS,
  });
  let proxy: ProxyProcess | undefined;
  t.after(async () => {
    await proxy?.stop();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir,
    httpPort,
    httpsPort,
    base: `https://127.0.0.1:${httpsPort}`,
    server,
    cert: makeCertificate(dir),
    started(p) {
      proxy = p;
      return p;
    },
  };
}

/** A self-signed certificate for 127.0.0.1 and localhost, written to `dir`. */
export function makeCertificate(dir: string): { certFile: string; keyFile: string; pem: string } {
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", keyFile, "-out", certFile],
    ],
    { stdio: "ignore" },
  );
  return { certFile, keyFile, pem: readFileSync(certFile, "utf8") };
}

export interface ProxyProcess {
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
  /** What it wrote, for failure messages. */
  output(): string;
}

/**
 * Runs `command` in the foreground and waits until `port` accepts connections (failing with its
 * output when it exits first).
 */
export async function startProxy(command: string, args: string[], port: number, env = process.env) {
  const child: ChildProcess = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  let exited: number | null | undefined;
  const exit = new Promise<void>((res) =>
    child.once("exit", (code) => {
      exited = code;
      res();
    }),
  );
  const proxy: ProxyProcess = {
    async stop() {
      if (exited === undefined) child.kill("SIGTERM");
      await exit;
    },
    output: () => output,
  };
  for (let i = 0; ; i++) {
    if (exited !== undefined) throw new Error(`${command} exited (${exited}):\n${output}`);
    if (await accepts(port)) return proxy;
    if (i > 300) {
      await proxy.stop();
      throw new Error(`${command} did not listen on ${port}:\n${output}`);
    }
    await sleep(50);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

function toHeaders(res: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) h.append(k, x);
  }
  return h;
}

/** One request over HTTP(S) from CLIENT_ADDRESS, trusting `ca`; the body is JSON when it says so. */
export async function rawRequest(
  url: string,
  ca: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const u = new URL(url);
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      u,
      { method: opts.method ?? "GET", headers: opts.headers, ca, localAddress: CLIENT_ADDRESS, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: toHeaders(res), body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/**
 * The test server as seen through the proxy at `base`: the same `TestServer` (its context, its
 * users), whose `request` goes through the proxy. Absolute URLs (redirects) must be the proxy's.
 */
export function throughProxy(server: TestServer, base: string, ca: string): TestServer {
  async function request<T>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = /^https?:/.test(path) ? path : `${base}${path}`;
    assert.equal(new URL(url).origin, base, `a link points outside the public address: ${url}`);
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: Buffer | undefined;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = Buffer.from(JSON.stringify(opts.json));
    } else if (opts.form) {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = Buffer.from(p.toString());
    } else if (opts.multipart) {
      const encoded = new Response(opts.multipart);
      headers["content-type"] = encoded.headers.get("content-type") ?? "";
      body = Buffer.from(await encoded.arrayBuffer());
    }
    const res = await rawRequest(url, ca, { method: opts.method ?? (body ? "POST" : "GET"), headers, body });
    const type = res.headers.get("content-type") ?? "";
    const text = res.body.toString("utf8");
    return { status: res.status, headers: res.headers, body: (type.includes("json") ? JSON.parse(text) : text) as T };
  }
  return { ...server, url: base, request };
}

/** A PNG of random pixels, about 3 MiB: past nginx's default body limit (1 MiB). */
export async function largePng(): Promise<Buffer> {
  const side = 1024;
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

/** Events of a WebSocket through the proxy, waited for one at a time. */
function openWss(base: string, ca: string, token: string, stream: string) {
  const url = `${base.replace(/^https/, "wss")}/api/v1/streaming?stream=${stream}`;
  const ws = new WebSocket(url, { ca, localAddress: CLIENT_ADDRESS, headers: { authorization: `Bearer ${token}` } });
  const messages: { event?: string; payload?: string; error?: string }[] = [];
  ws.on("message", (d) => messages.push(JSON.parse(d.toString())));
  const waitFor = async (match: (m: (typeof messages)[number]) => boolean, what: string) => {
    for (let waited = 0; waited < EVENT_WAIT_MS; waited += 20) {
      if (messages.some(match)) return;
      await sleep(20);
    }
    throw new Error(`no ${what} through the proxy within ${EVENT_WAIT_MS} ms`);
  };
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`WebSocket refused: ${res.statusCode}`)));
  }).then(() => {
    // An error answer to a later message means the stream before it is subscribed.
    ws.send(JSON.stringify({ type: "subscribe", stream: "nonsense" }));
    return waitFor((m) => m.error !== undefined, "answer to a subscription");
  });
  const update = (id: string) =>
    waitFor((m) => m.event === "update" && JSON.parse(m.payload ?? "{}").id === id, `update for ${id}`);
  return { opened, update, close: () => ws.close() };
}

/** Server-sent events through the proxy: an `update` for `id` comes only if the proxy does not buffer. */
function openSseThrough(base: string, ca: string, token: string, path: string) {
  let raw = "";
  const req = httpsRequest(`${base}${path}`, {
    ca,
    localAddress: CLIENT_ADDRESS,
    agent: false,
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
  });
  const opened = new Promise<IncomingMessage>((resolve, reject) => {
    req.on("response", (res) => {
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        raw += c;
      });
      resolve(res);
    });
    req.on("error", reject);
  });
  req.end();
  const waitFor = async (seen: () => boolean, what: string) => {
    for (let waited = 0; waited < EVENT_WAIT_MS; waited += 20) {
      if (seen()) return;
      await sleep(20);
    }
    throw new Error(`no ${what} through the proxy within ${EVENT_WAIT_MS} ms; read so far:\n${raw}`);
  };
  // Gannet writes `:)` once subscribed: it arrives only if the proxy passes events unbuffered.
  const subscribed = () => waitFor(() => raw.startsWith(":)"), "server-sent greeting");
  const update = (id: string) =>
    waitFor(() => raw.includes("event: update") && raw.includes(`"id":"${id}"`), `server-sent update for ${id}`);
  return { opened, subscribed, update, close: () => req.destroy() };
}

/** Polls an attachment through the proxy until it is processed. */
async function processedMedia(via: TestServer, token: string, id: string) {
  let r = await via.request(`/api/v1/media/${id}`, { token });
  for (let i = 0; i < 500 && r.status === 206; i++) {
    await sleep(20);
    r = await via.request(`/api/v1/media/${id}`, { token });
  }
  return r;
}

export interface ProxyCheckOptions {
  /** The plain-HTTP port that should redirect to HTTPS, when the recipe has one. */
  httpPort?: number;
  /** Whether the proxy caches /system/ files itself (answering X-Cache-Status). */
  cachesMedia: boolean;
}

/** Every check through the proxy at `base` in front of `server`, as subtests of `t`. */
export async function checkThroughProxy(
  t: TestContext,
  server: TestServer,
  base: string,
  ca: string,
  opts: ProxyCheckOptions,
): Promise<void> {
  const via = throughProxy(server, base, ca);
  let token = "";
  let username = "";

  if (opts.httpPort !== undefined) {
    await t.test("plain HTTP redirects to HTTPS", async () => {
      const r = await rawRequest(`http://127.0.0.1:${opts.httpPort}/api/v1/instance`, ca, {});
      assert.ok(r.status === 301 || r.status === 308, `answered ${r.status}`);
      assert.match(r.headers.get("location") ?? "", /^https:\/\/127\.0\.0\.1(:\d+)?\/api\/v1\/instance$/);
    });
  }

  await t.test("signing in: the browser flow and the token exchange", async () => {
    const user = await server.createUser("proxied");
    username = user.account.username;
    const app = await registerApp(via);
    const { response } = await authorizeAsUser(via, app, user, { scope: "read write" }, new Browser(via));
    const code = redirectParams(response).get("code");
    assert.ok(code);
    const r = await exchangeCode(via, app, code);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    token = r.body.access_token;
  });

  await t.test("the API, with links on the public HTTPS address", async () => {
    const me = await via.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.url, `${base}/@${username}`);
    const posted = await via.request("/api/v1/statuses", { token, json: { status: "through the proxy" } });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.ok(posted.body.uri.startsWith(`${base}/`), posted.body.uri);
    const instance = await via.request("/api/v2/instance");
    assert.equal(instance.body.domain, new URL(base).host);
    assert.equal(instance.body.configuration.urls.streaming, base.replace(/^https/, "wss"));
  });

  await t.test("streaming through the proxy: WebSocket and server-sent events", async () => {
    const ws = openWss(base, ca, token, "user");
    const sse = openSseThrough(base, ca, token, "/api/v1/streaming/user");
    try {
      await ws.opened;
      const res = await sse.opened;
      assert.equal(res.statusCode, 200);
      await sse.subscribed();
      // The user stream carries one's own posts.
      const posted = await via.request("/api/v1/statuses", { token, json: { status: "streamed" } });
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      await ws.update(posted.body.id);
      await sse.update(posted.body.id);
    } finally {
      ws.close();
      sse.close();
    }
  });

  await t.test("a 3 MiB upload, and its file served (and cached) through the proxy", async () => {
    const png = await largePng();
    assert.ok(png.length > 2 * 1024 * 1024, `the PNG is only ${png.length} bytes`);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "noise.png");
    const up = await via.request("/api/v2/media", { token, multipart: form });
    assert.ok(up.status === 200 || up.status === 202, `${up.status} ${JSON.stringify(up.body)}`);
    const media = await processedMedia(via, token, up.body.id);
    assert.equal(media.status, 200, JSON.stringify(media.body));
    assert.ok(media.body.url.startsWith(`${base}/system/`), media.body.url);
    const first = await via.request(media.body.url);
    assert.equal(first.status, 200);
    assert.match(first.headers.get("cache-control") ?? "", /immutable/);
    if (opts.cachesMedia) {
      assert.equal(first.headers.get("x-cache-status"), "MISS");
      const second = await via.request(media.body.url);
      assert.equal(second.status, 200);
      assert.equal(second.headers.get("x-cache-status"), "HIT");
    }
    // Byte ranges (browsers seek in video with them) pass through, cached or not.
    const part = await rawRequest(media.body.url, ca, { headers: { range: "bytes=0-99" } });
    assert.equal(part.status, 206);
    assert.equal(part.body.length, 100);
  });

  await t.test("X-Forwarded-For: Gannet records the client's address, not the proxy's nor a forged one", async () => {
    const app = await registerApp(via);
    const grant = await via.request("/oauth/token", {
      form: {
        grant_type: "client_credentials",
        client_id: app.client_id,
        client_secret: app.client_secret,
        scope: "read write",
      },
    });
    assert.equal(grant.status, 200, JSON.stringify(grant.body));
    const r = await via.request("/api/v1/accounts", {
      token: grant.body.access_token,
      headers: { "x-forwarded-for": "203.0.113.7" },
      json: { username: "forwarded", email: "forwarded@example.com", password: "long enough pw", agreement: true },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const user = await server.ctx.repos.users.getByEmail("forwarded@example.com");
    assert.equal(user?.signUpIp, CLIENT_ADDRESS);
  });
}
