import { getLogger } from "@logtape/logtape";
import type { ChangeNotice } from "../../db/change-notices.ts";
import type { Database } from "../../db/database.ts";
import type { EventBus } from "./interface.ts";

const logger = getLogger(["gannet", "bus"]);

/** The bus channel of the database's change notices (db/change-notices.ts). */
export const CHANGES_CHANNEL = "db:changes";

/**
 * Sends this process's change notices on the bus and, when `listen`, counts the other
 * processes' (PostgreSQL only; SQLite needs none). Until the subscription is ready, and while
 * the bus is disconnected, the database's stamps are undefined: nothing is cached then. A
 * process that only writes and exits (the `gannet` command) sends without listening.
 */
export function connectChangeNotices(bus: EventBus, database: Database, listen: boolean): void {
  const notices = database.changes;
  if (notices === undefined) return;
  notices.sendWith((notice) => bus.publish(CHANGES_CHANNEL, "changed", notice));
  if (!listen) return;
  let ready = false;
  bus.onConnection((up) => {
    if (ready) notices.listening(up);
  });
  const sub = bus.subscribe(CHANGES_CHANNEL, (msg) => notices.received(msg.payload as ChangeNotice));
  sub.ready.then(
    () => {
      ready = true;
      notices.listening(true);
    },
    (e) => logger.warn("Could not listen for change notices (nothing is cached on PostgreSQL): {error}", { error: e }),
  );
}
