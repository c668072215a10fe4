import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { entityComponents } from "../../src/http/openapi/entities/index.ts";
import type { ApiResponse } from "./server.ts";

/**
 * ajv holding the OpenAPI entity components closed (`additionalProperties: false`), so that a
 * member Gannet sends and a schema does not describe fails, as does a required one left out.
 */

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
export const ajv = new Ajv2020({ strict: true, allErrors: true, strictRequired: false, allowUnionTypes: true });
ajv.addFormat("date-time", (v: string) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));
ajv.addFormat("date", /^\d{4}-\d\d-\d\d$/);
ajv.addFormat("uri", (v: string) => URL.canParse(v));
// The components live where an OpenAPI document keeps them; `$ref`s point there.
ajv.addKeyword("components");
ajv.addSchema({ $id: "gannet", components: { schemas: entityComponents({ closed: true }) } });

/** The components each flow met, to check at the end that most entities were exercised. */
export const seen = new Set<string>();

export function validate(name: string, value: unknown, where: string): void {
  const check = ajv.getSchema(`gannet#/components/schemas/${name}`);
  assert.ok(check, `no component ${name}`);
  seen.add(name);
  if (!check(value)) {
    const errors = (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    assert.fail(`${where} is not a valid ${name}:\n  ${errors.join("\n  ")}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/** Asserts the status and validates the body as `name` (or each item, for `[name]`). */
export function expectEntity<T = any>(r: ApiResponse<T>, name: string | [string], where: string, status = 200): T {
  assert.equal(r.status, status, `${where}: ${r.status} ${JSON.stringify(r.body)}`);
  if (Array.isArray(name)) {
    assert.ok(Array.isArray(r.body), `${where} is not an array`);
    for (const [i, item] of (r.body as unknown[]).entries()) validate(name[0], item, `${where}[${i}]`);
  } else validate(name, r.body, where);
  return r.body;
}
