import { createServer, type IncomingMessage, type Server } from "node:http";
import { verifyRequest } from "@fedify/fedify";
import type { TestServer } from "../helpers/server.ts";

/** One POST a fake remote server received. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: any;
  raw: string;
}

export interface FakeActor {
  accountId: string;
  username: string;
  uri: string;
  inbox: string;
  sharedInbox: string | null;
}

/**
 * A remote server on loopback that records what is POSTed to its inboxes and answers 202.
 * `addActor` stores one of its actors as a remote account on a Gannet test server (as resolving
 * would), so tests can make local accounts follow, mention or answer it.
 */
export interface FakeRemote {
  port: number;
  domain: string;
  base: string;
  received: Received[];
  /** Received activities of a type (optionally only those at `path`). */
  activities(type: string, path?: string): Received[];
  addActor(on: TestServer, username: string, opts?: { sharedInbox?: boolean }): Promise<FakeActor>;
  /** Stores a remote post of `actor` on the Gannet server (as the inbox would). */
  addStatus(
    on: TestServer,
    actor: FakeActor,
    opts?: { visibility?: string; pollOptions?: string[]; inReplyToId?: string },
  ): Promise<string>;
  clear(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeRemote(): Promise<FakeRemote> {
  const received: Received[] = [];
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (req.method === "POST") {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      received.push({ path: req.url ?? "/", headers, body, raw });
      res.writeHead(202).end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const domain = `localhost:${port}`;
  const base = `http://${domain}`;
  let n = 0;
  return {
    port,
    domain,
    base,
    received,
    activities: (type, path) => received.filter((r) => r.body?.type === type && (!path || r.path === path)),
    async addActor(on, username, opts = {}) {
      const id = on.ctx.ids.next();
      const now = new Date().toISOString();
      const uri = `${base}/users/${username}`;
      const sharedInbox = opts.sharedInbox === false ? null : `${base}/inbox`;
      await on.ctx.repos.accounts.insert({
        id,
        username,
        domain,
        uri,
        url: `${base}/@${username}`,
        inbox_url: `${uri}/inbox`,
        shared_inbox_url: sharedInbox,
        followers_url: `${uri}/followers`,
        created_at: now,
        updated_at: now,
      });
      return { accountId: id, username, uri, inbox: `${uri}/inbox`, sharedInbox };
    },
    async addStatus(on, actor, opts = {}) {
      const id = on.ctx.ids.next();
      const now = new Date().toISOString();
      n += 1;
      const uri = `${actor.uri}/statuses/${n}`;
      const pollId = opts.pollOptions ? on.ctx.ids.next() : null;
      await on.ctx.repos.statuses.insert({
        id,
        uri,
        url: uri,
        account_id: actor.accountId,
        in_reply_to_id: opts.inReplyToId ?? null,
        conversation_id: id,
        text: "",
        content: `<p>remote post ${n}</p>`,
        visibility: opts.visibility ?? "public",
        local: false,
        poll_id: pollId,
        created_at: now,
        updated_at: now,
      });
      if (opts.pollOptions && pollId) {
        await on.ctx.repos.polls.insert({
          id: pollId,
          account_id: actor.accountId,
          status_id: id,
          expires_at: new Date(Date.now() + 86400_000).toISOString(),
          options: opts.pollOptions,
          multiple: false,
          hide_totals: false,
          created_at: now,
        });
      }
      return id;
    },
    clear: () => {
      received.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Whether a received POST carries a valid HTTP signature (RFC 9421 or the cavage draft) by a key
 * of `actorUri`, fetched from the Gannet server that sent it.
 */
export async function hasValidSignature(r: Received, fake: FakeRemote, actorUri: string): Promise<boolean> {
  const documentLoader = async (url: string) => {
    const res = await fetch(url, { headers: { accept: "application/activity+json" } });
    return { contextUrl: null, documentUrl: url, document: await res.json() };
  };
  for (const spec of ["rfc9421", "draft-cavage-http-signatures-12"] as const) {
    const request = new Request(`${fake.base}${r.path}`, { method: "POST", headers: r.headers, body: r.raw });
    const key = await verifyRequest(request, { documentLoader, spec });
    if (key) return key.ownerId?.href === actorUri || key.id?.href.startsWith(actorUri) === true;
  }
  return false;
}
