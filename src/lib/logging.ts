import type { LoggerConfig, LogLevel, LogRecord } from "@logtape/logtape";

export type GannetLogLevel = "debug" | "info" | "warning" | "error";

/**
 * The level of Fedify's loggers for the operator's LOG_LEVEL: `debug` reaches them (a dropped or
 * refused activity is explained only there), `error` quietens them too; `info` keeps them at
 * warning, since Fedify says one line per activity sent and received at info.
 */
export function fedifyLogLevel(level: GannetLogLevel): LogLevel {
  if (level === "debug" || level === "error") return level;
  return "warning";
}

/**
 * Fedify's own report of a failed delivery: an error with the response body or the stack, at
 * every attempt. The job queue already says one line per retry (and the stack at debug), so
 * these show only at LOG_LEVEL=debug; a peer that is down would otherwise fill the log for days.
 */
export function isDeliveryFailureRecord(record: LogRecord): boolean {
  const first = record.message[0];
  return typeof first === "string" && first.startsWith("Failed to send activity");
}

/**
 * A Fedify record that carries an end-to-end encrypted message (its debug lines hold whole
 * activities): dropped, so that no ciphertext ever reaches the log.
 */
export function carriesEncryptedMessage(record: LogRecord): boolean {
  const activity = record.properties.activity;
  if (activity === null || typeof activity !== "object") return false;
  const object = (activity as { object?: unknown }).object;
  return object !== null && typeof object === "object" && (object as { type?: unknown }).type === "EncryptedMessage";
}

/**
 * The loggers of a server process for LOG_LEVEL `level`, all writing to `sink`: Gannet's own,
 * Fedify's (quieter, without its per-attempt delivery failures below debug, and never an
 * encrypted message), LogTape's.
 */
export function serverLoggers<S extends string>(
  level: GannetLogLevel,
  sink: S,
): {
  filters: Record<"deliveryFailures" | "noCiphertext", (r: LogRecord) => boolean>;
  loggers: LoggerConfig<S, "deliveryFailures" | "noCiphertext">[];
} {
  const fedify = fedifyLogLevel(level);
  return {
    filters: {
      deliveryFailures: (r) => level === "debug" || !isDeliveryFailureRecord(r),
      noCiphertext: (r) => !carriesEncryptedMessage(r),
    },
    loggers: [
      { category: ["gannet"], lowestLevel: level, sinks: [sink] },
      { category: ["fedify"], lowestLevel: fedify, sinks: [sink], filters: ["noCiphertext"] },
      // A logger with filters of its own does not apply its parent's: both are named here.
      {
        category: ["fedify", "federation", "outbox"],
        lowestLevel: fedify,
        filters: ["deliveryFailures", "noCiphertext"],
      },
      { category: ["logtape", "meta"], lowestLevel: "warning", sinks: [sink] },
    ],
  };
}
