import { z } from "zod";

type Json = Record<string, unknown>;

/**
 * A zod schema as OpenAPI 3.1 (JSON Schema 2020-12), as clients send it (`io: "input"`): a
 * `z.preprocess` (boolish, intish, arrayOf, text) is described by the schema it feeds, which is
 * what a client may send once Rails-style coercion is left aside.
 */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Json;
  delete out.$schema;
  return tidy(out) as Json;
}

/** Drops the ±2^53 bounds zod gives every integer: they say nothing to a reader. */
function tidy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(tidy);
  if (v === null || typeof v !== "object") return v;
  const o: Json = {};
  for (const [k, x] of Object.entries(v)) {
    if ((k === "minimum" || k === "maximum") && Math.abs(x as number) === Number.MAX_SAFE_INTEGER) continue;
    o[k] = tidy(x);
  }
  return o;
}

export interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  description?: string;
  schema: Json;
  style?: string;
  explode?: boolean;
}

/**
 * The query parameters of a zod object: one per property; a list is named `name[]` (Mastodon's
 * form, `id[]=1&id[]=2`).
 */
export function queryParameters(schema: z.ZodType): Parameter[] {
  const s = jsonSchemaOf(schema);
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(props).map(([name, p]) => {
    const { description, ...rest } = p;
    const list = rest.type === "array";
    return {
      name: list ? `${name}[]` : name,
      in: "query",
      ...(required.has(name) ? { required: true } : {}),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
      ...(list ? { style: "form", explode: true } : {}),
    };
  });
}
