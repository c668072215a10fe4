import type { LogLevel } from "@logtape/logtape";

/**
 * The level of Fedify's loggers for the operator's LOG_LEVEL: `debug` reaches them (a dropped or
 * refused activity is explained only there), `error` quietens them too; `info` keeps them at
 * warning, since Fedify says one line per activity sent and received at info.
 */
export function fedifyLogLevel(level: "debug" | "info" | "warning" | "error"): LogLevel {
  if (level === "debug" || level === "error") return level;
  return "warning";
}
