import type { Migration } from "kysely/migration";
import * as m0001 from "./0001-foundation.ts";

/** Every migration in order. A new migration is a new file here, never an edit of an old one. */
export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
};
