import type { Context, Hono, MiddlewareHandler } from "hono";
import { ApiError, notFound } from "../../../lib/errors.ts";
import { getExistingAccount, getVisibleAccount } from "../../../services/accounts/find-accounts.ts";
import { pageParams, setLinkHeader } from "../../pagination.ts";
import type { HonoEnv } from "../../types.ts";
import { UNAVAILABLE } from "./entities.ts";
import { guardMiddleware } from "./guards.ts";
import { offsetParam } from "./query.ts";
import type { Answer, Body, Placeholder } from "./types.ts";

/** 404 unless the account named by the path exists and is visible; 410 once it was deleted. */
async function checkAccount(c: Context<HonoEnv>, param: string): Promise<void> {
  await getVisibleAccount(c.env.ctx, c.req.param(param) ?? "");
}

/** 404 unless the account named by the path exists (admin endpoints see every account). */
async function checkExists(c: Context<HonoEnv>, param: string): Promise<void> {
  await getExistingAccount(c.env.ctx, c.req.param(param) ?? "");
}

async function bodyOf(c: Context<HonoEnv>, body: Body): Promise<unknown> {
  return typeof body === "function" ? await body(c) : body;
}

async function respond(c: Context<HonoEnv>, answer: Answer): Promise<Response> {
  switch (answer.kind) {
    case "list":
      return c.json([]);
    case "page": {
      const page = pageParams(c, answer.def, answer.max);
      const body = await bodyOf(c, answer.body ?? []);
      setLinkHeader(c, page, 0, undefined, undefined);
      return c.json(body as object);
    }
    case "offset": {
      pageParams(c, answer.def, answer.max);
      offsetParam(c);
      return c.json((await bodyOf(c, answer.body ?? [])) as object);
    }
    case "json":
      return c.json((await bodyOf(c, answer.body)) as object);
    case "not-found":
      throw notFound();
    case "unavailable":
      throw new ApiError(422, UNAVAILABLE);
    case "no-content":
      return c.body(null, 204);
    case "text":
      return c.text(answer.body);
  }
}

/** Static segments before parameters, so `/notifications/unread_count` wins over `/notifications/:id`. */
function specificity(path: string): string {
  return path
    .split("/")
    .map((s) => (s.startsWith(":") || s === "*" ? "1" : "0"))
    .join("");
}

/** The placeholders in the order they must be registered. */
export function registrationOrder(rows: readonly Placeholder[]): Placeholder[] {
  return [...rows].sort((a, b) => {
    const x = specificity(a.path);
    const y = specificity(b.path);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Registers each placeholder: its guard, then the account check, then the answer. */
export function registerPlaceholders(app: Hono<HonoEnv>, rows: readonly Placeholder[]): void {
  for (const p of registrationOrder(rows)) {
    const chain: MiddlewareHandler<HonoEnv>[] = [...guardMiddleware(p.guard)];
    const { account, existing } = p;
    chain.push(async (c) => {
      if (account) await checkAccount(c, account);
      if (existing) await checkExists(c, existing);
      return respond(c, p.answer);
    });
    app.on(p.method, [p.path], ...chain);
  }
}
