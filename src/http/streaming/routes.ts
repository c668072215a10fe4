import type { Context, Hono } from "hono";
import { bearerToken } from "../middleware/auth.ts";
import type { HonoEnv } from "../types.ts";
import { type Frame, hubFor, type StreamTarget } from "./hub.ts";
import { resolveStream, StreamError, type StreamRequest, streamingAuth } from "./streams.ts";

/** Mastodon's SSE heartbeat: a `:thump` comment every 15 s. */
const HEARTBEAT_MS = 15_000;

const truthy = (v: string | undefined) => v !== undefined && ["1", "true", "t", "on", "yes"].includes(v.toLowerCase());

/** The stream a server-sent-events path names (Mastodon's channelNameFromPath), `only_media` making `:media` ones. */
const PATHS: Record<string, (media: boolean) => string> = {
  user: () => "user",
  "user/notification": () => "user:notification",
  public: (m) => (m ? "public:media" : "public"),
  "public/media": () => "public:media",
  "public/local": (m) => (m ? "public:local:media" : "public:local"),
  "public/local/media": () => "public:local:media",
  "public/remote": (m) => (m ? "public:remote:media" : "public:remote"),
  "public/remote/media": () => "public:remote:media",
  hashtag: () => "hashtag",
  "hashtag/local": () => "hashtag:local",
  list: () => "list",
  direct: () => "direct",
};

const encoder = new TextEncoder();

/**
 * One stream as server-sent events: `:)` first, then `event:`/`data:` pairs, a `:thump` comment
 * every 15 s; the subscription ends when the client goes away.
 */
async function serveEvents(c: Context<HonoEnv>, path: string): Promise<Response> {
  const ctx = c.env.ctx;
  const hub = hubFor(ctx);
  const stream = PATHS[path]?.(truthy(c.req.query("only_media")));
  try {
    const auth = await streamingAuth(ctx, bearerToken(c));
    if (stream === undefined) throw new StreamError(404, "Unknown channel requested");
    const req: StreamRequest = { stream, tag: c.req.query("tag"), list: c.req.query("list") };
    const resolved = await resolveStream(ctx, auth, req);
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let ended = false;
    const write = (b: Uint8Array) => {
      if (ended || !controller) return;
      try {
        controller.enqueue(b);
      } catch {
        end();
      }
    };
    const target: StreamTarget = {
      accountId: auth.accountId,
      tokenId: auth.tokenId,
      deliver: (frame: Frame) => write(frame.sse()),
      kill: () => {
        end();
        try {
          controller?.close();
        } catch {
          // already closed
        }
      },
    };
    hub.attach(target);
    const { sub, ready } = hub.subscribe(target, resolved.stream, resolved.channels);
    const heartbeat = setInterval(() => write(encoder.encode(":thump\n")), HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      hub.detach(target, [sub]);
    };
    try {
      // The response starts once the stream is in force: what is published after, the client gets.
      await ready;
    } catch {
      end();
      return c.json({ error: "The stream could not be subscribed, try again" }, 503);
    }
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        write(encoder.encode(":)\n"));
      },
      cancel() {
        end();
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
      },
    });
  } catch (e) {
    if (!(e instanceof StreamError)) throw e;
    return c.json({ error: e.message }, e.status as 400);
  }
}

/**
 * The streaming API's HTTP side: `GET /api/v1/streaming/health` and the server-sent-event
 * streams (`/api/v1/streaming/user`, `/public/local`, `/hashtag?tag=`, ...). The WebSocket
 * endpoint is served from the HTTP server's `upgrade` event (websocket.ts).
 */
export function streamingRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/streaming/health", (c) => c.text("OK"));
  for (const path of Object.keys(PATHS)) {
    app.get(`/api/v1/streaming/${path}`, (c) => serveEvents(c, path));
  }
}
