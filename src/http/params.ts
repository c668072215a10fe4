import type { Context } from "hono";
import { ApiError } from "../lib/errors.ts";
import type { HonoEnv } from "./types.ts";

type Tree = Record<string, unknown>;

const MAX_KEYS = 1000;
const MAX_DEPTH = 6;

/**
 * Sets `key` (Rails-style: `a[b][]`, `a[0][c]`) to `value` in `tree`.
 * `[]` appends to an array; any other bracket is an object key, so numbered keys
 * (`fields_attributes[0][name]`) give objects that `asArray` turns into arrays.
 */
export function setNested(tree: Tree, key: string, value: unknown): void {
  // A plain key (most are: `limit`, `local`), as the pattern below would set it, without it.
  if (!key.includes("[") && !key.includes("]")) {
    if (key !== "__proto__" && key !== "constructor" && key !== "prototype") tree[key] = value;
    return;
  }
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) {
    tree[key] = value;
    return;
  }
  const parts = [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1])];
  if (parts.length > MAX_DEPTH) throw new ApiError(400, `Parameter ${m[1]} is nested too deeply`);
  let node: Tree | unknown[] = tree;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const last = i === parts.length - 1;
    const nextIsPush = parts[i + 1] === "";
    if (Array.isArray(node)) {
      if (last) {
        node.push(value);
        return;
      }
      const child: Tree | unknown[] = nextIsPush ? [] : {};
      node.push(child);
      node = child;
      continue;
    }
    if (part === "__proto__" || part === "constructor" || part === "prototype") return;
    if (last) {
      node[part] = value;
      return;
    }
    let child = node[part];
    if (child === null || typeof child !== "object" || child instanceof File) {
      child = nextIsPush ? [] : {};
      node[part] = child;
    }
    node = child as Tree | unknown[];
  }
}

function fromEntries(entries: Iterable<[string, unknown]>, into: Tree): Tree {
  let n = 0;
  for (const [k, v] of entries) {
    if (++n > MAX_KEYS) throw new ApiError(400, "Too many parameters");
    if (k.includes("\0") || (typeof v === "string" && v.includes("\0"))) throw nulError();
    setNested(into, k, v);
  }
  return into;
}

/**
 * A NUL character in a parameter is a 400: PostgreSQL text cannot hold one (it would be a 500
 * there) and no client means to send one. (URLs with `%00` are refused before routing.)
 */
export const nulError = (): ApiError => new ApiError(400, "Parameters must not contain NUL characters");

/**
 * Query and body parameters merged (the body wins), as Rails' `params`. Accepts JSON,
 * `application/x-www-form-urlencoded` and `multipart/form-data` (files stay `File`s).
 * Parsed once per request.
 */
export async function readParams(c: Context<HonoEnv>): Promise<Tree> {
  const cached = c.get("params");
  if (cached) return cached;
  const out: Tree = Object.create(null);
  const url = new URL(c.req.url);
  fromEntries(url.searchParams.entries(), out);
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    if (type.includes("application/json")) {
      const text = await c.req.text();
      if (text.trim() !== "") {
        let body: unknown;
        let nul = false;
        try {
          body = JSON.parse(text, (k, v) => {
            if (k.includes("\0") || (typeof v === "string" && v.includes("\0"))) nul = true;
            return v;
          });
        } catch {
          throw new ApiError(400, "The request body could not be parsed as JSON");
        }
        if (nul) throw nulError();
        if (body === null || typeof body !== "object" || Array.isArray(body)) {
          throw new ApiError(400, "The request body must be a JSON object");
        }
        for (const [k, v] of Object.entries(body)) {
          if (k.includes("[")) setNested(out, k, v);
          else if (k !== "__proto__") out[k] = v;
        }
      }
    } else if (type.includes("application/x-www-form-urlencoded")) {
      fromEntries(new URLSearchParams(await c.req.text()).entries(), out);
    } else if (type.includes("multipart/form-data")) {
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        throw new ApiError(400, "The multipart body could not be parsed");
      }
      fromEntries(form.entries(), out);
    }
  }
  c.set("params", out);
  return out;
}

/** A Rails "array": an array, an object with numeric keys (`a[0]=..`), or a single value. */
export function asArray(v: unknown): unknown[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === "object" && !(v instanceof File)) {
    const entries = Object.entries(v as Tree);
    if (entries.every(([k]) => /^\d+$/.test(k))) {
      return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, x]) => x);
    }
  }
  return [v];
}

/**
 * A Rails hash parameter (`x[key]=..` or a JSON object); undefined for anything else. Rails'
 * `permit` drops a scalar, a list or a file given where a hash is expected, so callers treat
 * these as not given rather than as an error (masto.js sends `x=undefined` for an unset hash).
 */
export function asHash(v: unknown): Tree | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v) || v instanceof File) return undefined;
  return v as Tree;
}

/**
 * A Rails list of hashes (`x[][k]=`, `x[0][k]=`, a JSON array of objects): the hash entries only,
 * as `permit` keeps them. Undefined (not given) for a scalar, and for a list holding no hash at
 * all (`[1, 2]`), so that such a value changes nothing; an empty list stays an empty list.
 * A hash whose keys are not all numbers counts as a one-entry list.
 */
export function asHashList(v: unknown): Tree[] | undefined {
  if (v === null || typeof v !== "object" || v instanceof File) return undefined;
  const items = asArray(v) ?? [];
  const hashes = items.map(asHash).filter((x): x is Tree => x !== undefined);
  return hashes.length === 0 && items.length > 0 ? undefined : hashes;
}
