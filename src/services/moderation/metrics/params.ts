import type { AppContext } from "../../../context.ts";
import type { DomainScope } from "../../../db/repositories/admin-metrics.ts";
import { ApiError, notFound } from "../../../lib/errors.ts";
import { isId } from "../../../lib/ids.ts";

/** The request's parameters, as the route read them (query and body, Rails-style nesting). */
export type MetricParams = Record<string, unknown>;

/** The keys asked for (`keys[]`), strings only, at most 50. */
export function requestedKeys(params: MetricParams): string[] {
  const raw = params.keys;
  const list = Array.isArray(raw)
    ? raw
    : raw !== null && typeof raw === "object"
      ? Object.values(raw as Record<string, unknown>)
      : raw === undefined || raw === ""
        ? []
        : [raw];
  const keys = list.filter((k): k is string => typeof k === "string");
  if (keys.length > 50) throw new ApiError(400, "Too many keys (at most 50)");
  return keys;
}

/** A key's own parameters (`tag_uses[id]`): Mastodon requires them, else 400. */
function keyParams(params: MetricParams, key: string): Record<string, unknown> {
  const own = params[key];
  if (own === null || typeof own !== "object" || Array.isArray(own) || Object.keys(own).length === 0) {
    throw new ApiError(400, `param is missing or the value is empty: ${key}`);
  }
  return own as Record<string, unknown>;
}

/** The tag a key names (`tag_uses[id]`): 404 when there is none of that id, as Mastodon's Tag.find. */
export async function tagParam(ctx: AppContext, params: MetricParams, key: string): Promise<string> {
  const id = keyParams(params, key).id;
  const tagId = typeof id === "number" && Number.isSafeInteger(id) ? String(id) : id;
  if (typeof tagId !== "string" || !isId(tagId) || !(await ctx.repos.adminMetrics.tagExists(tagId))) throw notFound();
  return tagId;
}

const TRUE = new Set(["true", "1", "on", "t", "yes"]);

/** The server a key names (`instance_statuses[domain]`, with `include_subdomains`). */
export function domainParam(params: MetricParams, key: string): DomainScope {
  const own = keyParams(params, key);
  const domain = typeof own.domain === "string" ? own.domain.trim().toLowerCase() : "";
  if (domain === "" || domain.length > 253 || /[\s/@]/.test(domain)) {
    throw new ApiError(400, `param is missing or the value is empty: ${key}[domain]`);
  }
  const inc = own.include_subdomains;
  const includeSubdomains = inc === true || (typeof inc === "string" && TRUE.has(inc.trim().toLowerCase()));
  return { domain, includeSubdomains };
}
