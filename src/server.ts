import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { AppContext } from "./context.ts";
import { createApp, handlerFor } from "./http/app.ts";

export interface RunningServer {
  /** Where the server listens, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the HTTP application of `ctx` on `hostname:port` (port 0: an ephemeral port). */
export function startHttpServer(
  ctx: AppContext,
  port: number,
  hostname: string,
  opts: { overrideGlobalObjects?: boolean } = {},
): Promise<RunningServer> {
  const fetch = handlerFor(createApp(), ctx);
  return new Promise((resolve, reject) => {
    // @hono/node-server swaps the global Response for a lighter one (faster); tests turn that off
    // because clients in the same process (masto) rely on `instanceof Response`.
    const overrideGlobalObjects = opts.overrideGlobalObjects ?? true;
    const server = serve({ fetch, port, hostname, overrideGlobalObjects }, (info: AddressInfo) => {
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once("error", reject);
  });
}
