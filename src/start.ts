import { AsyncLocalStorage } from "node:async_hooks";
import { flushCompileCache } from "node:module";
import { configure, getConsoleSink, getLogger } from "@logtape/logtape";
import { ConfigError, loadConfig, readEnvironment } from "./config/index.ts";
import { createContext } from "./context.ts";
import { SchemaTooNewError } from "./db/migrate.ts";
import { serverLoggers } from "./lib/logging.ts";
import { startHttpServer } from "./server.ts";

/** Starts the server process: configuration, logging, the database, HTTP, then the background roles. */
export async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(readEnvironment());
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`gannet: configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  await configure({
    sinks: { console: getConsoleSink() },
    // Fedify logs with implicit contexts: without a store, LogTape warns on the console at every
    // inbox request (two lines each, written synchronously: measured as 4% of the inbox's CPU).
    contextLocalStorage: new AsyncLocalStorage(),
    ...serverLoggers(config.logLevel, "console"),
  });
  const logger = getLogger(["gannet"]);
  // Signals are handled from the start, so a stop during start-up still exits cleanly.
  let stopping = false;
  let cleanup: (() => Promise<void>) | undefined;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("Received {signal}, shutting down", { signal });
    await cleanup?.();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  let ctx: Awaited<ReturnType<typeof createContext>>;
  try {
    ctx = await createContext(config);
  } catch (e) {
    if (e instanceof SchemaTooNewError) {
      process.stderr.write(`gannet: ${e.message}\n`);
      process.exit(3);
    }
    throw e;
  }
  cleanup = () => ctx.close();
  const roles = config.roles;
  // `web` serves everything over HTTP, streaming included; `streaming` alone serves only that.
  const server =
    roles.web || roles.streaming
      ? await startHttpServer(ctx, config.port, config.bind, { streamingOnly: !roles.web })
      : undefined;
  cleanup = async () => {
    await server?.close();
    await ctx.close();
  };
  // The job handlers and periodic tasks (and all they import) load once the server answers.
  const background =
    roles.worker || roles.scheduler
      ? await (await import("./background.ts")).startBackground(ctx, {
          worker: roles.worker,
          scheduler: roles.scheduler,
        })
      : undefined;
  cleanup = async () => {
    await server?.close();
    // Running jobs finish while the database is still open.
    await background?.stop();
    await ctx.close();
  };
  const where = ctx.dialect === "sqlite" ? `SQLite in ${config.dataDir}` : "PostgreSQL";
  const running = (Object.keys(roles) as (keyof typeof roles)[]).filter((r) => roles[r]);
  const what = running.length === 4 ? "all roles" : `roles ${running.join(", ")}`;
  // Composed beforehand so the log line reads plainly (LogTape quotes interpolated strings).
  if (server) {
    logger.info(
      `Gannet is listening on ${server.url} (public address ${config.baseUrl}, ${what}, event bus ${ctx.busKind}, database ${where})`,
    );
  } else {
    logger.info(`Gannet is running (${what}, event bus ${ctx.busKind}, database ${where})`);
  }
  // What was compiled so far is written to the compile cache now, not only at exit (main.ts).
  flushCompileCache();
}
