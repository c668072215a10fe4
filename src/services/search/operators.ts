import type { AppContext } from "../../context.ts";
import type { StatusFilter } from "../../db/repositories/search.ts";
import { idAtTime } from "../../lib/ids.ts";
import { parseAcct } from "../accounts/find-accounts.ts";
import type { Operator } from "./query.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of a `YYYY-MM-DD` day, or undefined. */
function dayStart(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(t);
  if (Number.isNaN(t) || d.getUTCDate() !== Number(m[3]) || d.getUTCMonth() !== Number(m[2]) - 1) return undefined;
  return t;
}

/** The largest time an id can hold (48 bits of milliseconds in a signed 64-bit id). */
const MAX_ID_MS = 2 ** 47 - 1;
const idAt = (ms: number): string => idAtTime(new Date(Math.min(MAX_ID_MS, Math.max(0, ms))));

/** `has:` and `is:` properties Mastodon indexes, as filters (`link` and `embed` are not known here). */
function property(value: string, negated: boolean): StatusFilter | undefined {
  switch (value) {
    case "media":
      return { kind: "media", negated };
    case "image":
      return { kind: "media", types: ["image"], negated };
    case "video":
      return { kind: "media", types: ["video", "gifv"], negated };
    case "audio":
      return { kind: "media", types: ["audio"], negated };
    case "poll":
      return { kind: "poll", negated };
    case "reply":
      return { kind: "reply", negated };
    case "sensitive":
      return { kind: "sensitive", negated };
    default:
      return undefined;
  }
}

/**
 * Mastodon's status search operators as repository filters: `from:me`, `from:user[@domain]`,
 * `has:`/`is:` (media, image, video, audio, poll, reply, sensitive), `language:`, `before:`,
 * `after:` and `during:` (`YYYY-MM-DD`, UTC; `after:` starts the next day, as Elasticsearch
 * rounds), `in:library` and `in:public`. Each may be negated with `-`. One that names nothing
 * known (an unknown account or property, a malformed date) matches nothing, and its negation
 * everything, as in Mastodon.
 */
export async function operatorFilters(
  ctx: AppContext,
  operators: readonly Operator[],
  viewerId: string,
): Promise<StatusFilter[]> {
  const out: StatusFilter[] = [];
  const unknown = (negated: boolean) => {
    if (!negated) out.push({ kind: "none" });
  };
  for (const op of operators) {
    const value = op.value.toLowerCase();
    switch (op.name) {
      case "from": {
        let id: string | undefined;
        if (value === "me") id = viewerId;
        else {
          const acct = parseAcct(ctx, op.value);
          const account = acct && (await ctx.repos.accounts.getByUsername(acct.username, acct.domain));
          id = account?.id;
        }
        if (id === undefined) unknown(op.negated);
        else out.push({ kind: "account", id, negated: op.negated });
        break;
      }
      case "has":
      case "is": {
        const f = property(value, op.negated);
        if (f) out.push(f);
        else unknown(op.negated);
        break;
      }
      case "language":
        out.push({ kind: "language", codes: [...new Set([value, value.split(/[_-]/)[0]])], negated: op.negated });
        break;
      case "before":
      case "after":
      case "during": {
        const start = dayStart(value);
        if (start === undefined) {
          unknown(op.negated);
          break;
        }
        const next = idAt(start + DAY_MS);
        if (op.name === "before") out.push({ kind: "ids", before: idAt(start), negated: op.negated });
        if (op.name === "after") out.push({ kind: "ids", from: next, negated: op.negated });
        if (op.name === "during") out.push({ kind: "ids", from: idAt(start), before: next, negated: op.negated });
        break;
      }
      case "in":
        if (value === "library" && !op.negated) out.push({ kind: "library" });
        if (value === "public" && !op.negated) out.push({ kind: "public" });
        break;
    }
  }
  return out;
}
