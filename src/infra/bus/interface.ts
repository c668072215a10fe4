/** A message on the event bus: a channel (e.g. `timeline:123`) and a JSON-serialisable payload. */
export interface BusMessage {
  channel: string;
  event: string;
  payload: unknown;
}

export type BusListener = (msg: BusMessage) => void;

/**
 * Publish/subscribe between the parts of Gannet (and, with Redis or PostgreSQL, between processes).
 * Publishing to a channel no one listens to is cheap and dropped.
 */
export interface EventBus {
  publish(channel: string, event: string, payload: unknown): Promise<void>;
  /** Returns an unsubscribe function. */
  subscribe(channel: string, listener: BusListener): () => void;
  close(): Promise<void>;
}
