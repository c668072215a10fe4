import type { AppContext } from "../../context.ts";
import type { Application } from "../../db/repositories/oauth.ts";
import { ApiError } from "../../lib/errors.ts";
import { DEFAULT_SCOPES, isKnownScope, parseScopes } from "../../lib/scopes.ts";
import {
  REDIRECT_URIS_MAX_COUNT,
  REDIRECT_URIS_MAX_LENGTH,
  redirectUriProblem,
  splitRedirectUris,
} from "./redirect-uris.ts";
import { createApplication } from "./tokens.ts";

export const APP_NAME_MAX = 200;
export const APP_WEBSITE_MAX = 2000;
const SCOPES_MAX = 2000;

export interface AppRegistrationParams {
  client_name?: unknown;
  redirect_uris?: unknown;
  scopes?: unknown;
  website?: unknown;
}

interface ValidApp {
  name: string;
  redirectUris: string[];
  scopes: string[];
  website: string | null;
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "" && !/\s/.test(s);
  } catch {
    return false;
  }
}

/** One problem of an application's parameters: the field it concerns and Rails' full message. */
export interface AppProblem {
  field: "name" | "redirect_uris" | "scopes" | "website";
  message: string;
}

/**
 * Checks the parameters of `POST /api/v1/apps` (and of the Development settings page's form),
 * collecting every problem as Rails' full messages ("Name can't be blank"), each with its field.
 */
export function checkAppRegistration(p: AppRegistrationParams): { app: ValidApp; problems: AppProblem[] } {
  const problems: AppProblem[] = [];
  const add = (field: AppProblem["field"], message: string) => problems.push({ field, message });

  let name = "";
  if (p.client_name === undefined || p.client_name === null || p.client_name === "") add("name", "Name can't be blank");
  else if (typeof p.client_name !== "string") add("name", "Name is invalid");
  else {
    name = p.client_name.trim();
    if (name === "") add("name", "Name can't be blank");
    else if (name.length > APP_NAME_MAX) add("name", `Name is too long (maximum is ${APP_NAME_MAX} characters)`);
  }

  let redirectUris: string[] = [];
  const split = p.redirect_uris === undefined || p.redirect_uris === null ? [] : splitRedirectUris(p.redirect_uris);
  if (split === null) add("redirect_uris", "Redirect URI is invalid");
  else if (split.length === 0) add("redirect_uris", "Redirect URI can't be blank");
  else {
    redirectUris = [...new Set(split)];
    const uriProblems = new Set(redirectUris.map(redirectUriProblem).filter((x): x is string => x !== null));
    for (const problem of uriProblems) add("redirect_uris", `Redirect URI ${problem}`);
    if (redirectUris.length > REDIRECT_URIS_MAX_COUNT || redirectUris.join("\n").length > REDIRECT_URIS_MAX_LENGTH) {
      add("redirect_uris", `Redirect URI is too long (maximum is ${REDIRECT_URIS_MAX_LENGTH} characters)`);
    }
  }

  let scopes = [...DEFAULT_SCOPES];
  if (p.scopes !== undefined && p.scopes !== null && p.scopes !== "") {
    if (typeof p.scopes !== "string" || p.scopes.length > SCOPES_MAX) add("scopes", "Scopes is invalid");
    else {
      const parsed = parseScopes(p.scopes);
      if (parsed.length > 0) scopes = parsed;
      if (!parsed.every(isKnownScope)) add("scopes", "Scopes doesn't match configured on the server.");
    }
  }

  let website: string | null = null;
  if (p.website !== undefined && p.website !== null && p.website !== "") {
    if (typeof p.website !== "string") add("website", "Website is invalid");
    else if (p.website.length > APP_WEBSITE_MAX) {
      add("website", `Website is too long (maximum is ${APP_WEBSITE_MAX} characters)`);
    } else if (!isHttpUrl(p.website.trim())) add("website", "Website is invalid");
    else website = p.website.trim();
  }

  return { app: { name, redirectUris, scopes, website }, problems };
}

/** As `checkAppRegistration`, throwing one 422 naming every problem at once, as Mastodon's does. */
export function validateAppRegistration(p: AppRegistrationParams): ValidApp {
  const { app, problems } = checkAppRegistration(p);
  if (problems.length > 0) throw new ApiError(422, `Validation failed: ${problems.map((x) => x.message).join(", ")}`);
  return app;
}

/** Registers a client application from the (untrusted) parameters of `POST /api/v1/apps`. */
export async function registerApplication(
  ctx: AppContext,
  params: AppRegistrationParams,
): Promise<{ application: Application; clientSecret: string }> {
  const valid = validateAppRegistration(params);
  return createApplication(ctx, valid);
}

/** The application with this client id (the one `/oauth/authorize` names), if registered. */
export function applicationByClientId(ctx: AppContext, clientId: string): Promise<Application | undefined> {
  return ctx.repos.oauth.getApplicationByClientId(clientId);
}

/** The application a token was issued to; undefined for tokens made without one. */
export async function tokenApplication(
  ctx: AppContext,
  applicationId: string | null,
): Promise<Application | undefined> {
  return applicationId ? ctx.repos.oauth.getApplicationById(applicationId) : undefined;
}

/** Mastodon's Application entity (what `apps/verify_credentials` answers); `vapidKey` is the server's. */
export function applicationJson(app: Application, vapidKey: string): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    website: app.website,
    scopes: app.scopes,
    redirect_uris: app.redirectUris,
    // Deprecated in Mastodon (instance v2 `configuration.vapid` replaces it), kept for older clients.
    vapid_key: vapidKey,
    redirect_uri: app.redirectUris.join("\n"),
  };
}

/** CredentialApplication: the Application plus its client credentials (only right after creation). */
export function credentialApplicationJson(
  app: Application,
  clientSecret: string,
  vapidKey: string,
): Record<string, unknown> {
  return {
    ...applicationJson(app, vapidKey),
    client_id: app.clientId,
    client_secret: clientSecret,
    client_secret_expires_at: 0,
  };
}
