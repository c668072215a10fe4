import type { Parameter } from "./schema.ts";

/**
 * A Hono path as an OpenAPI path: `:id{[0-9]+}` becomes `{id}` with a path parameter whose
 * pattern is the route's own, and a trailing `*` becomes `{path}` (the rest of the path).
 */
export function openapiPath(hono: string): { path: string; parameters: Parameter[] } {
  const parameters: Parameter[] = [];
  const segments = hono.split("/").map((seg) => {
    if (seg === "*") {
      parameters.push({ name: "path", in: "path", required: true, description: "The rest of the path", schema: {} });
      return "{path}";
    }
    const m = /^:([A-Za-z0-9_]+)(?:\{(.+)\})?$/.exec(seg);
    if (!m) return seg;
    const [, name, pattern] = m;
    const schema: Record<string, unknown> = { type: "string" };
    if (pattern) schema.pattern = `^(?:${pattern})$`;
    parameters.push({ name, in: "path", required: true, schema });
    return `{${name}}`;
  });
  return { path: segments.join("/"), parameters };
}

/** A stable operationId from method and path: `get_api_v1_statuses_id`. */
export function operationId(method: string, path: string): string {
  const tail = path
    .replace(/[{}]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `${method.toLowerCase()}_${tail || "root"}`;
}
