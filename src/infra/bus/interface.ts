/** A message on the event bus: a channel (e.g. `timeline:123`), an event name and a JSON payload. */
export interface BusMessage {
  channel: string;
  event: string;
  payload: unknown;
}

/**
 * Receives the messages of a channel. Listeners of one channel in one process get the same
 * `BusMessage` object, so they must not change it.
 */
export type BusListener = (msg: BusMessage) => void;

/** What `subscribe` returns: call it to stop listening (again is harmless). */
export interface Subscription {
  (): void;
  /**
   * Settles once the subscription is in force everywhere: every message published after that,
   * by any process, reaches the listener. Rejects when the bus could not subscribe (connection
   * lost); the subscription is then already ended.
   */
  readonly ready: Promise<void>;
}

/**
 * Publish/subscribe between the parts of Gannet and, with Redis or PostgreSQL, between processes
 * (see docs/scaling.md, "The event bus"). Messages of one channel arrive in the order one process published
 * them; payloads must survive `JSON.stringify` (what arrives in another process is the parsed
 * copy). Publishing to a channel nobody listens to, in any process, is dropped cheaply.
 */
export interface EventBus {
  publish(channel: string, event: string, payload: unknown): Promise<void>;
  subscribe(channel: string, listener: BusListener): Subscription;
  /**
   * Which of `channels` someone listens to, in any process: callers with a costly payload (one
   * rendering per recipient) skip the others. Never leaves out a channel whose subscription is
   * ready; may include one whose last listener left recently.
   */
  listened(channels: readonly string[]): Promise<Set<string>>;
  /**
   * Calls `listener(false)` when this process's cross-process subscriptions are lost (messages
   * may be missed from then on) and `listener(true)` once they are all in force again. Never
   * called for the in-process bus. Returns a function that stops the calls.
   */
  onConnection(listener: (up: boolean) => void): () => void;
  close(): Promise<void>;
}
