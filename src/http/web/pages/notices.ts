import type { Context } from "hono";
import { formActionSource } from "../../../services/oauth/redirect-uris.ts";
import type { HonoEnv } from "../../types.ts";
import { sendPage } from "../layout.ts";
import { html } from "./html.ts";

/** An error the browser flow cannot send back to the client (unknown client, bad redirect URI, ...). */
export function errorPage(c: Context<HonoEnv>, status: number, title: string, description: string): Response {
  const body = html`<h1>${title}</h1>
<p class="error" role="alert">${description}</p>`;
  return sendPage(c, { title, body, status });
}

const PROBLEMS = {
  unconfirmed: {
    title: "Confirm your e-mail address",
    text: "Your account's e-mail address is not confirmed yet. Follow the link in the confirmation e-mail we sent you, then try again.",
  },
  pending: {
    title: "Your account is awaiting approval",
    text: "The moderators of this server have not approved your account yet. You can authorize applications once it is approved.",
  },
} as const;

/** Shown instead of the consent page to users who may not use applications yet. */
export function accountProblemPage(
  c: Context<HonoEnv>,
  problem: keyof typeof PROBLEMS,
  username: string,
  csrf: string,
): Response {
  const p = PROBLEMS[problem];
  const body = html`<h1>${p.title}</h1>
<p role="alert">${p.text}</p>
<form method="post" action="/auth/sign_out">
<input type="hidden" name="authenticity_token" value="${csrf}">
<p class="muted">Signed in as @${username}. <button type="submit" class="secondary">Sign out</button></p>
</form>`;
  return sendPage(c, { title: p.title, body, status: 403 });
}

/** The out-of-band page: the code to copy into the application. */
export function codePage(c: Context<HonoEnv>, code: string): Response {
  const body = html`<h1>Authorization code</h1>
<p>Copy this code and paste it into the application:</p>
<code class="code" id="authorization-code">${code}</code>
<p class="muted">The code works once and expires in 10 minutes.</p>`;
  return sendPage(c, { title: "Authorization code", body });
}

/**
 * `response_mode=form_post`: the answer is posted to the client's redirect URI by a form that
 * submits itself (with a button for browsers without scripts).
 */
export function formPostPage(c: Context<HonoEnv>, action: string, fields: Record<string, string>): Response {
  const body = html`<h1>Returning to the application</h1>
<form method="post" action="${action}" id="form-post">
${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<button type="submit">Continue</button>
</form>`;
  const target = formActionSource(action);
  return sendPage(c, {
    title: "Returning to the application",
    body,
    formAction: target ? [target] : [],
    script: 'document.getElementById("form-post").submit();',
  });
}
