import type { Context, Hono } from "hono";
import { ApiError, OAuthError } from "../../lib/errors.ts";
import {
  authenticateClient,
  missingParam,
  revokeClientToken,
  revokeRefused,
  tokenForClient,
  tokenFromCode,
  tokenFromPassword,
} from "../../services/oauth/token-grants.ts";
import { type IssuedToken, serializeToken } from "../../services/oauth/tokens.ts";
import { clientIpOf } from "../middleware/client-ip.ts";
import { throttle } from "../middleware/rate-limit.ts";
import type { HonoEnv } from "../types.ts";
import { asOAuthError, BadParam, oauthParams, type Params, stringParam } from "./params.ts";

const FIVE_MIN = 5 * 60 * 1000;
// Password guesses through the token endpoint count against the same budget as the sign-in form.
const passwordThrottle = throttle("sign_in", 25, FIVE_MIN, "ip");

interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
  viaBasic: boolean;
}

/** Client credentials from HTTP Basic (client_secret_basic) or else the body (client_secret_post). */
function clientCredentials(c: Context<HonoEnv>, params: Params): ClientCredentials {
  const header = c.req.header("authorization");
  if (header && /^basic\s/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^basic\s+/i, "").trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return { viaBasic: true };
    // RFC 6749 2.3.1: both parts are form-urlencoded before being joined.
    const decode = (s: string): string | undefined => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        return undefined;
      }
    };
    return {
      clientId: decode(decoded.slice(0, colon)),
      clientSecret: decode(decoded.slice(colon + 1)),
      viaBasic: true,
    };
  }
  return {
    clientId: stringParam(params, "client_id", 200),
    clientSecret: stringParam(params, "client_secret", 200),
    viaBasic: false,
  };
}

async function client(c: Context<HonoEnv>, params: Params) {
  const creds = clientCredentials(c, params);
  try {
    return await authenticateClient(c.env.ctx, creds.clientId, creds.clientSecret);
  } catch (e) {
    // RFC 6749 5.2: a failed Basic authentication answers with the challenge header.
    if (creds.viaBasic && e instanceof OAuthError) {
      throw new ApiError(401, "invalid_client", e.extra, { "WWW-Authenticate": 'Basic realm="OAuth"' });
    }
    throw e;
  }
}

function grantTypes(c: Context<HonoEnv>): string[] {
  const types = ["authorization_code", "client_credentials"];
  if (c.env.ctx.config.oauthPasswordGrant) types.push("password");
  return types;
}

async function token(c: Context<HonoEnv>): Promise<Response> {
  const ctx = c.env.ctx;
  const params = await oauthParams(c);
  let issued: IssuedToken;
  try {
    const grantType = stringParam(params, "grant_type", 100);
    if (!grantType) throw missingParam("grant_type");
    if (!grantTypes(c).includes(grantType)) {
      throw new OAuthError(
        400,
        "unsupported_grant_type",
        "This authorization grant type is not supported by this server.",
      );
    }
    if (grantType === "password") await passwordThrottle(c, async () => {});
    const app = await client(c, params);
    const scope = stringParam(params, "scope", 2000);
    if (grantType === "authorization_code") {
      issued = await tokenFromCode(ctx, app, {
        code: stringParam(params, "code", 200),
        redirectUri: stringParam(params, "redirect_uri", 2000),
        codeVerifier: stringParam(params, "code_verifier", 200),
        ip: clientIpOf(c),
      });
    } else if (grantType === "client_credentials") {
      issued = await tokenForClient(ctx, app, scope);
    } else {
      issued = await tokenFromPassword(ctx, app, {
        username: stringParam(params, "username", 320),
        password: stringParam(params, "password", 1000),
        scope,
        ip: clientIpOf(c),
      });
    }
  } catch (e) {
    throw asOAuthError(e);
  }
  c.header("Cache-Control", "no-store");
  c.header("Pragma", "no-cache");
  return c.json(serializeToken(issued));
}

/** The client revoking a token; any failure to authenticate it is Doorkeeper's 403. */
async function revokingClient(c: Context<HonoEnv>, params: Params) {
  try {
    const creds = clientCredentials(c, params);
    return await authenticateClient(c.env.ctx, creds.clientId, creds.clientSecret);
  } catch (e) {
    throw e instanceof OAuthError || e instanceof BadParam ? revokeRefused() : e;
  }
}

/**
 * RFC 7009 as Doorkeeper (Mastodon) answers it: a client that does not authenticate, by Basic or
 * in the body, gets 403 `unauthorized_client` (not the token endpoint's 401), and a missing or
 * unknown token is 200 `{}` like a revoked one.
 */
async function revoke(c: Context<HonoEnv>): Promise<Response> {
  const params = await oauthParams(c);
  const app = await revokingClient(c, params);
  try {
    const raw = stringParam(params, "token", 1000);
    if (raw) await revokeClientToken(c.env.ctx, app, raw);
  } catch (e) {
    throw asOAuthError(e);
  }
  return c.json({});
}

/** `/oauth/token` (authorization_code, client_credentials, optional password) and `/oauth/revoke`. */
export function tokenRoutes(app: Hono<HonoEnv>): void {
  app.post("/oauth/token", token);
  app.post("/oauth/revoke", revoke);
}
