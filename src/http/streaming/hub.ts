import { getLogger } from "@logtape/logtape";
import type { AppContext } from "../../context.ts";
import type { BusMessage } from "../../infra/bus/interface.ts";
import { streamedEncryptedMessage } from "../../services/crypto/messages.ts";
import type { FilterContext } from "../../services/filters/types.ts";
import { accessTokenChannel, isIdPayload, systemChannel } from "../../services/streaming/channels.ts";
import { type RenderedGroup, renderStatusFor } from "../../services/streaming/render-status.ts";
import { streamedConversation, streamedNotification } from "../../services/streaming/subscribers.ts";
import { FilterCache } from "./filter-cache.ts";

const logger = getLogger(["gannet", "streaming"]);

/**
 * One event of one stream, encoded for each transport when first asked and then shared by every
 * connection that gets the same: 10,000 WebSocket clients of `public:local` are sent one Buffer.
 */
export class Frame {
  readonly stream: readonly string[];
  readonly event: string;
  /** The text Mastodon sends as `payload` (Status JSON, a bare id), or none (`filters_changed`). */
  readonly payload: string | undefined;
  #ws: Buffer | undefined;
  #sse: Buffer | undefined;
  constructor(stream: readonly string[], event: string, payload: string | undefined) {
    this.stream = stream;
    this.event = event;
    this.payload = payload;
  }

  /** `{"stream":[...],"event":...,"payload":"<JSON as a string>"}` (no `payload` when there is none). */
  ws(): Buffer {
    this.#ws ??= Buffer.from(
      JSON.stringify(
        this.payload === undefined
          ? { stream: this.stream, event: this.event }
          : { stream: this.stream, event: this.event, payload: this.payload },
      ),
    );
    return this.#ws;
  }

  /** `event: <name>` and `data: <payload>` (Mastodon writes `undefined` for no payload). */
  sse(): Buffer {
    this.#sse ??= Buffer.from(`event: ${this.event}\ndata: ${this.payload ?? "undefined"}\n\n`);
    return this.#sse;
  }
}

/** A client connection (a WebSocket, or one SSE response) as the hub sees it. */
export interface StreamTarget {
  readonly accountId: string;
  /** The access token it streams with: revoking it closes the connection. */
  readonly tokenId: string;
  deliver(frame: Frame): void;
  /** Ends the connection (its token was revoked). */
  kill(): void;
}

/** One stream a connection subscribed to, on one or more bus channels. */
export interface Subscription {
  readonly target: StreamTarget;
  /** As the client sees it in WebSocket messages: `["public:local"]`, `["hashtag", "cats"]`. */
  readonly stream: readonly string[];
  readonly channels: readonly string[];
}

interface ChannelState {
  subs: Set<Subscription>;
  off: () => void;
  /** Settles once the bus delivers every later message of the channel here. */
  ready: Promise<void>;
  /** Events of a channel are handled one after the other, so a `delete` never overtakes its `update`. */
  queue: Promise<void>;
}

/**
 * The streaming side of one process: which connection listens to which bus channel, and how each
 * event is turned into what each connection is sent. A status is rendered once per distinct need
 * among the connected viewers (services/streaming/render-status.ts), everything else once per
 * channel. Channels are subscribed on the bus while someone here listens to them.
 */
