/** Helpers for driving the browser side of the OAuth flow over HTTP, cookies included. */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import type { ApiResponse, TestServer, TestUser } from "../helpers/server.ts";

export const OOB = "urn:ietf:wg:oauth:2.0:oob";
export const CALLBACK = "https://client.example/callback";

/** A cookie jar for one browser. */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly s: TestServer;
  constructor(s: TestServer) {
    this.s = s;
  }

  async request(
    path: string,
    opts: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<string>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const r = await this.s.request<string>(path, { method: opts.method, form: opts.form, headers });
    for (const line of r.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return r;
  }
}

/** The value of a named input in a page (the first one). */
export function inputValue(html: string, name: string): string | undefined {
  const m = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  return m ? decodeEntities(m[1]) : undefined;
}

export function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Every hidden field of the first form that posts to `action`. */
export function formFields(html: string, action: string, index = 0): Record<string, string> {
  const forms = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].filter(
    (m) => decodeEntities(m[1]) === action,
  );
  const form = forms[index];
  assert.ok(form, `no form posting to ${action} in page:\n${html}`);
  const fields: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[decodeEntities(m[1])] = decodeEntities(m[2]);
  }
  return fields;
}

export interface RegisteredApp {
  id: string;
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  scopes: string[];
}

export async function registerApp(
  s: TestServer,
  opts: { redirect_uris?: string | string[]; scopes?: string; name?: string } = {},
): Promise<RegisteredApp> {
  const r = await s.request("/api/v1/apps", {
    json: {
      client_name: opts.name ?? "Test client",
      redirect_uris: opts.redirect_uris ?? CALLBACK,
      scopes: opts.scopes ?? "read write follow push profile",
    },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function authorizePath(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

/** Signs in through the form the page shows; answers the response of POST /auth/sign_in. */
export async function submitSignIn(b: Browser, page: string, user: Pick<TestUser, "user" | "password">) {
  const fields = formFields(page, "/auth/sign_in");
  return b.request("/auth/sign_in", {
    method: "POST",
    form: { ...fields, email: user.user.email, password: user.password },
  });
}

/**
 * The whole browser flow for `user`: authorize page, sign-in form, back to the consent page,
 * Authorize. Answers the browser (signed in) and the final response (a redirect to the client).
 */
export async function authorizeAsUser(
  s: TestServer,
  app: RegisteredApp,
  user: TestUser,
  params: Record<string, string | undefined> = {},
  b = new Browser(s),
): Promise<{ browser: Browser; response: ApiResponse<string> }> {
  const path = authorizePath({
    response_type: "code",
    client_id: app.client_id,
    redirect_uri: app.redirect_uris[0],
    ...params,
  });
  let page = await b.request(path);
  assert.equal(page.status, 200, page.body);
  if (page.body.includes('action="/auth/sign_in"')) {
    const signIn = await submitSignIn(b, page.body, user);
    assert.equal(signIn.status, 302, signIn.body);
    page = await b.request(signIn.headers.get("location")!);
  }
  if (page.status === 302) return { browser: b, response: page };
  assert.equal(page.status, 200, page.body);
  const response = await b.request("/oauth/authorize", {
    method: "POST",
    form: formFields(page.body, "/oauth/authorize"),
  });
  return { browser: b, response };
}

/** The `code` (and other parameters) of a redirect to the client. */
export function redirectParams(r: ApiResponse<string>): URLSearchParams {
  assert.equal(r.status, 302, r.body);
  return new URL(r.headers.get("location")!).searchParams;
}

export async function exchangeCode(
  s: TestServer,
  app: RegisteredApp,
  code: string,
  extra: Record<string, string> = {},
): Promise<ApiResponse> {
  return s.request("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code,
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: app.redirect_uris[0],
      ...extra,
    },
  });
}

export async function countRows(
  s: TestServer,
  table: "oauth_applications" | "oauth_access_grants" | "oauth_access_tokens",
): Promise<number> {
  const r = await s.ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
