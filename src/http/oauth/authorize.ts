import type { Context, Hono } from "hono";
import { userLoginProblem } from "../../policies/accounts.ts";
import type { User } from "../../services/accounts/types.ts";
import { createGrant, hasMatchingToken } from "../../services/oauth/grants.ts";
import { OOB_URI } from "../../services/oauth/redirect-uris.ts";
import type { HonoEnv } from "../types.ts";
import { consentPage } from "../web/pages/consent.ts";
import { accountProblemPage, codePage, errorPage, formPostPage } from "../web/pages/notices.ts";
import { signInPage } from "../web/pages/sign-in.ts";
import { checkCsrf, csrfToken, ensureSession, loadSession, restartSession, type WebSession } from "../web/session.ts";
import {
  type AuthorizationRequest,
  authorizeUrl,
  type CheckedRequest,
  checkAuthorizationRequest,
  clientFormAction,
} from "./authorization-request.ts";
import { readPageParams } from "./page-params.ts";
import { type Params, truthy } from "./params.ts";

type C = Context<HonoEnv>;

/** Sends the answer to the client: at its redirect URI (query, fragment or form post), or on our OOB page. */
function answerClient(c: C, request: AuthorizationRequest, answer: Record<string, string>): Response {
  const fields = { ...answer, ...(request.state !== undefined ? { state: request.state } : {}) };
  if (request.redirectUri === OOB_URI) {
    if (answer.code) return c.redirect(`/oauth/authorize/native?code=${encodeURIComponent(answer.code)}`, 302);
    return errorPage(c, 400, "Authorization failed", answer.error_description ?? answer.error ?? "");
  }
  if (request.responseMode === "form_post") return formPostPage(c, request.redirectUri, fields);
  const url = new URL(request.redirectUri);
  if (request.responseMode === "fragment") url.hash = new URLSearchParams(fields).toString();
  else for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  return c.redirect(url.href, 302);
}

/** Answers a request that cannot go on: a page, or an `error=` for the client. */
function refuse(c: C, checked: Exclude<CheckedRequest, { kind: "valid" }>): Response {
  if (checked.kind === "page") return errorPage(c, checked.status, checked.title, checked.description);
  return answerClient(c, checked.request, { error: checked.error, error_description: checked.description });
}

async function approve(c: C, checked: Extract<CheckedRequest, { kind: "valid" }>, user: User): Promise<Response> {
  const { request } = checked;
  const code = await createGrant(c.env.ctx, {
    application: request.app,
    userId: user.id,
    redirectUri: request.redirectUri,
    scopes: checked.scopes,
    codeChallenge: checked.codeChallenge,
  });
  return answerClient(c, request, { code });
}

/** The consent page, or whatever replaces it for this session (sign-in form, account problem, auto-approval). */
async function showAuthorization(
  c: C,
  checked: Extract<CheckedRequest, { kind: "valid" }>,
  session: WebSession,
): Promise<Response> {
  const { request } = checked;
  const csrf = csrfToken(c, session);
  const returnTo = authorizeUrl(request);
  const formAction = clientFormAction(request);
  if (!session.user || !session.account) return signInPage(c, { csrf, returnTo, formAction });
  const problem = userLoginProblem(session.user, session.account);
  if (problem === "unconfirmed" || problem === "pending") {
    return accountProblemPage(c, problem, session.account.username, csrf);
  }
  // Trusted first-party apps, and apps the user already approved for exactly these scopes, skip consent.
  if (request.app.superapp || (await hasMatchingToken(c.env.ctx, request.app, session.user.id, checked.scopes))) {
    return approve(c, checked, session.user);
  }
  return consentPage(c, {
    app: request.app,
    username: session.account.username,
    scopes: checked.scopes,
    csrf,
    fields: request.fields,
    returnTo,
    formAction,
  });
}

const staleForm = (c: C): Response =>
  errorPage(
    c,
    422,
    "The form has expired",
    "Your session has expired or this form was sent from another site. Go back, reload the page and try again.",
  );

/** The form buttons: Authorize (POST) and Deny (DELETE, or POST with `_method=delete` from HTML). */
async function decide(c: C, params: Params, decision: "approve" | "deny"): Promise<Response> {
  const session = await loadSession(c);
  if (!checkCsrf(c, session, params.authenticity_token) || !session) return staleForm(c);
  const checked = await checkAuthorizationRequest(c.env.ctx, params);
  if (checked.kind === "page") return refuse(c, checked);
  if (decision === "deny") {
    return answerClient(c, checked.request, {
      error: "access_denied",
      error_description: "The user or the server denied the request.",
    });
  }
  if (checked.kind !== "valid") return refuse(c, checked);
  if (!session.user || !session.account) return showAuthorization(c, checked, session);
  const problem = userLoginProblem(session.user, session.account);
  if (problem !== null) return showAuthorization(c, checked, session);
  return approve(c, checked, session.user);
}

export function authorizeRoutes(app: Hono<HonoEnv>): void {
  app.get("/oauth/authorize", async (c) => {
    const params = await readPageParams(c);
    if (params instanceof Response) return params;
    const checked = await checkAuthorizationRequest(c.env.ctx, params);
    if (checked.kind !== "valid") return refuse(c, checked);
    // force_login: start over as nobody (the signed-in session ends), so the user can pick another account.
    const session = truthy(params.force_login) ? await restartSession(c) : await ensureSession(c);
    return showAuthorization(c, checked, session);
  });

  app.post("/oauth/authorize", async (c) => {
    const params = await readPageParams(c);
    if (params instanceof Response) return params;
    const method = typeof params._method === "string" ? params._method.toLowerCase() : "";
    return decide(c, params, method === "delete" ? "deny" : "approve");
  });

  app.delete("/oauth/authorize", async (c) => {
    const params = await readPageParams(c);
    if (params instanceof Response) return params;
    return decide(c, params, "deny");
  });

  // Where out-of-band flows land: the code, shown for the user to copy.
  app.get("/oauth/authorize/native", (c) => {
    const code = c.req.query("code");
    if (!code || !/^[A-Za-z0-9_-]{1,100}$/.test(code)) {
      return errorPage(c, 400, "An error has occurred", "The authorization code is missing or malformed.");
    }
    return codePage(c, code);
  });
}
