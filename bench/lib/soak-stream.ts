// Process helpers of bench/soak.ts for children that hold many sockets and talk by lines.
import type { Child } from "./children.ts";

/** `args` (a command and its arguments) run with the file descriptor limit raised to the hard one. */
export function withFds(args: string[]): [string, string[]] {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return ["sh", ["-c", `ulimit -n "$(ulimit -Hn)" && exec ${quoted}`]];
}

/** Resolves with the rest of the next whole line of `child`'s stdout that starts with `prefix`. */
export function nextLine(child: Child, prefix: string, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => {
      child.process.stdout?.off("data", onData);
      reject(new Error(`no ${prefix} within ${limitMs} ms:\n${child.output()}`));
    }, limitMs);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      // Only whole lines: the last piece may still be arriving.
      const line = buffer
        .split("\n")
        .slice(0, -1)
        .find((l) => l.startsWith(prefix));
      if (line === undefined) return;
      clearTimeout(timer);
      child.process.stdout?.off("data", onData);
      resolve(line.slice(prefix.length).trim());
    };
    child.process.stdout?.on("data", onData);
  });
}
