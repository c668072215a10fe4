import type { Context, Hono } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import { defaultPrivacy } from "../../../policies/accounts.ts";
import type { Visibility } from "../../../services/statuses/types.ts";
import {
  INTENTS,
  type Intent,
  type InteractionObject,
  interact,
  interactionState,
  resolveForUser,
} from "../../../services/web/remote-interaction.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { sendPage } from "../layout.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import { displayName, fullAcct, objectCard } from "./object-view.ts";
import { overLimit } from "./remote-interaction.ts";

const VISIBILITIES: Visibility[] = ["public", "unlisted", "private", "direct"];
/** Mastodon's `statuses` throttle: 300 posts and boosts per 3 hours per user. */
const STATUSES_LIMIT = 300;
const STATUSES_PERIOD_MS = 3 * 60 * 60 * 1000;

function intentForm(csrf: string, uri: string, intent: Intent, label: string, secondary = false): SafeHtml {
  return html`<form method="post" action="/authorize_interaction">
<input type="hidden" name="authenticity_token" value="${csrf}">
<input type="hidden" name="uri" value="${uri}">
<input type="hidden" name="intent" value="${intent}">
<button type="submit"${secondary ? html` class="secondary"` : ""}>${label}</button>
</form>`;
}

interface PageState {
  notice?: string;
  error?: string;
  status?: number;
  reply?: { text: string; spoilerText: string; visibility: Visibility };
}

async function authorizePage(
  c: Context<HonoEnv>,
  me: SignedIn,
  uri: string,
  o: InteractionObject,
  state: PageState,
): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const now = await interactionState(ctx, me.account, o);
  const name = displayName(o.account);
  const own = o.account.id === me.account.id;
  const title =
    o.kind === "account" ? tr("feeds.authorize.account_title", { name }) : tr("feeds.authorize.post_title", { name });
  let actions: SafeHtml;
  if (o.kind === "account") {
    const state = now.following
      ? html`<p>${tr("feeds.authorize.following")}</p>`
      : now.requested
        ? html`<p>${tr("feeds.authorize.requested")}</p>`
        : "";
    const button = now.following
      ? intentForm(me.csrf, uri, "unfollow", tr("feeds.authorize.unfollow"), true)
      : now.requested
        ? intentForm(me.csrf, uri, "unfollow", tr("feeds.authorize.cancel_request"), true)
        : intentForm(me.csrf, uri, "follow", tr("feeds.authorize.follow"));
    actions = own ? html`` : html`${state}<div class="actions">${button}</div>`;
  } else {
    const reply = state.reply ?? {
      text: own ? "" : `@${fullAcct(c, o.account)} `,
      spoilerText: "",
      visibility: o.status.visibility === "public" ? defaultPrivacy(me.account, me.user) : o.status.visibility,
    };
    const error = state.error;
    actions = html`<div class="actions">
${intentForm(me.csrf, uri, now.favourited ? "unfavourite" : "favourite", tr(now.favourited ? "feeds.authorize.unfavourite" : "feeds.authorize.favourite"), now.favourited)}
${o.status.visibility === "public" || o.status.visibility === "unlisted" ? intentForm(me.csrf, uri, now.reblogged ? "unreblog" : "reblog", tr(now.reblogged ? "feeds.authorize.unreblog" : "feeds.authorize.reblog"), now.reblogged) : ""}
</div>
<form method="post" action="/authorize_interaction" class="interaction-reply">
<h2>${tr("feeds.authorize.reply")}</h2>
<input type="hidden" name="authenticity_token" value="${me.csrf}">
<input type="hidden" name="uri" value="${uri}">
<input type="hidden" name="intent" value="reply">
<label for="spoiler_text">${tr("feeds.authorize.spoiler")}</label>
<input type="text" id="spoiler_text" name="spoiler_text" value="${reply.spoilerText}" maxlength="500">
<label for="status">${tr("feeds.authorize.reply_text")}</label>
<textarea id="status" name="status" required${error ? html` aria-invalid="true" aria-describedby="status-error"` : ""}>${reply.text}</textarea>
${error ? html`<p class="field-error" id="status-error" role="alert">${error}</p>` : ""}
<label for="visibility">${tr("feeds.authorize.visibility")}</label>
<select id="visibility" name="visibility">
${VISIBILITIES.map((v) => html`<option value="${v}"${v === reply.visibility ? " selected" : ""}>${tr(`feeds.authorize.visibility.${v}` as MessageKey)}</option>`)}
</select>
<button type="submit">${tr("feeds.authorize.reply")}</button>
</form>`;
  }
  const original = o.kind === "account" ? (o.account.url ?? o.account.uri) : (o.status.url ?? o.status.uri);
  const body = html`<h1>${title}</h1>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ""}
${state.error && o.kind === "account" ? html`<p class="error" role="alert">${state.error}</p>` : ""}
${objectCard(c, o)}
${actions}
<p class="muted"><a href="${original}">${tr("feeds.authorize.view_original")}</a></p>`;
  return sendPage(c, { title, body, status: state.status, noindex: true, size: "wide" });
}

