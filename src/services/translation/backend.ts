import { createHash } from "node:crypto";
import type { TranslationConfig } from "../../config/index.ts";
import type { GuardedFetch } from "../../lib/net/guarded-fetch.ts";

/** One text as the backend translated it. */
export interface TranslatedText {
  text: string;
  /** What the backend says the source language was (lower case), when it says. */
  detectedSourceLanguage?: string;
}

/**
 * Source language → the languages it can be translated into. Auto-detection (a post without a
 * language) is the source `und`, as `GET /api/v1/instance/translation_languages` names it.
 */
export type LanguageMap = Record<string, string[]>;

export const AUTO_DETECT = "und";

/** A machine translation service, spoken to over its own HTTP interface. */
export interface TranslationBackend {
  /** Mastodon's `provider` name: `DeepL.com`, `LibreTranslate`. */
  readonly provider: string;
  /** Which service at which address: caches are kept apart per backend, so changing it starts afresh. */
  readonly cacheId: string;
  /** The texts (HTML) in one request, answered in the same order; `source` null: detect it. */
  translate(texts: readonly string[], source: string | null, target: string): Promise<TranslatedText[]>;
  languages(): Promise<LanguageMap>;
}

/** Why a backend gave no translation; the API answers each with a 503 (Mastodon's errors). */
export type TranslationFailure = "too_many_requests" | "quota_exceeded" | "unexpected";

export class TranslationServiceError extends Error {
  readonly failure: TranslationFailure;
  constructor(failure: TranslationFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

/** A backend's answer is not what its interface promises. */
export const unexpected = (message: string) => new TranslationServiceError("unexpected", message);

/** What a backend needs: the guarded client, asked for at each request (tests wrap it). */
export interface BackendDeps {
  fetch: GuardedFetch;
}

/** Mastodon's bounds on a translation request: answers are small, and a reader is waiting. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export function isTranslationConfigured(config: TranslationConfig): boolean {
  return config.deepl !== undefined || config.libreTranslate !== undefined;
}

export function cacheIdOf(provider: string, address: string): string {
  return createHash("sha256").update(`${provider} ${address}`).digest("hex").slice(0, 16);
}

/**
 * A language tag as both backends' lists are compared: the language in lower case, a region in
 * upper case (`EN-GB` → `en-GB`, `pt_br` → `pt-BR`), as Mastodon normalises DeepL's codes.
 */
export function normalizeLanguage(tag: string): string {
  const [first, second, ...rest] = tag.trim().split(/[_-]/);
  return [first?.toLowerCase() ?? "", ...(second === undefined ? [] : [second.toUpperCase()]), ...rest].join("-");
}

/** A language tag worth keeping from a backend's list (two or three letters, optional subtags). */
export const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

/**
 * Reads a backend's answer: the status decides the failure as Mastodon's services do (`extra`
 * adds the backend's own codes), a 2xx body must be JSON.
 */
export async function readJson(
  res: Response,
  extra: Record<number, TranslationFailure>,
  what: string,
): Promise<unknown> {
  const failure = res.status === 429 ? "too_many_requests" : extra[res.status];
  if (failure !== undefined || res.status < 200 || res.status >= 300) {
    await res.body?.cancel();
    throw new TranslationServiceError(failure ?? "unexpected", `${what} answered HTTP ${res.status}`);
  }
  const body = await res.text();
  try {
    return JSON.parse(body);
  } catch {
    throw unexpected(`${what} answered something that is not JSON`);
  }
}

/** Runs one request; a refused address, a timeout or a broken connection is an unexpected failure. */
export async function request(
  deps: BackendDeps,
  url: string,
  init: RequestInit,
  extra: Record<number, TranslationFailure>,
  what: string,
): Promise<unknown> {
  try {
    const res = await deps.fetch(url, {
      ...init,
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    return await readJson(res, extra, what);
  } catch (e) {
    if (e instanceof TranslationServiceError) throw e;
    throw unexpected(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
