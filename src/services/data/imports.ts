import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type {
  BulkImport,
  BulkImportRowData,
  BulkImportState,
  BulkImportType,
} from "../../db/repositories/bulk-imports.ts";
import { isId } from "../../lib/ids.ts";
import { exportAcct } from "./exports.ts";

export type { BulkImport, BulkImportType } from "../../db/repositories/bulk-imports.ts";

export const IMPORT_JOB = "data.import";

/** Mastodon's limits (Form::Import): 20 MB and 20,000 rows per file. */
export const IMPORT_FILE_SIZE_LIMIT = 20 * 1024 * 1024;
export const IMPORT_ROWS_LIMIT = 20_000;
/** Imports are kept a week; an unconfirmed one ten minutes (Mastodon's BulkImport). */
export const IMPORT_ARCHIVE_MS = 7 * 86400_000;
export const IMPORT_CONFIRM_MS = 10 * 60_000;
/** Imports listed on the page (Mastodon's RECENT_IMPORTS_LIMIT). */
export const RECENT_IMPORTS = 10;

export const IMPORT_TYPES: readonly BulkImportType[] = [
  "following",
  "blocking",
  "muting",
  "domain_blocking",
  "bookmarks",
  "lists",
];

type Header = "Account address" | "Show boosts" | "Notify on new posts" | "Languages" | "Hide notifications";
type AnyHeader = Header | "#domain" | "#uri" | "List name";

const EXPECTED_HEADERS: Record<BulkImportType, AnyHeader[]> = {
  following: ["Account address", "Show boosts", "Notify on new posts", "Languages"],
  blocking: ["Account address"],
  muting: ["Account address", "Hide notifications"],
  domain_blocking: ["#domain"],
  bookmarks: ["#uri"],
  lists: ["List name", "Account address"],
};

/** The headers a file without a header row is read with. */
const DEFAULT_HEADERS: Record<BulkImportType, AnyHeader[]> = {
  following: ["Account address"],
  blocking: ["Account address"],
  muting: ["Account address"],
  domain_blocking: ["#domain"],
  bookmarks: ["#uri"],
  lists: ["List name", "Account address"],
};

const KNOWN_FIRST_HEADERS = new Set<string>(Object.values(EXPECTED_HEADERS).map((h) => h[0]));

const ATTRIBUTE: Record<AnyHeader, keyof BulkImportRowData> = {
  "Account address": "acct",
  "Show boosts": "show_reblogs",
  "Notify on new posts": "notify",
  Languages: "languages",
  "Hide notifications": "hide_notifications",
  "#domain": "domain",
  "#uri": "uri",
  "List name": "list_name",
};

/** The value a row must have to mean anything (a row without it is skipped, as a blank line). */
const KEY_ATTRIBUTE: Record<BulkImportType, keyof BulkImportRowData> = {
  following: "acct",
  blocking: "acct",
  muting: "acct",
  domain_blocking: "domain",
  bookmarks: "uri",
  lists: "acct",
};

/** Why an uploaded file was refused (each has its text on the page). */
export type ImportProblem =
  | { code: "no_file" | "bad_type" | "too_large" | "empty" | "incompatible_type" | "too_many_rows" }
  | { code: "invalid_csv"; detail: string };

/** Rails' boolean cast: empty is unset; false, f, 0, off, no (any case) are false; anything else true. */
function toBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  const s = v.trim().toLowerCase();
  if (s === "") return undefined;
  return !["false", "f", "0", "off", "no", "n"].includes(s);
}

function convert(header: AnyHeader, raw: string | undefined): BulkImportRowData[keyof BulkImportRowData] {
  switch (header) {
    case "Show boosts":
    case "Notify on new posts":
    case "Hide notifications":
      return toBool(raw);
    case "Languages": {
      const list = (raw ?? "")
        .split(",")
        .map((l) => l.trim())
        .filter((l) => l !== "");
      return list.length > 0 ? list : null;
    }
    case "Account address":
      return (raw ?? "").trim().replace(/^@/, "");
    case "#domain":
      return (raw ?? "").trim().toLowerCase();
    default:
      return (raw ?? "").trim();
  }
}

