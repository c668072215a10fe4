import { z } from "zod";
import { UNAVAILABLE } from "../api/placeholders/entities.ts";
import type { Placeholder, Answer as PlaceholderAnswer } from "../api/placeholders/types.ts";
import { PLACEHOLDERS } from "../api/placeholders.ts";
import type { Answer, RouteDoc } from "./types.ts";

const BY_KEY = new Map<string, Placeholder>(PLACEHOLDERS.map((p) => [`${p.method} ${p.path}`, p]));

/** A JSON Schema of the shape of a fixed value (the placeholders' answers are plain data). */
function shapeOf(v: unknown): object {
  if (v === null) return { type: "null" };
  if (Array.isArray(v)) return v.length > 0 ? { type: "array", items: shapeOf(v[0]) } : { type: "array" };
  if (typeof v === "object") {
    const properties = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shapeOf(x)]));
    return { type: "object", properties };
  }
  return { type: typeof v === "number" ? "number" : typeof v };
}

const refusal = (description: string): Answer => ({ schema: { $ref: "#/components/schemas/Error" }, description });

const EMPTY_LIST: Answer = { schema: { type: "array", maxItems: 0 }, description: "An empty list (not built yet)" };

/** `limit` and `offset` of an offset-paginated placeholder (register.ts checks both). */
const offsetQuery = (def: number, max: number) =>
  z.object({
    limit: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(`How many results (default ${def}; more than ${max} is taken as ${max})`),
    offset: z.number().int().min(0).optional(),
  });

function answerOf(
  a: PlaceholderAnswer,
): Pick<RouteDoc, "ok" | "status" | "paginated" | "errors" | "description" | "query" | "validates"> {
  switch (a.kind) {
    case "list":
      return { ok: EMPTY_LIST };
    case "page":
      return { ok: EMPTY_LIST, paginated: { limit: a.def, max: a.max } };
    case "offset":
      return {
        ok: EMPTY_LIST,
        query: offsetQuery(a.def, a.max),
        validates: false,
        errors: [400],
        description: `Offset pagination: \`limit\` (default ${a.def}, at most ${a.max}) and \`offset\`.`,
      };
    case "json": {
      const schema = typeof a.body === "function" ? { type: "object" } : shapeOf(a.body);
      return { ok: { schema, description: "An entity with empty values (not built yet)" } };
    }
    case "not-found":
      return { ok: refusal("Record not found: the record cannot exist yet"), status: 404 };
    case "unavailable":
      return { ok: refusal(`"${UNAVAILABLE}"`), status: 422 };
    case "no-content":
      return { ok: null };
    case "text":
      return { ok: { schema: { type: "string" }, type: "text/plain", description: "Plain text" } };
  }
}

/**
 * The description of a placeholder route (src/http/api/placeholders), from its table row: the
 * guard is read off the route's middleware like any other; the answer from the row.
 */
export function placeholderDoc(method: string, path: string): RouteDoc | undefined {
  const p = BY_KEY.get(`${method} ${path}`);
  if (!p) return undefined;
  const area = path.split("/")[3] ?? "misc";
  const { description, ...answer } = answerOf(p.answer);
  const note = p.note ? ` ${p.note}.` : "";
  return {
    summary: `${method} ${path.replace(/:([a-z_]+)/g, "{$1}")} (placeholder)`,
    description: `Not built yet: Mastodon's shape with an empty or refusing answer.${note}${description ? ` ${description}` : ""}`,
    tags: [area.startsWith("admin") || path.startsWith("/api/v1/admin") ? "Admin" : "Placeholders"],
    ...answer,
    ...(p.account || p.existing ? { errors: [...(answer.errors ?? []), 404, 410] } : {}),
  };
}
