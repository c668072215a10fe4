import type { Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import {
  fillTemplate,
  INTERACTION_TYPES,
  type InteractionObject,
  type InteractionType,
  knownObject,
  objectUri,
  parseHandle,
  subscribeTemplate,
} from "../../../services/web/remote-interaction.ts";
import { clientIpOf, isLoopback } from "../../middleware/client-ip.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm } from "../guard.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import { csrfToken, ensureSession, loadSession } from "../session.ts";
import { displayName, objectCard } from "./object-view.ts";

/** The cookie remembering the last handle given (Mastodon keeps it in localStorage). */
export const HANDLE_COOKIE = "gannet_remote_handle";
const HANDLE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Each handle lookup fetches from another server: 30 per 5 minutes per address. */
const LOOKUP_LIMIT = 30;
const LOOKUP_PERIOD_MS = 5 * 60 * 1000;

/** Whether this request goes over the lookup limit (loopback and RATE_LIMITS=off are exempt). */
export async function overLimit(
  c: Context<HonoEnv>,
  name: string,
  limit: number,
  periodMs: number,
  key?: string,
): Promise<boolean> {
  const ctx = c.env.ctx;
  const ip = clientIpOf(c);
  if (!ctx.config.rateLimits.enabled || isLoopback(ip)) return false;
  const v = await ctx.rateLimits.hit(`${name}:${key ?? `ip:${ip}`}`, periodMs);
  return v.count > limit;
}

function interactionType(o: InteractionObject, asked: string | undefined): InteractionType {
  const valid = INTERACTION_TYPES.find((x) => x === asked);
  if (o.kind === "account") return "follow";
  return valid === undefined || valid === "follow" ? "favourite" : valid;
}

function authorizePath(uri: string): string {
  return `/authorize_interaction?uri=${encodeURIComponent(uri)}`;
}

function interactionPage(
  c: Context<HonoEnv>,
  o: InteractionObject,
  type: InteractionType,
  csrf: string,
  opts: { handle?: string; error?: string; status?: number } = {},
): Response {
  const tr = t(c);
  const name = displayName(o.account);
  const uri = objectUri(o);
  const title = tr(`feeds.remote.title.${type}` as MessageKey, { name });
  const signIn = html`<a href="/auth/sign_in?return_to=${encodeURIComponent(authorizePath(uri))}">${tr("feeds.remote.sign_in_link")}</a>`;
  const signUp = html`<a href="/auth/sign_up">${tr("feeds.remote.sign_up_link")}</a>`;
  const error = opts.error;
  const body = html`<h1>${title}</h1>
${objectCard(c, o)}
<p>${tr(`feeds.remote.intro.${type}` as MessageKey, { name })}</p>
<form method="post" action="/remote_interaction" class="remote-interaction">
<input type="hidden" name="authenticity_token" value="${csrf}">
<input type="hidden" name="uri" value="${uri}">
<input type="hidden" name="type" value="${type}">
<label for="acct">${tr("feeds.remote.handle")}</label>
<input type="text" id="acct" name="acct" value="${opts.handle ?? ""}" required autocomplete="username" autocapitalize="none" spellcheck="false" inputmode="email" placeholder="user@mastodon.social" aria-describedby="acct-hint${error ? " acct-error" : ""}"${error ? html` aria-invalid="true"` : ""}>
<p class="hint" id="acct-hint">${tr("feeds.remote.handle_hint")}</p>
${error ? html`<p class="field-error" id="acct-error" role="alert">${error}</p>` : ""}
<button type="submit">${tr("feeds.remote.continue")}</button>
</form>
<p class="muted">${tr.html("feeds.remote.sign_in", { link: signIn })}</p>
<p class="muted">${tr.html("feeds.remote.sign_up", { link: signUp })}</p>`;
  // The form's answer redirects to the visitor's own server: form-action must allow it.
  const formAction = c.env.ctx.config.localHttps ? ["https:"] : ["https:", "http:"];
  return sendPage(c, { title, body, status: opts.status, formAction, noindex: true });
}

function notFoundPage(c: Context<HonoEnv>): Response {
  const tr = t(c);
  return errorPage(c, 404, tr("common.not_found"), tr("feeds.remote.not_found"));
}

/**
 * `/remote_interaction?uri=&type=`: a visitor from another server names their handle and is sent
 * to their own server's subscribe template with the object's URI; a signed-in local user goes to
 * `/authorize_interaction` instead.
 */
export function remoteInteractionRoutes(app: Hono<HonoEnv>): void {
  app.get("/remote_interaction", async (c) => {
    const uri = c.req.query("uri") ?? "";
    const session = await loadSession(c);
    if (session?.user && session.account) return c.redirect(authorizePath(uri), 302);
    const o = await knownObject(c.env.ctx, uri);
    if (!o) return notFoundPage(c);
    const s = session ?? (await ensureSession(c));
    const remembered = getCookie(c, HANDLE_COOKIE);
    const handle = remembered && parseHandle(remembered) ? remembered : undefined;
    return interactionPage(c, o, interactionType(o, c.req.query("type")), csrfToken(c, s), { handle });
  });

  app.post("/remote_interaction", async (c) => {
    const ctx = c.env.ctx;
    const session = await loadSession(c);
    const params = await readForm(c, session);
    if (params instanceof Response) return params;
    const csrf = session ? csrfToken(c, session) : "";
    const o = await knownObject(ctx, field(params, "uri", 2000));
    if (!o) return notFoundPage(c);
    const type = interactionType(o, field(params, "type", 20));
    const input = field(params, "acct", 300).trim();
    const tr = t(c);
    const again = (error: string, status: number) =>
      interactionPage(c, o, type, csrf, { handle: input, error, status });
    const handle = parseHandle(input);
    if (!handle) return again(tr("feeds.remote.bad_handle"), 422);
    if (await overLimit(c, "remote_interaction", LOOKUP_LIMIT, LOOKUP_PERIOD_MS)) {
      return again(tr("feeds.remote.too_many"), 429);
    }
    const found = await subscribeTemplate(ctx, handle);
    if ("error" in found) {
      const key = found.error === "unreachable" ? "feeds.remote.unreachable" : "feeds.remote.no_template";
      return again(tr(key, { domain: handle.domain }), 502);
    }
    const target = fillTemplate(found.template, objectUri(o));
    if (!target) return again(tr("feeds.remote.bad_template", { domain: handle.domain }), 502);
    setCookie(c, HANDLE_COOKIE, input, {
      path: "/remote_interaction",
      httpOnly: true,
      sameSite: "Lax",
      secure: ctx.config.localHttps,
      maxAge: HANDLE_COOKIE_MAX_AGE_S,
    });
    return c.redirect(target, 303);
  });
}
