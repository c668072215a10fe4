import type { Context } from "hono";
import type { HonoEnv } from "../../types.ts";
import { sendPage } from "../layout.ts";
import { html } from "./html.ts";

export interface SignInPageInput {
  csrf: string;
  returnTo?: string;
  email?: string;
  error?: string;
  status?: number;
  /** Where the flow may redirect after signing in (CSP form-action sources). */
  formAction?: string[];
}

/** The e-mail and password form; posts to /auth/sign_in and comes back to `returnTo`. */
export function signInPage(c: Context<HonoEnv>, input: SignInPageInput): Response {
  const siteTitle = c.env.ctx.config.siteTitle;
  const body = html`<h1>Sign in to ${siteTitle}</h1>
${input.error ? html`<p class="error" role="alert" id="sign-in-error">${input.error}</p>` : ""}
<form method="post" action="/auth/sign_in"${input.error ? html` aria-describedby="sign-in-error"` : ""}>
<input type="hidden" name="authenticity_token" value="${input.csrf}">
${input.returnTo ? html`<input type="hidden" name="return_to" value="${input.returnTo}">` : ""}
<label for="email">E-mail address</label>
<input type="email" id="email" name="email" value="${input.email ?? ""}" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`;
  return sendPage(c, { title: "Sign in", body, status: input.status, formAction: input.formAction });
}

/** Shown at /auth/sign_in to someone already signed in. */
export function signedInPage(c: Context<HonoEnv>, username: string, csrf: string): Response {
  const body = html`<h1>Signed in</h1>
<p>You are signed in as <strong>@${username}</strong>.</p>
<form method="post" action="/auth/sign_out">
<input type="hidden" name="authenticity_token" value="${csrf}">
<button type="submit" class="secondary">Sign out</button>
</form>`;
  return sendPage(c, { title: "Signed in", body });
}
