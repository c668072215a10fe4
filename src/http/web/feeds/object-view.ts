import type { Context } from "hono";
import { acctOf } from "../../../serializers/account.ts";
import type { Account } from "../../../services/accounts/types.ts";
import type { InteractionObject } from "../../../services/web/remote-interaction.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { html, SafeHtml } from "../pages/html.ts";

/** `user@domain` for anyone, this server's domain for local accounts. */
export function fullAcct(c: Context<HonoEnv>, a: Pick<Account, "username" | "domain">): string {
  return a.domain === null ? `${a.username}@${c.env.ctx.config.localDomain}` : acctOf(a);
}

export function displayName(a: Pick<Account, "displayName" | "username">): string {
  return a.displayName || a.username;
}

/** The account or post an interaction is about, as a card: who, and for a post what it says. */
export function objectCard(c: Context<HonoEnv>, o: InteractionObject): SafeHtml {
  const tr = t(c);
  const a = o.account;
  const who = html`<p class="interaction-who"><a href="${a.url ?? a.uri}"><strong>${displayName(a)}</strong></a>
<span class="muted">@${fullAcct(c, a)}</span></p>`;
  if (o.kind === "account") {
    return html`<section class="interaction-object" aria-label="${displayName(a)}">${who}
<div class="interaction-note">${new SafeHtml(a.note)}</div></section>`;
  }
  const s = o.status;
  const body = html`<div class="interaction-content" lang="${s.language ?? ""}">${new SafeHtml(s.content)}</div>`;
  const date = s.createdAt.slice(0, 16).replace("T", " ");
  return html`<article class="interaction-object" aria-label="${tr("feeds.post_by", { name: displayName(a) })}">${who}
${s.spoilerText ? html`<details><summary>${s.spoilerText} <span class="muted">(${tr("feeds.show_content")})</span></summary>${body}</details>` : body}
<p class="muted"><a href="${s.url ?? s.uri}"><time datetime="${s.createdAt}">${tr("feeds.posted_at", { date })}</time></a></p>
</article>`;
}
