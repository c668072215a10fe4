import type { Answer, Body, Guard, Method, Placeholder } from "./types.ts";

/** Shorthands that keep the placeholder tables one line per endpoint. */

export const pub = (): Guard => ({ auth: "public" });
export const opt = (...scopes: string[]): Guard => ({ auth: "public*", scopes });
export const signedIn = (): Guard => ({ auth: "signed-in" });
export const user = (...scopes: string[]): Guard => ({ auth: "user", scopes });
export const anyToken = (...scopes: string[]): Guard => ({ auth: "app", scopes });
export const admin = (permission: number, ...scopes: string[]): Guard => ({ auth: "admin", scopes, permission });

export const list = (): Answer => ({ kind: "list" });
export const page = (def: number, max = def * 2, body?: Body): Answer => ({ kind: "page", def, max, body });
export const offset = (def: number, max = def * 2, body?: Body): Answer => ({ kind: "offset", def, max, body });
export const json = (body: Body): Answer => ({ kind: "json", body });
export const none = (): Answer => ({ kind: "not-found" });
export const unavailable = (): Answer => ({ kind: "unavailable" });
export const noContent = (): Answer => ({ kind: "no-content" });
/** Mastodon's "empty" success: `{}`. */
export const empty = (): Answer => ({ kind: "json", body: {} });

type Opts = Pick<Placeholder, "account" | "existing" | "note">;

const row =
  (method: Method) =>
  (path: string, guard: Guard, answer: Answer, opts: Opts = {}): Placeholder => ({
    method,
    path,
    guard,
    answer,
    ...opts,
  });

export const get = row("GET");
export const post = row("POST");
export const put = row("PUT");
export const patch = row("PATCH");
export const del = row("DELETE");