function notFoundPage(c: Context<HonoEnv>): Response {
  const tr = t(c);
  return errorPage(c, 404, tr("feeds.authorize.not_found_title"), tr("feeds.authorize.not_found"));
}

/**
 * `/authorize_interaction?uri=`: where other servers' subscribe templates (and this server's
 * remote interaction page) send a signed-in local user. The object is resolved (this server's
 * database first, then WebFinger or an ActivityPub fetch) and can be acted on: follow or unfollow
 * an account; favourite, boost or reply to a post.
 */
export function authorizeInteractionRoutes(app: Hono<HonoEnv>): void {
  app.get("/authorize_interaction", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const uri = (c.req.query("uri") ?? c.req.query("acct") ?? "").trim();
    const tr = t(c);
    if (uri === "") return errorPage(c, 400, tr("common.error"), tr("feeds.authorize.missing_uri"));
    const o = await resolveForUser(c.env.ctx, me.account, uri);
    if (!o) return notFoundPage(c);
    const done = INTENTS.find((i) => i === c.req.query("done"));
    const notice = done ? tr(`feeds.authorize.done.${done}` as MessageKey) : undefined;
    return authorizePage(c, me, uri, o, { notice });
  });

  app.post("/authorize_interaction", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const ctx = c.env.ctx;
    const tr = t(c);
    const uri = field(params, "uri", 2000).trim();
    const intent = INTENTS.find((i) => i === field(params, "intent", 20));
    if (uri === "" || intent === undefined)
      return errorPage(c, 400, tr("common.error"), tr("feeds.authorize.missing_uri"));
    const o = await resolveForUser(ctx, me.account, uri);
    if (!o) return notFoundPage(c);
    const visibility = VISIBILITIES.find((v) => v === field(params, "visibility", 20));
    const reply = {
      text: field(params, "status", 20_000),
      spoilerText: field(params, "spoiler_text", 1000),
      visibility: visibility ?? defaultPrivacy(me.account, me.user),
    };
    const again = (error: string, status: number) =>
      authorizePage(c, me, uri, o, { error, status, reply: intent === "reply" ? reply : undefined });
    if (
      (intent === "reply" || intent === "reblog") &&
      (await overLimit(c, "statuses", STATUSES_LIMIT, STATUSES_PERIOD_MS, `user:${me.user.id}`))
    ) {
      return again(tr("feeds.remote.too_many"), 429);
    }
    if ((intent === "follow" || intent === "unfollow") !== (o.kind === "account")) {
      return errorPage(c, 400, tr("common.error"), tr("feeds.authorize.missing_uri"));
    }
    try {
      await interact(ctx, me, o, intent, reply);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      return again(tr("feeds.authorize.failed", { reason: e.message }), e.status === 404 ? 404 : e.status);
    }
    return c.redirect(`/authorize_interaction?uri=${encodeURIComponent(uri)}&done=${intent}`, 303);
  });
}
