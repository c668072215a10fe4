import type { ColumnType, Generated } from "kysely";

/** Booleans are `boolean` in PostgreSQL and 0/1 in SQLite; read them with `Boolean(x)`. */
export type DbBool = boolean | number;

/** Timestamps are ISO 8601 strings (`2026-01-02T03:04:05.678Z`) in both databases. */
export type Timestamp = string;

/** A nullable column: null on insert and update when left out. */
export type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type { ColumnType, Generated };
