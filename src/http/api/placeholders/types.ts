import type { Context } from "hono";
import type { HonoEnv } from "../../types.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call an endpoint, as the census writes it:
 * - `public`: no token looked at (Mastodon ignores a token there);
 * - `public*`: no token needed, a sent token must be valid and hold one of `scopes`;
 * - `signed-in`: a user token with no particular scope (Mastodon's bare `require_user!`: 422 without one);
 * - `user`: a user token holding one of `scopes`;
 * - `app`: any token (app or user) holding one of `scopes`;
 * - `admin`: a user token holding one of `scopes` whose role has every bit of `permission`.
 */
export type Guard =
  | { auth: "public" }
  | { auth: "public*"; scopes: string[] }
  | { auth: "signed-in" }
  | { auth: "user"; scopes: string[] }
  | { auth: "app"; scopes: string[] }
  | { auth: "admin"; scopes: string[]; permission: number };

export type Body = unknown | ((c: Context<HonoEnv>) => unknown | Promise<unknown>);

/**
 * What a placeholder answers once the guard passed:
 * - `list`: `[]`;
 * - `page`: `body` (default `[]`) with a `Link` header; `limit` checked against `def`/`max`;
 * - `offset`: `body` (default `[]`), `limit` and `offset` checked (no `Link` header);
 * - `json`: a fixed or computed entity (status 200);
 * - `not-found`: 404 "Record not found" (the record cannot exist yet);
 * - `unavailable`: 422 "This feature is not available on this server yet" (a write that cannot work yet);
 * - `no-content`: 204.
 */
export type Answer =
  | { kind: "list" }
  | { kind: "page"; def: number; max: number; body?: Body }
  | { kind: "offset"; def: number; max: number; body?: Body }
  | { kind: "json"; body: Body }
  | { kind: "not-found" }
  | { kind: "unavailable" }
  | { kind: "no-content" }
  | { kind: "text"; body: string };

export interface Placeholder {
  method: Method;
  /** Hono path; parameters as in Mastodon's routes. */
  path: string;
  guard: Guard;
  answer: Answer;
  /** The path parameter naming an account that must exist and be visible (404, or 410 when deleted). */
  account?: string;
  /** The path parameter naming an account that must exist, whatever its state (admin endpoints). */
  existing?: string;
  /** What the answer is, for docs/compatibility.md (derived from `answer` when absent). */
  note?: string;
}
