import { request as httpRequest, type IncomingMessage } from "node:http";
import WebSocket from "ws";

/** How long a test waits for an event that should come: long, so only a missing event fails it. */
export const EVENT_WAIT_MS = 15_000;

/** What a client received, in order, and a way to wait for the next one that matches. */
class Inbox<T> {
  readonly received: T[] = [];
  #waiters: { match: (m: T) => boolean; resolve: (m: T) => void; reject: (e: Error) => void; from: number }[] = [];
  #closed: Error | undefined;

  push(m: T): void {
    this.received.push(m);
    const i = this.received.length - 1;
    this.#waiters = this.#waiters.filter((w) => {
      if (i >= w.from && w.match(m)) {
        w.resolve(m);
        return false;
      }
      return true;
    });
  }

  /** The connection ended: whoever still waits is told at once. */
  close(e: Error): void {
    this.#closed = e;
    for (const w of this.#waiters) w.reject(e);
    this.#waiters = [];
  }

  /** Settles when the connection ends; rejects if it is still open after the wait. */
  ended(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`still open after ${EVENT_WAIT_MS} ms`)), EVENT_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#waiters.push({ match: () => false, resolve: done, reject: done, from: Number.POSITIVE_INFINITY });
    });
  }

  /** The first message (from index `from`, default: any so far) matching, waiting for it if need be. */
  next(match: (m: T) => boolean, what: string, from = 0): Promise<T> {
    const found = this.received.slice(from).find(match);
    if (found !== undefined) return Promise.resolve(found);
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${EVENT_WAIT_MS} ms`)), EVENT_WAIT_MS);
      this.#waiters.push({
        match,
        from,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }
}

export interface WsMessage {
  stream?: string[];
  event?: string;
  payload?: string;
  error?: string;
  status?: number;
}

export interface WsClient {
  ws: WebSocket;
  inbox: Inbox<WsMessage>;
  /** The protocol the server chose in the handshake. */
  protocol: string;
  send(msg: unknown): void;
  /** The next event (of `stream`'s first name when given) whose payload matches. */
  event(
    event: string,
    match?: (payload: string | undefined, m: WsMessage) => boolean,
    what?: string,
  ): Promise<WsMessage>;
  close(): Promise<void>;
}

/** A WebSocket to `/api/v1/streaming` (`query` as given), authenticated as `auth` says. */
export function openSocket(
  baseUrl: string,
  opts: { token?: string; via?: "header" | "query" | "protocol"; query?: Record<string, string> } = {},
): Promise<WsClient> {
  const url = new URL("/api/v1/streaming", baseUrl.replace(/^http/, "ws"));
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const via = opts.via ?? "header";
  const headers: Record<string, string> = {};
  if (opts.token && via === "header") headers.authorization = `Bearer ${opts.token}`;
  if (opts.token && via === "query") url.searchParams.set("access_token", opts.token);
  const protocols = opts.token && via === "protocol" ? [opts.token] : undefined;
  const ws = new WebSocket(url, protocols, { headers });
  const inbox = new Inbox<WsMessage>();
  ws.on("message", (data) => inbox.push(JSON.parse(data.toString()) as WsMessage));
  ws.on("close", () => inbox.close(new Error("socket closed")));
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_req, res: IncomingMessage) => {
      reject(
        Object.assign(new Error(`refused: ${res.statusCode}`), { statusCode: res.statusCode, headers: res.headers }),
      );
    });
    ws.once("error", reject);
    ws.once("open", () =>
      resolve({
        ws,
        inbox,
        protocol: ws.protocol,
        send: (msg) => ws.send(JSON.stringify(msg)),
        event: (event, match = () => true, what = event) =>
          inbox.next((m) => m.event === event && match(m.payload, m), what),
        close: () =>
          new Promise<void>((res) => {
            if (ws.readyState === WebSocket.CLOSED) return res();
            ws.once("close", () => res());
            ws.close();
          }),
      }),
    );
  });
}

export interface SseEvent {
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: IncomingMessage["headers"];
  /** Everything read so far, comments included. */
  raw: () => string;
  inbox: Inbox<SseEvent>;
  /** The body of an answer that is not a stream (an error). */
  body: string;
  event(event: string, match?: (data: string) => boolean, what?: string): Promise<SseEvent>;
  close(): void;
}

/** A plain HTTP reader of server-sent events at `path` (with `Authorization` when `token` is given). */
export function openSse(baseUrl: string, path: string, token?: string): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = httpRequest(url, { headers }, (res) => {
      res.setEncoding("utf8");
      const inbox = new Inbox<SseEvent>();
      let raw = "";
      let pending = "";
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        raw: () => raw,
        inbox,
        body: "",
        event: (event, match = () => true, what = event) => inbox.next((e) => e.event === event && match(e.data), what),
        close: () => {
          req.destroy();
          res.destroy();
        },
      };
      if (!(res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
        res.on("data", (chunk: string) => {
          client.body += chunk;
        });
        res.on("end", () => resolve(client));
        return;
      }
      res.on("data", (chunk: string) => {
        raw += chunk;
        pending += chunk;
        let at = pending.indexOf("\n\n");
        while (at >= 0) {
          const block = pending.slice(0, at);
          pending = pending.slice(at + 2);
          let event = "";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data = line.slice(6);
          }
          if (event) inbox.push({ event, data });
          at = pending.indexOf("\n\n");
        }
      });
      res.on("close", () => inbox.close(new Error("stream closed")));
      resolve(client);
    });
    req.on("error", reject);
    req.end();
  });
}
