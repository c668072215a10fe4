import { randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";

const logger = getLogger(["gannet", "db"]);

/**
 * The groups of tables in-process caches are kept under (db/database.ts): `cached` (tokens,
 * users, roles, ... : `changeStamp`), `render` (`renderChangeStamp`), `domain`
 * (`domainPolicyStamp`), `feed` (`feedChangeStamp`) and `notification` (`notificationChangeStamp`).
 */
export type ChangeGroup = "cached" | "render" | "domain" | "feed" | "notification";
export const CHANGE_GROUPS: readonly ChangeGroup[] = ["cached", "render", "domain", "feed", "notification"];

/** What a process sends the others after its writes committed (docs/scaling.md, "Caches on PostgreSQL"). */
export interface ChangeNotice {
  /** The sending process (`ChangeNotices.origin`): a process ignores its own. */
  o: string;
  /** The groups written. */
  g: ChangeGroup[];
}

/** Notices to one group are sent at most once per this many ms (the rest wait and go together). */
export const COALESCE_MS = 5;

/**
 * Other processes' writes, on PostgreSQL (SQLite reads `PRAGMA data_version` instead). Each
 * process publishes, after commit, which groups it wrote (`committed`, at most one notice per
 * `COALESCE_MS`); each listening process counts the groups named by the others (`received`). A
 * stamp is this process's tracker plus that count, and is undefined (callers do not cache) while
 * the process does not listen: before its subscription is ready and while the bus is
 * disconnected (notices may be missed). Losing and regaining the bus, and every `maxAgeMs`,
 * count as a change to every group, so no cache outlives a missed notice for long.
 */
export class ChangeNotices {
  readonly origin = randomUUID();
  readonly #counts: Record<ChangeGroup, number> = { cached: 0, render: 0, domain: 0, feed: 0, notification: 0 };
  /** Grows on every bus loss or recovery and every `maxAgeMs`: a change to every group. */
  #epoch = 0;
  #listening = false;
  #send: ((notice: ChangeNotice) => Promise<void>) | undefined;
  readonly #pending = new Set<ChangeGroup>();
  #timer: NodeJS.Timeout | undefined;
  #lastSent = 0;
  #inFlight = new Set<Promise<void>>();
  #ageTimer: NodeJS.Timeout | undefined;
  readonly #maxAgeMs: number;

  /** `maxAgeMs` 0: never listening, so nothing is cached. */
  constructor(maxAgeMs: number) {
    this.#maxAgeMs = maxAgeMs;
  }

  /** The count of other processes' changes to `group`, or undefined when they cannot be known. */
  external(group: ChangeGroup): number | undefined {
    return this.#listening ? this.#epoch + this.#counts[group] : undefined;
  }

  /** How notices are sent (the event bus); writes committed before are not announced. */
  sendWith(send: (notice: ChangeNotice) => Promise<void>): void {
    this.#send = send;
  }

  /** Whether notices from every other process reach this one from now on (false: they may not). */
  listening(yes: boolean): void {
    this.#epoch++;
    if (this.#maxAgeMs <= 0) return;
    this.#listening = yes;
    if (yes && this.#ageTimer === undefined) {
      this.#ageTimer = setInterval(() => this.#epoch++, this.#maxAgeMs);
      this.#ageTimer.unref();
    }
  }

  /** A notice from the bus. */
  received(notice: ChangeNotice): void {
    if (notice.o === this.origin || !Array.isArray(notice.g)) return;
    for (const g of notice.g) if (g in this.#counts) this.#counts[g]++;
  }

  /** This process committed writes to these groups: the others are told soon. */
  committed(groups: Iterable<ChangeGroup>): void {
    if (this.#send === undefined) return;
    for (const g of groups) this.#pending.add(g);
    if (this.#timer !== undefined || this.#pending.size === 0) return;
    const wait = Math.max(0, this.#lastSent + COALESCE_MS - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    const send = this.#send;
    if (send === undefined || this.#pending.size === 0) return;
    const notice: ChangeNotice = { o: this.origin, g: [...this.#pending] };
    this.#pending.clear();
    this.#lastSent = performance.now();
    const p = send(notice)
      .catch((e) => logger.warn("Could not send a change notice: {error}", { error: e }))
      .finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
  }

  /** Sends what is pending and waits for what is being sent (before the bus closes). */
  async close(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flush();
    await Promise.all(this.#inFlight);
    if (this.#ageTimer !== undefined) clearInterval(this.#ageTimer);
    this.#ageTimer = undefined;
    this.#listening = false;
    this.#send = undefined;
  }
}
