import { createServer, type IncomingMessage, type Server } from "node:http";
import { type HttpMessageSignaturesSpec, signRequest } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { testRsaCryptoKeyPair } from "./test-keys.ts";

/** The JSON-LD context Mastodon puts on what it sends. */
export const MASTODON_CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  "https://w3id.org/security/v1",
  {
    manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
    toot: "http://joinmastodon.org/ns#",
    featured: { "@id": "toot:featured", "@type": "@id" },
    featuredTags: { "@id": "toot:featuredTags", "@type": "@id" },
    alsoKnownAs: { "@id": "as:alsoKnownAs", "@type": "@id" },
    movedTo: { "@id": "as:movedTo", "@type": "@id" },
    schema: "http://schema.org#",
    PropertyValue: "schema:PropertyValue",
    value: "schema:value",
    discoverable: "toot:discoverable",
    indexable: "toot:indexable",
    sensitive: "as:sensitive",
    Hashtag: "as:Hashtag",
    Emoji: "toot:Emoji",
    votersCount: "toot:votersCount",
  },
];

export const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

export interface FakeActor {
  name: string;
  id: string;
  keyId: string;
  inbox: string;
  followers: string;
  featured: string;
  featuredTags: string;
  keys: CryptoKeyPair;
  publicKeyPem: string;
  /** Extra properties of the actor document (alsoKnownAs, summary, manuallyApprovesFollowers, ...). */
  extra: Record<string, unknown>;
}

export interface SendOptions {
  /** Signed as this actor (default: the activity's actor, found by its id). */
  signer?: FakeActor;
  /** `draft-cavage-http-signatures-12` (Mastodon's, the default) or `rfc9421`. */
  spec?: HttpMessageSignaturesSpec;
  /** Sent without any signature. */
  unsigned?: boolean;
  /** The signing time (a replay of an old request has an old one). */
  time?: Date;
  /** Changes the body after signing (a forgery). */
  tamper?: (body: string) => string;
  /** The raw body to send instead of the activity's JSON (malformed input). */
  rawBody?: string;
}

export interface SignedRequest {
  url: string;
  headers: Headers;
  body: string;
}

/** Sends a request made by `FakeRemote.sign`. */
export function postSigned(r: SignedRequest): Promise<Response> {
  return fetch(r.url, { method: "POST", headers: r.headers, body: r.body });
}

export interface ReceivedActivity {
  path: string;
  body: any;
  signed: boolean;
}

async function pem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("spki", key)).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${der.replace(/(.{64})/g, "$1\n").replace(/\n$/, "")}\n-----END PUBLIC KEY-----\n`;
}

/**
 * A fake remote server on loopback (`http://127.0.0.1:PORT`, domain `127.0.0.1:PORT`), shaped
 * as Mastodon: actors with their own RSA keys at `/users/NAME` (with WebFinger), objects it
 * serves (`serve`), inboxes that record what they receive, and `send`, which POSTs activities
 * signed as Mastodon signs them (HTTP Signatures, cavage draft; or RFC 9421).
 */
export class FakeRemote {
  readonly origin: string;
  readonly domain: string;
  readonly received: ReceivedActivity[] = [];
  /** Every request this server got (method and path with query), in order. */
  readonly requests: { method: string; path: string }[] = [];
  readonly #server: Server;
  readonly #actors = new Map<string, FakeActor>();
  readonly #objects = new Map<string, unknown>();

  private constructor(server: Server, port: number) {
    this.#server = server;
    this.origin = `http://127.0.0.1:${port}`;
    this.domain = `127.0.0.1:${port}`;
  }

