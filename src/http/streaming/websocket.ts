import type { IncomingMessage, Server } from "node:http";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";
import { getLogger } from "@logtape/logtape";
import type { RawData, WebSocket, WebSocketServer } from "ws";
import type { AppContext } from "../../context.ts";
import { ipAccessDenied } from "../../services/moderation/ip-blocks.ts";
import { resolveClientIp } from "../middleware/client-ip.ts";
import { type Frame, hubFor, type StreamTarget, type Subscription } from "./hub.ts";
import { resolveStream, StreamError, type StreamingAuth, type StreamRequest, streamingAuth } from "./streams.ts";

const require = createRequire(import.meta.url);
/** `WebSocket.OPEN`, without loading `ws` for it. */
const OPEN = 1;

const logger = getLogger(["gannet", "streaming"]);

/** Mastodon pings every 30 s and drops a client that did not answer the previous ping. */
const PING_MS = 30_000;
/** A client this far behind (bytes queued to it) is dropped rather than buffered without end. */
const MAX_BUFFERED = 8 * 1024 * 1024;
const PATH = /^\/api\/v1\/streaming\/?$/;

/** The token of an upgrade request: `Authorization: Bearer`, `access_token`, or `Sec-WebSocket-Protocol`. */
function upgradeToken(req: IncomingMessage, url: URL): string | undefined {
  const h = req.headers.authorization;
  if (h) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    if (m) return m[1];
  }
  const q = url.searchParams.get("access_token");
  if (q) return q;
  // masto.js sends the token as the (only) subprotocol; the handshake echoes it back.
  const p = req.headers["sec-websocket-protocol"];
  return p ? p.split(",")[0]?.trim() || undefined : undefined;
}