export class StreamingHub {
  readonly #ctx: AppContext;
  readonly #channels = new Map<string, ChannelState>();
  /** Connections per account, with the system channel subscribed for them. */
  readonly #accounts = new Map<string, { count: number; off: () => void }>();
  /** Connections per access token, with the token's channel subscribed for them (`kill`). */
  readonly #tokens = new Map<string, { targets: Set<StreamTarget>; off: () => void }>();
  readonly filters: FilterCache;
  #closed = false;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.filters = new FilterCache(ctx);
  }

  /** A new connection of `target.accountId`. */
  attach(target: StreamTarget): void {
    const t = this.#tokens.get(target.tokenId);
    if (t) t.targets.add(target);
    else {
      const targets = new Set([target]);
      const off = this.#ctx.bus.subscribe(accessTokenChannel(target.tokenId), (msg) => {
        if (msg.event === "kill") for (const k of [...targets]) k.kill();
      });
      off.ready.catch(() => {});
      this.#tokens.set(target.tokenId, { targets, off });
    }
    const a = this.#accounts.get(target.accountId);
    if (a) {
      a.count++;
      return;
    }
    const off = this.#ctx.bus.subscribe(systemChannel(target.accountId), (msg) => {
      if (msg.event === "filters_changed") this.filters.changed(target.accountId);
    });
    off.ready.catch(() => {});
    this.#accounts.set(target.accountId, { count: 1, off });
  }

  /** The connection is gone: its subscriptions end. */
  detach(target: StreamTarget, subs: Iterable<Subscription>): void {
    for (const s of subs) this.unsubscribe(s);
    const t = this.#tokens.get(target.tokenId);
    if (t?.targets.delete(target) && t.targets.size === 0) {
      t.off();
      this.#tokens.delete(target.tokenId);
    }
    const a = this.#accounts.get(target.accountId);
    if (!a) return;
    a.count--;
    if (a.count > 0) return;
    a.off();
    this.#accounts.delete(target.accountId);
    this.filters.forget(target.accountId);
  }

  /**
   * Adds a subscription; `ready` settles once the bus delivers every later event of its channels
   * (with Redis or PostgreSQL, a moment after), and rejects when it could not subscribe.
   */
  subscribe(
    target: StreamTarget,
    stream: readonly string[],
    channels: readonly string[],
  ): { sub: Subscription; ready: Promise<void> } {
    const sub: Subscription = { target, stream, channels };
    const ready: Promise<void>[] = [];
    for (const channel of channels) {
      let state = this.#channels.get(channel);
      if (!state) {
        const created: ChannelState = {
          subs: new Set(),
          off: () => {},
          ready: Promise.resolve(),
          queue: Promise.resolve(),
        };
        const busSub = this.#ctx.bus.subscribe(channel, (msg) => this.#enqueue(created, msg));
        created.off = busSub;
        created.ready = busSub.ready;
        // A failed subscription is ended by the bus: forget it so the next subscriber tries again.
        busSub.ready.catch(() => {
          if (this.#channels.get(channel) === created) this.#channels.delete(channel);
        });
        this.#channels.set(channel, created);
        state = created;
      }
      state.subs.add(sub);
      ready.push(state.ready);
    }
    return { sub, ready: Promise.all(ready).then(() => undefined) };
  }

  unsubscribe(sub: Subscription): void {
    for (const channel of sub.channels) {
      const state = this.#channels.get(channel);
      if (!state) continue;
      state.subs.delete(sub);
      if (state.subs.size === 0) {
        state.off();
        this.#channels.delete(channel);
      }
    }
  }

  /** How many connections listen to `channel` here (tests, the bus adapters). */
  listeners(channel: string): number {
    return this.#channels.get(channel)?.subs.size ?? 0;
  }

  /** Settles once the bus delivers `channel`'s later events here (at once when nobody listens). */
  async ready(channel: string): Promise<void> {
    await this.#channels.get(channel)?.ready;
  }

  close(): void {
    this.#closed = true;
    for (const s of this.#channels.values()) s.off();
    for (const a of this.#accounts.values()) a.off();
    for (const t of this.#tokens.values()) t.off();
    this.#channels.clear();
    this.#accounts.clear();
    this.#tokens.clear();
  }

  #enqueue(state: ChannelState, msg: BusMessage): void {
    state.queue = state.queue
      .then(() => (this.#closed ? undefined : this.#handle(state, msg)))
      .catch((error: unknown) => {
        logger.error("Streaming event {event} on {channel} failed: {error}", {
          event: msg.event,
          channel: msg.channel,
          error,
        });
      });
  }

  async #handle(state: ChannelState, msg: BusMessage): Promise<void> {
    if (state.subs.size === 0) return;
    const { event, payload, channel } = msg;
    switch (event) {
      case "update":
      case "status.update": {
        if (!isIdPayload(payload)) return;
        return this.#status(state, event, payload.id, filterScope(channel));
      }
      case "delete":
        if (typeof payload !== "string") return;
        return this.#everyone(state, event, payload);
      case "notification": {
        if (!isIdPayload(payload)) return;
        const accountId = ownerOf(state);
        const json = accountId === undefined ? undefined : await streamedNotification(this.#ctx, accountId, payload.id);
        if (json) this.#everyone(state, event, JSON.stringify(json));
        return;
      }
      case "conversation": {
        if (!isIdPayload(payload)) return;
        const accountId = ownerOf(state);
        const json = accountId === undefined ? undefined : await streamedConversation(this.#ctx, accountId, payload.id);
        if (json) this.#everyone(state, event, JSON.stringify(json));
        return;
      }
      case "encrypted_message": {
        // The channel is one token's (its device's): every subscriber streams with that token.
        if (!isIdPayload(payload)) return;
        const tokenId = tokenOf(state);
        const json = tokenId === undefined ? undefined : await streamedEncryptedMessage(this.#ctx, tokenId, payload.id);
        if (json) this.#everyone(state, event, JSON.stringify(json));
        return;
      }
      default:
        // filters_changed, notifications_merged (no payload) and anything published ready to
        // send (announcements): the same for every subscriber.
        this.#everyone(state, event, payload === null || payload === undefined ? undefined : textOf(payload));
    }
  }

  /** Sends one event to every subscriber of the channel, one frame per stream name. */
  #everyone(state: ChannelState, event: string, payload: string | undefined): void {
    const frames = new Map<string, Frame>();
    for (const sub of state.subs) sub.target.deliver(frameFor(frames, sub.stream, event, payload));
  }

  async #status(state: ChannelState, event: string, statusId: string, scope: FilterContext): Promise<void> {
    const viewers = [...new Set([...state.subs].map((s) => s.target.accountId))];
    const groups = await renderStatusFor(this.#ctx, statusId, viewers, scope, (v, s) => this.filters.forViewers(v, s));
    if (groups.length === 0) return;
    const byViewer = new Map<string, RenderedGroup>();
    for (const g of groups) for (const v of g.viewers) byViewer.set(v, g);
    const frames = new Map<RenderedGroup, Map<string, Frame>>();
    for (const sub of state.subs) {
      const g = byViewer.get(sub.target.accountId);
      if (!g) continue;
      let mine = frames.get(g);
      if (!mine) frames.set(g, (mine = new Map()));
      sub.target.deliver(frameFor(mine, sub.stream, event, g.payload));
    }
  }
}

function frameFor(frames: Map<string, Frame>, stream: readonly string[], event: string, payload: string | undefined) {
  const key = stream.join("\n");
  let f = frames.get(key);
  if (!f) frames.set(key, (f = new Frame(stream, event, payload)));
  return f;
}

/** The account of an account's own channel (all its subscribers are that account's connections). */
function ownerOf(state: ChannelState): string | undefined {
  for (const s of state.subs) return s.target.accountId;
  return undefined;
}

/** The access token of a token's own channel. */
function tokenOf(state: ChannelState): string | undefined {
  for (const s of state.subs) return s.target.tokenId;
  return undefined;
}

/** Public and hashtag streams show `filtered` for the `public` context, the others for `home`. */
function filterScope(channel: string): FilterContext {
  return channel.startsWith("timeline:public") || channel.startsWith("timeline:hashtag:") ? "public" : "home";
}

const textOf = (payload: unknown): string => (typeof payload === "string" ? payload : JSON.stringify(payload));

const hubs = new WeakMap<AppContext, StreamingHub>();

/** This process's hub for `ctx` (one per context, so test servers in one process keep apart). */
export function hubFor(ctx: AppContext): StreamingHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new StreamingHub(ctx);
    hubs.set(ctx, hub);
  }
  return hub;
}