  static async start(): Promise<FakeRemote> {
    let remote: FakeRemote | undefined;
    const server = createServer((req, res) => {
      remote?.handle(req).then(
        ({ status, type, body }) => {
          res.writeHead(status, { "content-type": type });
          res.end(body);
        },
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    remote = new FakeRemote(server, (server.address() as { port: number }).port);
    return remote;
  }

  async addActor(name: string, extra: Record<string, unknown> = {}): Promise<FakeActor> {
    const keys = await testRsaCryptoKeyPair();
    const id = `${this.origin}/users/${name}`;
    const actor: FakeActor = {
      name,
      id,
      keyId: `${id}#main-key`,
      inbox: `${id}/inbox`,
      followers: `${id}/followers`,
      featured: `${id}/collections/featured`,
      featuredTags: `${id}/collections/tags`,
      keys,
      publicKeyPem: await pem(keys.publicKey),
      extra,
    };
    this.#actors.set(name, actor);
    return actor;
  }

  /** Gives the actor a new key pair under the same key id (its document serves the new key). */
  async rotateKey(actor: FakeActor): Promise<void> {
    actor.keys = await testRsaCryptoKeyPair();
    actor.publicKeyPem = await pem(actor.keys.publicKey);
  }

  actorDocument(actor: FakeActor): Record<string, unknown> {
    return {
      "@context": MASTODON_CONTEXT,
      id: actor.id,
      type: "Person",
      preferredUsername: actor.name,
      name: `${actor.name} (remote)`,
      summary: `<p>I am ${actor.name}</p>`,
      url: `${this.origin}/@${actor.name}`,
      inbox: actor.inbox,
      outbox: `${actor.id}/outbox`,
      followers: actor.followers,
      following: `${actor.id}/following`,
      featured: actor.featured,
      featuredTags: actor.featuredTags,
      endpoints: { sharedInbox: `${this.origin}/inbox` },
      manuallyApprovesFollowers: false,
      discoverable: true,
      indexable: true,
      published: "2024-01-01T00:00:00Z",
      publicKey: { id: actor.keyId, owner: actor.id, publicKeyPem: actor.publicKeyPem },
      ...actor.extra,
    };
  }

  /** Serves `object` (JSON-LD) at its `id`, which must be on this server. */
  serve(object: { id: string } & Record<string, unknown>): void {
    this.#objects.set(new URL(object.id).pathname, { "@context": MASTODON_CONTEXT, ...object });
  }

  /** A Mastodon-shaped Note by `actor` (public unless `to`/`cc` say otherwise). */
  note(actor: FakeActor, id: string, fields: Record<string, unknown> = {}): Record<string, unknown> & { id: string } {
    return {
      id: `${actor.id}/statuses/${id}`,
      type: "Note",
      attributedTo: actor.id,
      content: "<p>Hello</p>",
      published: new Date().toISOString(),
      url: `${this.origin}/@${actor.name}/${id}`,
      to: [PUBLIC],
      cc: [actor.followers],
      sensitive: false,
      tag: [],
      attachment: [],
      ...fields,
    };
  }

  /** A Create of `object` as Mastodon wraps it (same addressing as the object). */
  create(actor: FakeActor, object: Record<string, unknown> & { id: string }): Record<string, unknown> {
    return {
      "@context": MASTODON_CONTEXT,
      id: `${object.id}/activity`,
      type: "Create",
      actor: actor.id,
      published: object.published ?? new Date().toISOString(),
      to: object.to,
      cc: object.cc,
      object,
    };
  }

  /** Any other activity: `{ "@context", id, type, actor, ...fields }`. */
  activity(actor: FakeActor, type: string, fields: Record<string, unknown>): Record<string, unknown> {
    return {
      "@context": MASTODON_CONTEXT,
      id: `${actor.id}#${type.toLowerCase()}s/${crypto.randomUUID()}`,
      type,
      actor: actor.id,
      ...fields,
    };
  }

  /** POSTs an activity to `inbox`, signed as Mastodon signs (unless told otherwise). */
  async send(inbox: string, activity: Record<string, unknown>, opts: SendOptions = {}): Promise<Response> {
    return postSigned(await this.sign(inbox, activity, opts));
  }

  /** The request `send` would make, signed now (benchmarks sign ahead of the measured run). */
  async sign(inbox: string, activity: Record<string, unknown>, opts: SendOptions = {}): Promise<SignedRequest> {
    const signer = opts.signer ?? [...this.#actors.values()].find((a) => a.id === activity.actor);
    const body = opts.rawBody ?? JSON.stringify(activity);
    let request = new Request(inbox, {
      method: "POST",
      headers: { "content-type": "application/activity+json", accept: "application/activity+json" },
      body,
    });
    if (!opts.unsigned) {
      if (!signer) throw new Error("no signer for this activity");
      const time = opts.time ?? new Date();
      request = await signRequest(request, signer.keys.privateKey, new URL(signer.keyId), {
        spec: opts.spec ?? "draft-cavage-http-signatures-12",
        currentTime: Temporal.Instant.fromEpochMilliseconds(time.getTime()),
      });
    }
    return { url: request.url, headers: request.headers, body: opts.tamper ? opts.tamper(body) : body };
  }

  /** The activities received at any inbox of this server of the given type. */
  receivedOfType(type: string): ReceivedActivity[] {
    return this.received.filter((r) => r.body?.type === type);
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; type: string; body: string }> {
    const url = new URL(req.url ?? "/", this.origin);
    this.requests.push({ method: req.method ?? "", path: `${url.pathname}${url.search}` });
    const json = (v: unknown) => ({ status: 200, type: "application/activity+json", body: JSON.stringify(v) });
    if (req.method === "POST") {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return { status: 400, type: "text/plain", body: "bad json" };
      }
      this.received.push({
        path: url.pathname,
        body,
        signed: Boolean(req.headers.signature ?? req.headers["signature-input"]),
      });
      return { status: 202, type: "text/plain", body: "" };
    }
    if (url.pathname === "/.well-known/webfinger") {
      const m = /^acct:([^@]+)@(.+)$/.exec(url.searchParams.get("resource") ?? "");
      const actor = m && m[2] === this.domain ? this.#actors.get(m[1]) : undefined;
      if (!actor) return { status: 404, type: "text/plain", body: "" };
      return {
        status: 200,
        type: "application/jrd+json",
        body: JSON.stringify({
          subject: `acct:${actor.name}@${this.domain}`,
          links: [{ rel: "self", type: "application/activity+json", href: actor.id }],
        }),
      };
    }
    const actor = /^\/users\/([^/]+)$/.exec(url.pathname);
    if (actor) {
      const a = this.#actors.get(actor[1]);
      return a ? json(this.actorDocument(a)) : { status: 410, type: "text/plain", body: "" };
    }
    const object = this.#objects.get(url.pathname);
    if (object) return json(object);
    return { status: 404, type: "text/plain", body: "" };
  }
}
