import type { ColumnType, Generated, Timestamp } from "./common.ts";

// Table types: Site settings, rules, the key-value store, jobs and scheduler leases.

export interface KvStoreTable {
  key: string;
  value: string;
  expires_at: Timestamp | null;
}

export interface SiteSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: Timestamp;
}

export interface RulesTable {
  id: string;
  text: string;
  hint: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JobsTable {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  /** `pending` (waiting or delayed), `running` or `dead`; finished jobs are deleted. */
  state: Generated<string>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  locked_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  locked_by: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** Unique among pending jobs. */
  dedupe_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface SchedulerLeasesTable {
  name: string;
  next_run_at: Timestamp;
  locked_by: ColumnType<string | null, string | null | undefined, string | null>;
  locked_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  last_run_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}
