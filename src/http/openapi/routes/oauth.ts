import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, EMPTY, html } from "./common.ts";

/** What the OAuth routes read by hand (src/http/oauth, src/http/api/v1/apps). */
const app = z.object({
  client_name: z.string(),
  redirect_uris: z
    .union([z.string(), z.array(z.string())])
    .describe("One URI per line, or a list; `urn:ietf:wg:oauth:2.0:oob` for none"),
  scopes: z.string().optional().describe("Space-separated; default `read`"),
  website: z.string().optional(),
});
const authorize = z.object({
  response_type: z.literal("code"),
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.string().optional(),
  state: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.literal("S256").optional(),
  force_login: z.boolean().optional(),
  lang: z.string().optional(),
});
const decision = authorize.extend({ authenticity_token: z.string() });
const token = z.object({
  grant_type: z.enum(["authorization_code", "client_credentials", "password"]).describe("`password` only when enabled"),
  client_id: z.string(),
  client_secret: z.string(),
  redirect_uri: z.string().optional(),
  code: z.string().optional(),
  code_verifier: z.string().optional(),
  scope: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});
const revoke = z.object({ token: z.string(), client_id: z.string(), client_secret: z.string() });
const signIn = z.object({
  email: z.string().optional().describe("The e-mail address or the username (first step)"),
  password: z.string().optional().describe("First step"),
  otp_attempt: z.string().optional().describe("Second step: a code from the app, or a recovery code"),
  credential: z.string().optional().describe("Second step: a security key's assertion (WebAuthn JSON)"),
  authenticity_token: z.string(),
  return_to: z.string().optional(),
});
const oauthError = {
  schema: {
    type: "object",
    properties: { error: { type: "string" }, error_description: { type: "string" } },
    required: ["error"],
  },
  description: "An OAuth error",
};
const userinfo = "OAuthUserInfo";
const page = { auth: "none" as const, tags: ["OAuth"] };

/** Apps, OAuth 2 (authorize, token, revoke, metadata, userinfo) and the browser sign-in. */
export const oauthDocs: DocArea = {
  tag: "OAuth",
  description: "Registering an app and getting a token",
  routes: {
    "POST /api/v1/apps": d("Register an application", "CredentialApplication", {
      body: app,
      answers: { 429: "Error" },
      tags: ["Apps"],
    }),
    "GET /api/v1/apps/verify_credentials": d("The token's application", "Application", { tags: ["Apps"] }),
    "GET /oauth/authorize": d("The authorization page (signs in first when needed)", html, {
      query: authorize,
      answers: { 302: null, 400: oauthError },
      ...page,
    }),
    "POST /oauth/authorize": d("Approve an authorization request", null, {
      status: 302,
      description: "Redirects to `redirect_uri` with `code` (or shows it for out-of-band apps).",
      body: decision,
      answers: { 200: html, 400: oauthError },
      ...page,
    }),
    "DELETE /oauth/authorize": d("Deny an authorization request", null, {
      status: 302,
      description: "Redirects to `redirect_uri` with `error=access_denied`.",
      body: decision,
      answers: { 400: oauthError },
      ...page,
    }),
    "GET /oauth/authorize/native": d("Shows an out-of-band authorization code", html, {
      query: z.object({ code: z.string() }),
      ...page,
    }),
    "GET /auth/sign_in": d("The sign-in page", html, {
      query: z.object({ return_to: z.string().optional() }),
      ...page,
    }),
    "POST /auth/sign_in": d("Sign in (starts a browser session)", null, {
      status: 302,
      description:
        "The password step answers the second-factor page (200) for users with two-factor sign-in; the second step (`otp_attempt` or `credential`) then signs in. 401/403/422: the form again, with the error.",
      body: signIn,
      answers: { 200: html, 401: html, 403: html, 422: html, 429: "Error" },
      ...page,
    }),
    "GET /auth/sign_in/security_key_options": d(
      "WebAuthn options for the pending second step",
      { schema: { type: "object" }, type: "application/json", description: "PublicKeyCredentialRequestOptionsJSON" },
      { description: "For the sign-in page's script; 401 without a pending second step.", errors: [401], ...page },
    ),
    "POST /auth/sign_out": d("Sign out of the browser session", null, { status: 302, ...page }),
    "DELETE /auth/sign_out": d("Sign out of the browser session", null, { status: 302, ...page }),
    "POST /oauth/token": d("Get a token", "Token", {
      body: token,
      answers: { 400: oauthError, 401: oauthError, 429: "Error" },
      ...page,
    }),
    "POST /oauth/revoke": d("Revoke a token", EMPTY, { body: revoke, answers: { 403: oauthError }, ...page }),
    "GET /.well-known/oauth-authorization-server": d("OAuth server metadata (RFC 8414)", "OAuthServerMetadata", page),
    "GET /oauth/userinfo": d("The token's user (OpenID Connect userinfo)", userinfo),
    "POST /oauth/userinfo": d("The token's user (OpenID Connect userinfo)", userinfo),
  },
};
