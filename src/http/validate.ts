import { z } from "zod";
import { ApiError } from "../lib/errors.ts";
import { asArray } from "./params.ts";

/** Rails truthiness: true/1/on/"true"/"1"/"on" are true; false/0/off/""/"false"/"0" are false. */
export const boolish = z.preprocess((v) => {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") {
    const l = v.trim().toLowerCase();
    if (["true", "1", "on", "t", "yes"].includes(l)) return true;
    if (["false", "0", "off", "f", "no", ""].includes(l)) return false;
  }
  return v;
}, z.boolean());

/** An integer given as a number or a decimal string. */
export const intish = z.preprocess((v) => {
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return v;
}, z.number().int());

/** A list given as `x[]=`, `x[0]=`, an array, or (for a single item) a plain value. */
export const arrayOf = <T extends z.ZodType>(item: T) => z.preprocess((v) => asArray(v), z.array(item));

/** Plain text: strings only (numbers as given by JSON clients are accepted and stringified). */
export const text = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v),
    z.string().max(max, `is too long (maximum is ${max} characters)`),
  );

/**
 * Validates parameters. A failure is a 422 `Validation failed: ...`, naming each bad field, with
 * `details` in Mastodon's registration format ({field: [{error, description}]}).
 */
export function validate<T extends z.ZodType>(schema: T, params: unknown): z.infer<T> {
  const r = schema.safeParse(params);
  if (r.success) return r.data;
  const details: Record<string, { error: string; description: string }[]> = {};
  const messages: string[] = [];
  for (const issue of r.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "base";
    const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
    const description = missing ? "can't be blank" : issue.message;
    const code = missing
      ? "ERR_BLANK"
      : issue.code === "too_big"
        ? "ERR_TOO_LONG"
        : issue.code === "too_small"
          ? "ERR_TOO_SHORT"
          : "ERR_INVALID";
    (details[field] ??= []).push({ error: code, description });
    messages.push(`${field} ${description}`);
  }
  throw new ApiError(422, `Validation failed: ${messages.join(", ")}`, { details });
}

/** The 400 Mastodon gives for a missing required parameter. */
export function requireParam<T>(value: T | undefined | null | "", name: string): T {
  if (value === undefined || value === null || value === "") {
    throw new ApiError(400, `param is missing or the value is empty: ${name}`);
  }
  return value;
}
