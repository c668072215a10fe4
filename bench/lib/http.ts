import { request } from "node:http";
import type { Child } from "./children.ts";
import { sleep } from "./children.ts";

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One GET without keep-alive (`node:http` is already loaded, so the first call costs no lazy
 * module loading that would count against the server's start-up time).
 */
export function get(url: string, headers: Record<string, string> = {}, timeoutMs = 5000): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

/**
 * Polls `url` every `intervalMs` until it answers 200; returns the milliseconds since `since`
 * (a `performance.now()` taken just before the spawn). Fails when the child exits or time runs out.
 */
export async function waitUntilAnswering(
  url: string,
  child: Child,
  since: number,
  { intervalMs = 5, requestTimeoutMs = 250, limitMs = 30_000 } = {},
): Promise<number> {
  let exited: number | string | undefined;
  void child.exited.then((code) => {
    exited = code;
  });
  let lastStatus = 0;
  for (let attempt = 0; attempt < limitMs / intervalMs; attempt++) {
    if (exited !== undefined) throw new Error(`server exited (${exited}) before answering:\n${child.output()}`);
    const answer = await get(url, {}, requestTimeoutMs).catch(() => undefined);
    if (answer?.status === 200) return performance.now() - since;
    if (answer) lastStatus = answer.status;
    if (performance.now() - since > limitMs) break;
    await sleep(intervalMs);
  }
  throw new Error(
    `server did not answer 200 at ${url} within ${limitMs} ms (last status ${lastStatus}):\n${child.output()}`,
  );
}

/** One request with a body (JSON), without keep-alive. */
export function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = 10_000,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(body);
    const req = request(
      url,
      {
        method,
        headers: { ...headers, "Content-Type": "application/json", "Content-Length": String(payload.length) },
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}
