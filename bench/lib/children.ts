import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Node 24 from the project's devDependency, whatever `node` is on PATH. */
export const NODE = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * What `npm start` runs (package.json's `start` script, `node ... && export A=1 && node ...`): the
 * build steps' arguments, the variables it exports (malloc's settings), then the server's
 * arguments, so benchmarks start the server as users do (with `env` in its environment).
 */
export function startCommand(): { buildCommands: string[][]; serverArgs: string[]; env: Record<string, string> } {
  const script: string = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).scripts.start;
  const commands = script.split("&&").map((part) => part.trim().split(/\s+/));
  const env: Record<string, string> = {};
  for (const cmd of commands.filter((c) => c[0] === "export")) {
    for (const a of cmd.slice(1)) env[a.slice(0, a.indexOf("="))] = a.slice(a.indexOf("=") + 1);
  }
  const runs = commands.filter((c) => c[0] !== "export");
  return {
    buildCommands: runs.slice(0, -1).map((cmd) => cmd.slice(1)),
    serverArgs: (runs.at(-1) ?? []).slice(1),
    env,
  };
}

const live = new Set<ChildProcess>();
const OUTPUT_TAIL = 16 * 1024;

/** A child process whose output is kept (the last 16 KB) for error messages. */
export interface Child {
  process: ChildProcess;
  pid: number;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  output(): string;
}

/** Spawns a child that is killed when the harness ends, however it ends. */
export function startChild(command: string, args: string[], opts: SpawnOptions = {}): Child {
  const proc = spawn(command, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], ...opts });
  if (proc.pid === undefined) throw new Error(`could not start ${command} ${args.join(" ")}`);
  live.add(proc);
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL);
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  const exited = new Promise<number | string>((resolve) => {
    proc.once("exit", (code, signal) => {
      live.delete(proc);
      resolve(code ?? signal ?? "unknown");
    });
    proc.once("error", (e) => {
      live.delete(proc);
      keep(Buffer.from(String(e)));
      resolve("spawn error");
    });
  });
  return { process: proc, pid: proc.pid, exited, output: () => tail };
}

/** Rejects after `ms` with `message`; the timer never keeps the process alive. */
export function timeout(ms: number, message: string): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms).unref());
}

/** Runs a child to completion; rejects when it fails or takes longer than `ms`. Returns its output. */
export async function runChild(command: string, args: string[], opts: SpawnOptions, ms: number): Promise<string> {
  const child = startChild(command, args, opts);
  const code = await Promise.race([child.exited, timeout(ms, `${args.join(" ")} took over ${ms} ms`)]).catch(
    async (e) => {
      await stopChild(child);
      throw e;
    },
  );
  if (code !== 0) throw new Error(`${args.join(" ")} exited with ${code}:\n${child.output()}`);
  return child.output();
}

/** SIGTERM, then SIGKILL if the child has not ended within `graceMs`. */
export async function stopChild(child: Child, graceMs = 5000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill("SIGTERM");
  const ended = await Promise.race([child.exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!ended) {
    child.process.kill("SIGKILL");
    await Promise.race([child.exited, sleep(graceMs)]);
  }
}

/** Kills every child still running (used on errors, signals and exit). */
export function killAllChildren(): void {
  for (const proc of live) proc.kill("SIGKILL");
  live.clear();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === "object" ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}