/** Refuses an upgrade on the raw socket, as Mastodon does (the message in `X-Error-Message`). */
function refuse(socket: Duplex, status: number, message: string): void {
  const reason =
    status === 401 ? "Unauthorized" : status === 403 ? "Forbidden" : status === 404 ? "Not Found" : "Bad Request";
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Error-Message: ${message}\r\n\r\n${body}`,
  );
}

class WebSocketTarget implements StreamTarget {
  readonly accountId: string;
  readonly tokenId: string;
  readonly ws: WebSocket;
  /** By the stream's channels, as Mastodon keys a socket's subscriptions. */
  readonly subs = new Map<string, Subscription>();
  alive = true;
  /** The socket's messages, handled one after the other (a subscription is in force before the next). */
  #turns: Promise<void> = Promise.resolve();
  constructor(ws: WebSocket, auth: StreamingAuth) {
    this.ws = ws;
    this.accountId = auth.accountId;
    this.tokenId = auth.tokenId;
  }

  kill(): void {
    this.ws.close();
  }
  turn(fn: () => Promise<void>): void {
    this.#turns = this.#turns
      .then(fn)
      .catch((error: unknown) => logger.error("Streaming subscription failed: {error}", { error }));
  }

  deliver(frame: Frame): void {
    if (this.ws.readyState !== OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.ws.terminate();
      return;
    }
    this.ws.send(frame.ws(), { binary: false });
  }
}

/**
 * Serves the WebSocket endpoint `/api/v1/streaming` on `server` (its `upgrade` event): the token
 * is checked before the handshake (401 without one that works), then `stream` (with `tag` or
 * `list`) in the URL subscribes at once and `{"type":"subscribe"|"unsubscribe",...}` messages add
 * and remove streams. Answers a function that closes every socket.
 */
export function attachWebSocket(server: Server, ctx: AppContext): () => void {
  const hub = hubFor(ctx);
  // `ws` (14 modules) is loaded at the first upgrade, not at start-up.
  let wss: WebSocketServer | undefined;
  const webSocketServer = () => {
    wss ??= new (require("ws") as typeof import("ws")).WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
    return wss;
  };
  const targets = new Set<WebSocketTarget>();

  const subscribe = async (t: WebSocketTarget, auth: StreamingAuth, req: StreamRequest) => {
    try {
      const r = await resolveStream(ctx, auth, req);
      const key = r.channels.join(";");
      if (t.subs.has(key) || t.ws.readyState !== OPEN) return;
      const { sub, ready } = hub.subscribe(t, r.stream, r.channels);
      t.subs.set(key, sub);
      // The socket's next message waits for this (its messages are handled in turn).
      await ready.catch(() => {
        if (t.subs.get(key) === sub) t.subs.delete(key);
        hub.unsubscribe(sub);
        throw new StreamError(503, "The stream could not be subscribed, try again");
      });
    } catch (e) {
      if (!(e instanceof StreamError)) throw e;
      if (t.ws.readyState === OPEN) t.ws.send(JSON.stringify({ error: e.message, status: e.status }));
    }
  };
  const unsubscribe = async (t: WebSocketTarget, auth: StreamingAuth, req: StreamRequest) => {
    try {
      const r = await resolveStream(ctx, auth, req);
      const key = r.channels.join(";");
      const sub = t.subs.get(key);
      if (!sub) return;
      t.subs.delete(key);
      hub.unsubscribe(sub);
    } catch (e) {
      if (!(e instanceof StreamError)) throw e;
      if (t.ws.readyState === OPEN) t.ws.send(JSON.stringify({ error: e.message, status: e.status }));
    }
  };

  const onConnection = (ws: WebSocket, auth: StreamingAuth, url: URL) => {
    const t = new WebSocketTarget(ws, auth);
    targets.add(t);
    hub.attach(t);
    ws.on("pong", () => {
      t.alive = true;
    });
    ws.on("message", (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        ws.close(1003, "Binary messages are not supported");
        return;
      }
      let msg: { type?: unknown; stream?: unknown; tag?: unknown; list?: unknown };
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (typeof msg !== "object" || msg === null || typeof msg.stream !== "string") return;
      const req: StreamRequest = {
        stream: msg.stream,
        tag: typeof msg.tag === "string" ? msg.tag : undefined,
        list: typeof msg.list === "string" ? msg.list : typeof msg.list === "number" ? String(msg.list) : undefined,
      };
      const run = msg.type === "subscribe" ? subscribe : msg.type === "unsubscribe" ? unsubscribe : undefined;
      if (run) t.turn(() => run(t, auth, req));
    });
    ws.on("close", () => {
      targets.delete(t);
      hub.detach(t, t.subs.values());
      t.subs.clear();
    });
    ws.on("error", () => ws.terminate());
    const stream = url.searchParams.get("stream");
    if (stream) {
      const req = {
        stream,
        tag: url.searchParams.get("tag") ?? undefined,
        list: url.searchParams.get("list") ?? undefined,
      };
      t.turn(() => subscribe(t, auth, req));
    }
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const url = new URL(req.url ?? "/", "http://localhost");
    if (!PATH.test(url.pathname) || req.headers.upgrade?.toLowerCase() !== "websocket") {
      refuse(socket, 404, "Not found");
      return;
    }
    // An IP block with the `no_access` severity refuses the upgrade too (middleware/ip-access.ts).
    const xff = req.headers["x-forwarded-for"];
    const ip = () =>
      resolveClientIp(req.socket.remoteAddress, Array.isArray(xff) ? xff.join(",") : xff, ctx.config.trustedProxies);
    Promise.resolve(ipAccessDenied(ctx, ip))
      .then(async (denied) => {
        if (denied) return refuse(socket, 403, "Forbidden");
        const auth = await streamingAuth(ctx, upgradeToken(req, url));
        if (socket.destroyed) return;
        webSocketServer().handleUpgrade(req, socket, head, (ws) => onConnection(ws, auth, url));
      })
      .catch((e: unknown) => {
        if (e instanceof StreamError) refuse(socket, e.status, e.message);
        else {
          logger.error("Streaming authentication failed: {error}", { error: e });
          refuse(socket, 400, "Bad request");
        }
      });
  };
  server.on("upgrade", onUpgrade);

  // One timer for every socket: each missed its previous ping or gets a new one.
  const pings = setInterval(() => {
    for (const t of targets) {
      if (!t.alive) {
        t.ws.terminate();
        continue;
      }
      t.alive = false;
      t.ws.ping();
    }
  }, PING_MS);
  pings.unref();

  return () => {
    clearInterval(pings);
    server.off("upgrade", onUpgrade);
    for (const t of targets) t.ws.terminate();
    targets.clear();
    wss?.close();
  };
}
