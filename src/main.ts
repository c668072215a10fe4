import { configure, getConsoleSink, getLogger } from "@logtape/logtape";
import { startBackground } from "./background.ts";
import { ConfigError, loadConfig, readEnvironment } from "./config/index.ts";
import { createContext } from "./context.ts";
import { startHttpServer } from "./server.ts";

async function main(): Promise<void> {
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
    loggers: [
      { category: ["gannet"], lowestLevel: config.logLevel, sinks: ["console"] },
      { category: ["fedify"], lowestLevel: "warning", sinks: ["console"] },
      { category: ["logtape", "meta"], lowestLevel: "warning", sinks: ["console"] },
    ],
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

  const ctx = await createContext(config);
  cleanup = () => ctx.close();
  const server = await startHttpServer(ctx, config.port, config.bind);
  cleanup = async () => {
    await server.close();
    await ctx.close();
  };
  // Role "all": this process also runs the job workers and the scheduler.
  const background = await startBackground(ctx);
  cleanup = async () => {
    await server.close();
    // Running jobs finish while the database is still open.
    await background.stop();
    await ctx.close();
  };
  const where = ctx.dialect === "sqlite" ? `SQLite in ${config.dataDir}` : "PostgreSQL";
  // Composed beforehand so the log line reads plainly (LogTape quotes interpolated strings).
  logger.info(`Gannet is listening on ${server.url} (public address ${config.baseUrl}, database ${where})`);
}

await main();
