import type { AppContext } from "../../../context.ts";
import type { DimensionRow } from "../../../db/repositories/admin-metrics.ts";
import { ApiError } from "../../../lib/errors.ts";
import { GANNET_VERSION } from "../../../lib/version.ts";
import { parseSpan, rangeOf, type Span } from "./dates.ts";
import { humanSize } from "./human-size.ts";
import { domainParam, type MetricParams, requestedKeys, tagParam } from "./params.ts";

/** One row of Mastodon's Admin::Dimension. */
export interface DimensionItem {
  key: string;
  human_key: string;
  value: string;
  unit?: string;
  human_value?: string;
}

export interface DimensionJson {
  key: string;
  data: DimensionItem[];
}

/** Rows given without `limit` (Mastodon gives all; a bound keeps an answer finite). */
const MAX_ROWS = 1000;

// Made on first use: it loads ICU data (about 5-15 ms at start-up).
let languageNames: Intl.DisplayNames | undefined;

function languageName(code: string): string {
  try {
    languageNames ??= new Intl.DisplayNames(["en"], { type: "language", fallback: "code" });
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

const rows = (list: DimensionRow[], name: (key: string | null) => { key: string; human_key: string }) =>
  list.map((r) => ({ ...name(r.key), value: String(r.value) }));

const byLanguage = (key: string | null) => ({ key: key ?? "und", human_key: languageName(key ?? "und") });

interface Request {
  ctx: AppContext;
  params: MetricParams;
  key: string;
  span: () => Span;
  limit: number;
}

const bytes = (key: string, human_key: string, value: number): DimensionItem => ({
  key,
  human_key,
  value: String(value),
  unit: "bytes",
  human_value: humanSize(value),
});

const version = (key: string, human_key: string, value: string): DimensionItem => ({
  key,
  human_key,
  value,
  human_value: value,
});

/** `INFO` of the Redis server, when there is one: `field:value` lines. */
async function redisInfo(ctx: AppContext): Promise<Map<string, string> | undefined> {
  if (!ctx.redis) return undefined;
  const text = await ctx.redis.info();
  return new Map(
    text
      .split(/\r?\n/)
      .filter((l) => l.includes(":") && !l.startsWith("#"))
      .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1)]),
  );
}

const databaseName = (ctx: AppContext) =>
  ctx.dialect === "postgres" ? { key: "postgresql", human_key: "PostgreSQL" } : { key: "sqlite", human_key: "SQLite" };

/** Every dimension Mastodon 4.4 knows, in its order. */
const DIMENSIONS: Record<string, (r: Request) => Promise<DimensionItem[]>> = {
  languages: async ({ ctx, span, limit }) =>
    rows(await ctx.repos.adminMetrics.signInLocales(rangeOf(span()), limit), byLanguage),
  sources: async ({ ctx, span, limit }) =>
    rows(await ctx.repos.adminMetrics.signUpApplications(rangeOf(span()), limit), (key) => ({
      key: key ?? "web",
      human_key: key ?? "Website",
    })),
  servers: async ({ ctx, span, limit }) =>
    rows(await ctx.repos.adminMetrics.statusServers(rangeOf(span()), limit), (key) => ({
      key: key ?? ctx.config.localDomain,
      human_key: key ?? ctx.config.localDomain,
    })),
  space_usage: async ({ ctx }) => {
    const db = databaseName(ctx);
    const out = [bytes(db.key, db.human_key, await ctx.repos.adminMetrics.databaseBytes())];
    const info = await redisInfo(ctx);
    if (info) out.push(bytes("redis", "Redis", Number(info.get("used_memory") ?? 0)));
    out.push(bytes("media", "Media storage", await ctx.repos.adminMetrics.mediaBytes()));
    return out;
  },
  software_versions: async ({ ctx }) => {
    const db = databaseName(ctx);
    const out = [
      version("gannet", "Gannet", GANNET_VERSION),
      version("nodejs", "Node.js", process.versions.node),
      version(db.key, db.human_key, await ctx.repos.adminMetrics.databaseVersion()),
    ];
    const info = await redisInfo(ctx);
    if (info) out.push(version("redis", "Redis", info.get("redis_version") ?? ""));
    return out;
  },
  tag_servers: async ({ ctx, params, key, span, limit }) => {
    const tagId = await tagParam(ctx, params, key);
    return rows(await ctx.repos.adminMetrics.statusServers(rangeOf(span()), limit, tagId), (k) => ({
      key: k ?? ctx.config.localDomain,
      human_key: k ?? ctx.config.localDomain,
    }));
  },
  tag_languages: async ({ ctx, params, key, span, limit }) => {
    const tagId = await tagParam(ctx, params, key);
    return rows(await ctx.repos.adminMetrics.tagLanguages(rangeOf(span()), limit, tagId), byLanguage);
  },
  instance_accounts: async ({ ctx, params, key, limit }) => {
    const domain = domainParam(params, key);
    return rows(await ctx.repos.adminMetrics.instanceAccountFollowers(domain, limit), (k) => ({
      key: k ?? "",
      human_key: k ?? "",
    }));
  },
  instance_languages: async ({ ctx, params, key, span, limit }) => {
    const domain = domainParam(params, key);
    return rows(await ctx.repos.adminMetrics.instanceLanguages(rangeOf(span()), limit, domain), byLanguage);
  },
};

/** `limit`: how many rows each dimension gives (all, up to MAX_ROWS, without it). */
function parseLimit(raw: unknown): number {
  if (raw === undefined || raw === null || raw === "") return MAX_ROWS;
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d+$/.test(s)) throw new ApiError(400, "limit must be a non-negative integer");
  return Math.min(Number(s), MAX_ROWS);
}

/**
 * `POST /api/v1/admin/dimensions`: each known key of `keys[]` in the order asked (unknown keys
 * left out), over the days from `start_at` to `end_at` where the dimension counts days.
 */
export async function dimensions(ctx: AppContext, params: MetricParams): Promise<DimensionJson[]> {
  const keys = requestedKeys(params).filter((k) => Object.hasOwn(DIMENSIONS, k));
  if (keys.length === 0) return [];
  const limit = parseLimit(params.limit);
  let parsed: Span | undefined;
  const span = () => {
    parsed ??= parseSpan(params.start_at, params.end_at);
    return parsed;
  };
  const out: DimensionJson[] = [];
  for (const key of keys) {
    const build = DIMENSIONS[key] as (r: Request) => Promise<DimensionItem[]>;
    out.push({ key, data: await build({ ctx, params, key, span, limit }) });
  }
  return out;
}
