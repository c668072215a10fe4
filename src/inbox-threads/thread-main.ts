import { AsyncLocalStorage } from "node:async_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { configure, getConsoleSink } from "@logtape/logtape";
import type { Config } from "../config/index.ts";
import { type ContextOptions, createContext } from "../context.ts";
import { isSignatureFailure } from "../federation/inbox/precheck.ts";
import { createApp, handlerFor } from "../http/app.ts";
import { serverLoggers } from "../lib/logging.ts";
import { useWriteLock } from "../lib/sqlite-write-lock.ts";
import type { ToThread } from "./pool.ts";
import { ThreadEventBus } from "./thread-bus.ts";

/**
 * An inbox thread (pool.ts): its own application context (its own SQLite connection or
 * PostgreSQL pool, its own Fedify federation), serving the inbox POSTs the main thread hands it
 * through the same handler as the main thread's, and answering with the response's parts.
 */
const port = parentPort;
if (!port) throw new Error("inbox thread started outside a worker");
const { config, options, writeLock, logging } = workerData as {
  config: Config;
  options: ContextOptions;
  writeLock: SharedArrayBuffer;
  logging: boolean;
};
if (logging) {
  await configure({
    sinks: { console: getConsoleSink() },
    contextLocalStorage: new AsyncLocalStorage(),
    ...serverLoggers(config.logLevel, "console"),
  });
}
useWriteLock(writeLock);
const ctx = await createContext(config, { ...options, listenForChanges: true });
let threadBus: ThreadEventBus | undefined;
if (ctx.busKind === "memory") {
  // The main thread's in-process bus is the one bus (thread-bus.ts).
  await ctx.bus.close();
  threadBus = new ThreadEventBus(port);
  ctx.bus = threadBus;
}
const handler = handlerFor(createApp({ logRequests: false }), ctx);

port.on("message", async (msg: ToThread) => {
  if (msg.kind === "deliver" || msg.kind === "subscribed" || msg.kind === "listened") {
    threadBus?.received(msg);
    return;
  }
  if (msg.kind === "close") {
    await ctx.close();
    port.postMessage({ kind: "closed" });
    return;
  }
  const { id, url, method, headers, body, ip } = msg;
  // What the main thread (or another thread) committed is seen by this request's reads at once.
  ctx.database.sawOtherWriter();
  try {
    const request = new Request(url, { method, headers, body });
    // The client's address as the main thread worked it out (its IP blocks checked there).
    const env = { incoming: { socket: { remoteAddress: ip } } };
    const response = await handler(request, env);
    const bytes = new Uint8Array(await response.arrayBuffer());
    port.postMessage(
      {
        kind: "response",
        id,
        status: response.status,
        headers: [...response.headers],
        body: bytes,
        signatureFailure: isSignatureFailure(response),
      },
      [bytes.buffer],
    );
  } catch (error) {
    port.postMessage({
      kind: "response",
      id,
      status: 500,
      headers: [],
      body: new Uint8Array(new ArrayBuffer(0)),
      error: String(error),
    });
  }
});
// Fedify loaded before the first activity needs it.
await ctx.federation();
port.postMessage({ kind: "ready" });
