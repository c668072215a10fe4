import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { AppContext, ContextOptions } from "./context.ts";
import { createApp, handlerFor } from "./http/app.ts";
import { LoadShedder } from "./http/middleware/overload.ts";
import { createStreamingApp } from "./http/streaming/app.ts";
import { attachWebSocket } from "./http/streaming/websocket.ts";

/**
 * Connections the kernel keeps waiting to be accepted (Linux caps it at net.core.somaxconn, 4,096
 * by default). With Node's default, 511, a burst of new connections during one long turn of the
 * loop fills it, and the kernel then drops SYNs that their clients retry 1 s and 3 s later, a wait
 * the server cannot see nor refuse (docs/performance.md, Overload); a connection kept in the queue
 * is accepted at the loop's next turn, and refused at once there if the server is overloaded.
 */
const LISTEN_BACKLOG = 4096;

export interface RunningServer {
  /** Where the server listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the HTTP application of `ctx` on `hostname:port` (port 0: an ephemeral port): all of
 * it, or with `streamingOnly` (the `streaming` role) only the streaming API.
 */
export async function startHttpServer(
  ctx: AppContext,
  port: number,
  hostname: string,
  opts: { overrideGlobalObjects?: boolean; streamingOnly?: boolean; contextOptions?: ContextOptions } = {},
): Promise<RunningServer> {
  const threadCount = opts.streamingOnly ? 0 : ctx.config.inboxThreads;
  // Inbox POSTs processed by worker threads (inbox-threads/), started without waiting for them.
  const pool = threadCount > 0 ? await import("./inbox-threads/pool.ts") : undefined;
  const threads = pool?.InboxThreads.start(ctx, threadCount, opts.contextOptions);
  if (pool && threads) pool.setInboxThreads(ctx, threads);
  const logRequests = ctx.config.logRequests;
  const shedding = ctx.config.loadShedding;
  const shedder = shedding.enabled ? new LoadShedder(shedding) : undefined;
  const fetch = opts.streamingOnly
    ? handlerFor(createStreamingApp({ logRequests }), ctx, { inbox: false, shedder })
    : handlerFor(createApp({ logRequests }), ctx, { shedder });
  return new Promise((resolve, reject) => {
    // @hono/node-server swaps the global Response for a lighter one (faster); tests turn that off
    // because clients in the same process (masto) rely on `instanceof Response`.
    const overrideGlobalObjects = opts.overrideGlobalObjects ?? true;
    const server = createAdaptorServer({ fetch, hostname, overrideGlobalObjects });
    shedder?.guard(server as Server);
    server.listen({ port, host: hostname, backlog: LISTEN_BACKLOG }, () => {
      const info = server.address() as AddressInfo;
      // The streaming API's WebSocket endpoint shares the port (Mastodon runs it apart; one
      // process serving both is the embedded profile's shape, and a `streaming` role may too).
      const closeWebSockets = attachWebSocket(server as Server, ctx);
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((res) => {
            closeWebSockets();
            shedder?.stop();
            // The inbox threads' connections close before the caller closes the database.
            const threadsClosed = threads?.close() ?? Promise.resolve();
            server.close(() => void threadsClosed.then(() => res()));
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once("error", (e) => {
      shedder?.stop();
      reject(e);
    });
  });
}
