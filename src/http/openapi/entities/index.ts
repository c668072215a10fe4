import { z } from "zod";
import "./accounts.ts";
import "./admin.ts";
import "./admin-dashboard.ts";
import "./admin-blocks.ts";
import "./admin-roles.ts";
import "./admin-federation.ts";
import "./crypto.ts";
import "./admin-trends.ts";
import "./filters.ts";
import "./instance.ts";
import "./misc.ts";
import "./notifications.ts";
import "./statuses.ts";
import { entityRegistry } from "./common.ts";

/**
 * The JSON Schemas (draft 2020-12) of the Mastodon entities Gannet answers with, for the OpenAPI
 * document's `components.schemas`, generated from the zod schemas in this folder.
 */

const COMPONENTS = "#/components/schemas/";

export interface EntityComponentOptions {
  /**
   * Keep `additionalProperties: false` on every object, so that a member Gannet sends but the
   * schema does not describe fails validation (the entity tests use it). The published document
   * leaves objects open, as Mastodon clients must ignore members they do not know.
   */
  closed?: boolean;
}

/** zod's JSON for `z.number().int()` carries the safe-integer bounds: noise in a document. */
const SAFE = Number.MAX_SAFE_INTEGER;

function tidy(node: unknown, closed: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n, closed));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema" || k === "$id") continue;
    if (k === "additionalProperties" && v === false && !closed) continue;
    if ((k === "minimum" && v === -SAFE) || (k === "maximum" && v === SAFE)) continue;
    out[k] = tidy(v, closed);
  }
  return out;
}

export function entityComponents(opts: EntityComponentOptions = {}): Record<string, object> {
  const generated = z.toJSONSchema(entityRegistry, {
    target: "draft-2020-12",
    uri: (id) => `${COMPONENTS}${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const out: Record<string, object> = {};
  for (const [name, schema] of Object.entries(generated.schemas)) {
    if (schema.$defs !== undefined) throw new Error(`entity ${name}: shared definitions are not supported`);
    out[name] = tidy(schema, opts.closed === true) as object;
  }
  return out;
}

/** The names of every entity component, sorted. */
export const entityNames: readonly string[] = Object.freeze(Object.keys(entityComponents()).sort());

/** A JSON Schema reference to the component `name`; an unknown name throws, so typos fail early. */
export function entityRef(name: string): { $ref: string } {
  if (!entityNames.includes(name)) throw new Error(`no entity component ${name}`);
  return { $ref: `${COMPONENTS}${name}` };
}
