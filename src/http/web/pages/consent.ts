import type { Context } from "hono";
import type { Application } from "../../../services/oauth/types.ts";
import type { HonoEnv } from "../../types.ts";
import { sendPage } from "../layout.ts";
import { hiddenFields, html } from "./html.ts";
import { scopeLabel } from "./scope-labels.ts";

export interface ConsentPageInput {
  app: Application;
  username: string;
  scopes: string[];
  csrf: string;
  /** The authorization request, echoed back by both buttons. */
  fields: Record<string, string | undefined>;
  /** The URL of this page, so "not you?" can sign out and come back. */
  returnTo: string;
  formAction: string[];
}

/** "Authorize <app> to use your account?" with Authorize (POST) and Deny (DELETE) buttons. */
export function consentPage(c: Context<HonoEnv>, input: ConsentPageInput): Response {
  const { app } = input;
  const hidden = hiddenFields({ authenticity_token: input.csrf, ...input.fields });
  const body = html`<h1>Authorization required</h1>
<p><strong>${app.name}</strong>${app.website ? html` (<span class="muted">${app.website}</span>)` : ""} would like
to use your account <strong>@${input.username}</strong>. Only approve it if you trust this application.</p>
<p>It asks for permission to:</p>
<ul class="scopes">
${input.scopes.map((s) => html`<li>${scopeLabel(s)} <span class="muted">(${s})</span></li>`)}
</ul>
<div class="actions">
<form method="post" action="/oauth/authorize">${hidden}<button type="submit">Authorize</button></form>
<form method="post" action="/oauth/authorize"><input type="hidden" name="_method" value="delete">${hidden}<button type="submit" class="secondary">Deny</button></form>
</div>
<form method="post" action="/auth/sign_out">
<input type="hidden" name="authenticity_token" value="${input.csrf}">
<input type="hidden" name="return_to" value="${input.returnTo}">
<p class="muted">Not @${input.username}? <button type="submit" class="secondary">Sign out</button></p>
</form>`;
  return sendPage(c, { title: "Authorize application", body, formAction: input.formAction });
}
