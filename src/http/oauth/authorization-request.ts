import type { AppContext } from "../../context.ts";
import { applicationByClientId } from "../../services/oauth/apps.ts";
import { isValidCodeChallenge, requestedScopes } from "../../services/oauth/grants.ts";
import { formActionSource, OOB_URI } from "../../services/oauth/redirect-uris.ts";
import type { Application } from "../../services/oauth/types.ts";
import { BadParam, type Params, stringParam } from "./params.ts";

export type ResponseMode = "query" | "fragment" | "form_post";

/** An authorization request whose client and redirect URI are known to be genuine. */
export interface AuthorizationRequest {
  app: Application;
  redirectUri: string;
  responseMode: ResponseMode;
  state?: string;
  /** The request's own parameters, to echo in forms and in the sign-in `return_to`. */
  fields: Record<string, string | undefined>;
}

export type CheckedRequest =
  /** Nothing may be sent to the client (unverified client or redirect URI): show a page. */
  | { kind: "page"; status: number; title: string; description: string }
  /** The client is genuine but the request is not: tell it at its redirect URI. */
  | { kind: "client-error"; request: AuthorizationRequest; error: string; description: string }
  | { kind: "valid"; request: AuthorizationRequest; scopes: string[]; codeChallenge: string | null };

const FIELDS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "response_mode",
  "lang",
] as const;

function page(description: string, status = 400): CheckedRequest {
  return { kind: "page", status, title: "An error has occurred", description };
}

/**
 * Checks `/oauth/authorize` parameters in the order that keeps redirects safe: first the client
 * and its redirect URI (failures stay on our page), then everything else (failures go back to
 * the client as `error=...`).
 */
export async function checkAuthorizationRequest(ctx: AppContext, params: Params): Promise<CheckedRequest> {
  let clientId: string | undefined;
  let redirectUri: string | undefined;
  try {
    clientId = stringParam(params, "client_id", 200);
    redirectUri = stringParam(params, "redirect_uri", 2000);
  } catch (e) {
    if (e instanceof BadParam) return page(e.message);
    throw e;
  }
  if (!clientId) return page("Missing required parameter: client_id.");
  const app = await applicationByClientId(ctx, clientId);
  if (!app) return page("Client authentication failed: this application is unknown.", 401);
  if (!redirectUri) return page("Missing required parameter: redirect_uri.");
  if (!app.redirectUris.includes(redirectUri)) {
    return page("The redirect URI is not one registered for this application.");
  }

  const fields: Record<string, string | undefined> = {};
  let badField: string | undefined;
  for (const name of FIELDS) {
    try {
      fields[name] = stringParam(params, name, 2000);
    } catch (e) {
      if (!(e instanceof BadParam)) throw e;
      badField ??= e.message;
    }
  }
  const mode = fields.response_mode ?? "query";
  const responseMode: ResponseMode = mode === "fragment" || mode === "form_post" ? mode : "query";
  const request: AuthorizationRequest = { app, redirectUri, responseMode, state: fields.state, fields };
  const clientError = (error: string, description: string): CheckedRequest => ({
    kind: "client-error",
    request,
    error,
    description,
  });

  if (badField) return clientError("invalid_request", badField);
  if (mode !== "query" && mode !== responseMode) {
    return clientError("invalid_request", "response_mode must be query, fragment or form_post.");
  }
  if (!fields.response_type) return clientError("invalid_request", "Missing required parameter: response_type.");
  if (fields.response_type !== "code") {
    return clientError("unsupported_response_type", "Only the response type `code` is supported.");
  }
  const scopes = requestedScopes(fields.scope, app);
  if (!scopes) {
    return clientError("invalid_scope", "The requested scope is invalid, unknown, or outside the application's.");
  }
  let codeChallenge: string | null = null;
  if (fields.code_challenge !== undefined) {
    if (fields.code_challenge_method !== "S256") {
      return clientError("invalid_request", "code_challenge_method must be S256.");
    }
    if (!isValidCodeChallenge(fields.code_challenge)) {
      return clientError("invalid_request", "code_challenge must be a base64url SHA-256 digest (43 characters).");
    }
    codeChallenge = fields.code_challenge;
  }
  return { kind: "valid", request, scopes, codeChallenge };
}

/** The GET URL of this request (without `force_login`), to come back to after signing in. */
export function authorizeUrl(request: AuthorizationRequest): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(request.fields)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

/** CSP form-action sources for pages whose forms end in a redirect to the client. */
export function clientFormAction(request: AuthorizationRequest): string[] {
  const source = request.redirectUri === OOB_URI ? null : formActionSource(request.redirectUri);
  return source ? [source] : [];
}