/** The type a file looks like, by its headers or Mastodon's export file names (Form::Import#guessed_type). */
function guessType(headers: readonly string[], filename: string): BulkImportType | undefined {
  const named = (...prefixes: string[]) => prefixes.some((p) => filename.startsWith(p));
  if (headers.includes("Hide notifications") || named("mutes", "muted_accounts")) return "muting";
  if (
    headers.includes("Show boosts") ||
    headers.includes("Notify on new posts") ||
    headers.includes("Languages") ||
    named("follows", "following_accounts")
  ) {
    return "following";
  }
  if (named("blocks", "blocked_accounts")) return "blocking";
  if (named("domain_blocks", "blocked_domains")) return "domain_blocking";
  if (named("bookmarks")) return "bookmarks";
  if (named("lists")) return "lists";
  return undefined;
}

/**
 * Reads an uploaded CSV file as Mastodon's Form::Import does: a header row when the first cell
 * is a known header (else the type's default columns), values converted per column, blank lines
 * skipped, at most `IMPORT_ROWS_LIMIT` rows; the file must have the type's columns.
 */
export async function parseImportFile(
  type: BulkImportType,
  bytes: Uint8Array,
  filename: string,
): Promise<{ rows: BulkImportRowData[]; likelyMismatched: boolean } | ImportProblem> {
  if (bytes.length > IMPORT_FILE_SIZE_LIMIT) return { code: "too_large" };
  // The CSV libraries load on first use, not at start-up.
  const { parse } = await import("csv-parse/sync");
  let records: string[][];
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: false });
  } catch (e) {
    return { code: "invalid_csv", detail: e instanceof Error ? e.message : String(e) };
  }
  records = records.filter((r) => r.some((cell) => cell.trim() !== ""));
  if (records.length === 0) return { code: "empty" };
  const first = records[0].map((h) => h.trim());
  const hasHeader = KNOWN_FIRST_HEADERS.has(first[0]);
  const headers = hasHeader ? first : DEFAULT_HEADERS[type];
  if (!DEFAULT_HEADERS[type].every((h) => headers.includes(h))) return { code: "incompatible_type" };
  const body = hasHeader ? records.slice(1) : records;
  if (body.length > IMPORT_ROWS_LIMIT) return { code: "too_many_rows" };
  const wanted = EXPECTED_HEADERS[type];
  const key = KEY_ATTRIBUTE[type];
  const rows: BulkImportRowData[] = [];
  for (const record of body) {
    const data: BulkImportRowData = {};
    for (const header of wanted) {
      const at = headers.indexOf(header);
      if (at < 0) continue;
      const value = convert(header, record[at]);
      if (value !== undefined) (data as Record<string, unknown>)[ATTRIBUTE[header]] = value;
    }
    if (typeof data[key] === "string" && data[key] !== "") rows.push(data);
  }
  if (rows.length === 0) return { code: "empty" };
  const guessed = guessType(headers, filename);
  return { rows, likelyMismatched: guessed !== undefined && guessed !== type };
}

/** Stores an uploaded file as an unconfirmed import (confirmed on the next page). */
export async function createImport(
  ctx: AppContext,
  account: Account,
  input: { type: BulkImportType; overwrite: boolean; filename: string; bytes: Uint8Array },
): Promise<BulkImport | ImportProblem> {
  const parsed = await parseImportFile(input.type, input.bytes, input.filename);
  if ("code" in parsed) return parsed;
  const now = new Date();
  const imp = {
    id: ctx.ids.next(now),
    accountId: account.id,
    type: input.type,
    state: "unconfirmed" as BulkImportState,
    overwrite: input.overwrite,
    likelyMismatched: parsed.likelyMismatched,
    totalItems: parsed.rows.length,
    originalFilename: input.filename.slice(0, 255),
    createdAt: now.toISOString(),
  };
  await ctx.repos.bulkImports.create(
    imp,
    parsed.rows.map((data) => ({ id: ctx.ids.next(), data })),
  );
  return { ...imp, importedItems: 0, processedItems: 0, finishedAt: null };
}

