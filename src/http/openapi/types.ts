import type { z } from "zod";

/**
 * One answer of an operation: an entity name (`"Status"`), a list of one (`"Status[]"`), an inline
 * JSON Schema with a description, or `null` for an answer without a body.
 */
export type Answer = string | { schema: object; description?: string; type?: string } | null;

/**
 * The description of one route, kept out of the route files (src/http/openapi/routes/<area>.ts),
 * keyed by `"METHOD /hono/path"` exactly as registered.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** Defaults to the area's tag. */
  tags?: string[];
  /** Query parameters: a zod object (the route's own validation schema where it has one). */
  query?: z.ZodType;
  /** Request body: a zod object; sent as JSON, a form, or (with `multipart`) multipart/form-data. */
  body?: z.ZodType;
  multipart?: boolean;
  /** Path parameters other than plain strings (a Hono `{[0-9]+}` pattern is described by itself). */
  pathDescriptions?: Record<string, string>;
  /** The success answer (status `status`, default 200). */
  ok: Answer;
  status?: number;
  /** Further answers by status code (3xx, 410, ...); 401/403/404/422 are added by the generator. */
  answers?: Record<number, Answer>;
  /** A paginated list: `max_id`/`since_id`/`min_id`/`limit` and a `Link` header. */
  paginated?: boolean | { limit: number; max: number };
  /**
   * Scopes for a route that checks them by hand (no guard middleware), and `auth: "none"` for a
   * route that never reads a token outside `/api`.
   */
  scopes?: readonly string[];
  auth?: "user" | "token" | "optional" | "none";
  /** `false` when `query`/`body` are read without a 422 for bad values (otherwise 422 is listed). */
  validates?: boolean;
  /** Error answers to add (404 is added when the path has parameters). */
  errors?: number[];
  /** Served outside Hono's route table (Fedify, the WebSocket upgrade). */
  external?: boolean;
  deprecated?: boolean;
}

export type RouteDocs = Record<string, RouteDoc>;

/** An area of route descriptions: a tag and its routes. */
export interface DocArea {
  tag: string;
  description?: string;
  routes: RouteDocs;
}