/** One of the account's imports (undefined for anyone else's). */
export function ownImport(ctx: AppContext, account: Account, id: string): Promise<BulkImport | undefined> {
  if (!isId(id)) return Promise.resolve(undefined);
  return ctx.repos.bulkImports.getOwned(account.id, id);
}

export function recentImports(ctx: AppContext, account: Account): Promise<BulkImport[]> {
  return ctx.repos.bulkImports.recent(account.id, RECENT_IMPORTS);
}

/** Confirms an unconfirmed import: it is scheduled and its job queued. False when it was not unconfirmed. */
export async function confirmImport(ctx: AppContext, imp: BulkImport): Promise<boolean> {
  if (!(await ctx.repos.bulkImports.transition(imp.id, "unconfirmed", "scheduled"))) return false;
  await ctx.queue.enqueue(IMPORT_JOB, { importId: imp.id });
  return true;
}

/** Drops an import that was not confirmed (once confirmed, it runs). False otherwise. */
export async function cancelImport(ctx: AppContext, imp: BulkImport): Promise<boolean> {
  if (imp.state !== "unconfirmed") return false;
  await ctx.repos.bulkImports.delete(imp.id);
  return true;
}

/** The failure file's name and header (Mastodon's Settings::ImportsController). */
const FAILURES: Record<BulkImportType, { filename: string; header?: string[] }> = {
  following: {
    filename: "following_accounts_failures.csv",
    header: ["Account address", "Show boosts", "Notify on new posts", "Languages"],
  },
  blocking: { filename: "blocked_accounts_failures.csv" },
  muting: { filename: "muted_accounts_failures.csv", header: ["Account address", "Hide notifications"] },
  domain_blocking: { filename: "blocked_domains_failures.csv" },
  bookmarks: { filename: "bookmarks_failures.csv" },
  lists: { filename: "lists_failures.csv" },
};

function failureRow(type: BulkImportType, d: BulkImportRowData): unknown[] {
  switch (type) {
    case "following":
      return [d.acct, d.show_reblogs ?? true, d.notify ?? false, d.languages?.join(", ") ?? null];
    case "blocking":
      return [d.acct];
    case "muting":
      return [d.acct, d.hide_notifications ?? true];
    case "domain_blocking":
      return [d.domain];
    case "bookmarks":
      return [d.uri];
    case "lists":
      return [d.list_name, d.acct];
  }
}

/** The rows of a finished import that failed, as a CSV file in the import's own format. */
export async function failuresCsv(ctx: AppContext, imp: BulkImport): Promise<{ filename: string; text: string }> {
  const { filename, header } = FAILURES[imp.type];
  const { stringify } = await import("csv-stringify/sync");
  const options = { cast: { boolean: (v: boolean) => (v ? "true" : "false") } };
  const parts: string[] = header ? [stringify([header], options)] : [];
  let after: string | undefined;
  for (;;) {
    const batch = await ctx.repos.bulkImports.rowsBatch(imp.id, after, 1000);
    if (batch.length > 0)
      parts.push(
        stringify(
          batch.map((r) => failureRow(imp.type, r.data)),
          options,
        ),
      );
    if (batch.length < 1000) break;
    after = batch[batch.length - 1].id;
  }
  return { filename, text: parts.join("") };
}

/** The acct a row or an account is matched by: lower-case, without this server's domain. */
export function matchKey(ctx: AppContext, acct: string): string {
  const lower = acct.toLowerCase();
  const suffix = `@${ctx.config.localDomain.toLowerCase()}`;
  return lower.endsWith(suffix) ? lower.slice(0, -suffix.length) : lower;
}

/** For the job: an account's address as rows are matched. */
export function accountKey(ctx: AppContext, a: { username: string; domain: string | null }): string {
  return matchKey(ctx, exportAcct(ctx, { accountId: "", ...a }));
}
